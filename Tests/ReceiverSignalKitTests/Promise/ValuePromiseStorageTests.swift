import Dispatch
import Testing

import class Foundation.Thread

@testable import ReceiverSignalKit

/// What a `ValuePromise` keeps before and after its first start: apps keep promises by the
/// thousand, most of them never listened to, so an idle promise is one object holding its value,
/// and the pair is made at the first start of `get()` — with the same values, order and release
/// timing as a pair made at once.
@Suite struct ValuePromiseStorageTests {
    /// An equatable value whose instances are counted per tag.
    private struct Item: Equatable {
        let tracked: Tracked
        init(_ value: Int, tag: String) { tracked = Tracked(value, tag: tag) }
        static func == (lhs: Item, rhs: Item) -> Bool { lhs.tracked.value == rhs.tracked.value }
    }

    private func hasPair<T>(_ promise: ValuePromise<T>) -> Bool {
        StripedLock(for: promise).withLock { promise.listened != nil }
    }

    @Test(arguments: [false, true])
    func anIdlePromiseMakesNoPairUntilItsFirstStart(ignoreRepeated: Bool) {
        let promise = ValuePromise(1, ignoreRepeated: ignoreRepeated)
        promise.set(2)
        promise.set(2)
        promise.set(3)
        let signal = promise.get()
        #expect(!hasPair(promise))
        var received: [Int] = []
        let subscription = signal.start(next: { received.append($0) })
        #expect(hasPair(promise))
        promise.set(4)
        #expect(received == [3, 4])
        subscription.dispose()
        #expect(current(promise.get()) == 4)
    }

    @Test(arguments: [false, true])
    func thePairIsLetGoOfWithTheLastSubscriberAndMadeAgainAtTheNextStart(ignoreRepeated: Bool) {
        // Apps keep promises for everything a screen ever showed: one that nobody listens to any
        // more goes back to its idle size, keeping its current value for the next start.
        let promise = ValuePromise(1, ignoreRepeated: ignoreRepeated)
        var first: [Int] = [], second: [Int] = []
        let a = promise.get().start(next: { first.append($0) })
        let b = promise.get().start(next: { second.append($0) })
        a.dispose()
        #expect(hasPair(promise))
        promise.set(2)
        b.dispose()
        b.dispose()  // a second dispose changes nothing
        #expect(!hasPair(promise))
        promise.set(3)  // stored, sent to nobody
        #expect(!hasPair(promise))
        var third: [Int] = []
        let c = promise.get().start(next: { third.append($0) })
        promise.set(4)
        #expect(hasPair(promise))
        c.dispose()
        #expect(!hasPair(promise))
        #expect(first == [1])
        #expect(second == [1, 2])
        #expect(third == [3, 4])
        #expect(current(promise.get()) == 4)
    }

    @Test func aPromiseWithoutAValueStartsWithoutOne() {
        let promise = ValuePromise<Int>()
        #expect(current(promise.get()) == nil)
        promise.set(1)
        #expect(current(promise.get()) == 1)
    }

    @Test func ignoreRepeatedKeepsTheFirstStoredObjectBeforeAndAfterTheFirstStart() {
        let tag = "storage.ignoreRepeated"
        let promise = ValuePromise(Item(1, tag: tag), ignoreRepeated: true)
        let first = current(promise.get()).map { ObjectIdentifier($0.tracked) }
        promise.set(Item(1, tag: tag))  // equal: dropped, and released at once
        #expect(current(promise.get()).map { ObjectIdentifier($0.tracked) } == first)
        #expect(Tracked.count(tag) == 1)
        promise.set(Item(2, tag: tag))
        #expect(Tracked.count(tag) == 1)  // the pair and the promise both let go of the first
        _ = promise
    }

    @Test func theValueMovesIntoThePairAndIsReleasedWhenReplaced() {
        // Without `ignoreRepeated` the promise keeps no copy once the pair keeps the value: the
        // value set before the first start is released by the `set` that replaces it.
        let tag = "storage.moves"
        let promise = ValuePromise(Item(1, tag: tag))
        #expect(Tracked.count(tag) == 1)
        var received: [Int] = []
        let subscription = promise.get().start(next: { received.append($0.tracked.value) })
        promise.set(Item(2, tag: tag))
        #expect(Tracked.count(tag) == 1)
        #expect(received == [1, 2])
        subscription.dispose()
        _ = promise
    }

    @Test func aSetDuringTheFirstStartIsNeverLost() {
        // A first start makes the pair with the value it read; a `set` on another thread meanwhile
        // must not be overwritten by that older value: after both, the current value is the set
        // one. Round after round, one thread starts a new promise's `get()` while another sets it,
        // later and later into the start, to land in every part of it.
        let clock = ContinuousClock()
        let oneStart = clock.measure { for _ in 0..<50 { ValuePromise(0).get().start().dispose() } } / 50
        let rounds = 1_200
        let promises = (0..<rounds).map { _ in ValuePromise(-1) }
        // Two threads of their own (a thread pool may run both on one thread, where the first
        // would wait for the second forever), meeting at the start of each round.
        let arrivals = Atomic(value: 0), finished = DispatchSemaphore(value: 0)
        @Sendable func meet(_ round: Int) {
            _ = arrivals.modify { $0 + 1 }
            while arrivals.with({ $0 }) < 2 * (round + 1) {}
        }
        Thread.detachNewThread {
            for round in 0..<rounds {
                meet(round)
                promises[round].get().start().dispose()
            }
            finished.signal()
        }
        Thread.detachNewThread {
            for round in 0..<rounds {
                meet(round)
                let until = clock.now + oneStart * Double(round % 60) / 40
                while clock.now < until {}
                promises[round].set(round)
            }
            finished.signal()
        }
        finished.wait()
        finished.wait()
        let stale = (0..<rounds).filter { current(promises[$0].get()) != $0 }
        #expect(stale == [])
    }
}
