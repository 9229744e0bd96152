import Dispatch
import ReceiverSignalKit
import Testing

@Suite struct LockTests {
    @Test func lockedRunsTheClosure() {
        let lock = Lock()
        var runs: [String] = []
        lock.locked { runs.append("first") }
        lock.locked { runs.append("second") }  // unlocked after the first: no deadlock
        #expect(runs == ["first", "second"])
    }

    @Test func lockedExcludesOtherThreads() {
        final class Counter: @unchecked Sendable { var value = 0 }  // guarded by `lock`
        let (lock, counter) = (Lock(), Counter())
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in lock.locked { counter.value += 1 } }
        lock.locked { #expect(counter.value == 1000) }
    }

    @Test func throwingLockedUnlocksThenRethrows() {
        let lock = Lock()
        #expect(throws: TestError(code: 1)) {
            try lock.throwingLocked { throw TestError(code: 1) }
        }
        var relocked = false
        lock.locked { relocked = true }  // the throw released the lock
        #expect(relocked)
    }

    @Test func throwingLockedWithoutAnErrorReturns() throws {
        let lock = Lock()
        var runs = 0
        try lock.throwingLocked { runs += 1 }
        #expect(runs == 1)
    }
}
