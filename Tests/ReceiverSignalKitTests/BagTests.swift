import ReceiverSignalKit
import Testing

@Suite struct BagTests {
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
}
