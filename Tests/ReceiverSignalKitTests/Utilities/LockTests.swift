import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct LockTests {
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

    @Test func throwingLockedRethrows() {
        let lock = Lock()
        #expect(throws: TestError(code: 1)) {
            try lock.throwingLocked { throw TestError(code: 1) }
        }
    }

    @Test func throwingLockedUnlocksBeforeRethrowing() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()  // a lock left locked by the throw would deadlock below
            let lock = Lock()
            do {
                try lock.throwingLocked { throw TestError(code: 1) }
            } catch {
                lock.locked {}
                try? lock.throwingLocked {}
            }
        }
    }

    @Test func isSendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(Lock())
    }

    @Test func throwingLockedWithoutAnErrorReturns() throws {
        let lock = Lock()
        var runs = 0
        try lock.throwingLocked { runs += 1 }
        #expect(runs == 1)
    }
}
