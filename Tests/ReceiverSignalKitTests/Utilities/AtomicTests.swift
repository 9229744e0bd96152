import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct AtomicTests {
    @Test func withModifyAndSwap() {
        let atomic = Atomic(value: 1)
        #expect(atomic.with { $0 * 10 } == 10)
        #expect(atomic.modify { $0 + 1 } == 2)
        #expect(atomic.swap(7) == 2)
        #expect(atomic.with { $0 } == 7)
    }

    @Test func tryWithRunsWhenTheLockIsFree() throws {
        let atomic = Atomic(value: 3)
        #expect(try atomic.tryWith { $0 * 2 } == 6)
        #expect(try atomic.tryWith { _ in Optional<Int>.none } == nil)  // a nil result is not "locked"
    }

    @Test func tryWithThrowsIsLockedFromInsideWith() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()  // a tryWith that waited for the lock would deadlock here
            let atomic = Atomic(value: 3)
            var calls = 0
            let result = atomic.with { _ in Result { try atomic.tryWith { _ in calls += 1 } } }
            precondition(calls == 0)
            do {
                try result.get()
                preconditionFailure("tryWith ran under a lock held by its caller")
            } catch {
                precondition(error as? AtomicLockError == .isLocked)
            }
        }
    }

    @Test func tryWithThrowsIsLockedWhileAnotherThreadHoldsTheLock() throws {
        let atomic = Atomic(value: 0)
        let (entered, release, done) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        Thread.detachNewThread {
            atomic.with { _ in
                entered.signal()
                _ = release.wait(timeout: .now() + 10)
            }
            done.signal()
        }
        expectSignal(entered)
        #expect(throws: AtomicLockError.isLocked) { try atomic.tryWith { $0 } }
        release.signal()
        expectSignal(done)
        #expect(try atomic.tryWith { $0 } == 0)
    }

    @Test func concurrentModificationsAreNotLost() {
        let atomic = Atomic(value: 0)
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in atomic.modify { $0 + 1 } }
        #expect(atomic.with { $0 } == 1000)
    }

    @Test func concurrentSwapsHandOutEveryValueOnce() {
        let atomic = Atomic(value: -1)
        let old = History<Int>()
        DispatchQueue.concurrentPerform(iterations: 500) { old.record(atomic.swap($0)) }
        let seen = (old.recorded + [atomic.with { $0 }]).sorted()
        #expect(seen == Array(-1..<500))
    }

    @Test func modifyReleasesTheOldValueAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let atomic = Atomic<Reentering?>(value: nil)
            let reads = Atomic(value: 0)
            atomic.modify { _ in Reentering { _ = atomic.with { _ in reads.modify { $0 + 1 } } } }
            atomic.modify { _ in nil }  // the old value's deinit reads `atomic`
            precondition(reads.with { $0 } == 1)
        }
    }

    @Test func swapReleasesTheOldValueAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let atomic = Atomic<Reentering?>(value: nil)
            let reads = Atomic(value: 0)
            atomic.swap(Reentering { _ = atomic.with { _ in reads.modify { $0 + 1 } } })
            atomic.swap(nil)  // the result is unused: released here, and its deinit reads `atomic`
            precondition(reads.with { $0 } == 1)
        }
    }
}

/// Runs `onDeinit` when released: to call back into what released it.
private final class Reentering: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
