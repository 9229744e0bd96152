import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct CounterBagTests {
    @Test func addHandsOutOneTwoThree() {
        let bag = CounterBag()
        #expect(bag.isEmpty)
        #expect([bag.add(), bag.add(), bag.add()] == [1, 2, 3])
        #expect(!bag.isEmpty)
    }

    @Test func emptyOnceEveryTokenIsRemoved() {
        let bag = CounterBag()
        let (first, second) = (bag.add(), bag.add())
        bag.remove(first)
        bag.remove(first)  // gone already: nothing happens
        bag.remove(42)  // never handed out: nothing happens
        #expect(!bag.isEmpty)
        bag.remove(second)
        #expect(bag.isEmpty)
        #expect(bag.add() == 3)  // tokens are never reused
    }
}
