// W24–W28: what a team starting in Swift 6 weighs against a hot `Receiver`, side by side in one
// run: OpenCombine's `PassthroughSubject`, the standard library's `AsyncStream`, and
// swift-async-algorithms' `AsyncChannel` and `share()`.
//
// Every figure is timed to the last value *received*: the synchronous libraries deliver before
// `broadcast`/`send` returns; an asynchronous consumer is a task, and the measurement ends when every
// consumer task has seen the last value (and, for a sequence that ends, its end, which the producer
// sends right after) and returned its count and sum, which are then checked. The
// consumer tasks are made (and, for `share()`, registered, by making their iterators) before the
// measurement starts, so task creation is counted only where attaching is what is measured (W28).
//
// What each asynchronous row is, so that the comparison is fair:
// - `AsyncStream` (default policy: unbounded buffer): one consumer per stream, so broadcasting to 100
//   consumers is one stream each, yielded to in turn; a producer never waits.
// - `AsyncChannel`: a rendezvous, `send` suspends until a consumer takes the value (back-pressure);
//   one channel hands each value to one consumer, so broadcasting is one channel per consumer.
// - `share()` (default policy: `.bounded(1)`): one base `AsyncStream` iterated by share's own task,
//   each value handed to every consumer that had made its iterator; the slowest consumer holds the
//   others back one value at most.

import AsyncAlgorithms
import Benchmark
import Dispatch
import OpenCombine
import Receiver

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func registerAlternatives() {
    registerAlternativesOneConsumer()
    registerAlternativesManyConsumers()
    registerAlternativesChain()
    registerAlternativesTwoProducers()
    registerAlternativesAttachDetach()
}

/// What an asynchronous consumer received: its count and sum, checked like a `Tally`.
struct Received: Sendable {
    var count = 0, sum = 0

    mutating func record(_ value: Int) { (count, sum) = (count &+ 1, sum &+ value) }

    func expect(count: Int, sum: Int, _ name: StaticString) {
        precondition(
            self.count == count && self.sum == sum,
            "\(name): received \(self.count) values summing to \(self.sum), expected \(count) summing to \(sum)")
    }
}

/// A consumer task: it makes its iterator of `sequence`, says so on `ready`, and iterates until the
/// sequence ends, or until it has received `limit` values (a `Receiver`'s `values` never ends by
/// itself). A finite sequence is read to its end, so that a producer whose `send` waits for a
/// consumer (`AsyncChannel`) is never left waiting for one that stopped at a count.
func consumerTask<Values: AsyncSequence & Sendable>(
    of sequence: Values, upTo limit: Int = .max, ready: AsyncStream<Void>.Continuation? = nil
) -> Task<Received, Never> where Values.Element == Int {
    Task {
        var iterator = sequence.makeAsyncIterator(), received = Received()
        ready?.yield()
        while received.count < limit, let value = try? await iterator.next() { received.record(value) }
        return received
    }
}

/// Starts a consumer task for each of `sequences`, and returns them once each has made its iterator
/// (for `share()`, that registers the consumer, so that it sees every value).
func consumers<Values: AsyncSequence & Sendable>(
    of sequences: [Values], upTo limit: Int = .max
) async -> [Task<Received, Never>] where Values.Element == Int {
    let (ready, signal) = AsyncStream.makeStream(of: Void.self)
    let tasks = sequences.map { consumerTask(of: $0, upTo: limit, ready: signal) }
    var waiting = ready.makeAsyncIterator()
    for _ in tasks { _ = await waiting.next() }
    return tasks
}

/// One consumer task, returned once it has made its iterator.
func consumer<Values: AsyncSequence & Sendable>(
    of sequence: Values, upTo limit: Int = .max
) async -> Task<Received, Never> where Values.Element == Int {
    await consumers(of: [sequence], upTo: limit)[0]
}

