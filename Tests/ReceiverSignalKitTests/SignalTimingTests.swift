import Dispatch
import ReceiverSignalKit
import Testing

// Timings are short (tens of milliseconds) and the tests assert the order of events, never how
// long something took: each waits on a semaphore with a generous timeout instead.
@Suite struct SignalTimingTests {
    enum Event: Equatable {
        case next(Int)
        case error(TestError)
        case completed
        case mark(String)
    }

    /// Waits for `semaphore`, failing (never hanging) if it is not signalled within 10 s.
    private func expectSignal(_ semaphore: DispatchSemaphore, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(semaphore.wait(timeout: .now() + 10) == .success, "timed out", sourceLocation: sourceLocation)
    }

    /// Waits until `queue` has run a block scheduled `seconds` from now.
    private func settle(_ queue: Queue, for seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.after(seconds) { done.signal() }
        expectSignal(done)
    }

    @discardableResult
    private func record(_ signal: Signal<Int, TestError>, into events: History<Event>, done: DispatchSemaphore? = nil)
        -> any Disposable
    {
        signal.start(
            next: { events.record(.next($0)) },
            error: {
                events.record(.error($0))
                done?.signal()
            },
            completed: {
                events.record(.completed)
                done?.signal()
            }
        )
    }

    /// A signal whose generator marks where it ran, then hands its subscriber to `keep`.
    private func upstream(
        on queue: Queue, events: History<Event>, disposable: any Disposable = EmptyDisposable,
        keep: @escaping (Subscriber<Int, TestError>) -> Void = { _ in }
    ) -> Signal<Int, TestError> {
        Signal { subscriber in
            events.record(.mark("started, on queue \(queue.isCurrent())"))
            keep(subscriber)
            return disposable
        }
    }

    // MARK: delay

