// The adapter's side of its workloads that need `combineLatest` and `mapToSignal`:
// bytes per live subscription (W9), a `combineLatest` update (W12) and a `mapToSignal` switch
// (W13). Their OpenCombine equivalents and floors are in SignalKitBenchmarks.swift.
//
// Written against SwiftSignalKit's signatures (`combineLatest(queue:_:_:_:)`, `mapToSignal(_:)`);
// built only when Package.swift's `hasCombinators` is true.

import Benchmark
import ReceiverSignalKit

func registerSignalKitCombinators() {
    bytesPerLiveSubscription("W9 combineLatest of three ValuePromises, started") {
        let promises = (0..<3).map { ValuePromise<Int>($0) }
        return (
            subscribe: {
                combineLatest(promises[0].get(), promises[1].get(), promises[2].get()).start(next: { _ in })
            }, end: { $0.dispose() }
        )
    }

    bytesPerLiveSubscription("W9 ValuePromise get() |> mapToSignal (inner: a ValuePromise get()), started") {
        let (outer, inner) = (ValuePromise<Int>(0), ValuePromise<Int>(7))
        return (
            subscribe: {
                (outer.get() |> mapToSignal { _ in inner.get() }).start(next: { _ in })
            }, end: { $0.dispose() }
        )
    }

    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, innerValue = 7

    Benchmark("W12 combineLatest of three ValuePromises, one set", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handler = tally.handler()
        let promises = (0..<3).map { ValuePromise<Int>($0, ignoreRepeated: false) }
        let disposable = combineLatest(promises[0].get(), promises[1].get(), promises[2].get())
            .start(next: { handler($0.0 &+ $0.1 &+ $0.2) })
        tally.expect(count: 1, sum: 3, "W12 combineLatest: the first complete set, at start")
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { promises[0].set(wave) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: sumOfWaves(n) + 3 * n, "W12 combineLatest")
    }

    Benchmark(
        "W13 ValuePromise set |> mapToSignal (inner: a ValuePromise get())", configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally()
        let (outer, inner) = (ValuePromise<Int>(-1, ignoreRepeated: false), ValuePromise<Int>(innerValue))
        let disposable = (outer.get() |> mapToSignal { _ in inner.get() }).start(next: tally.handler())
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { outer.set(wave) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: innerValue * n, "W13 mapToSignal")
    }
}