/// The producers' two serial queues. Dispatch gives a serial queue a thread at once, where the global
/// queue, with one of its threads waiting for the other to arrive, may take a second to add one.
let producerQueues = [DispatchQueue(label: "producer 0"), DispatchQueue(label: "producer 1")]

/// Runs `body(0)` and `body(1)` on two threads, started together (each waits for the other to
/// arrive), and returns when both are done, without blocking a thread of the concurrency pool,
/// which the consumer tasks need.
func onTwoThreads(_ body: @escaping @Sendable (Int) -> Void) async {
    let arrived = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let group = DispatchGroup()
        for thread in 0..<2 {
            producerQueues[thread].async(group: group) {
                arrived[1 - thread].signal()
                arrived[thread].wait()
                body(thread)
            }
        }
        group.notify(queue: .global()) { done.resume() }
    }
}

// MARK: - W24 one producer, one consumer — per value

func registerAlternativesOneConsumer() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, sum = sumOfWaves(n)

    Benchmark("W24 one consumer: Receiver .hot", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make()
        let disposable = receiver.listen(to: tally.handler())
        benchmark.startMeasurement()
        for value in 0..<n { transmitter.broadcast(value) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: n, sum: sum, "W24 Receiver")
    }

    // The same pair read by a `for await` loop in a task, through the library's own bridge (an
    // `AsyncStream` fed by a listener): what an asynchronous consumer of a `Receiver` pays.
    Benchmark("W24 one consumer: Receiver .hot, values (for await)", configuration: configuration(units: units)) {
        benchmark async in
        let (transmitter, receiver) = Receiver<Int>.make()
        let task = await consumer(of: receiver.values, upTo: n)
        benchmark.startMeasurement()
        for value in 0..<n { transmitter.broadcast(value) }
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: n, sum: sum, "W24 Receiver values")
    }

    Benchmark("W24 one consumer: OpenCombine PassthroughSubject", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.sink(receiveValue: tally.handler())
        benchmark.startMeasurement()
        for value in 0..<n { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: n, sum: sum, "W24 OpenCombine")
    }

    Benchmark("W24 one consumer: AsyncStream", configuration: configuration(units: units)) { benchmark async in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = await consumer(of: stream)
        benchmark.startMeasurement()
        for value in 0..<n { continuation.yield(value) }
        continuation.finish()
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: n, sum: sum, "W24 AsyncStream")
    }

    Benchmark("W24 one consumer: AsyncChannel", configuration: configuration(units: units)) { benchmark async in
        let channel = AsyncChannel<Int>()
        let task = await consumer(of: channel)
        benchmark.startMeasurement()
        for value in 0..<n { await channel.send(value) }
        channel.finish()
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: n, sum: sum, "W24 AsyncChannel")
    }

    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Benchmark("W24 one consumer: share()", configuration: configuration(units: units)) { benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share()
            let task = await consumer(of: shared)
            benchmark.startMeasurement()
            for value in 0..<n { continuation.yield(value) }
            continuation.finish()
            let received = await task.value
            benchmark.stopMeasurement()
            received.expect(count: n, sum: sum, "W24 share()")
        }

        Benchmark("W24 one consumer: share(bufferingPolicy: .unbounded)", configuration: configuration(units: units)) {
            benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share(bufferingPolicy: .unbounded)
            let task = await consumer(of: shared)
            benchmark.startMeasurement()
            for value in 0..<n { continuation.yield(value) }
            continuation.finish()
            let received = await task.value
            benchmark.stopMeasurement()
            received.expect(count: n, sum: sum, "W24 share(.unbounded)")
        }
    }
}

// MARK: - W25 one producer, 100 consumers — per delivery (values × consumers)

