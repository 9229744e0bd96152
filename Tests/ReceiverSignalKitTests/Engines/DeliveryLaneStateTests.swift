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
            guard let following = state.takeClaimed() else { return }
            event = following
        }
    }

    /// Idle: nothing on its way or waiting, nobody delivering, and at most a small ring.
    var isIdle: Bool {
        blocksOnTheirWay == 0 && !state.isDelivering && state.claimed == 0 && state.stale == 0 && state.waiting.isEmpty
            && (state.waiting.storage?.header.capacity ?? 0) <= 16
    }
}

@Suite struct DeliveryLaneStateTests {
    /// A lane that saw events one or two at a time keeps a ring that small while idle.
    @Test func anIdleLaneKeepsTheSmallRingItsEventsNeeded() {
        let lane = LaneHarness()
        lane.sendOffQueue(1)
        lane.runBlock()
        #expect(lane.state.waiting.storage?.slotCount == 1)
        lane.sendOffQueue(2)
        lane.sendOffQueue(3)
        lane.runBlock()
        lane.runBlock()
        #expect(lane.delivered == [1, 2, 3])
        #expect(lane.isIdle && lane.state.waiting.storage?.slotCount == 2)
    }

    @Test func eachBlockDeliversUpToTheOldestUnclaimedEvent() {
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
        #expect(lane.isIdle && lane.state.waiting.storage == nil)
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
        #expect(lane.state.waiting.count == 100)
        lane.sendOnQueue(200)  // delivers the 100 still waiting, then this one
        #expect(lane.delivered == Array(0...200))
        #expect(lane.state.waiting.storage == nil)
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
        #expect(lane.delivered == sent)
        #expect(lane.isIdle)
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
