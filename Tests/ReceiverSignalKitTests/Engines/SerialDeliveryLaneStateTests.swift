import Testing

@testable import ReceiverSignalKit

/// The serial lane's transitions, driven the way `SerialDeliveryLane` drives them but with neither
/// a lock nor Dispatch: a dispatched block is a count of blocks on their way, which the test runs
/// when it chooses — also from inside a handler, as a queue's run loop would.
private final class SerialLaneHarness: LaneDriving {
    typealias Lane = SerialDeliveryLane<Int, NoError>
    var inbox = Lane.Inbox()
    var onQueue = Lane.OnQueue()
    var blocksOnTheirWay = 0
    var delivered: [Int] = []
    /// What a handler does with each value it is given, after recording it.
    var onDeliver: (Int) -> Void = { _ in }

    func sendOffQueue(_ value: Int) {
        if inbox.post(.next(value)) { inbox.block = {} }
        blocksOnTheirWay += 1
        onQueue.checkInvariants(with: inbox)
    }

    func runBlock() {
        blocksOnTheirWay -= 1
        let event: Lane.Event
        switch onQueue.arrive() {
        case .stale:
            if !onQueue.serializer.isDelivering { settle() }
            onQueue.checkInvariants(with: inbox)
            return
        case .taken(let taken): event = taken
        case .inInbox: event = onQueue.takeOldest(from: &inbox)
        }
        if onQueue.serializer.admit(event) { deliver(event) }
        onQueue.checkInvariants(with: inbox)
    }

    func sendOnQueue(_ value: Int) {
        if !inbox.events.isEmpty {
            var moved = onQueue.collect(from: &inbox)
            if !moved.isEmpty { onQueue.taken.append(contentsOf: &moved) }
        }
        if let now = onQueue.sendOnQueue(.next(value)) { deliver(now) }
        onQueue.checkInvariants(with: inbox)
    }

    private func deliver(_ first: Lane.Event) {
        var event = first
        while true {
            guard case .next(let value) = event else {
                Issue.record("only values are sent here")
                return
            }
            delivered.append(value)
            onDeliver(value)
            guard let following = onQueue.serializer.next() else { break }
            event = following
        }
        onQueue.trimStorage()
        settle()
    }

    private func settle() {
        if onQueue.needsSettling { onQueue.settle(&inbox) }
    }

    /// Idle: no block kept, nothing on its way or waiting, and at most one ring (small:
    /// `DrainQueue` sees to that).
    var isIdle: Bool {
        let rings = [inbox.events.storage, onQueue.taken.storage, onQueue.serializer.waiting.storage].compactMap { $0 }
        return inbox.block == nil && blocksOnTheirWay == 0 && inbox.events.isEmpty && onQueue.taken.isEmpty
            && onQueue.serializer.waiting.isEmpty && !onQueue.serializer.isDelivering && rings.count <= 1
    }
}

