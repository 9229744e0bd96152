// Every workload of the core (the adapter's are in SignalKitBenchmarks.swift), for Receiver and
// what it is compared with, in one executable so that the ratios between them are measured under
// the same conditions.
//
// Each benchmark does `units` units of work per iteration (its scaling factor, 1,000 unless
// said otherwise) between `startMeasurement()` and `stopMeasurement()`, so setup is excluded,
// and then checks what its listeners received with a precondition: nothing can be optimised
// away, and a wrong result cannot pass as fast.

import Benchmark
import Dispatch
import OpenCombine
import Receiver
import ReceiverSignalKit

let benchmarks: @Sendable () -> Void = {
    registerHotOneListener()
    registerHotManyListeners()
    registerListenDispose()
    registerWarm()
    registerChain()
    registerValuePromise()
    registerMemory()
    registerTwoThreads()
    registerSignalKit()
    registerSignalKitCombinators()
    registerSignalKitDisposables()
    registerSignalKitUtilities()
    registerQueueIsCurrent()
    registerSignalKitStarts()
    registerScreen()
    registerAlternatives()
}

// MARK: - W1 hot broadcast, 1 listener — per wave

func registerHotOneListener() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    // What every workload's listener costs by itself (the tally's handler, called directly): the
    // same in every row, so a ratio of two rows is nearer 1 than the ratio of what the libraries
    // add. Subtract it from both to compare what a library adds to the call of a handler.
    Benchmark("W1 floor: the listener alone", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler()
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { handler(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 floor: the listener alone")
    }

    // The least a thread-safe broadcast to one listener can do: one uncontended lock round trip
    // around the call. No array, so no exclusivity check on a stored array (which the array
    // floors pay, and which costs more than the call on Linux).
    Benchmark("W1 floor: one closure under a lock", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler(), mutex = FloorMutex()
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            mutex.lock()
            handler(wave)
            mutex.unlock()
        }
        benchmark.stopMeasurement()
        mutex.destroy()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 floor: one closure under a lock")
    }

    Benchmark("W1 floor: closure array", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = ClosureArray()
        subject.add(tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.broadcast(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 floor: closure array")
    }

    Benchmark("W1 floor: closure array + lock", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = LockedClosureArray()
        subject.add(tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.broadcast(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 floor: closure array + lock")
    }

    Benchmark("W1 Receiver .hot", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make(with: .hot)
        let disposable = receiver.listen(to: tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { transmitter.broadcast(wave) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 Receiver .hot")
    }

    Benchmark("W1 OpenCombine PassthroughSubject", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink(receiveValue: tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 OpenCombine PassthroughSubject")
    }

    Benchmark("W1 OpenCombine CurrentValueSubject", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = CurrentValueSubject<Int, Never>(0)
        let cancellable = subject.sink(receiveValue: tally.handler())
        tally.count = 0  // the current value, received at `sink`
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: sumOfWaves(n), "W1 OpenCombine CurrentValueSubject")
    }

    Benchmark("W1 AsyncStream: yield + next", configuration: configuration(units: units)) { benchmark async in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        var iterator = stream.makeAsyncIterator()
        var (count, sum) = (0, 0)
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations {
            continuation.yield(wave)
            if let received = await iterator.next() { (count, sum) = (count + 1, sum &+ received) }
        }
        benchmark.stopMeasurement()
        precondition(count == n && sum == sumOfWaves(n), "W1 AsyncStream: received \(count) waves summing to \(sum)")
    }
}

// MARK: - W2 hot broadcast, 100 listeners — per delivery (waves × listeners)

func registerHotManyListeners() {
    let units = BenchmarkScalingFactor.kilo, listeners = 100, waves = units.rawValue / listeners
    let expectedSum = listeners * sumOfWaves(waves)

    Benchmark("W2 floor: closure array", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = ClosureArray()
        for _ in 0..<listeners { subject.add(tally.handler()) }
        benchmark.startMeasurement()
        for wave in 0..<waves { subject.broadcast(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: units.rawValue, sum: expectedSum, "W2 floor: closure array")
    }

    Benchmark("W2 floor: closure array + lock", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = LockedClosureArray()
        for _ in 0..<listeners { subject.add(tally.handler()) }
        benchmark.startMeasurement()
        for wave in 0..<waves { subject.broadcast(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: units.rawValue, sum: expectedSum, "W2 floor: closure array + lock")
    }

    Benchmark("W2 Receiver .hot", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make(with: .hot)
        let disposables = (0..<listeners).map { _ in receiver.listen(to: tally.handler()) }
        benchmark.startMeasurement()
        for wave in 0..<waves { transmitter.broadcast(wave) }
        benchmark.stopMeasurement()
        disposables.forEach { $0.dispose() }
        tally.expect(count: units.rawValue, sum: expectedSum, "W2 Receiver .hot")
    }

    Benchmark("W2 OpenCombine PassthroughSubject", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = PassthroughSubject<Int, Never>()
        let cancellables = (0..<listeners).map { _ in subject.sink(receiveValue: tally.handler()) }
        benchmark.startMeasurement()
        for wave in 0..<waves { subject.send(wave) }
        benchmark.stopMeasurement()
        cancellables.forEach { $0.cancel() }
        tally.expect(count: units.rawValue, sum: expectedSum, "W2 OpenCombine PassthroughSubject")
    }
}

// MARK: - W3 listen-then-dispose pairs, with 0 and 10,000 other listeners — per pair

func registerListenDispose() {
    let units = BenchmarkScalingFactor.kilo

    Benchmark("W3 floor: append + remove a closure", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = ClosureArray(), handler = tally.handler()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            subject.add(handler)
            subject.removeLast()
        }
        benchmark.stopMeasurement()
        subject.broadcast(1)
        tally.expect(count: 0, sum: 0, "W3 floor: append + remove a closure")
    }

    for others in [0, 10_000] {
        // The same through an operator too: a derived receiver's listen goes through its
        // operator's closure, which once grew a re-abstraction thunk per call when specialised.
        let kinds: [(name: String, derive: @Sendable (Receiver<Int>) -> Receiver<Int>)] = [
            ("", { $0 }), (" map", { $0.map { $0 } }),
        ]
        for kind in kinds {
            Benchmark(
                "W3 Receiver\(kind.name) listen + dispose, \(others) others", configuration: configuration(units: units)
            ) { benchmark in
                let (pair, rest) = (Tally(), Tally()), handler = pair.handler()
                let (transmitter, receiver) = Receiver<Int>.make(with: .hot)
                let listened = kind.derive(receiver)
                let disposables = (0..<others).map { _ in receiver.listen(to: rest.handler()) }
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations { listened.listen(to: handler).dispose() }
                benchmark.stopMeasurement()
                transmitter.broadcast(1)
                disposables.forEach { $0.dispose() }
                pair.expect(count: 0, sum: 0, "W3 Receiver: a disposed listener")
                rest.expect(count: others, sum: others, "W3 Receiver: the other listeners")
            }
        }

        Benchmark("W3 OpenCombine sink + cancel, \(others) others", configuration: configuration(units: units)) {
            benchmark in
            let (pair, rest) = (Tally(), Tally()), handler = pair.handler()
            let subject = PassthroughSubject<Int, Never>()
            let cancellables = (0..<others).map { _ in subject.sink(receiveValue: rest.handler()) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { subject.sink(receiveValue: handler).cancel() }
            benchmark.stopMeasurement()
            subject.send(1)
            cancellables.forEach { $0.cancel() }
            pair.expect(count: 0, sum: 0, "W3 OpenCombine: a cancelled subscriber")
            rest.expect(count: others, sum: others, "W3 OpenCombine: the other subscribers")
        }
    }
}

// MARK: - W4 .warm(upTo:) — broadcast per wave, late listener per listener

func registerWarm() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    for limit in [64, 4096] {
        Benchmark("W4 Receiver .warm(upTo: \(limit)) broadcast", configuration: configuration(units: units)) {
            benchmark in
            let tally = Tally()
            let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: limit))
            for wave in 0..<limit { transmitter.broadcast(wave) }  // full: every broadcast overwrites
            let disposable = receiver.listen(to: tally.handler())
            tally.expect(count: limit, sum: sumOfWaves(limit), "W4 Receiver .warm replay")
            (tally.count, tally.sum) = (0, 0)
            benchmark.startMeasurement()
            for wave in benchmark.scaledIterations { transmitter.broadcast(wave) }
            benchmark.stopMeasurement()
            disposable.dispose()
            tally.expect(count: n, sum: sumOfWaves(n), "W4 Receiver .warm broadcast")
        }
    }

    let kept = 64
    Benchmark("W4 floor: a closure called 64 times", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for wave in 0..<kept { handler(wave) }
        }
        benchmark.stopMeasurement()
        tally.expect(count: n * kept, sum: n * sumOfWaves(kept), "W4 floor: a closure called 64 times")
    }

    Benchmark("W4 Receiver .warm(upTo: 64) late listener", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), handler = tally.handler()
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: kept))
        for wave in 0..<kept { transmitter.broadcast(wave) }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { receiver.listen(to: handler).dispose() }
        benchmark.stopMeasurement()
        tally.expect(count: n * kept, sum: n * sumOfWaves(kept), "W4 Receiver .warm late listener")
    }

    // OpenCombine has no replay-n subject; its closest is CurrentValueSubject, which keeps one.
    Benchmark(
        "W4 OpenCombine CurrentValueSubject late subscriber (1 value)", configuration: configuration(units: units)
    ) { benchmark in
        let tally = Tally(), handler = tally.handler(), subject = CurrentValueSubject<Int, Never>(7)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.sink(receiveValue: handler).cancel() }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: 7 * n, "W4 OpenCombine CurrentValueSubject late subscriber")
    }
}