    @Test func delayDelaysTheStartOnTheQueueNotEachValue() {
        let queue = Queue()
        let events = History<Event>()
        let subscriber = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let started = DispatchSemaphore(value: 0)
        record(
            upstream(
                on: queue, events: events,
                keep: {
                    subscriber.swap($0)
                    started.signal()
                }) |> delay(0.05, queue: queue), into: events)
        events.record(.mark("start returned"))
        queue.after(0.005) { events.record(.mark("before the delay")) }
        expectSignal(started)
        // Started: values now pass straight through, synchronously, on the caller's thread.
        subscriber.with { $0 }?.putNext(1)
        events.record(.mark("put 1 returned"))
        subscriber.with { $0 }?.putCompletion()
        #expect(
            events.recorded == [
                .mark("start returned"), .mark("before the delay"), .mark("started, on queue true"),
                .next(1), .mark("put 1 returned"), .completed,
            ])
    }

    @Test func delayDelaysAnErrorToo() {
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        record(Signal<Int, TestError>.fail(TestError(code: 1)) |> delay(0.05, queue: queue), into: events, done: done)
        events.record(.mark("start returned"))
        queue.after(0.005) { events.record(.mark("before the delay")) }
        expectSignal(done)
        #expect(events.recorded == [.mark("start returned"), .mark("before the delay"), .error(TestError(code: 1))])
    }

    @Test func disposingBeforeTheDelayEndsPreventsTheStart() {
        let queue = Queue()
        let events = History<Event>()
        record(upstream(on: queue, events: events) |> delay(0.03, queue: queue), into: events).dispose()
        settle(queue, for: 0.15)
        #expect(events.recorded.isEmpty)
    }

    @Test func disposingAfterTheDelayDisposesTheUpstream() {
        let queue = Queue()
        let events = History<Event>()
        let upstreamDisposable = CountingDisposable()
        let started = DispatchSemaphore(value: 0)
        let disposable = record(
            upstream(
                on: queue, events: events, disposable: upstreamDisposable,
                keep: { _ in
                    started.signal()
                }) |> delay(0.01, queue: queue), into: events)
        expectSignal(started)
        queue.queue.sync {}  // the timer's completion has finished: the start is recorded
        #expect(upstreamDisposable.count == 0)
        disposable.dispose()
        #expect(upstreamDisposable.count == 1)
    }

    @Test func delayStartedOnItsQueueStillWaitsForTheTimer() {
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        queue.sync {
            record(Signal<Int, TestError>.single(4) |> delay(0.01, queue: queue), into: events, done: done)
            events.record(.mark("start returned"))
        }
        expectSignal(done)
        #expect(events.recorded == [.mark("start returned"), .next(4), .completed])
    }

    // MARK: suspendAwareDelay

    @Test func suspendAwareDelayWithinGranularityUsesOneTimer() {
        // 0.05 s ≤ 1.1 × 4 s: one 0.05 s timer, not a first check after 4 s.
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        record(
            upstream(on: queue, events: events, keep: { $0.putCompletion() }) |> suspendAwareDelay(0.05, queue: queue),
            into: events, done: done)
        events.record(.mark("start returned"))
        queue.after(0.005) { events.record(.mark("before the delay")) }
        queue.after(2) { events.record(.mark("2 s")) }
        expectSignal(done)
        #expect(
            events.recorded == [
                .mark("start returned"), .mark("before the delay"), .mark("started, on queue true"), .completed,
            ])
    }

    @Test func suspendAwareDelayBeyondGranularityChecksTheClockThenWaitsTheRest() {
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        record(
            upstream(on: queue, events: events, keep: { $0.putCompletion() })
                |> suspendAwareDelay(0.12, granularity: 0.02, queue: queue), into: events, done: done)
        queue.after(0.01) { events.record(.mark("before the delay")) }
        expectSignal(done)
        #expect(events.recorded == [.mark("before the delay"), .mark("started, on queue true"), .completed])
    }

    @Test func disposingASuspendAwareDelayPreventsTheStart() {
        let queue = Queue()
        let events = History<Event>()
        record(
            upstream(on: queue, events: events) |> suspendAwareDelay(0.06, granularity: 0.01, queue: queue),
            into: events
        )
        .dispose()
        record(upstream(on: queue, events: events) |> suspendAwareDelay(0.03, queue: queue), into: events).dispose()
        settle(queue, for: 0.2)
        #expect(events.recorded.isEmpty)
    }

    @Test func disposingASuspendAwareDelayWhileItChecksTheClockPreventsTheStart() {
        let queue = Queue()
        let events = History<Event>()
        let disposable = record(
            upstream(on: queue, events: events) |> suspendAwareDelay(0.1, granularity: 0.01, queue: queue),
            into: events)
        settle(queue, for: 0.03)  // a few checks have run
        disposable.dispose()
        settle(queue, for: 0.2)
        #expect(events.recorded.isEmpty)
    }

    // MARK: timeout

    @Test func aTimelyUpstreamNeverStartsTheAlternate() {
        let queue = Queue()
        let events = History<Event>()
        let alternate = Signal<Int, TestError> { subscriber in
            events.record(.mark("alternate started"))
            return EmptyDisposable
        }
        let kept = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let upstreamDisposable = CountingDisposable()
        record(
            upstream(on: queue, events: events, disposable: upstreamDisposable, keep: { kept.swap($0) })
                |> timeout(0.05, queue: queue, alternate: alternate), into: events)
        kept.with { $0 }?.putNext(1)  // after the start: cancels the timer
        settle(queue, for: 0.2)
        #expect(events.recorded == [.mark("started, on queue false"), .next(1)])
        #expect(upstreamDisposable.count == 0)
    }

    @Test func aSilentUpstreamIsReplacedByTheAlternateOnTheQueue() {
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        let upstreamDisposable = ActionDisposable { events.record(.mark("upstream disposed")) }
        let alternate = Signal<Int, TestError> { subscriber in
            events.record(.mark("alternate started, on queue \(queue.isCurrent())"))
            subscriber.putNext(9)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        record(
            upstream(on: queue, events: events, disposable: upstreamDisposable)
                |> timeout(0.03, queue: queue, alternate: alternate), into: events, done: done)
        expectSignal(done)
        settle(queue, for: 0)
        #expect(
            events.recorded == [
                .mark("started, on queue false"), .mark("alternate started, on queue true"), .next(9), .completed,
                .mark("upstream disposed"),
            ])
    }

    @Test func anUpstreamErrorCancelsTheTimer() {
        let queue = Queue()
        let events = History<Event>()
        let alternate = Signal<Int, TestError> { _ in
            events.record(.mark("alternate started"))
            return EmptyDisposable
        }
        let kept = Atomic<Subscriber<Int, TestError>?>(value: nil)
        record(
            upstream(on: queue, events: events, keep: { kept.swap($0) })
                |> timeout(0.03, queue: queue, alternate: alternate),
            into: events)
        kept.with { $0 }?.putError(TestError(code: 2))
        settle(queue, for: 0.15)
        #expect(events.recorded == [.mark("started, on queue false"), .error(TestError(code: 2))])
    }

    // The quirk kept from SwiftSignalKit: a value sent while the upstream is being started comes
    // before the timer is started, so it does not cancel it.
    @Test func aValueSentDuringTheStartDoesNotCancelTheTimer() {
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        record(
            upstream(on: queue, events: events, keep: { $0.putNext(1) })
                |> timeout(0.03, queue: queue, alternate: .single(2)), into: events, done: done)
        expectSignal(done)
        #expect(events.recorded == [.mark("started, on queue false"), .next(1), .next(2), .completed])
    }

    @Test func disposingATimeoutDisposesTheUpstreamAndStopsTheTimer() {
        let queue = Queue()
        let events = History<Event>()
        let upstreamDisposable = CountingDisposable()
        let alternate = Signal<Int, TestError> { _ in
            events.record(.mark("alternate started"))
            return EmptyDisposable
        }
        record(
            upstream(on: queue, events: events, disposable: upstreamDisposable)
                |> timeout(0.03, queue: queue, alternate: alternate), into: events
        ).dispose()
        settle(queue, for: 0.15)
        #expect(events.recorded == [.mark("started, on queue false")])
        #expect(upstreamDisposable.count == 1)
    }

    // MARK: Bad input: misuse stops with a message; a duration that is not a number would never fire, silently

    /// The message of a process that stopped, as `#expect(processExitsWith:)` observed it.
    private func message(of result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func delayOfNaNStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (Signal<Int, NoError>.single(1) |> delay(.nan, queue: Queue()))
        }
        #expect(message(of: result).contains("delay(_:queue:) needs a timeout in seconds, got nan"))
    }

    @Test func suspendAwareDelayOfNaNStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (Signal<Int, NoError>.single(1) |> suspendAwareDelay(.nan, queue: Queue()))
        }
        #expect(
            message(of: result).contains("suspendAwareDelay(_:granularity:queue:) needs a timeout in seconds, got nan"))
    }

    /// SwiftSignalKit's repeating timer crashes inside Dispatch on a negative granularity.
    @Test func suspendAwareDelayWithANegativeGranularityStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (Signal<Int, NoError>.single(1) |> suspendAwareDelay(10, granularity: -1, queue: Queue()))
        }
        #expect(
            message(of: result).contains(
                "suspendAwareDelay(_:granularity:queue:) needs a granularity above 0 seconds, got -1.0"))
    }

    @Test func suspendAwareDelayWithAGranularityOf0StopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (Signal<Int, NoError>.single(1) |> suspendAwareDelay(10, granularity: 0, queue: Queue()))
        }
        #expect(
            message(of: result).contains(
                "suspendAwareDelay(_:granularity:queue:) needs a granularity above 0 seconds, got 0.0"))
    }

    @Test func timeoutOfNaNStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = (Signal<Int, NoError>.never() |> timeout(.nan, queue: Queue(), alternate: .single(1)))
        }
        #expect(message(of: result).contains("timeout(_:queue:alternate:) needs a timeout in seconds, got nan"))
    }

    /// A negative delay is not misuse: the upstream starts as soon as the queue runs the timer.
    @Test func aNegativeDelayStartsAtOnceOnTheQueue() {
        let queue = Queue()
        let events = History<Event>()
        let done = DispatchSemaphore(value: 0)
        record(
            upstream(on: queue, events: events, keep: { $0.putCompletion() }) |> delay(-1, queue: queue), into: events,
            done: done)
        expectSignal(done)
        #expect(events.recorded == [.mark("started, on queue true"), .completed])
    }
}
