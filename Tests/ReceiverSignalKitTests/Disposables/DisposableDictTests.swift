import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct DisposableDictTests {
    @Test func setReplacesAndDisposesThePreviousUnderThatKey() {
        let dict = DisposableDict<String>()
        let (a1, a2, b) = (CountingDisposable(), CountingDisposable(), CountingDisposable())
        dict.set(a1, forKey: "a")
        dict.set(b, forKey: "b")
        dict.set(a2, forKey: "a")
        #expect([a1.count, a2.count, b.count] == [1, 0, 0])
        dict.dispose()
        #expect([a1.count, a2.count, b.count] == [1, 1, 1])
    }

    @Test func settingTheOccupantAgainDisposesItAndKeepsIt() {
        // As SwiftSignalKit (and MetaDisposable; the migration guide's "Quirks we keep"): the
        // previous occupant is disposed even when it is the new one, and it stays under its key.
        let dict = DisposableDict<Int>()
        let occupant = CountingDisposable()
        dict.set(occupant, forKey: 1)
        dict.set(occupant, forKey: 1)
        #expect(occupant.count == 1)
        dict.dispose()
        #expect(occupant.count == 2)
    }

    @Test func settingNilDisposesAndRemovesTheEntry() {
        // A deliberate difference (the migration guide's row "`DisposableDict.set(nil, forKey:)`"):
        // SwiftSignalKit keeps the disposed entry, so its `dispose()` disposes it a second time.
        let dict = DisposableDict<String>()
        let occupant = CountingDisposable()
        dict.set(occupant, forKey: "k")
        dict.set(nil, forKey: "k")
        #expect(occupant.count == 1)
        dict.dispose()
        #expect(occupant.count == 1)
        dict.set(nil, forKey: "absent")  // nothing under it: nothing happens
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

    @Test func releasingTheDictionaryDoesNotDisposeItsContents() {
        let occupant = CountingDisposable()
        DisposableDict<Int>().set(occupant, forKey: 0)
        #expect(occupant.count == 0)
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

    @Test func whatSetReplacesOrRemovesIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let dict = DisposableDict<Int>()
            dict.set(ReenteringDisposable { dict.set(EmptyDisposable, forKey: 2) }, forKey: 1)
            dict.set(EmptyDisposable, forKey: 1)
            dict.set(ReenteringDisposable { dict.set(nil, forKey: 2) }, forKey: 1)
            dict.set(nil, forKey: 1)
        }
    }

    @Test func whatDisposeTakesOutIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let dict = DisposableDict<Int>()
            dict.set(ReenteringDisposable { dict.set(EmptyDisposable, forKey: 2) }, forKey: 1)
            dict.dispose()
            dict.set(ReenteringDisposable { dict.dispose() }, forKey: 3)  // disposed at once, then released
        }
    }

    @Test func aKeyThatSetNilTakesOutIsReleasedAfterUnlocking() async {
        // The defect this pins: the key stored in the dictionary was released under its lock, so a
        // key whose `deinit` used the dictionary deadlocked (and stopped on the lock rule in debug
        // builds).
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            startWatchdog()
            let log = History<String>()
            let downloads = DisposableDict<ReenteringKey>()
            do {
                let key = ReenteringKey(1)
                key.onDeinit = {
                    log.record("key 1 released")
                    downloads.set(nil, forKey: ReenteringKey(2))
                }
                downloads.set(ActionDisposable { log.record("download 1 disposed") }, forKey: key)
            }
            downloads.set(nil, forKey: ReenteringKey(1))
            log.record("set returned")
            precondition(log.recorded == ["download 1 disposed", "key 1 released", "set returned"], "\(log.recorded)")
        }
        #expect(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self) == "")
    }

    @Test func aKeyThatDisposeTakesOutIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let downloads = DisposableDict<ReenteringKey>()
            do {
                let key = ReenteringKey(1)
                key.onDeinit = { downloads.set(nil, forKey: ReenteringKey(2)) }
                downloads.set(EmptyDisposable, forKey: key)
            }
            downloads.dispose()
        }
    }
    @Test func keysWithTheSameHashStayApart() {
        // Keys are filed by their hash and told apart by `==`: several under one hash are added,
        // replaced and removed one by one, in any order.
        let dict = DisposableDict<CollidingKey>()
        let members = (0..<4).map { _ in CountingDisposable() }
        let replacement = CountingDisposable()
        for (id, member) in members.enumerated() { dict.set(member, forKey: CollidingKey(id)) }
        dict.set(replacement, forKey: CollidingKey(2))
        #expect(members.map(\.count) == [0, 0, 1, 0])
        dict.set(nil, forKey: CollidingKey(0))
        dict.set(nil, forKey: CollidingKey(3))
        dict.set(nil, forKey: CollidingKey(9))  // not there: nothing happens
        #expect(members.map(\.count) == [1, 0, 1, 1])
        dict.set(nil, forKey: CollidingKey(1))  // one key left under the hash
        dict.set(members[0], forKey: CollidingKey(0))
        dict.dispose()
        #expect(members.map(\.count) == [2, 1, 1, 1])
        #expect(replacement.count == 1)
    }

    @Test func aKeysHashAndEqualityRunWithNoLockHeld() async {
        // `hash(into:)` and `==` are the key's code, so they run with no lock of the library held
        // and may use the dictionary itself. (Run under the lock, they stopped on the lock rule in
        // debug builds, and in release builds could deadlock on the stripe.)
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            startWatchdog()
            let dict = DisposableDict<CallingKey>()
            let (first, second, other) = (CountingDisposable(), CountingDisposable(), CountingDisposable())
            let hashing = CallingKey(1)
            hashing.onHash = { dict.set(other, forKey: CallingKey(2)) }
            dict.set(first, forKey: hashing)
            let comparing = CallingKey(1)
            comparing.onEquals = { dict.set(nil, forKey: CallingKey(2)) }
            dict.set(second, forKey: comparing)
            precondition(
                [first.count, second.count, other.count] == [1, 0, 1], "\([first, second, other].map(\.count))")
            dict.dispose()
            precondition(
                [first.count, second.count, other.count] == [1, 1, 1], "\([first, second, other].map(\.count))")
        }
        #expect(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self) == "")
    }

    @Test func aKeyRemovedWhileSetComparesIsStoredAgainNotLost() async {
        // `set` compares after unlocking, so the key it matched may be gone when it locks again: it
        // then looks again. Here the key's `==` removes the very entry it is being compared with.
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let dict = DisposableDict<CallingKey>()
            let (first, second) = (CountingDisposable(), CountingDisposable())
            dict.set(first, forKey: CallingKey(1))
            let comparing = CallingKey(1)
            comparing.onEquals = { dict.set(nil, forKey: CallingKey(1)) }  // disposes `first`
            dict.set(second, forKey: comparing)
            precondition([first.count, second.count] == [1, 0], "\([first, second].map(\.count))")
            dict.dispose()  // `second` was stored: disposed here
            precondition([first.count, second.count] == [1, 1], "\([first, second].map(\.count))")
        }
    }
}

