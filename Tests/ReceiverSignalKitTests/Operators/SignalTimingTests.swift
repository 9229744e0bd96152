import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// The timing operators on virtual time (a `TestScheduler`): each expectation names the exact
// virtual time of each event, as a marble diagram where one line says it (one character a tick
// of one virtual second: see TestSupport's Marbles.swift), and nothing waits. Two real-time smoke
// tests show that the real `Queue` path still works: `delayOnARealQueueStartsOnItAfterTheDelay`
// and `timeoutOnARealQueueStartsTheAlternateOnIt` (they wait on a semaphore for a 10 ms timer).
@Suite(.detectingLeaks) struct SignalTimingTests {
    /// A signal that logs where and when each start ran, then hands its subscriber to `keep`.
    private func upstream(
        _ scheduler: TestScheduler, on queue: Queue, log: History<String>, disposable: any Disposable = EmptyDisposable,
        keep: @escaping (Subscriber<Int, TestError>) -> Void = { _ in }
    ) -> Signal<Int, TestError> {
        Signal { subscriber in
            log.record("started at \(scheduler.now), on queue \(queue.isCurrent())")
            keep(subscriber)
            return disposable
        }
    }

    // MARK: delay

    /// A hot source: what it sends before the start, 2 ticks late, is lost; what it sends after
    /// passes at once, at its own time.
    @Test func delayDelaysTheStartOnTheQueueNotEachValue() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        expectMarbles(hotMarbles("a--b-c|", on: queue) |> delay(2, queue: queue), "---b-c|", on: scheduler)
        // A cold one starts at 2, so all of it is 2 ticks late.
        expectMarbles(marbles("a--b-c|", on: queue) |> delay(2, queue: queue), "--a--b-c|", on: scheduler)
    }

    @Test func delayDelaysAnErrorToo() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        expectMarbles(marbles("[a^]", on: queue) |> delay(2, queue: queue), "--[a^]", on: scheduler)
    }

    @Test func disposingBeforeTheDelayEndsPreventsTheStart() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let recording = scheduler.record(upstream(scheduler, on: queue, log: log) |> delay(2, queue: queue))
        scheduler.advance(by: 1)
        recording.dispose()
        #expect(scheduler.run())  // the timer is gone
        #expect(scheduler.now == 1)
        #expect(log.recorded.isEmpty)
    }

    @Test func disposingAfterTheDelayDisposesTheUpstream() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (log, upstreamDisposable) = (History<String>(), CountingDisposable())
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log, disposable: upstreamDisposable) |> delay(1, queue: queue))
        scheduler.advance(by: 1)
        #expect(log.recorded == ["started at 1.0, on queue true"])
        #expect(upstreamDisposable.count == 0)
        recording.dispose()
        #expect(upstreamDisposable.count == 1)
    }

    @Test func delayStartedOnItsQueueStillWaitsForTheTimer() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        var recording: Recording<Int, TestError>?
        queue.sync { recording = scheduler.record(Signal<Int, TestError>.single(4) |> delay(1, queue: queue)) }
        #expect(recording?.events == [])
        scheduler.advance(by: 1)
        #expect(recording?.events == [.next(1, 4), .completed(1)])
    }

    /// A negative delay is not misuse: the upstream starts as soon as the queue runs the timer.
    @Test func aNegativeDelayStartsAtOnceOnTheQueue() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log, keep: { $0.putCompletion() }) |> delay(-1, queue: queue))
        #expect(log.recorded.isEmpty)
        scheduler.advance()
        #expect(log.recorded == ["started at 0.0, on queue true"])
        #expect(recording.events == [.completed(0)])
    }

    /// Real time: the real `Queue` path of `delay` (a dispatch timer, then the start on the queue).
    @Test func delayOnARealQueueStartsOnItAfterTheDelay() {
        let queue = Queue()
        let done = DispatchSemaphore(value: 0)
        let log = History<String>()
        let upstream = Signal<Int, TestError> { subscriber in
            log.record("started, on queue \(queue.isCurrent())")
            subscriber.putCompletion()
            return EmptyDisposable
        }
        queue.sync {  // on the queue, so the timer's completion can only run after this block
            (upstream |> delay(0.01, queue: queue)).start(completed: { done.signal() })
            log.record("start returned")
        }
        expectSignal(done)
        #expect(log.recorded == ["start returned", "started, on queue true"])
    }

    // MARK: suspendAwareDelay

    @Test func suspendAwareDelayWithinGranularityUsesOneTimer() {
        // 2 s <= 1.1 x 4 s: one 2 s timer, not a first check after 4 s.
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log, keep: { $0.putCompletion() }) |> suspendAwareDelay(2, queue: queue)
        )
        scheduler.advance(by: 1.999)
        #expect(log.recorded.isEmpty)
        #expect(scheduler.run())
        #expect(log.recorded == ["started at 2.0, on queue true"])
        #expect(recording.events == [.completed(2)])
    }

    /// 10 s in checks every 2 s: the check at 8 finds the deadline within 1.1 granularities and
    /// waits the remaining 2 s with one timer; the checks stop.
    @Test func suspendAwareDelayBeyondGranularityChecksTheClockThenWaitsTheRest() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log, keep: { $0.putCompletion() })
                |> suspendAwareDelay(10, granularity: 2, queue: queue))
        scheduler.advance(by: 9.999)
        #expect(log.recorded.isEmpty)
        #expect(scheduler.run())  // and nothing repeats after the start
        #expect(log.recorded == ["started at 10.0, on queue true"])
        #expect(recording.events == [.completed(10)])
    }

    @Test func disposingASuspendAwareDelayPreventsTheStart() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        scheduler.record(upstream(scheduler, on: queue, log: log) |> suspendAwareDelay(6, granularity: 1, queue: queue))
            .dispose()
        scheduler.record(upstream(scheduler, on: queue, log: log) |> suspendAwareDelay(3, queue: queue)).dispose()
        #expect(scheduler.run())
        #expect(log.recorded.isEmpty)
    }

    @Test func disposingASuspendAwareDelayWhileItChecksTheClockPreventsTheStart() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log) |> suspendAwareDelay(10, granularity: 1, queue: queue))
        scheduler.advance(by: 3.5)  // three checks have run
        recording.dispose()
        #expect(scheduler.run())  // the checking timer is gone
        #expect(scheduler.now == 3.5)
        #expect(log.recorded.isEmpty)
    }

    // MARK: timeout

    /// A value after the start cancels the timer: the alternate ("x") never comes, though the
    /// upstream then falls silent for longer than the timeout, and the upstream stays started.
    @Test func aTimelyUpstreamNeverStartsTheAlternate() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let timed = marbles("-a-b", on: queue) |> timeout(2, queue: queue, alternate: marbles("x|", on: queue))
        expectMarbles(timed, "-a-b----", on: scheduler)  // b: the upstream is still started
        #expect(scheduler.run())  // no timer left either
    }

    @Test func aSilentUpstreamIsReplacedByTheAlternateOnTheQueue() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let upstreamDisposable = ActionDisposable { log.record("upstream disposed at \(scheduler.now)") }
        let alternate = Signal<Int, TestError> { subscriber in
            log.record("alternate started at \(scheduler.now), on queue \(queue.isCurrent())")
            subscriber.putNext(9)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log, disposable: upstreamDisposable)
                |> timeout(3, queue: queue, alternate: alternate))
        scheduler.advance(by: 2.999)
        #expect(recording.events.isEmpty)
        scheduler.advance(by: 0.001)
        #expect(recording.events == [.next(3, 9), .completed(3)])
        #expect(
            log.recorded == [
                "started at 0.0, on queue false", "alternate started at 3.0, on queue true", "upstream disposed at 3.0",
            ])
    }

    @Test func anUpstreamErrorCancelsTheTimer() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let alternateStarts = History<Void>()
        let alternate = Signal<String, TestError> { _ in
            alternateStarts.record(())
            return EmptyDisposable
        }
        expectMarbles(
            marbles("-^", on: queue) |> timeout(2, queue: queue, alternate: alternate), "-^----", on: scheduler)
        #expect(alternateStarts.recorded.isEmpty)  // the timer was cancelled, not only unheard
    }

    // The quirk kept from SwiftSignalKit: a value sent while the upstream is being started (tick 0
    // of a cold diagram) comes before the timer is started, so it does not cancel it.
    @Test func aValueSentDuringTheStartDoesNotCancelTheTimer() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let timed = marbles("a", on: queue) |> timeout(2, queue: queue, alternate: marbles("x|", on: queue))
        expectMarbles(timed, "a-x|", on: scheduler)
    }

    @Test func disposingATimeoutDisposesTheUpstreamAndStopsTheTimer() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let log = History<String>()
        let upstreamDisposable = CountingDisposable()
        let alternate = Signal<Int, TestError> { _ in
            log.record("alternate started")
            return EmptyDisposable
        }
        let recording = scheduler.record(
            upstream(scheduler, on: queue, log: log, disposable: upstreamDisposable)
                |> timeout(2, queue: queue, alternate: alternate))
        scheduler.advance(by: 1)
        recording.dispose()
        #expect(scheduler.run())
        #expect(scheduler.now == 1)
        #expect(log.recorded == ["started at 0.0, on queue false"])
        #expect(upstreamDisposable.count == 1)
    }

    /// Real time: the real `Queue` path of `timeout` (a dispatch timer, the alternate on its queue).
    @Test func timeoutOnARealQueueStartsTheAlternateOnIt() {
        let queue = Queue()
        let done = DispatchSemaphore(value: 0)
        let seen = History<String>()
        let alternate = Signal<Int, TestError> { subscriber in
            subscriber.putNext(queue.isCurrent() ? 1 : 0)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        (Signal<Int, TestError>.never() |> timeout(0.01, queue: queue, alternate: alternate)).start(
            next: { seen.record("next \($0)") }, completed: { done.signal() })
        expectSignal(done)
        #expect(seen.recorded == ["next 1"])
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
}
