// The adapter's workloads (ReceiverSignalKit, the SwiftSignalKit adapter): what a live
// subscription costs in memory (W9) and what its everyday operations cost in time (W10–W15),
// each beside OpenCombine's nearest equivalent and a floor. Those for `combineLatest` and
// `mapToSignal` are in SignalKitCombinators.swift, built once those functions exist.

import Benchmark
import Dispatch
import OpenCombine
import OpenCombineDispatch
import ReceiverSignalKit

func registerSignalKit() {
    registerBytesPerLiveSubscription()
    registerNeverStartDispose()
    registerFiveMaps()
    registerCombineLatestUpdate()
    registerSwitch()
    registerDeliverOn()
    registerMetaDisposableSet()
}

// MARK: - W9 bytes per live subscription

func registerBytesPerLiveSubscription() {
    bytesPerLiveSubscription("W9 floor: one object") {
        (subscribe: { makeOneObject() }, end: { _ in })
    }

    bytesPerLiveSubscription("W9 floor: one closure context") {
        let tally = Tally()
        return (subscribe: { ClosureBox(action: makeClosure(tally, 1)) }, end: { _ in })
    }

    bytesPerLiveSubscription("W9 never().start()") {
        (subscribe: { Signal<Int, NoError>.never().start() }, end: { $0.dispose() })
    }

    bytesPerLiveSubscription("W9 OpenCombine Empty(completeImmediately: false).sink") {
        (subscribe: { Empty<Int, Never>(completeImmediately: false).sink { _ in } }, end: { $0.cancel() })
    }

    bytesPerLiveSubscription("W9 ValuePromise get() |> five maps, started") {
        let promise = ValuePromise<Int>(0)
        return (
            subscribe: {
                promise.get()
                    |> map { $0 &+ 1 } |> map { $0 &+ 1 } |> map { $0 &+ 1 } |> map { $0 &+ 1 } |> map { $0 &+ 1 }
                    |> { $0.start(next: { _ in }) }
            }, end: { $0.dispose() }
        )
    }

    bytesPerLiveSubscription("W9 OpenCombine CurrentValueSubject five .map, sink") {
        let subject = CurrentValueSubject<Int, Never>(0)
        return (
            subscribe: {
                subject
                    .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
                    .sink { _ in }
            }, end: { $0.cancel() }
        )
    }

    bytesPerLiveSubscription("W9 OpenCombine latest of three CurrentValueSubjects (flatMap + scan), sink") {
        let subjects = (0..<3).map { CurrentValueSubject<Int, Never>($0) }
        return (subscribe: { latestOfThree(subjects).sink { _ in } }, end: { $0.cancel() })
    }

    bytesPerLiveSubscription(
        "W9 OpenCombine CurrentValueSubject map + switchToLatest (inner: a CurrentValueSubject), sink"
    ) {
        let (outer, inner) = (CurrentValueSubject<Int, Never>(0), CurrentValueSubject<Int, Never>(7))
        return (subscribe: { outer.map { _ in inner }.switchToLatest().sink { _ in } }, end: { $0.cancel() })
    }
}

// MARK: - W10 never().start() + dispose() — per pair

func registerNeverStartDispose() {
    let units = BenchmarkScalingFactor.kilo

    Benchmark("W10 floor: make and release one object", configuration: configuration(units: units)) { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(makeOneObject()) }
        benchmark.stopMeasurement()
    }

    Benchmark("W10 never().start() + dispose()", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { Signal<Int, NoError>.never().start(next: handler).dispose() }
        benchmark.stopMeasurement()
        tally.expect(count: 0, sum: 0, "W10 never()")
    }

    Benchmark(
        "W10 OpenCombine Empty(completeImmediately: false) sink + cancel", configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), handler = tally.handler()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            Empty<Int, Never>(completeImmediately: false).sink(receiveValue: handler).cancel()
        }
        benchmark.stopMeasurement()
        tally.expect(count: 0, sum: 0, "W10 OpenCombine Empty")
    }
}

// MARK: - W11 one set delivered through five maps — per set

