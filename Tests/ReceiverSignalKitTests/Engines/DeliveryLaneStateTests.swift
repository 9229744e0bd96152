import Testing

@testable import ReceiverSignalKit

/// The lane's transitions, driven the way `DeliveryLane` drives them but with neither a lock nor
/// Dispatch: a dispatched block is a count of blocks on their way, which the test runs when it
/// chooses — also while a handler runs, as another thread of a concurrent queue would.
private final class LaneHarness: LaneDriving {
    var state = DeliveryLane<Int, NoError>.State()
    var blocksOnTheirWay = 0
    var delivered: [Int] = []
    /// What a handler does with each value it is given, after recording it.
    var onDeliver: (Int) -> Void = { _ in }

    func sendOffQueue(_ value: Int) {
        state.post(.next(value))
        blocksOnTheirWay += 1
    }

    func runBlock() {
        blocksOnTheirWay -= 1
        if let event = state.arrive() { deliver(event) }
    }

    func sendOnQueue(_ value: Int) {
        if let event = state.sendOnQueue(.next(value)) { deliver(event) }
    }

    private func deliver(_ first: DeliveryLane<Int, NoError>.Event) {
        var event = first
        while true {
            guard case .next(let value) = event else {
                Issue.record("only values are sent here")
                return
            }
            delivered.append(value)
            onDeliver(value)
            guard let following = state.serializer.next() else { return }
            event = following
        }
    }

    /// Idle: nothing on its way or waiting, nobody delivering, and at most small rings.
    var isIdle: Bool {
        blocksOnTheirWay == 0 && !state.serializer.isDelivering && state.stale == 0 && state.posted.isEmpty
            && state.serializer.waiting.isEmpty && (state.posted.storage?.slotCount ?? 0) <= 16
            && (state.serializer.waiting.storage?.slotCount ?? 0) <= 16
    }
}

@Suite struct DeliveryLaneStateTests {
    /// A lane that saw events one or two at a time keeps a ring that small while idle.
    @Test func anIdleLaneKeepsTheSmallRingItsEventsNeeded() {
        let lane = LaneHarness()
        lane.sendOffQueue(1)
        lane.runBlock()
        #expect(lane.state.posted.storage?.slotCount == 1)
        lane.sendOffQueue(2)
        lane.sendOffQueue(3)
        lane.runBlock()
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.isIdle && lane.state.posted.storage?.slotCount == 2)
    }

    @Test func eachBlockDeliversTheOldestPostedEvent() {
        let lane = LaneHarness()
        for value in 1...3 { lane.sendOffQueue(value) }
        lane.runBlock()
        #expect(lane.delivered == [1])
        lane.runBlock()
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.isIdle)
    }

    @Test func anEventOnTheQueueComesAfterTheWaitingOnesWhoseBlocksThenFindNothing() {
        let lane = LaneHarness()
        lane.sendOffQueue(1)
        lane.sendOffQueue(2)
        lane.sendOnQueue(3)
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.state.stale == 2)
        lane.runBlock()
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.isIdle)
    }

    @Test func anEventOnTheQueueWithNothingWaitingIsDeliveredWithoutBeingStored() {
        let lane = LaneHarness()
        lane.sendOnQueue(1)
        #expect(lane.delivered == [1])
        #expect(lane.isIdle && lane.state.posted.storage == nil && lane.state.serializer.waiting.storage == nil)
    }

    @Test func aBlockThatRunsWhileAnotherThreadDeliversLeavesItsEventToThatThread() {
        let lane = LaneHarness()
        lane.onDeliver = { value in
            guard value == 1 else { return }
            lane.runBlock()  // another thread of a concurrent queue, while this handler runs
            #expect(lane.delivered == [1])
        }
        lane.sendOffQueue(1)
        lane.sendOffQueue(2)
        lane.runBlock()
        #expect(lane.delivered == [1, 2])
        #expect(lane.isIdle)
    }

    @Test func anEventAHandlerSendsOnTheQueueWaitsForTheHandlerAndTheEventsBeforeIt() {
        let lane = LaneHarness()
        lane.onDeliver = { value in
            guard value == 1 else { return }
            lane.sendOnQueue(10)
            #expect(lane.delivered == [1])
        }
        lane.sendOffQueue(1)
        lane.sendOffQueue(2)
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 10])
        lane.runBlock()
        #expect(lane.isIdle)
    }

    /// A burst's storage is let go of once it is delivered.
    @Test func storageGrownByABurstIsLetGoOf() {
        let lane = LaneHarness()
        for value in 0..<200 { lane.sendOffQueue(value) }
        for _ in 0..<100 { lane.runBlock() }
        #expect(lane.state.posted.count == 100)
        lane.sendOnQueue(200)  // delivers the 100 still waiting, then this one
        #expect(lane.delivered == Array(0...200))
        #expect(lane.state.posted.storage == nil && lane.state.serializer.waiting.storage == nil)
        for _ in 0..<100 { lane.runBlock() }
        #expect(lane.isIdle)
    }

    /// Seeded random interleavings of events sent off and on the queue, blocks run, and handlers
    /// that send or run a block themselves: every event is delivered once, in the order they
    /// happened, the invariants hold after every step (debug builds check them), and once every
    /// block has run the lane is idle.
    @Test(arguments: 0..<200)
    func randomInterleavingsDeliverEveryEventOnceInOrderAndEndIdle(seed: UInt64) {
        let lane = LaneHarness()
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
            var state = DeliveryLane<Int, NoError>.State()
            _ = state.arrive()
        }
    }
    #endif
}
