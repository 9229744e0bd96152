// W23: a `DisposableSet` that collects sixteen subscriptions and is disposed — what a screen's
// controller does with its `DisposableSet` — and W15's `MetaDisposable.set` with the disposable
// made in the call, as apps write it (`meta.set(signal.start(…))`), so the slot gets the only
// reference. Each beside a floor and OpenCombine's nearest equivalent.

import Benchmark
import OpenCombine
import ReceiverSignalKit

func registerSignalKitDisposables() {
    registerDisposableSetAddDispose()
    registerMetaDisposableSetMadeInTheCall()
}

// MARK: - W23 DisposableSet: sixteen added, then disposed — per set

/// Closures appended to an array under a `pthread_mutex`, then called in order: the least a set of
/// disposables can cost (no object per member, no lock per member's end).
final class LockedClosures: @unchecked Sendable {  // `closures` is only touched under `mutex`
    private let mutex = FloorMutex()
    private var closures: [() -> Void] = []

    deinit { mutex.destroy() }

    @inline(never)
    func add(_ closure: @escaping () -> Void) {
        mutex.lock()
        closures.append(closure)
        mutex.unlock()
    }

    @inline(never)
    func callAll() {
        mutex.lock()
        let taken = closures
        closures = []
        mutex.unlock()
        for closure in taken { closure() }
    }
}

func registerDisposableSetAddDispose() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark(
        "W23 floor: 16 closures appended under a lock, then called", configuration: configuration(units: units)
    ) { benchmark in
        let ended = Tally()
        benchmark.startMeasurement()
        for _ in 0..<n {
            let closures = LockedClosures()
            for _ in 0..<16 { closures.add(makeClosure(ended, 1)) }
            closures.callAll()
        }
        benchmark.stopMeasurement()
        precondition(ended.sum == 16 * n, "W23 floor: \(ended.sum) called, expected \(16 * n)")
    }

    Benchmark(
        "W23 DisposableSet: 16 ActionDisposables added, then dispose()", configuration: configuration(units: units)
    ) { benchmark in
        let ended = Tally()
        benchmark.startMeasurement()
        for _ in 0..<n {
            let set = DisposableSet()
            for _ in 0..<16 { set.add(ActionDisposable(action: makeClosure(ended, 1))) }
            set.dispose()
        }
        benchmark.stopMeasurement()
        precondition(ended.sum == 16 * n, "W23 DisposableSet: \(ended.sum) disposed, expected \(16 * n)")
    }

    Benchmark(
        "W23 OpenCombine: 16 AnyCancellables stored in a Set, then cancelled",
        configuration: configuration(units: units)
    ) { benchmark in
        let ended = Tally()
        benchmark.startMeasurement()
        for _ in 0..<n {
            var cancellables = Set<AnyCancellable>()
            for _ in 0..<16 { AnyCancellable(makeClosure(ended, 1)).store(in: &cancellables) }
            for cancellable in cancellables { cancellable.cancel() }
        }
        benchmark.stopMeasurement()
        precondition(ended.sum == 16 * n, "W23 OpenCombine: \(ended.sum) cancelled, expected \(16 * n)")
    }
}

// MARK: - W15 MetaDisposable.set, the disposable made in the call — per set

func registerMetaDisposableSetMadeInTheCall() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark(
        "W15 MetaDisposable.set(ActionDisposable { … }), made in the call", configuration: configuration(units: units)
    ) { benchmark in
        let ended = Tally(), meta = MetaDisposable()
        benchmark.startMeasurement()
        for _ in 0..<n { meta.set(ActionDisposable(action: makeClosure(ended, 1))) }
        benchmark.stopMeasurement()
        meta.dispose()
        precondition(ended.sum == n, "W15 MetaDisposable made in the call: \(ended.sum) disposed, expected \(n)")
    }
}
