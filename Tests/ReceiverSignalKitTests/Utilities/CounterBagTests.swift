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

    /// Random adds and removals — of tokens in the bag, gone, or never handed out; the newest,
    /// the oldest and the ones between, which take different paths — against a set of tokens:
    /// the bag is empty exactly when the set is, and hands out the next token each time.
    @Test(arguments: 0..<50) func randomProgramsAgreeWithASetOfTokens(seed: UInt64) {
        var choices = SeededChoices(seed: seed)
        let bag = CounterBag()
        var (model, next) = (Set<Int>(), 1)
        for _ in 0..<40 {
            if choices.next(3) == 0 {
                #expect(bag.add() == next)
                model.insert(next)
                next += 1
            } else {
                let token = choices.next(next + 1)  // 0 and `next` were never handed out
                bag.remove(token)
                model.remove(token)
            }
            #expect(bag.isEmpty == model.isEmpty, "seed \(seed)")
            if bag.isEmpty != model.isEmpty { return }
        }
        for token in model.sorted().reversed() {
            #expect(!bag.isEmpty, "seed \(seed)")
            bag.remove(token)
        }
        #expect(bag.isEmpty, "seed \(seed)")
    }
}