func registerAlternativesManyConsumers() {
    let units = BenchmarkScalingFactor.kilo, fanOut = 100, values = units.rawValue / fanOut
    let sum = sumOfWaves(values)

    Benchmark("W25 100 consumers: Receiver .hot", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make()
        let disposables = (0..<fanOut).map { _ in receiver.listen(to: tally.handler()) }
        benchmark.startMeasurement()
        for value in 0..<values { transmitter.broadcast(value) }
        benchmark.stopMeasurement()
        disposables.forEach { $0.dispose() }
        tally.expect(count: units.rawValue, sum: fanOut * sum, "W25 Receiver")
    }

    Benchmark("W25 100 consumers: Receiver .hot, values (for await)", configuration: configuration(units: units)) {
        benchmark async in
        let (transmitter, receiver) = Receiver<Int>.make()
        let tasks = await consumers(of: (0..<fanOut).map { _ in receiver.values }, upTo: values)
        benchmark.startMeasurement()
        for value in 0..<values { transmitter.broadcast(value) }
        var received: [Received] = []
        for task in tasks { received.append(await task.value) }
        benchmark.stopMeasurement()
        for each in received { each.expect(count: values, sum: sum, "W25 Receiver values") }
    }

    Benchmark("W25 100 consumers: OpenCombine PassthroughSubject", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), subject = PassthroughSubject<Int, Never>()
        let cancellables = (0..<fanOut).map { _ in subject.sink(receiveValue: tally.handler()) }
        benchmark.startMeasurement()
        for value in 0..<values { subject.send(value) }
        benchmark.stopMeasurement()
        cancellables.forEach { $0.cancel() }
        tally.expect(count: units.rawValue, sum: fanOut * sum, "W25 OpenCombine")
    }

    Benchmark("W25 100 consumers: AsyncStream, one each", configuration: configuration(units: units)) {
        benchmark async in
        let streams = (0..<fanOut).map { _ in AsyncStream.makeStream(of: Int.self) }
        let tasks = await consumers(of: streams.map(\.stream))
        benchmark.startMeasurement()
        for value in 0..<values {
            for (_, continuation) in streams { continuation.yield(value) }
        }
        for (_, continuation) in streams { continuation.finish() }
        var received: [Received] = []
        for task in tasks { received.append(await task.value) }
        benchmark.stopMeasurement()
        for each in received { each.expect(count: values, sum: sum, "W25 AsyncStream") }
    }

    Benchmark("W25 100 consumers: AsyncChannel, one each", configuration: configuration(units: units)) {
        benchmark async in
        let channels = (0..<fanOut).map { _ in AsyncChannel<Int>() }
        let tasks = await consumers(of: channels)
        benchmark.startMeasurement()
        for value in 0..<values {
            for channel in channels { await channel.send(value) }
        }
        for channel in channels { channel.finish() }
        var received: [Received] = []
        for task in tasks { received.append(await task.value) }
        benchmark.stopMeasurement()
        for each in received { each.expect(count: values, sum: sum, "W25 AsyncChannel") }
    }

    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Benchmark("W25 100 consumers: share()", configuration: configuration(units: units)) { benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share()
            let tasks = await consumers(of: Array(repeating: shared, count: fanOut))
            benchmark.startMeasurement()
            for value in 0..<values { continuation.yield(value) }
            continuation.finish()
            var received: [Received] = []
            for task in tasks { received.append(await task.value) }
            benchmark.stopMeasurement()
            for each in received { each.expect(count: values, sum: sum, "W25 share()") }
        }

        Benchmark("W25 100 consumers: share(bufferingPolicy: .unbounded)", configuration: configuration(units: units)) {
            benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share(bufferingPolicy: .unbounded)
            let tasks = await consumers(of: Array(repeating: shared, count: fanOut))
            benchmark.startMeasurement()
            for value in 0..<values { continuation.yield(value) }
            continuation.finish()
            var received: [Received] = []
            for task in tasks { received.append(await task.value) }
            benchmark.stopMeasurement()
            for each in received { each.expect(count: values, sum: sum, "W25 share(.unbounded)") }
        }
    }
}

// MARK: - W26 map → filter → map, one consumer — per input value

