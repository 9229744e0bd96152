import ReceiverSignalKitTesting
import Testing

@testable import ReceiverSignalKit

/// What a `deliverOn` lane on a serial queue keeps while its start is idle: apps keep thousands of
/// `deliverOnMainQueue` subscriptions alive, so an idle lane must keep no more than one buffer of
/// at most 64 places, and no block, however its events came. On virtual time: the queue runs what
/// was dispatched to it when the scheduler advances, so events sent before find it busy.
@Suite(.detectingLeaks) struct DeliveryLaneStorageTests {
    /// The lane's buffers, read on its queue: the capacities of the inbox, `taken` and the
    /// serializer's queue; and whether it keeps its block.
    private func buffers(_ lane: SerialDeliveryLane<Int, NoError>, _ queue: Queue) -> ([Int], Bool) {
        var (capacities, keepsBlock) = ([Int](), false)
        queue.sync {
            let inbox = StripedLock(for: lane).withLock { lane.inbox.events.storage?.header.capacity ?? 0 }
            capacities = [
                inbox, lane.onQueue.taken.storage?.slotCount ?? 0,
                lane.onQueue.serializer.waiting.storage?.slotCount ?? 0,
            ]
            keepsBlock = StripedLock(for: lane).withLock { lane.inbox.block != nil }
        }
        return (capacities, keepsBlock)
    }

    @Test func anIdleLaneKeepsAtMostOneSmallBufferAndNoBlock() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue(name: "q")
        let seen = History<Int>()
        let lane = SerialDeliveryLane<Int, NoError>(queue, Subscriber(next: { seen.record($0) }))
        var expected: [Int] = []
        /// Sends `count` values from this thread, so that the queue finds them all waiting at once.
        func sendBatch(count: Int) {
            for value in 0..<count { lane.send(.next(value)) }
        }
        func check(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) {
            scheduler.advance()
            let (capacities, keepsBlock) = buffers(lane, queue)
            #expect(!keepsBlock, "\(step)", sourceLocation: sourceLocation)
            #expect(capacities.filter { $0 > 0 }.count <= 1, "\(step): \(capacities)", sourceLocation: sourceLocation)
            #expect(capacities.allSatisfy { $0 <= 64 }, "\(step): \(capacities)", sourceLocation: sourceLocation)
            #expect(seen.recorded == expected, "\(step)", sourceLocation: sourceLocation)
        }
        lane.send(.next(0))  // one at a time, from this thread
        expected += [0]
        check("one")
        for round in 0..<3 {  // batches, found waiting at once
            sendBatch(count: 3)
            expected += [0, 1, 2]
            check("batch \(round)")
            lane.send(.next(7))
            expected += [7]
            check("one after batch \(round)")
        }
        sendBatch(count: 200)  // a burst: its storage is let go of
        expected += Array(0..<200)
        check("burst")
        queue.sync { lane.send(.next(8)) }  // on the queue, nothing waiting
        expected += [8]
        check("on the queue")
        queue.justDispatch {
            lane.send(.next(22))  // on the queue, while 20 and 21 wait: delivered after them, at once
        }
        for value in [20, 21] { lane.send(.next(value)) }
        expected += [20, 21, 22]
        check("on the queue while two wait")
    }
}
