import ReceiverSignalKitTesting
import Testing

@testable import ReceiverSignalKit

@Suite(.detectingLeaks) struct DrainQueueTests {
    /// A value whose copies are counted alive, so a test sees what the queue still holds.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Tracked.alive += 1
        }
        deinit { Tracked.alive -= 1 }
    }

    @Test func takesElementsOutInTheOrderTheyWereAppended() {
        var queue = DrainQueue<Int>()
        #expect(queue.isEmpty && queue.storage == nil)
        for value in 1...3 { queue.append(value) }
        #expect(queue.count == 3)
        #expect([queue.popFirst(), queue.popFirst()] == [1, 2])
        queue.append(4)
        #expect([queue.popFirst(), queue.popFirst(), queue.popFirst()] == [3, 4, nil])
        #expect(queue.isEmpty)
    }

    /// Random appends and takes, against an array: the order holds across the ring's wrap and its
    /// growth, and the storage obeys the keep-or-let-go rule whenever the queue is drained.
    @Test(arguments: 0..<20) func matchesAnArrayOverRandomPrograms(seed: UInt64) {
        var choices = SeededChoices(seed: seed)
        var queue = DrainQueue<Int>()
        var model: [Int] = []
        var next = 0
        for step in 0..<2_000 {
            if choices.next(100) < (step / 100 % 2 == 0 ? 70 : 30) {  // phases that grow the queue, then drain it
                queue.append(next)
                model.append(next)
                next += 1
            } else {
                #expect(queue.popFirst() == model.first)
                if !model.isEmpty { model.removeFirst() }
                if model.isEmpty, let storage = queue.storage {
                    #expect(storage.header.capacity <= DrainQueueStorage<Int>.keptCapacity)
                }
            }
            #expect(queue.count == model.count)
        }
    }

    @Test func aDrainedQueueKeepsASmallRingAndLetsGoOfALargeOne() {
        var queue = DrainQueue<Int>()
        for value in 0..<3 { queue.append(value) }
        while queue.popFirst() != nil {}
        #expect(queue.storage != nil, "a small ring is kept for the next burst")
        for value in 0..<100 { queue.append(value) }
        while queue.popFirst() != nil {}
        #expect(queue.storage == nil, "a ring grown by a burst is let go of")
    }

    /// The boundary of the keep-or-let-go rule: a ring of exactly `keptCapacity` slots is kept,
    /// one grown past it is let go of.
    @Test func aDrainedRingOfExactlyTheKeptCapacityIsKept() {
        let kept = DrainQueueStorage<Int>.keptCapacity
        var queue = DrainQueue<Int>()
        for value in 0..<kept { queue.append(value) }
        #expect(queue.storage?.slotCount == kept)
        while queue.popFirst() != nil {}
        #expect(queue.storage?.slotCount == kept, "a ring of exactly the kept capacity is kept")
        for value in 0...kept { queue.append(value) }
        while queue.popFirst() != nil {}
        #expect(queue.storage == nil, "a ring grown past it is let go of")
    }

    @Test func anElementTakenOutIsNoLongerHeld() {
        var queue = DrainQueue<Tracked>()
        let before = Tracked.alive
        queue.append(Tracked(1))
        queue.append(Tracked(2))
        var first = queue.popFirst()
        #expect(first?.value == 1)
        first = nil
        #expect(Tracked.alive == before + 1, "only the element still queued is alive")
        _ = first
        _ = queue.popFirst()
        #expect(Tracked.alive == before)
    }

    @Test func takeAllMovesEverythingOutAndDroppingItReleasesIt() {
        var queue = DrainQueue<Tracked>()
        let before = Tracked.alive
        for value in 0..<10 { queue.append(Tracked(value)) }
        _ = queue.popFirst()  // the ring no longer starts at its first slot
        for value in 10..<13 { queue.append(Tracked(value)) }
        var dropped = queue.takeAll()
        #expect(queue.isEmpty && queue.storage == nil)
        #expect(dropped.count == 12)
        #expect(dropped.popFirst()?.value == 1)
        #expect(Tracked.alive == before + 11)
        dropped = DrainQueue()  // the ring, wrapped, with 11 elements in it
        #expect(Tracked.alive == before)
    }
}
