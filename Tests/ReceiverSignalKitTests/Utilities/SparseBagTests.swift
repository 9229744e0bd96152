import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct SparseBagTests {
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

    @Test func anItemsDeinitMayUseTheBagWhenRemoveReleasesIt() async {
        // As for `Bag`: `remove` released the item inside the bag's exclusive access, so an item
        // whose `deinit` read the bag crashed.
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let bag = SparseBag<OnRelease>()
            let seen = History<String>()
            let first = bag.add(
                OnRelease {
                    seen.record("released, the bag holds \(Array(bag).count), index 0 is \(bag.get(0)?.name ?? "nil")")
                    bag.add(OnRelease(name: "added") {})
                })
            bag.add(OnRelease(name: "second") {})
            bag.remove(first)
            precondition(seen.recorded == ["released, the bag holds 1, index 0 is nil"], "\(seen.recorded)")
            precondition(Set(bag.map(\.name)) == ["second", "added"] && bag.get(2)?.name == "added")
        }
    }

    @Test func itemsDeinitsMayUseTheBagWhenRemoveAllReleasesThem() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let bag = SparseBag<OnRelease>()
            let seen = History<String>()
            for _ in 0..<2 {
                bag.add(
                    OnRelease {
                        seen.record("released, the bag holds \(Array(bag).count)")
                        if bag.isEmpty { bag.add(OnRelease(name: "added") {}) }
                    })
            }
            bag.removeAll()
            precondition(
                seen.recorded == ["released, the bag holds 0", "released, the bag holds 1"], "\(seen.recorded)")
            precondition(bag.map(\.name) == ["added"] && bag.get(2)?.name == "added")
        }
    }
}
