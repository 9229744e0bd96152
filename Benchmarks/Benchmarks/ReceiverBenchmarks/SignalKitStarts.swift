// The workloads for starts that end at once and for promises fed by them — SwiftSignalKit's own
// benchmark workloads the adapter trailed on: `single(1).start()` + `dispose()` (W18),
// `Promise.set(.single(v))` with three subscribers (W20) and a `combineLatest` of sixteen (W21),
// each beside OpenCombine's nearest equivalent and a floor.

import Benchmark
import OpenCombine
import ReceiverSignalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func registerSignalKitStarts() {
    registerSingleStartDispose()
    registerPromiseSetSingle()
    registerCombineLatestOfSixteen()
}

// MARK: - W18 Signal.single(v).start() + dispose() — per start

func registerSingleStartDispose() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark("W18 floor: make and release one object, call a handler", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handler = tally.handler()
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            blackHole(makeOneObject())
            handler(wave)
        }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W18 floor")
    }

    Benchmark("W18 Signal.single(v).start() + dispose()", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler(), ended = Tally()
        let done: () -> Void = { ended.count &+= 1 }
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            Signal<Int, NoError>.single(wave).start(next: handler, completed: done).dispose()
        }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W18 single")
        precondition(ended.count == n, "W18 single: \(ended.count) completions, expected \(n)")
    }

    Benchmark("W18 OpenCombine Just(v).sink + cancel", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler(), ended = Tally()
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            Just(wave).sink(receiveCompletion: { _ in ended.count &+= 1 }, receiveValue: handler).cancel()
        }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W18 OpenCombine Just")
        precondition(ended.count == n, "W18 OpenCombine Just: \(ended.count) completions, expected \(n)")
    }
}

// MARK: - W20 Promise.set(.single(v)) with three subscribers — per set

func registerPromiseSetSingle() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, subscribers = 3

    Benchmark("W20 floor: three closures called under a lock", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handlers = LockedClosureArray()
        for _ in 0..<subscribers { handlers.add(tally.handler()) }
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { handlers.broadcast(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: subscribers * n, sum: subscribers * sumOfWaves(n), "W20 floor")
    }

    Benchmark("W20 Promise.set(.single(v)), three subscribers", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), promise = Promise<Int>()
        let disposables = (0..<subscribers).map { _ in promise.get().start(next: tally.handler()) }
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { promise.set(.single(wave)) }
        benchmark.stopMeasurement()
        for disposable in disposables { disposable.dispose() }
        tally.expect(count: subscribers * n, sum: subscribers * sumOfWaves(n), "W20 Promise.set")
    }

    // OpenCombine has no promise fed by a publisher: the nearest is a CurrentValueSubject that a
    // subscription to `Just(v)` feeds, the previous feeding subscription cancelled.
    Benchmark(
        "W20 OpenCombine CurrentValueSubject fed by Just(v).subscribe, three sinks",
        configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), subject = CurrentValueSubject<Int?, Never>(nil)
        let handler = tally.handler()
        let cancellables = (0..<subscribers).map { _ in subject.compactMap { $0 }.sink(receiveValue: handler) }
        var feeding: AnyCancellable?
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            let next = Just(Optional(wave)).sink { subject.send($0) }
            feeding?.cancel()
            feeding = next
        }
        benchmark.stopMeasurement()
        for cancellable in cancellables { cancellable.cancel() }
        tally.expect(count: subscribers * n, sum: subscribers * sumOfWaves(n), "W20 OpenCombine")
    }
}

// MARK: - W21 a combineLatest of sixteen ValuePromises: one input set — per update

func registerCombineLatestOfSixteen() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, inputs = 16
    let others = (1..<inputs).reduce(0, +)  // what the other fifteen inputs hold, added up

    Benchmark("W21 floor: latest of sixteen behind a lock, added up", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handler = tally.handler()
        let mutex = FloorMutex()
        defer { mutex.destroy() }
        var latest = Array(0..<inputs)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            mutex.lock()
            latest[0] = wave
            let sum = latest.reduce(0, &+)
            mutex.unlock()
            handler(sum)
        }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n) + others * n, "W21 floor")
    }

    Benchmark("W21 combineLatest of sixteen ValuePromises, one set", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handler = tally.handler()
        let promises = (0..<inputs).map { ValuePromise<Int>($0, ignoreRepeated: false) }
        let disposable = combineLatest(promises.map { $0.get() }).start(next: { handler($0.reduce(0, &+)) })
        tally.expect(count: 1, sum: sumOfWaves(inputs), "W21 combineLatest: the first complete set, at start")
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { promises[0].set(wave) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: sumOfWaves(n) + others * n, "W21 combineLatest")
    }

    // OpenCombine 0.14.0 has no combineLatest: the nearest is W12's flatMap + scan, over sixteen.
    Benchmark(
        "W21 OpenCombine latest of sixteen CurrentValueSubjects (flatMap + scan), one send",
        configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), subjects = (0..<inputs).map { CurrentValueSubject<Int, Never>($0) }
        let cancellable = subjects.enumerated().map { index, subject in subject.map { (index, $0) } }
            .publisher
            .flatMap { $0 }
            .scan([Int?](repeating: nil, count: inputs)) { latest, event in
                var latest = latest
                latest[event.0] = event.1
                return latest
            }
            .compactMap { latest in latest.contains(nil) ? nil : latest.reduce(0) { $0 &+ ($1 ?? 0) } }
            .sink(receiveValue: tally.handler())
        tally.expect(count: 1, sum: sumOfWaves(inputs), "W21 OpenCombine: the first complete set, at sink")
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subjects[0].send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: sumOfWaves(n) + others * n, "W21 OpenCombine")
    }
}
