import ReceiverSignalKit
import Testing

@Suite struct SparseBagTests {
    @Test func addGetAndRemove() {
        let bag = SparseBag<String>()
        #expect(bag.isEmpty)
        let indices = ["a", "b", "c"].map { bag.add($0) }
        #expect(indices == [0, 1, 2])
        #expect(!bag.isEmpty)
        bag.remove(1)
        bag.remove(1)  // gone already: nothing happens
        bag.remove(99)  // never added: nothing happens
        #expect([bag.get(0), bag.get(1), bag.get(2)] == ["a", nil, "c"])
        bag.remove(0)
        bag.remove(2)
        #expect(bag.isEmpty)
    }

    @Test func removeAllEmptiesTheBagAndIndicesGoOnCounting() {
        let bag = SparseBag<Int>()
        bag.add(10)
        bag.add(11)
        bag.removeAll()
        #expect(bag.isEmpty)
        #expect(bag.get(0) == nil)
        #expect(bag.add(12) == 2)
    }

    @Test func iteratesOverTheItemsInSomeOrder() {
        let bag = SparseBag<Int>()
        for value in 0..<100 { bag.add(value) }
        for index in stride(from: 0, to: 100, by: 2) { bag.remove(index) }
        #expect(bag.sorted() == Array(stride(from: 1, to: 100, by: 2)))
    }

    @Test func theIteratorWalksASnapshot() {
        let bag = SparseBag<Int>()
        bag.add(1)
        let iterator = bag.makeIterator()
        bag.add(2)
        bag.remove(0)
        #expect(Array(IteratorSequence(iterator)) == [1])
        #expect(Array(bag) == [2])
    }
}
