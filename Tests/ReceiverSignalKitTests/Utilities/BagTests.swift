import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct BagTests {
    @Test func keepsInsertionOrder() {
        let bag = Bag<String>()
        #expect(bag.isEmpty)
        let indices = ["a", "b", "c"].map { bag.add($0) }
        #expect(indices == [0, 1, 2])
        #expect(bag.copyItems() == ["a", "b", "c"])
        #expect(!bag.isEmpty)
    }

    @Test func removeAndGet() {
        let bag = Bag<String>()
        let (a, b, c) = (bag.add("a"), bag.add("b"), bag.add("c"))
        bag.remove(b)
        bag.remove(b)  // gone already: nothing happens
        bag.remove(99)  // never added: nothing happens
        #expect(bag.copyItems() == ["a", "c"])
        #expect([bag.get(a), bag.get(b), bag.get(c)] == ["a", nil, "c"])
        bag.remove(c)
        bag.remove(a)
        #expect(bag.isEmpty)
        #expect(bag.copyItems() == [])
    }

    @Test func indicesAreNeverReused() {
        let bag = Bag<Int>()
        var issued: [Int] = []
        for round in 0..<50 {
            let index = bag.add(round)
            issued.append(index)
            bag.remove(index)  // empties the bag every time
        }
        #expect(issued == Array(0..<50))
        #expect(bag.isEmpty)
    }

    @Test func manyRemovalsKeepOrderAndIndices() {
        let bag = Bag<Int>()
        let indices = (0..<1000).map { bag.add($0) }
        for index in indices where !index.isMultiple(of: 3) { bag.remove(index) }
        #expect(bag.copyItems() == Array(stride(from: 0, to: 1000, by: 3)))
        #expect(bag.get(999) == 999)
        #expect(bag.get(998) == nil)
        #expect(bag.add(-1) == 1000)
        #expect(bag.copyItems().last == -1)
    }

    @Test func optionalItemsKeepTheirNil() {
        let bag = Bag<Int?>()
        let index = bag.add(nil)
        bag.add(1)
        #expect(bag.copyItems() == [nil, 1])
        #expect(bag.get(index) == .some(nil))
    }

    @Test func removeAllEmptiesTheBagAndIndicesGoOnCounting() {
        let bag = Bag<String>()
        let (a, _) = (bag.add("a"), bag.add("b"))
        bag.removeAll()
        #expect(bag.isEmpty)
        #expect(bag.copyItems() == [])
        #expect(bag.get(a) == nil)
        #expect(bag.add("c") == 2)
        #expect(bag.copyItems() == ["c"])
    }

    @Test func copyItemsWithIndicesPairsEachItemWithItsIndex() {
        let bag = Bag<String>()
        let b = ["a", "b", "c", "d"].map { bag.add($0) }[1]
        bag.remove(b)
        let pairs = bag.copyItemsWithIndices()
        #expect(pairs.map(\.0) == [0, 2, 3])
        #expect(pairs.map(\.1) == ["a", "c", "d"])
        #expect(Bag<Int>().copyItemsWithIndices().isEmpty)
    }

    @Test func firstIsTheEarliestRemainingEntry() {
        let bag = Bag<String>()
        #expect(bag.first == nil)
        let (a, b) = (bag.add("a"), bag.add("b"))
        bag.add("c")
        #expect(bag.first.map { [String($0.0), $0.1] } == ["0", "a"])
        bag.remove(a)
        bag.remove(b)
        #expect(bag.first.map { [String($0.0), $0.1] } == ["2", "c"])
        bag.removeAll()
        #expect(bag.first == nil)
    }

    @Test func anItemsDeinitMayUseTheBagWhenRemoveReleasesIt() async {
        // The defect this pins: `remove` released the item inside the bag's exclusive access, so an
        // item whose `deinit` read the bag crashed ("Simultaneous accesses"). Now the deinit runs once
        // the bag is whole again: it sees the bag without the item, and may change it.
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let bag = Bag<OnRelease>()
            let seen = History<String>()
            let first = bag.add(
                OnRelease {
                    seen.record(
                        "released, the bag holds \(bag.copyItems().count), index 1 is \(bag.get(1)?.name ?? "nil")")
                    bag.add(OnRelease(name: "added") {})
                })
            bag.add(OnRelease(name: "second") {})
            bag.remove(first)
            precondition(seen.recorded == ["released, the bag holds 1, index 1 is second"], "\(seen.recorded)")
            precondition(bag.copyItemsWithIndices().map { "\($0.0) \($0.1.name)" } == ["1 second", "2 added"])
        }
    }

    @Test func itemsDeinitsMayUseTheBagWhenRemoveAllReleasesThem() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let bag = Bag<OnRelease>()
            let seen = History<String>()
            for _ in 0..<2 {
                bag.add(
                    OnRelease {
                        seen.record("released, the bag holds \(bag.copyItems().count)")
                        if bag.isEmpty { bag.add(OnRelease(name: "added") {}) }
                    })
            }
            bag.removeAll()
            precondition(
                seen.recorded == ["released, the bag holds 0", "released, the bag holds 1"], "\(seen.recorded)")
            precondition(bag.copyItemsWithIndices().map { "\($0.0) \($0.1.name)" } == ["2 added"])
        }
    }

    @Test func removingInAnyOrderKeepsOrderAndIndices() {
        // First, last and middle removals take different paths (the ends are found at once).
        let bag = Bag<Int>()
        let indices = (0..<10).map { bag.add($0 * 10) }
        for index in [0, 9, 5, 1, 8, 3] { bag.remove(indices[index]) }
        bag.remove(indices[5])  // gone already
        bag.remove(-1)  // below every index
        bag.remove(100)  // above every index
        #expect(bag.copyItemsWithIndices().map(\.0) == [2, 4, 6, 7])
        #expect(bag.copyItems() == [20, 40, 60, 70])
        #expect([bag.get(2), bag.get(3), bag.get(7), bag.get(-1), bag.get(10)] == [20, nil, 70, nil, nil])
        #expect(bag.first.map { [$0.0, $0.1] } == [2, 20])
    }
}

/// An item whose `deinit` runs `onRelease`, to show when a bag lets go of it.
final class OnRelease {
    let name: String
    let onRelease: () -> Void
    init(name: String = "", _ onRelease: @escaping () -> Void) { (self.name, self.onRelease) = (name, onRelease) }
    deinit { onRelease() }
}
