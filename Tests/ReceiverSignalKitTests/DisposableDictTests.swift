import Dispatch
import ReceiverSignalKit
import Testing

@Suite struct DisposableDictTests {
    @Test func setReplacesAndDisposesThePreviousUnderThatKey() {
        let dict = DisposableDict<String>()
        let (a1, a2, b) = (CountingDisposable(), CountingDisposable(), CountingDisposable())
        dict.set(a1, forKey: "a")
        dict.set(b, forKey: "b")
        dict.set(a2, forKey: "a")
        #expect([a1.count, a2.count, b.count] == [1, 0, 0])
        dict.set(a2, forKey: "a")  // the same occupant again: nothing to dispose
        dict.set(nil, forKey: "b")
        #expect([a1.count, a2.count, b.count] == [1, 0, 1])
        dict.dispose()
        #expect([a1.count, a2.count, b.count] == [1, 1, 1])
    }

    @Test func setAfterDisposeDisposesAtOnce() {
        let dict = DisposableDict<Int>()
        dict.dispose()
        let late = CountingDisposable()
        dict.set(late, forKey: 1)
        #expect(late.count == 1)
        dict.dispose()
        #expect(late.count == 1)
    }

    @Test func setRacingDisposeDisposesEveryMemberExactlyOnce() {
        for _ in 0..<50 {
            let dict = DisposableDict<Int>()
            let members = (0..<64).map { _ in CountingDisposable() }
            DispatchQueue.concurrentPerform(iterations: members.count) { index in
                dict.set(members[index], forKey: index % 8)  // replacing under shared keys, too
                if index == 40 { dict.dispose() }
            }
            #expect(members.map(\.count) == Array(repeating: 1, count: members.count))
        }
    }
}