func registerFiveMaps() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, maps = 5
    let expectedSum = sumOfWaves(n) + n * maps

    Benchmark("W11 floor: five transforms and a handler", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler()
        let transforms = (0..<maps).map { _ in opaqueMap { $0 &+ 1 } }
        let (f1, f2, f3, f4, f5) = (transforms[0], transforms[1], transforms[2], transforms[3], transforms[4])
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { handler(f5(f4(f3(f2(f1(wave)))))) }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: expectedSum, "W11 floor")
    }

    Benchmark("W11 ValuePromise set |> five maps", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let promise = ValuePromise<Int>(-maps, ignoreRepeated: false)
        let disposable =
            (promise.get()
            |> map { $0 &+ 1 } |> map { $0 &+ 1 } |> map { $0 &+ 1 } |> map { $0 &+ 1 } |> map { $0 &+ 1 })
            .start(next: tally.handler())
        tally.expect(count: 1, sum: 0, "W11 ValuePromise: the current value, at start")
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { promise.set(wave) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: expectedSum, "W11 ValuePromise five maps")
    }

    Benchmark("W11 OpenCombine CurrentValueSubject send, five .map", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally()
        let subject = CurrentValueSubject<Int, Never>(-maps)
        let cancellable =
            subject
            .map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }.map { $0 &+ 1 }
            .sink(receiveValue: tally.handler())
        tally.expect(count: 1, sum: 0, "W11 OpenCombine: the current value, at sink")
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: expectedSum, "W11 OpenCombine five maps")
    }
}

// MARK: - W12 a combineLatest update (one of three inputs set) — per update

/// OpenCombine 0.14.0 has no `combineLatest` (nor `merge`): its nearest equivalent, from its own
/// operators, merges the three tagged inputs with `flatMap` and keeps the latest of each with
/// `scan`, emitting once all three have a value. Emits the sum of the three.
func latestOfThree(_ subjects: [CurrentValueSubject<Int, Never>]) -> some Publisher<Int, Never> {
    subjects.enumerated().map { index, subject in subject.map { (index, $0) } }
        .publisher
        .flatMap { $0 }
        .scan((Int?.none, Int?.none, Int?.none)) { latest, event in
            var latest = latest
            switch event.0 {
            case 0: latest.0 = event.1
            case 1: latest.1 = event.1
            default: latest.2 = event.1
            }
            return latest
        }
        .compactMap { latest in latest.0.flatMap { a in latest.1.flatMap { b in latest.2.map { c in a &+ b &+ c } } } }
}

func registerCombineLatestUpdate() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark("W12 floor: latest of three behind a lock", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), latest = LockedLatestOfThree((0, 1, 2), handler: tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { latest.setFirst(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n) + 3 * n, "W12 floor")
    }

    Benchmark(
        "W12 OpenCombine latest of three CurrentValueSubjects (flatMap + scan) send",
        configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), subjects = (0..<3).map { CurrentValueSubject<Int, Never>($0) }
        let cancellable = latestOfThree(subjects).sink(receiveValue: tally.handler())
        tally.expect(count: 1, sum: 3, "W12 OpenCombine: the first complete set, at sink")
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subjects[0].send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: sumOfWaves(n) + 3 * n, "W12 OpenCombine")
    }
}

// MARK: - W13 a mapToSignal switch (the outer value changes: the inner is replaced) — per switch

func registerSwitch() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, innerValue = 7

    Benchmark(
        "W13 floor: a new closure swapped into a locked slot, and a handler call",
        configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), handler = tally.handler(), ended = Tally(), slot = LockedSlot()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            slot.set(makeClosure(ended, 1))
            handler(innerValue)
        }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: innerValue * n, "W13 floor")
        precondition(ended.sum == n - 1, "W13 floor: \(ended.sum) inner subscriptions ended, expected \(n - 1)")
    }

    Benchmark("W13 OpenCombine map + switchToLatest, outer send", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally()
        let (outer, inner) = (CurrentValueSubject<Int, Never>(-1), CurrentValueSubject<Int, Never>(innerValue))
        let cancellable = outer.map { _ in inner }.switchToLatest().sink(receiveValue: tally.handler())
        (tally.count, tally.sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { outer.send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: innerValue * n, "W13 OpenCombine")
    }
}

