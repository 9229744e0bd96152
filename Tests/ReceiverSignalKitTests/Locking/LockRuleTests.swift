import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// The lock rule, checked in debug builds: a thread that holds a library lock takes no
/// other lock. Locked sections run no user code and release no user value, so only misuse can
/// break it; these tests break it on purpose with the library's own lock (`Locked`, which tests
/// may use) and show that it stops with the rule's message where a release build would deadlock.
///
/// The same check stopped earlier defects with this message before they were fixed, instead of
/// hanging: a `DisposableDict` key released under the dictionary's lock, whose `deinit` used the
/// dictionary, and a key whose `hash(into:)` or `==` did, when those ran under the lock.
@Suite(.detectingLeaks) struct LockRuleTests {
    #if DEBUG
    @Test func aLibraryLockTakenUnderALibraryLockStopsWithTheRulesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog()
            let (outer, inner) = (Locked(0), Locked(0))
            outer.withLock { _ in inner.withLock { _ in } }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ReceiverSignalKit lock rule broken: ReceiverSignalKitTests/LockRuleTests.swift:"))
        #expect(message.contains("takes a library lock while this thread holds the library lock taken at"))
        #expect(message.contains("A locked section must not take another lock, call user code"))
        #expect(!message.contains("watchdog"))
    }

    @Test func anAtomicTakenUnderALibraryLockStopsWithTheRulesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog()
            let (atomic, locked) = (Atomic(value: 0), Locked(0))
            locked.withLock { _ in _ = atomic.with { $0 } }
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ReceiverSignalKit/Atomic.swift:"))
        #expect(
            message.contains("takes the lock of an Atomic or a Lock while this thread holds the library lock taken at"))
        #expect(message.contains("ReceiverSignalKitTests/LockRuleTests.swift:"))
    }
    #endif

    @Test func theClosuresOfAtomicAndLockMayUseTheLibrary() async {
        // `Atomic` and `Lock` run your code under their lock by design: that code may use the rest
        // of the library, and your own locks may nest.
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let (atomic, other, lock) = (Atomic(value: 0), Atomic(value: 0), Lock())
            let (meta, set) = (MetaDisposable(), DisposableSet())
            let promise = ValuePromise(0, ignoreRepeated: false)
            let seen = History<Int>()
            let disposable = promise.get().start(next: seen.record)
            atomic.with { _ in
                meta.set(ActionDisposable { seen.record(-1) })
                lock.locked {
                    promise.set(1)
                    other.swap(2)
                }
            }
            try? lock.throwingLocked {
                set.add(meta)
                throw TestError(code: 0)
            }
            atomic.modify { value in
                set.dispose()  // disposes `meta`, which disposes its action
                return value + 1
            }
            disposable.dispose()
            precondition(seen.recorded == [0, 1, -1] && atomic.with({ $0 }) == 1 && other.with({ $0 }) == 2)
        }
    }
}