// MARK: - W5 map → filter → map → skipRepeats, 1 listener — per input wave

func registerChain() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue
    let passed = (0..<n).filter { ($0 &* 2) % 3 != 0 }.map { $0 &* 2 &+ 1 }

    Benchmark("W5 Receiver map → filter → map → skipRepeats", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make()
        let disposable =
            receiver
            .map { $0 &* 2 }
            .filter { $0 % 3 != 0 }
            .map { $0 &+ 1 }
            .skipRepeats()
            .listen(to: tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { transmitter.broadcast(wave) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: passed.count, sum: passed.reduce(0, &+), "W5 Receiver chain")
    }

    Benchmark("W5 OpenCombine map → filter → map → removeDuplicates", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), subject = PassthroughSubject<Int, Never>()
        let cancellable =
            subject
            .map { $0 &* 2 }
            .filter { $0 % 3 != 0 }
            .map { $0 &+ 1 }
            .removeDuplicates()
            .sink(receiveValue: tally.handler())
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.send(wave) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: passed.count, sum: passed.reduce(0, &+), "W5 OpenCombine chain")
    }
}

// MARK: - W6 ValuePromise with 10 subscribers — per set

func registerValuePromise() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, subscribers = 10

    Benchmark("W6 floor: 10 closures", configuration: configuration(units: units)) { benchmark in
        let tally = Tally(), subject = ClosureArray()
        for _ in 0..<subscribers { subject.add(tally.handler()) }
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { subject.broadcast(wave) }
        benchmark.stopMeasurement()
        tally.expect(count: n * subscribers, sum: subscribers * sumOfWaves(n), "W6 floor: 10 closures")
    }

    Benchmark("W6 ValuePromise set, 10 subscribers", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let promise = ValuePromise<Int>(-1, ignoreRepeated: false)
        let disposables = (0..<subscribers).map { _ in promise.get().start(next: tally.handler()) }
        (tally.count, tally.sum) = (0, 0)  // the current value, received at `start`
        benchmark.startMeasurement()
        for wave in benchmark.scaledIterations { promise.set(wave) }
        benchmark.stopMeasurement()
        disposables.forEach { $0.dispose() }
        tally.expect(count: n * subscribers, sum: subscribers * sumOfWaves(n), "W6 ValuePromise")
    }
}

