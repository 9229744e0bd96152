import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct DisposableSetTests {
    @Test func disposeDisposesEverythingOnce() {
        let set = DisposableSet()
        let members = (0..<3).map { _ in CountingDisposable() }
        members.forEach(set.add)
        #expect(members.map(\.count) == [0, 0, 0])
        set.dispose()
        set.dispose()
        #expect(members.map(\.count) == [1, 1, 1])
    }

    @Test func removeTakesOneOutWithoutDisposingIt() {
        let set = DisposableSet()
        let (kept, removed) = (CountingDisposable(), CountingDisposable())
        set.add(kept)
        set.add(removed)
        set.remove(removed)
        set.remove(CountingDisposable())  // not in the set: nothing happens
        set.dispose()
        #expect([kept.count, removed.count] == [1, 0])
    }

    @Test func removeLastTakesTheLastOneOutWithoutDisposingIt() {
        let set = DisposableSet()
        let members = (0..<3).map { _ in CountingDisposable() }
        members.forEach(set.add)
        set.removeLast()
        set.removeLast()
        #expect(members.map(\.count) == [0, 0, 0])
        set.dispose()
        #expect(members.map(\.count) == [1, 0, 0])
    }

    @Test func removeLastOnAnEmptyOrDisposedSetDoesNothing() {
        // A deliberate difference: SwiftSignalKit crashes on an empty set.
        let set = DisposableSet()
        set.removeLast()
        let member = CountingDisposable()
        set.add(member)
        set.dispose()
        set.removeLast()
        #expect(member.count == 1)
    }

    @Test func addAfterDisposeDisposesAtOnce() {
        let set = DisposableSet()
        set.dispose()
        let late = CountingDisposable()
        set.add(late)
        #expect(late.count == 1)
    }

    @Test func releasesItsMembersWhenDisposed() {
        let set = DisposableSet()
        weak var watcher: CountingDisposable?
        do {
            let member = CountingDisposable()
            watcher = member
            set.add(member)
        }
        #expect(watcher != nil)
        set.dispose()
        #expect(watcher == nil)
    }

    @Test func releasingTheSetDoesNotDisposeItsMembers() {
        let member = CountingDisposable()
        DisposableSet().add(member)
        #expect(member.count == 0)
    }

    @Test func addRacingDisposeDisposesEveryMemberExactlyOnce() {
        for _ in 0..<50 {
            let set = DisposableSet()
            let members = (0..<64).map { _ in CountingDisposable() }
            DispatchQueue.concurrentPerform(iterations: members.count) { index in
                set.add(members[index])
                if index.isMultiple(of: 16) { set.dispose() }
            }
            #expect(members.map(\.count) == Array(repeating: 1, count: members.count))
        }
    }

    @Test func whatRemoveLastTakesOutIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let set = DisposableSet()
            set.add(ReenteringDisposable { set.add(EmptyDisposable) })
            set.removeLast()
        }
    }

    @Test func whatDisposeTakesOutIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let set = DisposableSet()
            set.add(ReenteringDisposable { set.removeLast() })
            set.dispose()
            set.add(ReenteringDisposable { set.dispose() })  // disposed at once, then released
        }
    }
}
