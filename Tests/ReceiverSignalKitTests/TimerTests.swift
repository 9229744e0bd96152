import Dispatch
import ReceiverSignalKit
import Testing

// No Foundation import here, so `Timer` is ReceiverSignalKit's (with Foundation it is ambiguous
// and needs `ReceiverSignalKit.Timer`).
@Suite struct TimerTests {
    /// Waits for `semaphore`, failing (never hanging) if it is not signalled within 10 s.
    private func expectSignal(_ semaphore: DispatchSemaphore, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(semaphore.wait(timeout: .now() + 10) == .success, "timed out", sourceLocation: sourceLocation)
    }

    /// Waits until `queue` has run a block scheduled `seconds` from now: any timer due before then
    /// has fired by that point (same serial queue, earlier deadline).
    private func settle(_ queue: Queue, for seconds: Double) {
        let done = DispatchSemaphore(value: 0)
        queue.after(seconds) { done.signal() }
        expectSignal(done)
    }

    @Test func aOneShotTimerFiresOnceOnItsQueue() {
        let queue = Queue()
        let fired = History<Bool>()
        let timer = Timer(timeout: 0.01, repeat: false, completion: { fired.record(queue.isCurrent()) }, queue: queue)
        timer.start()
        settle(queue, for: 0.15)
        #expect(fired.recorded == [true])
    }

    @Test func theCompletionReceivesTheTimer() {
        let queue = Queue()
        let received = History<ObjectIdentifier>()
        let timer = Timer(
            timeout: 0.01, repeat: false,
            completion: { (timer: Timer) in
                received.record(ObjectIdentifier(timer))
            }, queue: queue)
        timer.start()
        settle(queue, for: 0.15)
        #expect(received.recorded == [ObjectIdentifier(timer)])
    }

    @Test func aRepeatingTimerFiresUntilInvalidated() {
        let queue = Queue()
        let fired = History<Int>()
        let timer = Timer(
            timeout: 0.01, repeat: true,
            completion: { (timer: Timer) in
                fired.record(fired.recorded.count + 1)
                if fired.recorded.count == 3 { timer.invalidate() }
            }, queue: queue)
        timer.start()
        settle(queue, for: 0.3)
        #expect(fired.recorded == [1, 2, 3])
    }

    @Test func invalidatingBeforeItFiresPreventsTheCompletion() {
        let queue = Queue()
        let fired = History<Void>()
        let timer = Timer(timeout: 0.05, repeat: false, completion: { fired.record(()) }, queue: queue)
        timer.start()
        timer.invalidate()
        settle(queue, for: 0.2)
        #expect(fired.recorded.isEmpty)
    }

    @Test func releasingTheTimerInvalidatesIt() {
        let queue = Queue()
        let fired = History<Void>()
        do {
            let timer = Timer(timeout: 0.05, repeat: true, completion: { fired.record(()) }, queue: queue)
            timer.start()
        }
        settle(queue, for: 0.2)
        #expect(fired.recorded.isEmpty)
    }

    @Test func startingAgainReplacesTheSchedule() {
        let queue = Queue()
        let fired = History<Void>()
        let timer = Timer(timeout: 0.05, repeat: false, completion: { fired.record(()) }, queue: queue)
        timer.start()
        timer.start()
        settle(queue, for: 0.25)
        #expect(fired.recorded.count == 1)
    }

    @Test func aTimerCanBeStartedAgainAfterItFired() {
        let queue = Queue()
        let fired = History<Void>()
        let timer = Timer(timeout: 0.01, repeat: false, completion: { fired.record(()) }, queue: queue)
        timer.start()
        settle(queue, for: 0.1)
        timer.start()
        settle(queue, for: 0.1)
        #expect(fired.recorded.count == 2)
    }

    // Deliberate difference: SwiftSignalKit invalidates a one-shot timer after its completion
    // returns, cancelling a restart made inside the completion.
    @Test func aOneShotTimerRestartedFromItsCompletionFiresAgain() {
        let queue = Queue()
        let fired = History<Void>()
        let timer = Timer(
            timeout: 0.01, repeat: false,
            completion: { (timer: Timer) in
                fired.record(())
                if fired.recorded.count == 1 { timer.start() }
            }, queue: queue)
        timer.start()
        settle(queue, for: 0.3)
        #expect(fired.recorded.count == 2)
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
        settle(queue, for: 0.1)
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
}
