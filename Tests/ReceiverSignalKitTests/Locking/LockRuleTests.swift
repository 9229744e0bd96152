import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// The lock rule, checked in debug builds: a thread that holds a library lock takes no
/// other lock. Locked sections run no user code and release no user value, so only misuse can
/// break it; these tests break it through the one documented way user code runs under a library
/// lock — a `DisposableDict` key's `hash(into:)` and `==` — and show that it stops with the
/// rule's message where a release build would deadlock.
///
/// The same check stopped an earlier defect — a key released under the dictionary's lock, whose
/// `deinit` used the dictionary — with this message before it was fixed, instead of hanging.
@Suite(.detectingLeaks) struct LockRuleTests {
    #if DEBUG
    @Test func aLibraryLockTakenUnderALibraryLockStopsWithTheRulesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog()
            let dict = DisposableDict<HashingKey>()
            let key = HashingKey { dict.set(nil, forKey: HashingKey {}) }
            dict.set(EmptyDisposable, forKey: key)  // hashes `key` under the dictionary's lock
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ReceiverSignalKit lock rule broken: ReceiverSignalKit/DisposableDict.swift:"))
        #expect(message.contains("takes a library lock while this thread holds the library lock taken at"))
        #expect(message.contains("A locked section must not take another lock, call user code"))
        #expect(!message.contains("watchdog"))
    }

    @Test func anAtomicTakenUnderALibraryLockStopsWithTheRulesMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog()
            let atomic = Atomic(value: 0)
            let dict = DisposableDict<HashingKey>()
            dict.set(EmptyDisposable, forKey: HashingKey { _ = atomic.with { $0 } })
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("ReceiverSignalKit/Atomic.swift:"))
        #expect(
            message.contains("takes the lock of an Atomic or a Lock while this thread holds the library lock taken at"))
        #expect(message.contains("ReceiverSignalKit/DisposableDict.swift:"))
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

/// A key whose `hash(into:)` runs `onHash`: user code that runs under a `DisposableDict`'s lock.
final class HashingKey: Hashable, Sendable {
    let onHash: @Sendable () -> Void
    init(onHash: @escaping @Sendable () -> Void) { self.onHash = onHash }
    static func == (lhs: HashingKey, rhs: HashingKey) -> Bool { lhs === rhs }
    func hash(into hasher: inout Hasher) {
        onHash()
        hasher.combine(ObjectIdentifier(self))
    }
}
