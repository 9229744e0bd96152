import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// The hops and the queue-bound objects on a virtual-time queue: they behave as on a real `Queue`
// (SignalDispatchTests and QueueLocalObjectTests test them there), at exact virtual times.
@Suite(.detectingLeaks) struct VirtualQueueTests {
    @Test func deliverOnHopsOntoTheQueueAtTheNextAdvanceAndInlineFromIt() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let onQueue = History<Bool>()
        let pipe = ValuePipe<Int>()
        let recording = scheduler.record(
            pipe.signal() |> afterNext { _ in onQueue.record(queue.isCurrent()) } |> deliverOn(queue))
        pipe.putNext(1)  // off the queue: dispatched
        #expect(recording.events.isEmpty)
        scheduler.advance(by: 1)
        queue.after(1) { pipe.putNext(2) }  // on the queue: delivered at once
        scheduler.advance(by: 1)
        #expect(recording.events == [.next(0, 1), .next(2, 2)])
        #expect(onQueue.recorded == [false, true])
    }

    @Test func runOnStartsTheUpstreamOnTheQueueAtTheNextAdvance() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let starts = History<String>()
        let upstream = Signal<Int, NoError> { subscriber in
            starts.record("\(scheduler.now) \(queue.isCurrent())")
            subscriber.putNext(1)
            return EmptyDisposable
        }
        scheduler.advance(by: 1)
        let recording = scheduler.record(upstream |> runOn(queue))
        #expect(starts.recorded.isEmpty)
        scheduler.advance()
        #expect(starts.recorded == ["1.0 true"])
        #expect(recording.events == [.next(1, 1)])
        let disposed = scheduler.record(upstream |> runOn(queue))
        disposed.dispose()  // before the start reached the queue: never started
        scheduler.advance()
        #expect(starts.recorded == ["1.0 true"])
    }

    @Test func combineLatestOnAQueueCombinesThereInEachInputsOrder() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (a, b) = (ValuePipe<Int>(), ValuePipe<String>())
        let recording = scheduler.record(combineLatest(queue: queue, a.signal(), b.signal()) |> map { "\($0)\($1)" })
        a.putNext(1)
        b.putNext("x")
        scheduler.advance(by: 1)
        queue.after(1) { a.putNext(2) }
        queue.after(1) { b.putNext("y") }
        scheduler.advance(by: 1)
        #expect(recording.events == [.next(0, "1x"), .next(2, "2x"), .next(2, "2y")])
    }

    @Test func aQueueLocalObjectIsMadeUsedAndReleasedOnTheQueue() {
        final class Probe {
            let made: Double
            init(_ made: Double) { self.made = made }
        }
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        var object: QueueLocalObject<Probe>? = QueueLocalObject(queue: queue) { Probe(scheduler.now) }
        let seen = History<String>()
        scheduler.advance(by: 1)  // made at 0, at the first advance
        object?.with { seen.record("made at \($0.made), used at \(scheduler.now) \(queue.isCurrent())") }
        #expect(object?.syncWith { $0.made } == 0)
        let signal: Signal<Double, NoError> = object!.signalWith { probe, subscriber in
            subscriber.putNext(probe.made)
            return EmptyDisposable
        }
        let recording = scheduler.record(signal)
        scheduler.advance(by: 1)
        #expect(seen.recorded == ["made at 0.0, used at 1.0 true"])
        #expect(recording.events == [.next(1, 0)])
        object = nil  // released on the queue, at the next advance
        scheduler.advance()
        #expect(scheduler.run())
    }
}