func registerAlternativesChain() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue
    let passed = (0..<n).map { $0 &* 2 }.filter { $0 % 3 != 0 }.map { $0 &+ 1 }
    let (count, sum) = (passed.count, passed.reduce(0, &+))

    Benchmark("W26 map → filter → map: Receiver .hot", configuration: configuration(units: units)) { benchmark in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make()
        let disposable = receiver.map { $0 &* 2 }.filter { $0 % 3 != 0 }.map { $0 &+ 1 }.listen(to: tally.handler())
        benchmark.startMeasurement()
        for value in 0..<n { transmitter.broadcast(value) }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: count, sum: sum, "W26 Receiver")
    }

    Benchmark("W26 map → filter → map: OpenCombine PassthroughSubject", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), subject = PassthroughSubject<Int, Never>()
        let cancellable = subject.map { $0 &* 2 }.filter { $0 % 3 != 0 }.map { $0 &+ 1 }
            .sink(receiveValue: tally.handler())
        benchmark.startMeasurement()
        for value in 0..<n { subject.send(value) }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: count, sum: sum, "W26 OpenCombine")
    }

    Benchmark("W26 map → filter → map: AsyncStream", configuration: configuration(units: units)) {
        benchmark async in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = await consumer(of: stream.map { $0 &* 2 }.filter { $0 % 3 != 0 }.map { $0 &+ 1 })
        benchmark.startMeasurement()
        for value in 0..<n { continuation.yield(value) }
        continuation.finish()
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: count, sum: sum, "W26 AsyncStream")
    }

    Benchmark("W26 map → filter → map: AsyncChannel", configuration: configuration(units: units)) {
        benchmark async in
        let channel = AsyncChannel<Int>()
        let task = await consumer(of: channel.map { $0 &* 2 }.filter { $0 % 3 != 0 }.map { $0 &+ 1 })
        benchmark.startMeasurement()
        for value in 0..<n { await channel.send(value) }
        channel.finish()
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: count, sum: sum, "W26 AsyncChannel")
    }

    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Benchmark("W26 map → filter → map: share()", configuration: configuration(units: units)) { benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share()
            let task = await consumer(
                of: shared.map { $0 &* 2 }.filter { $0 % 3 != 0 }.map { $0 &+ 1 })
            benchmark.startMeasurement()
            for value in 0..<n { continuation.yield(value) }
            continuation.finish()
            let received = await task.value
            benchmark.stopMeasurement()
            received.expect(count: count, sum: sum, "W26 share()")
        }
    }
}

// MARK: - W27 two producing threads, one consumer — per value

