import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct SignalAsyncTests {
    @Test func valuesFinishesOnCompletion() async {
        let signal = Signal<Int, NoError> { subscriber in
            [1, 2, 3].forEach(subscriber.putNext)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        var received: [Int] = []
        for await value in signal.values { received.append(value) }
        #expect(received == [1, 2, 3])
    }

    @Test func valuesThrowsTheError() async {
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            subscriber.putError(TestError(code: 4))
            return EmptyDisposable
        }
        var received: [Int] = []
        await #expect(throws: TestError(code: 4)) {
            for try await value in signal.values { received.append(value) }
        }
        #expect(received == [1])
    }

    @Test func endingTheLoopDisposesTheStart() async {
        let disposals = CountingDisposable()
        let (input, output) = Signal<Int, NoError>.pipe(with: .cold)
        [1, 2, 3].forEach(input.putNext)
        let signal = Signal<Int, NoError> { subscriber in
            let forwarding = output.start(next: subscriber.putNext)
            return ActionDisposable {
                forwarding.dispose()
                disposals.dispose()
            }
        }
        for await value in signal.values where value == 2 { break }
        #expect(disposals.count == 1)
    }

    @Test func firstReturnsTheFirstValueAndDisposes() async throws {
        let disposals = CountingDisposable()
        let signal = Signal<Int, NoError> { subscriber in
            subscriber.putNext(1)
            subscriber.putNext(2)
            return disposals
        }
        #expect(try await signal.first() == 1)
        #expect(disposals.count == 1)
    }

    @Test func firstReturnsNilWhenTheSignalCompletesEmpty() async throws {
        #expect(try await Signal<Int, NoError>.complete().first() == nil)
    }

    @Test func firstThrowsTheError() async {
        await #expect(throws: TestError(code: 2)) {
            try await Signal<Int, TestError>.fail(TestError(code: 2)).first()
        }
    }

    @Test func firstOfAPromiseReadsItsCurrentValue() async throws {
        #expect(try await Promise(9).get().first() == 9)
    }

    @Test func cancellingFirstThrowsCancellationErrorAndDisposes() async {
        let disposals = CountingDisposable()
        let (started, starting) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await Signal<Int, NoError> { _ in
                starting.yield()
                return disposals
            }.first()
        }
        var iterator = started.makeAsyncIterator()
        await iterator.next()  // the signal has started: cancelling must dispose it
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(disposals.count == 1)
    }

    @Test func firstInAnAlreadyCancelledTaskThrowsWithoutStarting() async {
        let starts = Atomic(value: 0)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Signal<Int, NoError> { subscriber in
                starts.modify { $0 + 1 }
                subscriber.putNext(1)
                return EmptyDisposable
            }.first()
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(starts.with { $0 } == 0)
    }

    @Test func cancellationRacingDeliveryResumesExactlyOnce() async {
        for _ in 0..<200 {
            let (starts, disposals) = (Atomic(value: 0), CountingDisposable())
            let (input, output) = Signal<Int, NoError>.pipe(with: .warm(upTo: 1))
            let signal = Signal<Int, NoError> { subscriber in
                starts.modify { $0 + 1 }
                let forwarding = output.start(next: subscriber.putNext)
                return ActionDisposable {
                    forwarding.dispose()
                    disposals.dispose()
                }
            }
            let task = Task { try await signal.first() }
            await withTaskGroup(of: Void.self) { group in
                group.addTask { input.putNext(1) }
                group.addTask { task.cancel() }
            }
            switch await task.result {
            case .success(let value): #expect(value == 1)
            case .failure(let error): #expect(error is CancellationError)
            }
            #expect(disposals.count == starts.with { $0 })  // every start disposed, exactly once
        }
    }

    // MARK: SwiftSignalKit's get() async

    @Test func getReturnsTheFirstValueAndDisposesTheStart() async {
        let disposed = CountingDisposable()
        let signal = Signal<Int, NoError> { subscriber in
            subscriber.putNext(1)
            subscriber.putNext(2)
            return disposed
        }
        #expect(await signal.get() == 1)
        #expect(disposed.count == 1)
    }

    /// The value is set on another thread once `get()` has started the signal: never before.
    @Test func getWaitsForAValueFromAnotherThread() async {
        let promise = ValuePromise<Int>()
        let setElsewhereOnceStarted = Signal<Int, NoError> { subscriber in
            let started = promise.get().start(next: { subscriber.putNext($0) })
            Queue.concurrentDefaultQueue().async { promise.set(7) }
            return started
        }
        #expect(await setElsewhereOnceStarted.get() == 7)
    }

    @Test func getOfASignalThatCompletesWithoutAValueStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Signal<Int, NoError>.complete().get()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Signal.get() needs a value"))
    }

    // MARK: get() when the source lets go of its subscriber without a value: none can come

    // Each runs `get()` in a child process, which must stop with get()'s message for a source that
    // let go of its subscriber, and without the runtime's report of a leaked continuation.

    /// Checks what a child process that ran `get()` wrote to its standard error.
    private func expectStopped(_ result: ExitTest.Result?, _ name: String) {
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("the signal let go of its subscriber without sending one"), "\(name)")
        #expect(!message.contains("CONTINUATION MISUSE"), "\(name)")
    }

    @Test func getOfNeverStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Signal<Int, NoError>.never().get()
        }
        expectStopped(result, "never()")
    }

    // Through `then` and `catch`: the operator's start must let go of get()'s handlers once its
    // running source has let go of its subscriber. If it held them, the child would wait for
    // good; it stops itself after 20 seconds, without get()'s message.

    @Test func getOfNeverThenASignalStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog(seconds: 20)
            _ = await (Signal<Int, NoError>.never() |> then(.single(1))).get()
        }
        expectStopped(result, "never() |> then")
    }

    @Test func getOfNeverCaughtStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog(seconds: 20)
            _ = await (Signal<Int, TestError>.never() |> `catch` { _ in Signal<Int, NoError>.single(1) }).get()
        }
        expectStopped(result, "never() |> catch")
    }

    @Test func getOfASignalThenNeverStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog(seconds: 20)
            _ = await (Signal<Int, NoError>.complete() |> then(.never())).get()
        }
        expectStopped(result, "complete() |> then(never())")
    }

    @Test func getOfTheSignalOfAPipeThatIsGoneStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await ValuePipe<Int>().signal().get()
        }
        expectStopped(result, "ValuePipe")
    }

    @Test func getOfAGeneratorThatKeepsNoSubscriberStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Signal<Int, NoError> { subscriber in
                _ = subscriber.description  // looked at, not kept
                return ActionDisposable {}
            }.get()
        }
        expectStopped(result, "generator")
    }

    @Test func getOfASourceThatLetsGoFromAnotherThreadStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await Signal<Int, NoError> { subscriber in
                let held = Atomic<Subscriber<Int, NoError>?>(value: subscriber)
                Queue.concurrentDefaultQueue().async { held.swap(nil) }
                return EmptyDisposable
            }.get()
        }
        expectStopped(result, "let go later")
    }

    @Test func getOfASourceThatKeepsItsSubscriberAndSendsLaterReturnsTheValue() async {
        let pipe = ValuePipe<Int>()
        let (started, starting) = AsyncStream<Void>.makeStream()
        let signal = Signal<Int, NoError> { subscriber in
            let listening = pipe.signal().start(next: subscriber.putNext)
            starting.yield()
            return listening
        }
        async let value = signal.get()
        var iterator = started.makeAsyncIterator()
        await iterator.next()  // get() listens: the value reaches it
        pipe.putNext(5)
        #expect(await value == 5)
    }
}