// MARK: - W7 peak memory: 5,000,000 hot broadcasts vs 1,000

func registerMemory() {
    for broadcasts in [1_000, 5_000_000] {
        let configuration = configuration(
            units: .one, metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal], maxDuration: .seconds(2))
        Benchmark("W7 Receiver .hot \(broadcasts) broadcasts, memory", configuration: configuration) { benchmark in
            let tally = Tally()
            let (transmitter, receiver) = Receiver<Int>.make(with: .hot)
            let disposable = receiver.listen(to: tally.handler())
            let before = residentBytes()
            benchmark.startMeasurement()
            for wave in 0..<broadcasts { transmitter.broadcast(wave) }
            benchmark.stopMeasurement()
            let growth = residentBytes() - before
            disposable.dispose()
            tally.expect(count: broadcasts, sum: sumOfWaves(broadcasts), "W7 Receiver .hot memory")
            precondition(growth < 1 << 20, "W7: \(broadcasts) hot broadcasts grew resident memory by \(growth) bytes")
        }
    }
}

// MARK: - W8 two threads broadcasting into one hot pair, 1 listener — per wave

func registerTwoThreads() {
    let units = BenchmarkScalingFactor.mega, n = units.rawValue, half = n / 2
    let configuration = configuration(units: units, maxDuration: .seconds(2))

    Benchmark("W8 floor: closure array + lock, 2 threads", configuration: configuration) { benchmark in
        let tally = Tally(), subject = LockedClosureArray()
        subject.add(tally.handler())
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for wave in thread * half..<(thread + 1) * half { subject.broadcast(wave) }
        }
        benchmark.stopMeasurement()
        tally.expect(count: n, sum: sumOfWaves(n), "W8 floor: closure array + lock")
    }

    Benchmark("W8 Receiver .hot, 2 threads", configuration: configuration) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make(with: .hot)
        let disposable = receiver.listen(to: tally.handler())
        benchmark.startMeasurement()
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            for wave in thread * half..<(thread + 1) * half { transmitter.broadcast(wave) }
        }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: sumOfWaves(n), "W8 Receiver .hot, 2 threads")
    }
}
