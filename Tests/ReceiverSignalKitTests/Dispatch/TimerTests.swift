import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// No Foundation import here, so `Timer` is ReceiverSignalKit's (with Foundation it is ambiguous
// and needs `ReceiverSignalKit.Timer`).
//
// On virtual time (a `TestScheduler`), with the exact time of each firing, except these real-time
// smoke tests of the dispatch-source path: `aOneShotTimerFiresOnARealQueue`,
// `aRepeatingTimerOnARealQueueFiresUntilInvalidated`, `aOneShotTimerWithATimeoutOfZeroOrLessFiresAtOnce`,
// and the thread race `startAndInvalidateFromManyThreadsAtOnce`.
@Suite(.detectingLeaks) struct TimerTests {
    /// Waits until `queue` has run a block scheduled `seconds` from now: any timer due before then
    /// has fired by that point (same serial queue, earlier deadline).
    private func settle(_ queue: Queue, for seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.after(seconds) { done.signal() }
        expectSignal(done)
    }

    @Test func aOneShotTimerFiresOnARealQueue() {
        let queue = Queue()
        let (fired, done) = (History<Bool>(), DispatchSemaphore(value: 0))
        let timer = Timer(
            timeout: 0.005, repeat: false,
            completion: {
                fired.record(queue.isCurrent())
                done.signal()
            }, queue: queue)
        timer.start()
        expectSignal(done)
        #expect(fired.recorded == [true])
    }

    @Test func aRepeatingTimerOnARealQueueFiresUntilInvalidated() {
        let queue = Queue()
        let (fired, done) = (History<Int>(), DispatchSemaphore(value: 0))
        let timer = Timer(
            timeout: 0.002, repeat: true,
            completion: { (timer: Timer) in
                fired.record(fired.recorded.count + 1)
                if fired.recorded.count == 3 {
                    timer.invalidate()
                    done.signal()
                }
            }, queue: queue)
        timer.start()
        expectSignal(done)
        #expect(fired.recorded == [1, 2, 3])
    }

