import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// Starts `signal` and waits for its error or completion; returns every event as text: each value,
/// then `error <e>` or `completed`.
private func terminalHistory<T, E>(of signal: Signal<T, E>) async -> [String] {
    let events = History<String>()
    await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
        signal.start(
            next: { events.record("\($0)") },
            error: {
                events.record("error \($0)")
                ended.resume()
            },
            completed: {
                events.record("completed")
                ended.resume()
            })
    }
    return events.recorded
}

/// Numbers 1 through `count`, then `error` if there is one: a sequence with a typed failure that
/// can be iterated again.
private struct Numbers: AsyncSequence, Sendable {
    typealias Element = Int
    typealias Failure = TestError

    let count: Int
    var error: TestError?

    struct AsyncIterator: AsyncIteratorProtocol {
        typealias Failure = TestError
        let count: Int
        let error: TestError?
        var next = 1

        mutating func next() async throws(TestError) -> Int? {
            guard next <= count else {
                if let error { throw error }
                return nil
            }
            defer { next += 1 }
            return next
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count, error: error) }
}

/// Hands out 1, 2, 3, … to whoever asks: which run of a function this is.
private actor RunCounter {
    var runs = 0
    func next() -> Int {
        runs += 1
        return runs
    }
}

@Suite(.detectingLeaks, .timeLimit(.minutes(1))) struct SignalAsyncSourcesTests {
    // MARK: - From an async function

    @Test func aFunctionsResultIsTheValueThenTheCompletion() async {
        #expect(await terminalHistory(of: Signal<Int, NoError> { 42 }) == ["42", "completed"])
    }

    @Test func aTypedThrowIsTheError() async {
        let signal = Signal { () async throws(TestError) -> Int in throw TestError(code: 7) }
        #expect(await terminalHistory(of: signal) == ["error TestError(code: 7)"])
    }

    @Test func anUntypedThrowMakesAnAnyErrorSignal() async {
        let signal = Signal { () async throws -> Int in throw TestError(code: 8) }
        let typed: Signal<Int, any Error> = signal  // the untyped form's type, pinned
        #expect(await terminalHistory(of: typed) == ["error TestError(code: 8)"])
    }

    @Test func aThrowingFunctionThatReturnsSendsItsValue() async {
        #expect(await terminalHistory(of: Signal { () async throws -> String in "ok" }) == ["ok", "completed"])
    }

    @Test func eachStartRunsTheFunctionAgain() async {
        let counter = RunCounter()
        let signal = Signal<Int, NoError> { await counter.next() }
        #expect(await terminalHistory(of: signal) == ["1", "completed"])
        #expect(await terminalHistory(of: signal) == ["2", "completed"])
        #expect(await counter.runs == 2)
    }

    @Test func nothingRunsUntilTheSignalIsStarted() async {
        let counter = RunCounter()
        let signal = Signal<Int, NoError> { await counter.next() }
        #expect(await counter.runs == 0)
        #expect(await terminalHistory(of: signal) == ["1", "completed"])
    }

    @Test func theTaskHasTheGivenPriority() async {
        let signal = Signal(priority: .low) { "\(Task.currentPriority)" }
        #expect(await terminalHistory(of: signal) == ["\(TaskPriority.low)", "completed"])
    }

    @Test func aMainActorFunctionPutsItsValueOnTheMainActorInTheSameJob() async {
        // The main actor runs its jobs on the main queue (on Linux too, where that queue is not
        // served by the main thread), so the queue's specific value tells where code runs.
        let key = DispatchSpecificKey<String>()
        DispatchQueue.main.setSpecific(key: key, value: "on the main queue")
        let whereRun = { @Sendable in DispatchQueue.getSpecific(key: key) ?? "off the main queue" }
        let seen = History<String>()
        let signal = Signal { @MainActor in
            // Queued behind this job: it runs first only if the put waits for another hop.
            Task { @MainActor in seen.record("the next main-actor job") }
            return "function \(whereRun())"
        }
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            signal.start(
                next: { seen.record("\($0), handler \(whereRun())") },
                completed: { Task { @MainActor in ended.resume() } })
        }
        #expect(
            seen.recorded == ["function on the main queue, handler on the main queue", "the next main-actor job"])
        let nonisolated = Signal { "function \(whereRun())" }
        #expect(await terminalHistory(of: nonisolated) == ["function off the main queue", "completed"])
    }

    @Test(arguments: [false, true])
    func disposingCancelsTheTaskDropsWhatItProducesAndReleasesTheHandlers(throwing: Bool) async {
        let tag = "async-dispose-\(throwing)"
        let (started, starting) = AsyncStream<Void>.makeStream()
        let (observed, observing) = AsyncStream<Bool>.makeStream()
        let (released, releasing) = AsyncStream<Void>.makeStream()
        let (gate, gateInput) = AsyncStream<Void>.makeStream()  // never opens: ends when cancelled
        let events = History<String>()
        // Made and started in one statement: the task alone holds the function from then on.
        let disposable = Signal { [beacon = DeinitBeacon(releasing)] () async throws -> Int in
            _ = beacon
            starting.yield()
            for await _ in gate {}
            observing.yield(Task.isCancelled)
            if throwing { throw CancellationError() }
            return 1  // dropped: the start was disposed
        }.start(
            next: { [witness = Tracked(1, tag: tag)] in events.record("\(witness.value): \($0)") },
            error: { events.record("error \($0)") },
            completed: { events.record("completed") })
        var startedIterator = started.makeAsyncIterator()
        await startedIterator.next()

        disposable.dispose()
        #expect(Tracked.count(tag) == 0)  // the handlers are released as dispose() returns
        var observedIterator = observed.makeAsyncIterator()
        #expect(await observedIterator.next() == true)  // the task saw Task.isCancelled
        var releasedIterator = released.makeAsyncIterator()
        await releasedIterator.next()  // the task has ended and let go of the function
        #expect(events.recorded == [])
        gateInput.finish()
    }

    @Test func disposingAfterTheEndDoesNothing() async {
        let signal = Signal<Int, NoError> { 5 }
        let events = History<String>()
        var disposable: (any Disposable)?
        await withCheckedContinuation { (ended: CheckedContinuation<Void, Never>) in
            disposable = signal.start(next: { events.record("\($0)") }, completed: { ended.resume() })
        }
        disposable?.dispose()
        disposable?.dispose()
        #expect(events.recorded == ["5"])
    }

    @Test func switchingInMapToSignalCancelsThePreviousTask() async {
        let (input, values) = Signal<Int, NoError>.pipe()
        let (started, starting) = AsyncStream<Int>.makeStream()
        let (observed, observing) = AsyncStream<Bool>.makeStream()
        let (released, releasing) = AsyncStream<Void>.makeStream()
        let (gate, gateInput) = AsyncStream<Void>.makeStream()
        let (delivered, delivering) = AsyncStream<String>.makeStream()
        let events = History<String>()
        let disposable =
            (values
            |> mapToSignal { n in
                Signal<String, NoError> { [beacon = n == 1 ? DeinitBeacon(releasing) : nil] in
                    _ = beacon
                    starting.yield(n)
                    guard n == 1 else { return "answer \(n)" }
                    for await _ in gate {}
                    observing.yield(Task.isCancelled)
                    return "late \(n)"
                }
            })
            .start(next: {
                events.record($0)
                delivering.yield($0)
            })
        var startedIterator = started.makeAsyncIterator()
        input.putNext(1)
        #expect(await startedIterator.next() == 1)

        input.putNext(2)  // disposes the start for 1, which cancels its task
        var observedIterator = observed.makeAsyncIterator()
        #expect(await observedIterator.next() == true)
        var releasedIterator = released.makeAsyncIterator()
        await releasedIterator.next()  // the first task has ended
        var deliveredIterator = delivered.makeAsyncIterator()
        #expect(await deliveredIterator.next() == "answer 2")
        #expect(await startedIterator.next() == 2)
        #expect(events.recorded == ["answer 2"])
        disposable.dispose()
        gateInput.finish()
    }

    @Test func combineLatestOfTwoFunctions() async {
        let combined =
            combineLatest(Signal<Int, NoError> { 1 }, Signal<String, NoError> { "a" })
            |> map { number, letter in "\(number)\(letter)" }
        #expect(await terminalHistory(of: combined) == ["1a", "completed"])
    }

    @Test func aPromiseSetToAFunctionHoldsItsResult() async throws {
        let promise = Promise<Int>()
        promise.set(Signal { 3 })
        #expect(try await promise.get().first() == 3)
    }

    // MARK: - From an AsyncSequence

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func anAsyncStreamsElementsThenItsEnd() async {
        let (stream, input) = AsyncStream<Int>.makeStream()
        let signal: Signal<Int, NoError> = Signal(stream)
        input.yield(1)
        input.yield(2)
        input.finish()
        #expect(await terminalHistory(of: signal) == ["1", "2", "completed"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func aThrowingStreamsErrorIsTheError() async {
        let (stream, input) = AsyncThrowingStream<Int, any Error>.makeStream()
        let signal: Signal<Int, any Error> = Signal(stream)
        input.yield(1)
        input.finish(throwing: TestError(code: 3))
        #expect(await terminalHistory(of: signal) == ["1", "error TestError(code: 3)"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func aTypedFailureIsTheSignalsErrorType() async {
        let signal: Signal<Int, TestError> = Signal(Numbers(count: 2, error: TestError(code: 9)))
        #expect(await terminalHistory(of: signal) == ["1", "2", "error TestError(code: 9)"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func eachStartIteratesTheSequenceAgain() async {
        let signal = Signal(Numbers(count: 3), priority: .low)
        #expect(await terminalHistory(of: signal) == ["1", "2", "3", "completed"])
        #expect(await terminalHistory(of: signal) == ["1", "2", "3", "completed"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func disposingEndsTheIterationAndReleasesTheHandlers() async {
        let tag = "async-sequence-dispose"
        let (stream, input) = AsyncStream<Int>.makeStream()
        let (terminated, terminating) = AsyncStream<String>.makeStream()
        input.onTermination = { terminating.yield("\($0)") }
        let (delivered, delivering) = AsyncStream<Int>.makeStream()
        let events = History<String>()
        let disposable = Signal(stream).start(
            next: { [witness = Tracked(1, tag: tag)] in
                events.record("\(witness.value): \($0)")
                delivering.yield($0)
            },
            completed: { events.record("completed") })
        input.yield(1)
        var deliveredIterator = delivered.makeAsyncIterator()
        #expect(await deliveredIterator.next() == 1)

        disposable.dispose()
        #expect(Tracked.count(tag) == 0)
        var terminatedIterator = terminated.makeAsyncIterator()
        #expect(await terminatedIterator.next() == "cancelled")  // the iterating task was cancelled
        if case .terminated = input.yield(2) {} else { Issue.record("the stream still accepts elements") }
        #expect(events.recorded == ["1: 1"])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func nothingReachesAHandlerAfterDisposeEvenFromASequenceThatIgnoresCancellation() async {
        let sequence = DeafSequence()
        let (delivered, delivering) = AsyncStream<Int>.makeStream()
        let events = History<String>()
        let disposable = Signal(sequence).start(
            next: {
                events.record("\($0)")
                delivering.yield($0)
            }, completed: { events.record("completed") })
        sequence.send(1)
        var deliveredIterator = delivered.makeAsyncIterator()
        #expect(await deliveredIterator.next() == 1)

        disposable.dispose()
        sequence.send(2)  // the task is cancelled, but this sequence does not care
        sequence.send(nil)
        var releasedIterator = sequence.iteratorReleased.makeAsyncIterator()
        await releasedIterator.next()  // the loop has ended: 2 was handed to the task and dropped
        #expect(events.recorded == ["1"])
    }
}
