import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A signal that, at its n-th start (from 1), sends n and then completes — or fails, from
/// start `failingFrom` on — all before its generator returns.
private func synchronous(completingUntil last: Int, failingFrom: Int? = nil) -> (Signal<Int, TestError>, Atomic<Int>) {
    let starts = Atomic(value: 0)
    let signal = Signal<Int, TestError> { subscriber in
        let start = starts.modify { $0 + 1 }
        subscriber.putNext(start)
        if start <= last {
            subscriber.putCompletion()
        } else if let failingFrom, start >= failingFrom {
            subscriber.putError(TestError(code: start))
        }
        return EmptyDisposable
    }
    return (signal, starts)
}

@Suite(.detectingLeaks) struct SignalCatchTests {
    // MARK: catch

    @Test func catchStartsTheAlternativeBeforeDisposingTheFailedStart() {
        let log = History<String>()
        let (source, alternative) = (Source<Int>("s", log), Source<Int>("alt", log))
        startLogging(
            source.signal
                |> `catch` { (error: TestError) -> Signal<Int, String> in
                    log.record("f \(error.code)")
                    return alternative.signal |> mapErrorToString
                }, into: log)
        source.emit(1)
        source.fail(3)
        source.emit(2)
        alternative.emit(9)
        alternative.fail(4)
        #expect(
            log.recorded == [
                "s.subscribe#1", "next 1", "f 3", "alt.subscribe#1", "s.dispose#1", "next 9", "error alt 4",
                "alt.dispose#1",
            ])
    }

    @Test func catchPassesOnCompletionAndDisposesBoth() {
        let log = History<String>()
        let (source, alternative) = (Source<Int>("s", log), Source<Int>("alt", log))
        startLogging(source.signal |> `catch` { _ in alternative.signal }, into: log)
        source.complete()
        #expect(log.recorded == ["s.subscribe#1", "completed", "s.dispose#1"])

        let log2 = History<String>()
        let (source2, alternative2) = (Source<Int>("s", log2), Source<Int>("alt", log2))
        let disposable = startLogging(source2.signal |> `catch` { _ in alternative2.signal }, into: log2)
        source2.fail(1)
        disposable.dispose()
        alternative2.emit(5)
        #expect(log2.recorded == ["s.subscribe#1", "alt.subscribe#1", "s.dispose#1", "alt.dispose#1"])
        #expect(alternative.starts == 0)
    }

    @Test func catchDropsAndDisposesTheAlternativeStartWhenDisposedWhileItStarts() {
        // The start is disposed from inside the alternative's generator: what that generator sends
        // then is dropped, and the start it returns arrives after the dispose and must be disposed
        // at once.
        let log = History<String>()
        let source = Source<Int>("s", log)
        let disposable = Atomic<(any Disposable)?>(value: nil)
        let alternative = Signal<Int, TestError> { subscriber in
            log.record("alt.subscribe")
            disposable.with { $0 }?.dispose()
            subscriber.putNext(9)  // after the dispose: not passed on
            return ActionDisposable { log.record("alt.dispose") }
        }
        _ = disposable.swap(startLogging(source.signal |> `catch` { _ in alternative }, into: log))
        source.fail(1)
        #expect(log.recorded == ["s.subscribe#1", "alt.subscribe", "s.dispose#1", "alt.dispose"])
    }

    // MARK: restart, recurse

    @Test func restartStartsAgainAfterEachCompletionAndNeverCompletes() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        let disposable = startLogging(restart(source.signal), into: log)
        source.emit(1)
        source.complete()
        source.emit(2)
        source.complete()
        disposable.dispose()
        source.complete()
        #expect(
            log.recorded == [
                "s.subscribe#1", "next 1", "s.subscribe#2", "s.dispose#1", "next 2", "s.subscribe#3", "s.dispose#2",
                "s.dispose#3",
            ])
    }

    @Test func restartPassesOnAnErrorAndStops() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        startLogging(restart(source.signal), into: log)
        source.complete()
        source.fail(2)
        #expect(
            log.recorded == [
                "s.subscribe#1", "s.subscribe#2", "s.dispose#1", "error TestError(code: 2)", "s.dispose#2",
            ])
        #expect(source.starts == 2)
    }

    /// 10,000 starts that complete before their generator returns: a loop, not 10,000 stack frames.
    @Test func restartLoopsOverSynchronousCompletions() {
        let (signal, starts) = synchronous(completingUntil: 10_000, failingFrom: 10_001)
        var values: [Int] = []
        var failure: TestError?
        restart(signal).start(next: { values.append($0) }, error: { failure = $0 })
        #expect(values == Array(1...10_001))
        #expect(failure == TestError(code: 10_001))
        #expect(starts.with { $0 } == 10_001)
    }

    /// SwiftSignalKit stores a start made during another's `start` first and the outer one last,
    /// which disposes the inner (still running) one. Here the running start stays.
    @Test func restartKeepsAStartMadeWhileTheFirstWasStarting() {
        let bag = DisposeBag()  // the live start holds its source's signal, which holds the start: the bag ends it
        let log = History<String>()
        let source = Source<Int>(
            "s", log,
            onStart: { subscriber, start in
                if start == 1 { subscriber.putCompletion() }
            })
        startLogging(restart(source.signal), into: log).disposed(by: bag)
        source.emit(7)
        #expect(log.recorded == ["s.subscribe#1", "s.dispose#1", "s.subscribe#2", "next 7"])
    }

    @Test func recurseIsRestart() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        startLogging(source.signal |> recurse(42), into: log)
        source.emit(1)
        source.complete()
        source.fail(3)
        #expect(
            log.recorded == [
                "s.subscribe#1", "next 1", "s.subscribe#2", "s.dispose#1", "error TestError(code: 3)", "s.dispose#2",
            ])

        let (signal, starts) = synchronous(completingUntil: 10_000, failingFrom: 10_001)
        (signal |> recurse(nil)).start()
        #expect(starts.with { $0 } == 10_001)
    }

    // MARK: retry

    /// The first start is made on the calling thread; the others on the queue, after waits that
    /// grow by the increment up to the maximum (on virtual time: the exact times of the starts).
    @Test(arguments: [(10, [0, 1, 3, 6]), (2, [0, 1, 3, 5])] as [(Double, [Double])])
    func retryStartsAgainOnTheQueueAfterGrowingWaitsAndNeverFails(maxDelay: Double, startTimes: [Double]) {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let starts = History<String>()
        let signal = Signal<Int, TestError> { subscriber in
            starts.record("\(scheduler.now) \(queue.isCurrent())")
            let start = starts.recorded.count
            subscriber.putNext(start)
            if start < 4 { subscriber.putError(TestError(code: start)) } else { subscriber.putCompletion() }
            return EmptyDisposable
        }
        let recording = scheduler.record(signal |> retry(1, maxDelay: maxDelay, onQueue: queue))
        #expect(scheduler.run())
        #expect(starts.recorded == zip(startTimes, [false, true, true, true]).map { "\($0) \($1)" })
        #expect(
            recording.events == [
                .next(startTimes[0], 1), .next(startTimes[1], 2), .next(startTimes[2], 3), .next(startTimes[3], 4),
                .completed(startTimes[3]),
            ])
    }

    /// The same waits as a diagram: each start sends "a" and fails at once; the starts come 1, 2,
    /// 3 and then (at most) 3 ticks apart.
    @Test func retryWaitsGrowByTheIncrementUpToTheMaximum() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        expectMarbles(marbles("[a^]", on: queue) |> retry(1, maxDelay: 3, onQueue: queue), "aa-a--a--a-", on: scheduler)
    }

    /// The retry scheduled before `dispose()` finds the start disposed when it runs, and does
    /// nothing.
    @Test func retryStopsOnDisposal() {
        let scheduler = TestScheduler()
        let log = History<String>()
        let source = Source<Int>("s", log)
        let disposable = startLogging(source.signal |> retry(1, maxDelay: 1, onQueue: scheduler.queue()), into: log)
        source.fail(1)
        disposable.dispose()
        #expect(scheduler.run())
        #expect(scheduler.now == 1)  // the retry ran, and did nothing
        #expect(log.recorded == ["s.subscribe#1", "s.dispose#1"])
    }

    @Test(arguments: [(0, 1), (1, 1), (3, 3)])
    func retryOnErrorFailsOnceMaxRetriesAttemptsHaveFailed(maxRetries: Int, attempts: Int) {
        let scheduler = TestScheduler()
        let starts = Atomic(value: 0)
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.putError(TestError(code: starts.modify { $0 + 1 }))
            return EmptyDisposable
        }
        let recording = scheduler.record(
            signal
                |> retry(
                    retryOnError: { _ in true }, delayIncrement: 1, maxDelay: 1, maxRetries: maxRetries,
                    onQueue: scheduler.queue()))
        #expect(scheduler.run())
        #expect(recording.events == [.error(Double(attempts - 1), TestError(code: attempts))])
        #expect(starts.with { $0 } == attempts)
    }

    @Test func retryOnErrorPassesOnARejectedErrorAtOnceAndRetriesWithoutLimit() {
        let scheduler = TestScheduler()
        let starts = Atomic(value: 0)
        let signal = Signal<Int, TestError> { subscriber in
            let start = starts.modify { $0 + 1 }
            subscriber.putNext(start)
            if start < 5 { subscriber.putError(TestError(code: 1)) } else { subscriber.putError(TestError(code: 2)) }
            return EmptyDisposable
        }
        let recording = scheduler.record(
            signal
                |> retry(
                    retryOnError: { $0.code == 1 }, delayIncrement: 1, maxDelay: 2, maxRetries: nil,
                    onQueue: scheduler.queue()))
        #expect(scheduler.run())
        #expect(
            recording.events == [
                .next(0, 1), .next(1, 2), .next(3, 3), .next(5, 4), .next(7, 5), .error(7, TestError(code: 2)),
            ])
    }

    // MARK: restartIfError, restartOrMapError

    @Test func restartIfErrorStartsAgainAfterEachErrorAndCompletesWithTheSource() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        let restarted: Signal<Int, NoError> = restartIfError(source.signal)
        restarted.start(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        source.fail(1)
        source.emit(2)
        source.complete()
        #expect(
            log.recorded == ["s.subscribe#1", "s.subscribe#2", "s.dispose#1", "next 2", "completed", "s.dispose#2"])
    }

    @Test func restartIfErrorLoopsOverSynchronousErrors() {
        let starts = Atomic(value: 0)
        let signal = Signal<Int, TestError> { subscriber in
            let start = starts.modify { $0 + 1 }
            if start <= 10_000 { subscriber.putError(TestError(code: start)) } else { subscriber.putCompletion() }
            return EmptyDisposable
        }
        var completed = false
        restartIfError(signal).start(completed: { completed = true })
        #expect(completed)
        #expect(starts.with { $0 } == 10_001)
    }

    @Test func restartOrMapErrorRestartsOrFailsAsTheConditionSays() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        let mapped: Signal<Int, String> =
            source.signal
            |> restartOrMapError { (error: TestError) -> RestartOrMapErrorCondition<String> in
                log.record("condition \(error.code)")
                return error.code == 1 ? .restart : .error("mapped \(error.code)")
            }
        startLogging(mapped, into: log)
        source.emit(1)
        source.fail(1)
        source.emit(2)
        source.fail(2)
        #expect(
            log.recorded == [
                "s.subscribe#1", "next 1", "condition 1", "s.subscribe#2", "s.dispose#1", "next 2", "condition 2",
                "error mapped 2", "s.dispose#2",
            ])
    }

    @Test func restartOrMapErrorPassesOnCompletion() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        startLogging(
            source.signal |> restartOrMapError { (_: TestError) -> RestartOrMapErrorCondition<Int> in .restart },
            into: log)
        source.fail(1)
        source.complete()
        #expect(log.recorded == ["s.subscribe#1", "s.subscribe#2", "s.dispose#1", "completed", "s.dispose#2"])
    }

    // MARK: a synchronous loop whose start ends downstream

    // A source that ends synchronously makes the loop restart it before the generator of the
    // restarting signal returns; a downstream `take(3)` ends the start during that loop. Then the
    // loop must stop, not spin forever (a watchdog ends the process after 3 s).
    //
    // The downstream `take`'s end cannot dispose that start before its generator returns (as in
    // SwiftSignalKit); the loop sees it among the starts being made around it, and starts nothing
    // more (SubscriptionsBeingMade.swift).

    @Test func restartOfACachedValueStopsWhenADownstreamTakeEnds() async {
        await #expect(processExitsWith: .success) {
            startWatchdog(seconds: 3)
            let cached = ValuePromise(42)
            var received = 0
            (restart(cached.get() |> take(1)) |> take(3)).start(next: { _ in received += 1 })
            guard received == 3 else { exit(1) }
        }
    }

    @Test func restartIfErrorOfASynchronousFailureStopsWhenADownstreamTakeEnds() async {
        await #expect(processExitsWith: .success) {
            startWatchdog(seconds: 3)
            let failing = Signal<Int, TestError> { subscriber in
                subscriber.putNext(7)
                subscriber.putError(TestError(code: 1))
                return EmptyDisposable
            }
            var received: [Int] = []
            var completed = false
            (restartIfError(failing) |> take(3)).start(
                next: { received.append($0) }, completed: { completed = true })
            guard received == [7, 7, 7], completed else { exit(1) }
        }
    }

    @Test func restartOrMapErrorOfASynchronousFailureStopsWhenADownstreamTakeEnds() async {
        await #expect(processExitsWith: .success) {
            startWatchdog(seconds: 3)
            let failing = Signal<Int, TestError> { subscriber in
                subscriber.putNext(7)
                subscriber.putError(TestError(code: 1))
                return EmptyDisposable
            }
            var received: [Int] = []
            (failing |> restartOrMapError { (_: TestError) -> RestartOrMapErrorCondition<TestError> in .restart }
                |> take(3)).start(next: { received.append($0) })
            guard received == [7, 7, 7] else { exit(1) }
        }
    }

    @Test func aRestartLoopStopsWhenAnyStartBeingMadeAroundItEnds() async {
        await #expect(processExitsWith: .success) {
            startWatchdog(seconds: 3)
            let cached = ValuePromise(42)
            var received: [Int] = []
            // The loop's start is made inside combineLatest's, which is made inside take's (its
            // inputs start in order: the single first, so that the loop's values combine).
            (combineLatest(.single(1), restart(cached.get() |> take(1))) |> map { $0 + $1 } |> take(2))
                .start(next: { received.append($0) })
            guard received == [43, 43] else { exit(1) }
        }
    }

    @Test func aRestartLoopWhoseStartsAroundAreAllLiveKeepsRestarting() {
        var count = 0
        let cached = ValuePromise(1)
        let disposable = (restart(cached.get() |> take(1)) |> take(1_000)).start(next: { count += $0 })
        #expect(count == 1_000)
        disposable.dispose()
    }

    // MARK: a loop paused by a start around it that is not its downstream

    // A start being made around a loop that ends pauses the loop only until that start's generator
    // returns: if that start's end does not dispose the loop (it was not its upstream), the loop
    // resumes. Here the loop feeds a promise, set from inside another start's generator, which the
    // poll's second run completes: the promise gets every value either way.

    /// Runs 1, 2, 3 complete synchronously, run 4 stays; run 2 first completes `other`'s start.
    private func poll(completing other: Atomic<Subscriber<Int, NoError>?>) -> Signal<Int, NoError> {
        let runs = Atomic(value: 0)
        return Signal { subscriber in
            let run = runs.modify { $0 + 1 }
            subscriber.putNext(run)
            if run == 2 { other.with { $0 }?.putCompletion() }
            if run < 4 { subscriber.putCompletion() }
            return EmptyDisposable
        }
    }

    @Test(arguments: [false, true])
    func aPromiseSetToARestartLoopGetsEveryValueAlsoFromInsideAGeneratorThatEnds(insideAGenerator: Bool) {
        let other = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let promise = Promise<Int>()
        var seen: [Int] = []
        let listening = promise.get().start(next: { seen.append($0) })
        if insideAGenerator {
            var otherCompleted = false
            Signal<Int, NoError> { subscriber in
                other.swap(subscriber)
                promise.set(restart(poll(completing: other)))  // set up lazily, on first use
                return EmptyDisposable
            }.start(completed: { otherCompleted = true })
            #expect(otherCompleted)  // ended by the poll's second run, while its generator ran
        } else {
            promise.set(restart(poll(completing: other)))
        }
        #expect(seen == [1, 2, 3, 4])
        listening.dispose()
    }

    @Test func aLazyPromiseWhoseFirstStartEndsAtOnceStillGetsEveryValueOfItsLoop() {
        let promise = Promise<Int>(initializeOnFirstAccess: restart(poll(completing: Atomic(value: nil))))
        var first: [Int] = []
        // The loop starts inside `take(1)`'s generator, which ends with its first value.
        (promise.get() |> take(1)).start(next: { first.append($0) })
        #expect(first == [1])
        #expect(current(promise.get()) == 4)
    }

    /// A cached value's first value, then its end, synchronously: counts its starts in `starts`.
    private func cachedValue(countingStartsIn starts: Atomic<Int>) -> Signal<Int, NoError> {
        let cached = ValuePromise(1)
        return Signal { subscriber in
            starts.modify { $0 + 1 }
            return (cached.get() |> take(1)).start(
                next: { subscriber.putNext($0) }, completed: { subscriber.putCompletion() })
        }
    }

    @Test func aLoopPausedByItsDownstreamTakeIsDisposedByIt() {
        let starts = Atomic(value: 0)
        let counted = cachedValue(countingStartsIn: starts)
        var received = 0
        (restart(counted) |> take(3)).start(next: { received += $0 })
        #expect(received == 3)
        #expect(starts.with { $0 } == 3)  // the fourth was asked for, then the loop was disposed
    }

    @Test func aLoopPausedUnderMapToSignalThenOrCatchIsDisposedByTheTakeAfterThem() {
        let starts = Atomic(value: 0)
        let counted = cachedValue(countingStartsIn: starts)
        let chains: [(Signal<Int, NoError>) -> Signal<Int, NoError>] = [
            { loop in Signal<Int, NoError>.single(0) |> mapToSignal { _ in loop } },
            { loop in Signal<Int, NoError>.complete() |> then(loop) },
            { loop in Signal<Int, TestError>.fail(TestError(code: 1)) |> `catch` { _ in loop } },
        ]
        for chain in chains {
            starts.swap(0)
            var received = 0
            (chain(restart(counted)) |> take(3)).start(next: { received += $0 })
            #expect(received == 3)
            #expect(starts.with { $0 } == 3)
        }
    }

    // MARK: a synchronous loop nothing can stop

    // An operator after the loop that waits for another input or for a timer starts those only
    // once the loop's start returns, which it never does: the loop stops the program with a
    // message after `synchronousLimit` starts in a row (SwiftSignalKit overflows the stack).

    @Test func aSynchronousRestartLoopInsideCombineLatestStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            (combineLatest(restart(Signal<Int, NoError>.single(1)), .single(2)) |> take(3)).start()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains("A restart loop (restart, recurse, restartIfError or restartOrMapError)"))
        #expect(message.contains("started its source 100000 times in a row"))
    }

    @Test func aSynchronousRestartIfErrorLoopUnderATimeoutStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            (restartIfError(Signal<Int, TestError>.fail(TestError(code: 1)))
                |> timeout(0.3, queue: Queue(), alternate: .single(0))).start()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("started its source 100000 times in a row"))
    }

    @Test func aLoopJustBelowTheLimitRunsToTheEnd() {
        let cached = ValuePromise(1)
        var received = 0
        (restart(cached.get() |> take(1)) |> take(99_999)).start(next: { received += $0 })
        #expect(received == 99_999)
    }

    // MARK: Bad input: misuse stops with a message; a wait that is not a number would never end, silently

    @Test func retryWithANaNDelayIncrementStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (Signal<Int, TestError>.never() |> retry(.nan, maxDelay: 1, onQueue: Queue()))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("retry(_:maxDelay:onQueue:) needs a delayIncrement in seconds, got nan"))
    }

    @Test func retryOnErrorWithANaNMaxDelayStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let retrying: (Signal<Int, TestError>) -> Signal<Int, TestError> = retry(
                retryOnError: { _ in true }, delayIncrement: 1, maxDelay: .nan, maxRetries: nil, onQueue: Queue())
            _ = retrying
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "retry(retryOnError:delayIncrement:maxDelay:maxRetries:onQueue:) needs a maxDelay in seconds, got nan"))
    }
}

/// Re-types the alternative's error, to show that `catch` changes the error type.
private func mapErrorToString(_ signal: Signal<Int, TestError>) -> Signal<Int, String> {
    Signal { subscriber in
        signal.start(
            next: { subscriber.putNext($0) }, error: { subscriber.putError("alt \($0.code)") },
            completed: { subscriber.putCompletion() })
    }
}