    @Test func startAndInvalidateFromManyThreadsAtOnce() {
        let queue = Queue()
        let fired = History<Void>()
        let timer = Timer(timeout: 0.001, repeat: true, completion: { fired.record(()) }, queue: queue)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<200 {
                if thread.isMultiple(of: 2) { timer.start() } else { timer.invalidate() }
            }
        }
        timer.invalidate()
        queue.queue.sync {}  // a firing in progress finishes
        let count = fired.recorded.count
        settle(queue, for: 0.02)  // 20 periods: an uncancelled source would fire
        #expect(fired.recorded.count == count)
    }

    @Test(arguments: ["-1.0", "0.0", "-inf"])  // as text: an exit test's captures are encoded, and JSON has no -inf
    func aRepeatingTimerWithoutAPositiveTimeoutStopsWithAMessage(timeout: String) async {
        // A negative repeating timeout crashed inside Dispatch, with no message.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [timeout] in
            let timer = Timer(timeout: Double(timeout)!, repeat: true, completion: {}, queue: Queue())
            timer.start()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains(
                "Timer(timeout:repeat:completion:queue:) needs a timeout greater than 0 for a repeating timer, got \(timeout)"
            ))
    }

    @Test(arguments: [false, true])
    func aNaNTimeoutStopsWithAMessage(repeating: Bool) async {
        // A NaN timeout never fired, silently.
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [repeating] in
            let timer = Timer(timeout: .nan, repeat: repeating, completion: {}, queue: Queue())
            timer.start()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Timer(timeout:repeat:completion:queue:) needs a timeout that is a number, got nan"))
    }

    @Test(arguments: [-1.0, 0, -Double.infinity])
    func aOneShotTimerWithATimeoutOfZeroOrLessFiresAtOnce(timeout: Double) {
        // As in SwiftSignalKit: the deadline is `now + timeout`, already past.
        let queue = Queue()
        let fired = DispatchSemaphore(value: 0)
        let timer = Timer(timeout: timeout, repeat: false, completion: { fired.signal() }, queue: queue)
        timer.start()
        expectSignal(fired)
        _ = timer
    }

    // MARK: On virtual time

    @Test func aOneShotTimerFiresOnceAtItsTimeoutOnItsQueueWithItself() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<String>()
        let timer = Timer(
            timeout: 1.5, repeat: false,
            completion: { (timer: Timer) in
                fired.record("\(scheduler.now), on queue \(queue.isCurrent())")
                _ = timer
            }, queue: queue)
        let received = History<ObjectIdentifier>()
        let other = Timer(
            timeout: 1, repeat: false, completion: { (timer: Timer) in received.record(ObjectIdentifier(timer)) },
            queue: queue)
        timer.start()
        other.start()
        scheduler.advance(by: 1.499)
        #expect(fired.recorded.isEmpty)
        #expect(scheduler.run())
        #expect(fired.recorded == ["1.5, on queue true"])
        #expect(received.recorded == [ObjectIdentifier(other)])
    }

    @Test func aRepeatingTimerFiresEveryTimeoutUntilInvalidated() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(timeout: 0.25, repeat: true, completion: { fired.record(scheduler.now) }, queue: queue)
        timer.start()
        scheduler.advance(by: 1)
        timer.invalidate()
        #expect(scheduler.run())
        #expect(fired.recorded == [0.25, 0.5, 0.75, 1])
    }

    @Test func invalidatingBeforeItFiresPreventsTheCompletion() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Void>()
        let timer = Timer(timeout: 1, repeat: false, completion: { fired.record(()) }, queue: queue)
        timer.start()
        scheduler.advance(by: 0.5)
        timer.invalidate()
        timer.invalidate()
        #expect(scheduler.run())
        #expect(fired.recorded.isEmpty)
    }

    @Test func releasingTheTimerInvalidatesIt() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Void>()
        do {
            let timer = Timer(timeout: 1, repeat: true, completion: { fired.record(()) }, queue: queue)
            timer.start()
        }
        #expect(scheduler.run())
        #expect(fired.recorded.isEmpty)
    }

    @Test func startingAgainReplacesTheSchedule() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(timeout: 2, repeat: false, completion: { fired.record(scheduler.now) }, queue: queue)
        timer.start()
        timer.start()
        scheduler.advance(by: 1)
        timer.start()
        #expect(scheduler.run())
        #expect(fired.recorded == [3])
    }

    @Test func aTimerCanBeStartedAgainAfterItFired() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(timeout: 1, repeat: false, completion: { fired.record(scheduler.now) }, queue: queue)
        timer.start()
        scheduler.advance(by: 2)
        timer.start()
        scheduler.advance(by: 2)
        #expect(fired.recorded == [1, 3])
    }

    // Deliberate difference: SwiftSignalKit invalidates a one-shot timer after its completion
    // returns, cancelling a restart made inside the completion.
    @Test func aOneShotTimerRestartedFromItsCompletionFiresAgain() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let fired = History<Double>()
        let timer = Timer(
            timeout: 1, repeat: false,
            completion: { (timer: Timer) in
                fired.record(scheduler.now)
                if fired.recorded.count == 1 { timer.start() }
            }, queue: queue)
        timer.start()
        #expect(scheduler.run())
        #expect(fired.recorded == [1, 2])
    }

    @Test(arguments: [-1.0, 0, -Double.infinity])
    func aOneShotTimerWithATimeoutOfZeroOrLessFiresAtTheCurrentTime(timeout: Double) {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        scheduler.advance(by: 5)
        let fired = History<Double>()
        let timer = Timer(timeout: timeout, repeat: false, completion: { fired.record(scheduler.now) }, queue: queue)
        timer.start()
        #expect(fired.recorded.isEmpty)
        scheduler.advance()
        #expect(fired.recorded == [5])
    }

    @Test func aOneShotTimerOfInfiniteTimeoutNeverFires() {
        let scheduler = TestScheduler()
        let fired = History<Void>()
        let timer = Timer(timeout: .infinity, repeat: false, completion: { fired.record(()) }, queue: scheduler.queue())
        timer.start()
        #expect(scheduler.run())
        #expect(fired.recorded.isEmpty)
    }
}
