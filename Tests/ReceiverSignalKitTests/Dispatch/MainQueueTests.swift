import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

// `deliverOnMainQueue` on the main queue as code names it, `Queue.mainQueue()`: on a test
// scheduler's virtual main queue (`withMainQueue`, debug builds), and, once, on the real one
// outside any scope. The real main queue's own behaviour (its marker, `isCurrent()` inside its
// blocks wherever they run) is in QueueTests.
@Suite(.detectingLeaks) struct MainQueueTests {
    /// A signal whose generator records whether it ran on the main queue, then sends 1, 2, 3 and
    /// completes.
    private func counting(_ generated: History<String>) -> Signal<Int, NoError> {
        Signal { subscriber in
            generated.record("generator on the main queue \(Queue.mainQueue().isCurrent())")
            for value in 1...3 { subscriber.putNext(value) }
            subscriber.putCompletion()
            return EmptyDisposable
        }
    }

    /// Starts `signal`, recording each event with whether it ran on the main queue.
    private func record(_ signal: Signal<Int, NoError>, into events: History<String>) {
        signal.start(
            next: { events.record("\($0) \(Queue.mainQueue().isCurrent())") },
            completed: { events.record("completed \(Queue.mainQueue().isCurrent())") })
    }

    #if DEBUG
    /// Started off the main queue (on another virtual queue), the upstream runs there and every
    /// event is delivered on the main queue, in order, at the time of the hop.
    @Test func deliverOnMainQueueDeliversOnTheMainQueueInOrder() {
        let scheduler = TestScheduler()
        let (generated, events) = (History<String>(), History<String>())
        scheduler.withMainQueue {
            scheduler.queue(name: "background").after(1) {
                self.record(deliverOnMainQueue(self.counting(generated)), into: events)
                events.record("start returned at \(scheduler.now)")
            }
            scheduler.advance(by: 1)
        }
        #expect(generated.recorded == ["generator on the main queue false"])
        #expect(events.recorded == ["start returned at 1.0", "1 true", "2 true", "3 true", "completed true"])
    }

    /// Started inside the main queue's work, events are delivered at once, before `start` returns.
    @Test func deliverOnMainQueueIsSynchronousOnTheMainQueue() {
        let scheduler = TestScheduler()
        let (generated, events) = (History<String>(), History<String>())
        scheduler.withMainQueue {
            Queue.mainQueue().justDispatch {
                self.record(deliverOnMainQueue(self.counting(generated)), into: events)
                events.record("start returned")
            }
            #expect(events.recorded.isEmpty)
            scheduler.advance()
        }
        #expect(generated.recorded == ["generator on the main queue true"])
        #expect(events.recorded == ["1 true", "2 true", "3 true", "completed true", "start returned"])
    }
    #endif

    /// Outside any scope, `deliverOnMainQueue` hops onto the real main queue.
    @Test func outsideAScopeDeliverOnMainQueueDeliversOnTheRealMainQueue() {
        let onMain = History<Bool>()
        let done = DispatchSemaphore(value: 0)
        (Signal<Int, NoError>.single(1) |> deliverOnMainQueue).start(
            next: { _ in onMain.record(isOnMainQueue()) }, completed: { done.signal() })
        expectSignal(done)
        #expect(onMain.recorded == [true])
    }
}