func registerAlternativesTwoProducers() {
    // The asynchronous rows cost microseconds a value, so a thousand values keep both producers busy
    // together; the synchronous ones get a million.
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue, half = n / 2, sum = sumOfWaves(n)
    let syncUnits = BenchmarkScalingFactor.mega, syncN = syncUnits.rawValue, syncHalf = syncN / 2

    Benchmark("W27 two producers: Receiver .hot", configuration: configuration(units: syncUnits)) { benchmark async in
        let tally = Tally()
        let (transmitter, receiver) = Receiver<Int>.make()
        let disposable = receiver.listen(to: tally.handler())
        benchmark.startMeasurement()
        await onTwoThreads { thread in
            for value in thread * syncHalf..<(thread + 1) * syncHalf { transmitter.broadcast(value) }
        }
        benchmark.stopMeasurement()
        disposable.dispose()
        tally.expect(count: syncN, sum: sumOfWaves(syncN), "W27 Receiver")
    }

    // OpenCombine's subject takes a lock per subscriber around each delivery, so two threads may send.
    Benchmark("W27 two producers: OpenCombine PassthroughSubject", configuration: configuration(units: syncUnits)) {
        benchmark async in
        let tally = Tally()
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()  // locked inside, not marked Sendable
        let cancellable = subject.sink(receiveValue: tally.handler())
        benchmark.startMeasurement()
        await onTwoThreads { thread in
            for value in thread * syncHalf..<(thread + 1) * syncHalf { subject.send(value) }
        }
        benchmark.stopMeasurement()
        cancellable.cancel()
        tally.expect(count: syncN, sum: sumOfWaves(syncN), "W27 OpenCombine")
    }

    Benchmark("W27 two producers: AsyncStream", configuration: configuration(units: units)) { benchmark async in
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let task = await consumer(of: stream)
        benchmark.startMeasurement()
        await onTwoThreads { thread in
            for value in thread * half..<(thread + 1) * half { continuation.yield(value) }
        }
        continuation.finish()
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: n, sum: sum, "W27 AsyncStream")
    }

    // `send` is asynchronous: the producers are two tasks.
    Benchmark("W27 two producers: AsyncChannel", configuration: configuration(units: units)) { benchmark async in
        let channel = AsyncChannel<Int>()
        let task = await consumer(of: channel)
        benchmark.startMeasurement()
        await withTaskGroup(of: Void.self) { producers in
            for producer in 0..<2 {
                producers.addTask {
                    for value in producer * half..<(producer + 1) * half { await channel.send(value) }
                }
            }
        }
        channel.finish()
        let received = await task.value
        benchmark.stopMeasurement()
        received.expect(count: n, sum: sum, "W27 AsyncChannel")
    }

    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Benchmark("W27 two producers: share()", configuration: configuration(units: units)) { benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share()
            let task = await consumer(of: shared)
            benchmark.startMeasurement()
            await onTwoThreads { thread in
                for value in thread * half..<(thread + 1) * half { continuation.yield(value) }
            }
            continuation.finish()
            let received = await task.value
            benchmark.stopMeasurement()
            received.expect(count: n, sum: sum, "W27 share()")
        }
    }
}

// MARK: - W28 attaching and detaching a consumer — per pair

func registerAlternativesAttachDetach() {
    let units = BenchmarkScalingFactor.kilo

    Benchmark("W28 attach + detach: Receiver .hot listen + dispose", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handler = tally.handler()
        let (transmitter, receiver) = Receiver<Int>.make()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { receiver.listen(to: handler).dispose() }
        benchmark.stopMeasurement()
        transmitter.broadcast(1)
        tally.expect(count: 0, sum: 0, "W28 Receiver")
    }

    Benchmark("W28 attach + detach: OpenCombine sink + cancel", configuration: configuration(units: units)) {
        benchmark in
        let tally = Tally(), handler = tally.handler(), subject = PassthroughSubject<Int, Never>()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { subject.sink(receiveValue: handler).cancel() }
        benchmark.stopMeasurement()
        subject.send(1)
        tally.expect(count: 0, sum: 0, "W28 OpenCombine")
    }

    // A stream has one consumer, so attaching one is making its stream; detaching is finishing it.
    Benchmark(
        "W28 attach + detach: AsyncStream made, consumer task, finish", configuration: configuration(units: units)
    ) {
        benchmark async in
        var received = Received()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let task = consumerTask(of: stream)
            continuation.finish()
            received.count &+= await task.value.count
        }
        benchmark.stopMeasurement()
        received.expect(count: 0, sum: 0, "W28 AsyncStream")
    }

    Benchmark("W28 attach + detach: AsyncChannel consumer task, cancel", configuration: configuration(units: units)) {
        benchmark async in
        let channel = AsyncChannel<Int>()
        var received = Received()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let task = consumerTask(of: channel)
            task.cancel()
            received.count &+= await task.value.count
        }
        benchmark.stopMeasurement()
        received.expect(count: 0, sum: 0, "W28 AsyncChannel")
    }

    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        Benchmark("W28 attach + detach: share() consumer task, cancel", configuration: configuration(units: units)) {
            benchmark async in
            let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
            let shared = stream.share()
            var received = Received()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let task = consumerTask(of: shared)
                task.cancel()
                received.count &+= await task.value.count
            }
            benchmark.stopMeasurement()
            continuation.finish()
            received.expect(count: 0, sum: 0, "W28 share()")
        }
    }
}