/// A key whose hash is the same for every key: only `==` tells keys apart.
struct CollidingKey: Hashable {
    let id: Int
    init(_ id: Int) { self.id = id }
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// A key that calls `onHash` the first time it is hashed and `onEquals` the first time it is
/// compared: to call back into the dictionary from the key's own code.
final class CallingKey: Hashable, @unchecked Sendable {  // set once, before it is shared; one thread
    let id: Int
    var onHash: (() -> Void)?, onEquals: (() -> Void)?
    init(_ id: Int) { self.id = id }
    static func == (lhs: CallingKey, rhs: CallingKey) -> Bool {
        let call = lhs.onEquals ?? rhs.onEquals
        (lhs.onEquals, rhs.onEquals) = (nil, nil)
        call?()
        return lhs.id == rhs.id
    }
    func hash(into hasher: inout Hasher) {
        let call = onHash
        onHash = nil
        call?()
        hasher.combine(id)
    }
}

/// A key whose `deinit` runs `onDeinit`, to show when the dictionary lets go of it.
final class ReenteringKey: Hashable, @unchecked Sendable {  // `onDeinit` is set once, before it is shared
    let id: Int
    var onDeinit: (() -> Void)?
    init(_ id: Int) { self.id = id }
    static func == (lhs: ReenteringKey, rhs: ReenteringKey) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
    deinit { onDeinit?() }
}
