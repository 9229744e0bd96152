import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// The scheduler itself: its timeline, its order, its threads, and what it lets go of. Every
// expectation names exact virtual times. Where a test runs threads, each waits for a handshake
// (a semaphore another thread signals at a known point), bounded so that a bug fails instead of
// hanging; no outcome depends on how long anything takes.
@Suite(.detectingLeaks) struct TestSchedulerTests {
    @Test func timeStartsAtZeroAndMovesOnlyWhenAdvanced() {
        let scheduler = TestScheduler()
        #expect(scheduler.now == 0)
        scheduler.advance(by: 1.5)
        #expect(scheduler.now == 1.5)
        scheduler.advance(to: 4)
        #expect(scheduler.now == 4)
        scheduler.advance()
        #expect(scheduler.now == 4)
    }

    @Test func workRunsAtItsDueTimeNotBefore() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<Double>()
        queue.after(2) { seen.record(scheduler.now) }
        scheduler.advance(by: 1.999)
        #expect(seen.recorded.isEmpty)
        scheduler.advance(by: 0.001)
        #expect(seen.recorded == [2])
    }

    /// Time counts whole nanoseconds: 0.1 then 0.2 seconds later is the literal 0.3.
    @Test func decimalDelaysAddUpToTheLiteral() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<Double>()
        queue.after(0.1) { queue.after(0.2) { seen.record(scheduler.now) } }
        scheduler.advance(by: 0.3)
        #expect(seen.recorded == [0.3])
    }

    @Test func workDueAtTheSameTimeRunsInTheOrderItWasScheduled() {
        let scheduler = TestScheduler()
        let (a, b) = (scheduler.queue(name: "a"), scheduler.queue(name: "b"))
        let order = History<String>()
        a.after(1) { order.record("a1") }
        b.after(1) { order.record("b1") }
        a.after(0.5) { a.after(0.5) { order.record("a1, scheduled at 0.5") } }
        b.justDispatch { order.record("b now") }
        a.after(1) { order.record("a1 again") }
        scheduler.advance(by: 1)
        #expect(order.recorded == ["b now", "a1", "b1", "a1 again", "a1, scheduled at 0.5"])
    }

    @Test func workScheduledWhileAdvancingRunsInTheSameAdvanceAtItsOwnTime() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<String>()
        queue.after(1) {
            seen.record("first at \(scheduler.now)")
            queue.after(1) { seen.record("second at \(scheduler.now)") }
            queue.after(5) { seen.record("third at \(scheduler.now)") }
        }
        scheduler.advance(by: 3)
        #expect(seen.recorded == ["first at 1.0", "second at 2.0"])
        #expect(scheduler.now == 3)
        scheduler.advance(to: 6)
        #expect(seen.recorded == ["first at 1.0", "second at 2.0", "third at 6.0"])
    }

    /// Work that would run at the end of time or later is not kept: `run()` does not wait for it.
    @Test func workThatWouldNeverRunIsNotScheduled() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<Void>()
        queue.after(.infinity) { seen.record(()) }
        scheduler.advance(by: 1)
        queue.after(1e300) { seen.record(()) }  // past what 64 bits of nanoseconds count
        #expect(scheduler.run())
        #expect(scheduler.now == 1)
        #expect(seen.recorded.isEmpty)
    }

    /// An advance past what 64 bits of nanoseconds count stops there (about 292 years).
    @Test func anAdvanceBeyondTheEndOfTimeStopsThere() {
        let scheduler = TestScheduler()
        let seen = History<Double>()
        scheduler.queue().after(1) { seen.record(scheduler.now) }
        scheduler.advance(by: 0.5)
        scheduler.advance(by: 1e300)  // the sum overflows
        #expect(seen.recorded == [1])
        #expect(scheduler.now == Double(Int64.max - 1) / 1e9)
    }

    /// The hook's cancel, as a `Timer` uses it, of work that has run already: nothing happens.
    @Test func cancellingWorkThatRanDoesNothing() throws {
        let scheduler = TestScheduler()
        let virtual = try #require(scheduler.queue().virtual)
        let seen = History<Double>()
        let id = virtual.schedule(after: 1) { seen.record(scheduler.now) }
        scheduler.advance(by: 1)
        virtual.cancel(id)
        virtual.cancel(0)
        #expect(seen.recorded == [1])
        #expect(scheduler.run())
    }

    @Test func workWithNoDelayWaitsForTheNextAdvance() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<String>()
        queue.async { seen.record("async") }
        queue.justDispatchWithQoS(qos: .userInteractive) { seen.record("with QoS") }
        queue.after(-1) { seen.record("negative delay") }
        #expect(seen.recorded.isEmpty)
        scheduler.advance()
        #expect(seen.recorded == ["async", "with QoS", "negative delay"])
        #expect(scheduler.now == 0)
    }

    @Test func theQueueIsCurrentInsideItsWorkOnlyAndAsyncRunsInlineThere() {
        let scheduler = TestScheduler()
        let (queue, other) = (scheduler.queue(), scheduler.queue())
        let seen = History<String>()
        #expect(!queue.isCurrent())
        queue.async {
            seen.record("current \(queue.isCurrent()), other \(other.isCurrent())")
            queue.async { seen.record("inline") }
            queue.justDispatch { seen.record("dispatched") }
            seen.record("end of work")
        }
        scheduler.advance()
        #expect(seen.recorded == ["current true, other false", "inline", "end of work", "dispatched"])
        #expect(!queue.isCurrent())
    }

    /// `sync` runs at once, as the queue's work; inside `b.sync` from `a`'s work, only `b` is
    /// current (as with Dispatch).
    @Test func syncRunsAtOnceAsTheQueuesWork() {
        let scheduler = TestScheduler()
        let (a, b) = (scheduler.queue(name: "a"), scheduler.queue(name: "b"))
        var seen: [String] = []
        a.sync {
            seen.append("in a: a \(a.isCurrent()), b \(b.isCurrent())")
            b.sync { seen.append("in b: a \(a.isCurrent()), b \(b.isCurrent())") }
            a.sync { seen.append("a again, inline") }
        }
        #expect(seen == ["in a: a true, b false", "in b: a false, b true", "a again, inline"])
        #expect(scheduler.now == 0)
    }

    // `sync` from another thread while the scheduler runs the queue's work, and the reverse:
    // neither overlaps the other, as on a real serial queue. The test lets the first thread go on
    // only once the second has found the queue busy and is about to wait for it (the scheduler's
    // debug-build `onWait`), so the order is decided by that handshake, never by timing; a broken
    // `sync` or advance that does not wait never gets there, and the test fails at the bounded wait.

    #if DEBUG
    @Test func syncFromAnotherThreadWaitsForTheQueuesWorkUnderWay() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<String>()
        let (working, waiting, release, advanced, synced) =
            (
                DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
                DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
            )
        scheduler.onWait { waiting.signal() }
        queue.async {
            working.signal()
            _ = release.wait(timeout: .now() + 10)
            seen.record("work ends")
        }
        DispatchQueue.global().async {
            scheduler.advance()
            advanced.signal()
        }
        expectSignal(working)
        DispatchQueue.global().async {
            queue.sync { seen.record("sync, current \(queue.isCurrent())") }
            synced.signal()
        }
        expectSignal(waiting)  // the sync has found the work under way and waits for it
        release.signal()
        expectSignal(synced)
        expectSignal(advanced)
        #expect(seen.recorded == ["work ends", "sync, current true"])
    }

    @Test func theSchedulerWaitsForASyncFromAnotherThreadBeforeRunningTheQueuesWork() {
        let scheduler = TestScheduler()
        let (queue, other) = (scheduler.queue(name: "busy"), scheduler.queue(name: "other"))
        let seen = History<String>()
        let (syncing, waiting, release, synced, advanced) =
            (
                DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0),
                DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
            )
        scheduler.onWait { waiting.signal() }
        DispatchQueue.global().async {
            queue.sync {
                syncing.signal()
                _ = release.wait(timeout: .now() + 10)
                seen.record("sync ends")
            }
            synced.signal()
        }
        expectSignal(syncing)
        other.async { seen.record("other queue's work") }  // not held up
        queue.async { seen.record("work") }
        DispatchQueue.global().async {
            scheduler.advance()
            advanced.signal()
        }
        expectSignal(waiting)  // the advance has run the other queue's work and waits for the sync
        release.signal()
        expectSignal(advanced)
        expectSignal(synced)
        #expect(seen.recorded == ["other queue's work", "sync ends", "work"])
    }
    #endif

    /// From inside the queue's own work, on the advancing thread, `sync` runs inline, also when it
    /// comes back through another queue's `sync`; the advance runs on a thread of its own, so that
    /// a deadlock fails the bounded wait instead of hanging the suite.
    @Test func syncFromInsideTheQueuesOwnWorkRunsInline() {
        let scheduler = TestScheduler()
        let (a, b) = (scheduler.queue(name: "a"), scheduler.queue(name: "b"))
        let seen = History<String>()
        let advanced = DispatchSemaphore(value: 0)
        a.async {
            a.sync { seen.record("a in a") }
            b.sync { a.sync { seen.record("a in b in a, current \(a.isCurrent())") } }
            seen.record("a ends")
        }
        DispatchQueue.global().async {
            scheduler.advance()
            advanced.signal()
        }
        expectSignal(advanced)
        #expect(seen.recorded == ["a in a", "a in b in a, current true", "a ends"])
    }

    @Test func runDrainsTheScheduleAndEndsAtTheLastDueTime() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let seen = History<Double>()
        queue.after(60) { seen.record(scheduler.now) }
        queue.after(30) { queue.after(90) { seen.record(scheduler.now) } }
        #expect(scheduler.run())
        #expect(seen.recorded == [60, 120])
        #expect(scheduler.now == 120)
        #expect(scheduler.run())  // nothing left: time stays
        #expect(scheduler.now == 120)
    }

    /// The guard: a repeating timer never lets the schedule empty, so `run` stops at its limit.
    @Test func runStopsAtItsLimitOnARepeatingTimer() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(timeout: 2, repeat: true, completion: { fired.record(scheduler.now) }, queue: queue)
        timer.start()
        #expect(!scheduler.run(limit: 5))
        #expect(fired.recorded == [2, 4, 6, 8, 10])
        #expect(scheduler.now == 10)
        timer.invalidate()
        #expect(scheduler.run())
        #expect(scheduler.now == 10)
    }

    // MARK: Timer (the timer's own behaviour on virtual time is in TimerTests)

    @Test func aRepeatingTimerInvalidatedInsideItsOwnCompletionStops() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(
            timeout: 1, repeat: true,
            completion: { (timer: Timer) in
                fired.record(scheduler.now)
                if fired.recorded.count == 3 { timer.invalidate() }
            }, queue: queue)
        timer.start()
        #expect(scheduler.run())
        #expect(fired.recorded == [1, 2, 3])
    }

    @Test func aRepeatingTimerRestartedFromItsCompletionKeepsOneSchedule() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(
            timeout: 1, repeat: true,
            completion: { (timer: Timer) in
                fired.record(scheduler.now)
                if fired.recorded.count == 1 { timer.start() }
            }, queue: queue)
        timer.start()
        scheduler.advance(by: 3.5)
        #expect(fired.recorded == [1, 2, 3])
        timer.invalidate()
    }

    @Test func aReleasedOrInvalidatedTimerLeavesNothingScheduled() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Void>()
        do {
            let timer = Timer(timeout: 1, repeat: true, completion: { fired.record(()) }, queue: queue)
            timer.start()
        }
        let invalidated = Timer(timeout: 5, repeat: false, completion: { fired.record(()) }, queue: queue)
        invalidated.start()
        invalidated.invalidate()
        #expect(scheduler.run())
        #expect(fired.recorded.isEmpty)
        #expect(scheduler.now == 0)  // the cancelled work is gone, not run as nothing at 1 or 5
    }

    // MARK: timeout racing its source

    /// At the same virtual instant, the work scheduled first runs first. An upstream whose value
    /// was scheduled when it was started wins: `timeout` starts its timer after the upstream.
    @Test func atTheSameInstantAnUpstreamScheduledAtItsStartBeatsTheTimeout() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let upstream = Signal<Int, NoError> { subscriber in
            queue.after(2) { subscriber.putNext(1) }
            return EmptyDisposable
        }
        let recording = scheduler.record(upstream |> timeout(2, queue: queue, alternate: .single(0)))
        scheduler.advance(by: 5)
        #expect(recording.events == [.next(2, 1)])
    }

    /// ... and the timer wins over a value scheduled after the timer started.
    @Test func atTheSameInstantTheTimeoutBeatsAnUpstreamScheduledAfterIt() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let upstream = Signal<Int, NoError> { subscriber in
            queue.after(1) { queue.after(1) { subscriber.putNext(1) } }
            return EmptyDisposable
        }
        let recording = scheduler.record(upstream |> timeout(2, queue: queue, alternate: .single(0)))
        scheduler.advance(by: 5)
        #expect(recording.events == [.next(2, 0), .completed(2)])
    }

    // MARK: Lifetimes

    /// Work of a released virtual queue still runs when it falls due (as Dispatch runs the blocks
    /// of a released queue), and is released after it ran.
    @Test func workOfAReleasedQueueStillRunsAndIsThenReleased() {
        let scheduler = TestScheduler()
        let seen = History<String>()
        weak var released: Queue?
        do {
            let queue = scheduler.queue()
            released = queue
            let tracked = Tracked(1, tag: "releasedQueue")
            queue.after(1) { seen.record("ran at \(scheduler.now) with \(tracked.value)") }
        }
        #expect(released == nil)
        #expect(Tracked.count("releasedQueue") == 1)
        scheduler.advance(by: 1)
        #expect(seen.recorded == ["ran at 1.0 with 1"])
        #expect(Tracked.count("releasedQueue") == 0)
    }

    /// Releasing the scheduler releases the work it holds, even work that holds its queue, and the
    /// queue runs nothing after that (and does not crash).
    @Test func releasingTheSchedulerReleasesItsWork() {
        let queue: Queue
        weak var released: TestScheduler?
        do {
            let scheduler = TestScheduler()
            released = scheduler
            queue = scheduler.queue()
            let tracked = Tracked(1, tag: "releasedScheduler")
            queue.after(1) { [queue] in _ = (tracked, queue) }
            let timer = Timer(timeout: 1, repeat: true, completion: { _ = tracked }, queue: queue)
            timer.start()
            _ = scheduler.record(Signal<Int, NoError>.single(1) |> delay(1, queue: queue))
        }
        #expect(released == nil)
        #expect(Tracked.count("releasedScheduler") == 0)
        var ran = false
        queue.after(1) { ran = true }
        queue.async { ran = true }
        queue.sync { ran = !queue.isCurrent() }  // still runs, inline, with no clock to mark it
        #expect(ran)
    }

    // MARK: Threads

    /// A real queue in the middle of a virtual chain stays real: its block runs on its own thread,
    /// and the hop back onto the virtual queue, scheduled from there at the virtual time of then,
    /// waits for the next advance.
    @Test func aRealQueueMixedInStaysReal() {
        let scheduler = TestScheduler()
        let virtual = scheduler.queue()
        let real = Queue(name: "real")
        let backOnVirtual = DispatchSemaphore(value: 0)
        let recording = scheduler.record(
            Signal<Int, NoError>.single(1) |> delay(1, queue: virtual) |> deliverOn(real)
                |> afterNext { _ in backOnVirtual.signal() } |> deliverOn(virtual))
        // The real queue waits for the gate, so that its block runs after this advance has ended
        // (work it hands to the virtual queue during an advance would run in that advance).
        let gate = DispatchSemaphore(value: 0)
        real.justDispatch { gate.wait() }
        scheduler.advance(by: 1)  // the delay ends; the value goes to the real queue
        gate.signal()
        expectSignal(backOnVirtual)
        real.sync {}  // its block is done, and the completion went with it
        #expect(recording.events.isEmpty)  // waiting on the virtual queue
        scheduler.advance(by: 0.5)  // the hop was scheduled with no delay at time 1: it runs at 1
        #expect(recording.events == [.next(1, 1), .completed(1)])
        #expect(scheduler.now == 1.5)
    }

    @Test func workRunsOnTheThreadThatAdvances() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let threads = History<Bool>()
        let caller = pthread_self()
        queue.after(1) { threads.record(pthread_equal(pthread_self(), caller) != 0) }
        let done = DispatchSemaphore(value: 0)
        Queue(name: "advancing").justDispatch {
            scheduler.advance(by: 1)
            done.signal()
        }
        expectSignal(done)
        #expect(threads.recorded == [false])
    }

    // MARK: Misuse

    @Test func advancingBackwardsStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.advance(by: 2)
            scheduler.advance(to: 1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.advance(to:) needs a finite time at or after now (2.0), got 1.0"))
    }

    @Test func advancingByANegativeTimeStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            TestScheduler().advance(by: -1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.advance(by:) needs a finite number of seconds, 0 or more, got -1.0"))
    }

    #if DEBUG
    @Test func advancingFromTheSchedulersOwnWorkStopsInADebugBuild() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            scheduler.queue().after(1) { scheduler.advance(by: 1) }
            scheduler.advance(by: 1)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler: advanced from two threads at once, or from its own work"))
    }
    #endif
}