// MARK: - W14 a deliverOn(queue) hop onto a serial queue — per value (1,000 in flight, waited for)

/// A handler for W14: counts and adds up the values `0...` it is given on the queue, signals
/// `done` when it has the value `last`, and signals it at once for a negative value (the current
/// value delivered at subscription, which each benchmark waits for before measuring).
func hopHandler(_ tally: Tally, last: Int, done: DispatchSemaphore) -> (Int) -> Void {
    opaque { value in
        guard value >= 0 else {
            done.signal()
            return
        }
        tally.sum &+= value
        tally.count &+= 1
        if value == last { done.signal() }
    }
}

func registerDeliverOn() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark("W14 floor: DispatchQueue.async + semaphore", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), done = DispatchSemaphore(value: 0), queue = DispatchQueue(label: "W14 floor")
        let handler = hopHandler(tally, last: n - 1, done: done)
        nonisolated(unsafe) let unchecked = handler
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { queue.async { unchecked(wave) } }
        done.wait()
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W14 floor")
    }

    Benchmark("W14 ValuePromise set |> deliverOn(serial Queue)", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), done = DispatchSemaphore(value: 0), queue = Queue(name: "W14 Receiver")
        let promise = ValuePromise<Int>(-1, ignoreRepeated: false)
        let disposable = (promise.get() |> deliverOn(queue)).start(next: hopHandler(tally, last: n - 1, done: done))
        done.wait()  // the current value
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { promise.set(wave) }
        done.wait()
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: sumOfWaves(n), "W14 deliverOn")
    }

    Benchmark(
        "W14 OpenCombine CurrentValueSubject send, receive(on: DispatchQueue)",
        configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), done = DispatchSemaphore(value: 0), queue = DispatchQueue(label: "W14 OpenCombine")
        let subject = CurrentValueSubject<Int, Never>(-1)
        let cancellable = subject.receive(on: queue.ocombine).sink(
            receiveValue: hopHandler(tally, last: n - 1, done: done))
        done.wait()  // the current value
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.send(wave) }
        done.wait()
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: sumOfWaves(n), "W14 OpenCombine receive(on:)")
    }
}

// MARK: - W15 MetaDisposable.set (the one it replaces is disposed) — per set

func registerMetaDisposableSet() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark(
        "W15 floor: swap a closure in a locked slot, call the old one", configuration: configuration(units: units)
    ) { benchmark in
        let ended = Tally(), slot = LockedSlot()
        let occupants = (0..<n).map { _ in makeClosure(ended, 1) }
        benchmark.startMeasurement()
        for occupant in occupants { slot.set(occupant) }
        benchmark.stopMeasurement()
        precondition(ended.sum == n - 1, "W15 floor: \(ended.sum) ended, expected \(n - 1)")
    }

    Benchmark("W15 MetaDisposable.set", configuration: configuration(units: units)) { benchmark in
        let ended = Tally(), meta = MetaDisposable()
        let occupants = (0..<n).map { _ in ActionDisposable(action: makeClosure(ended, 1)) }
        benchmark.startMeasurement()
        for occupant in occupants { meta.set(occupant) }
        benchmark.stopMeasurement()
        meta.dispose()
        precondition(ended.sum == n, "W15 MetaDisposable: \(ended.sum) disposed, expected \(n)")
    }

    // OpenCombine has no slot type: the nearest is a stored AnyCancellable, cancelled when replaced.
    Benchmark(
        "W15 OpenCombine AnyCancellable slot: cancel the old, store the new", configuration: configuration(units: units)
    ) { benchmark in
        let ended = Tally()
        let occupants = (0..<n).map { _ in AnyCancellable(makeClosure(ended, 1)) }
        var current: AnyCancellable?
        benchmark.startMeasurement()
        for occupant in occupants {
            current?.cancel()
            current = occupant
        }
        benchmark.stopMeasurement()
        current?.cancel()
        precondition(ended.sum == n, "W15 OpenCombine: \(ended.sum) cancelled, expected \(n)")
    }
}