@Suite struct SerialDeliveryLaneStateTests {
    @Test func eachBlockDeliversItsOwnEventInTheOrderTheyHappened() {
        let lane = SerialLaneHarness()
        for value in 1...3 { lane.sendOffQueue(value) }
        #expect(lane.blocksOnTheirWay == 3 && lane.delivered == [] && lane.inbox.block != nil)
        lane.runBlock()
        #expect(lane.delivered == [1])
        #expect(lane.onQueue.taken.count == 2 && lane.inbox.events.isEmpty)  // taken in one batch
        lane.runBlock()
        #expect(lane.delivered == [1, 2])
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.isIdle)
    }

    @Test func aLoneEventIsTakenStraightOutOfTheInboxWhichKeepsItsStorage() {
        let lane = SerialLaneHarness()
        lane.sendOffQueue(1)
        lane.runBlock()
        #expect(lane.delivered == [1])
        #expect(lane.inbox.events.storage != nil && lane.onQueue.taken.storage == nil)
        #expect(lane.inbox.events.storage?.slotCount == 1)  // as small as an array of one place
        #expect(lane.isIdle)  // the block was let go of as the event was taken: none is on its way
    }

    /// A batch leaves its storage in `taken`; a lone event after it is swapped in with that
    /// storage, which goes to the inbox — and `taken` lets go of the lone event's, so the idle lane
    /// keeps one buffer, not two.
    @Test func aLoneEventAfterABatchLeavesOneBuffer() {
        let lane = SerialLaneHarness()
        for value in 1...3 { lane.sendOffQueue(value) }
        for _ in 1...3 { lane.runBlock() }
        #expect(lane.isIdle && lane.onQueue.taken.storage != nil)
        lane.sendOffQueue(4)
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3, 4])
        #expect(lane.isIdle && lane.inbox.events.storage != nil)
    }

    @Test func anEventOnTheQueueComesAfterTheWaitingOnesWhoseBlocksThenFindNothing() {
        let lane = SerialLaneHarness()
        lane.sendOffQueue(1)
        lane.sendOffQueue(2)
        lane.sendOnQueue(3)
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.onQueue.stale == 2 && lane.inbox.block != nil)
        lane.runBlock()
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.isIdle)
    }

    @Test func anEventOnTheQueueWithNothingWaitingIsDeliveredWithoutBeingStored() {
        let lane = SerialLaneHarness()
        lane.sendOnQueue(1)
        #expect(lane.delivered == [1])
        #expect(lane.isIdle && lane.onQueue.taken.storage == nil && lane.inbox.events.storage == nil)
    }

    @Test func anEventAHandlerSendsOnTheQueueWaitsForTheHandlerAndTheEventsBeforeIt() {
        let lane = SerialLaneHarness()
        lane.onDeliver = { value in
            guard value == 1 else { return }
            lane.sendOnQueue(10)
            #expect(lane.delivered == [1])  // not nested in this handler
        }
        lane.sendOffQueue(1)
        lane.sendOffQueue(2)
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 10])
        lane.runBlock()  // 2's block: stale
        #expect(lane.delivered == [1, 2, 10])
        #expect(lane.isIdle)
    }

    @Test func aBlockThatRunsInsideAHandlerLeavesItsEventToTheDeliveringCode() {
        let lane = SerialLaneHarness()
        lane.onDeliver = { value in
            guard value == 1 else { return }
            lane.runBlock()  // the handler runs the queue's run loop
            #expect(lane.delivered == [1])
        }
        lane.sendOffQueue(1)
        lane.sendOffQueue(2)
        lane.runBlock()
        #expect(lane.delivered == [1, 2])
        #expect(lane.isIdle)
    }

    /// Seeded random interleavings of events sent off and on the queue, blocks run, and handlers
    /// that send or run a block themselves: every event is delivered once, in the order they
    /// happened, the invariants hold after every step, and once every block has run the lane is
    /// idle.
    @Test(arguments: 0..<200)
    func randomInterleavingsDeliverEveryEventOnceInOrderAndEndIdle(seed: UInt64) {
        let lane = SerialLaneHarness()
        let sent = runRandomInterleaving(on: lane, seed: seed)
        let (delivered, isIdle) = (lane.delivered, lane.isIdle)  // (the harness holds closures: not reflected)
        #expect(delivered == sent)
        #expect(isIdle)
    }

    #if DEBUG
    /// Debug builds check the invariants after each transition: a block that was never dispatched
    /// arriving breaks the count of blocks on their way, and stops the program.
    @Test func aBrokenInvariantStopsADebugBuild() async {
        await #expect(processExitsWith: .failure) {
            var (inbox, onQueue) = (
                SerialDeliveryLane<Int, NoError>.Inbox(), SerialDeliveryLane<Int, NoError>.OnQueue()
            )
            _ = inbox.post(.next(1))
            _ = onQueue.arrive()
            _ = onQueue.takeOldest(from: &inbox)
            _ = onQueue.arrive()  // a second block for one event
            onQueue.checkInvariants(with: inbox)
        }
    }
    #endif
}
