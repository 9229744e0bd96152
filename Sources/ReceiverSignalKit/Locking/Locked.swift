#if canImport(Darwin)
public import Darwin  // os_unfair_lock, behind `LockWord.Primitive`
#endif

/// The adapter's lock: a value that is only reachable through `withLock`, the lock word
/// tail-allocated after it so that it never moves.
///
/// It repeats the core's private lock on purpose: the core file stays self-contained and keeps
/// its lock out of its public API. `@unchecked Sendable` because every access to the value happens
/// under the lock. `withLock` bodies never call user code and take no other lock (the threading
/// contract: no user code under a lock, deinit included; checked in debug builds by ``LockRule``):
/// what they let go of is returned, and the caller releases it after unlocking — so write each
/// change as a transition that returns what it took out. Package access: the test scheduler of
/// ReceiverSignalKitTesting keeps its state in one too.
@usableFromInline package struct Locked<Value>: @unchecked Sendable {
    @usableFromInline typealias Primitive = LockWord.Primitive

    @usableFromInline final class Storage: ManagedBuffer<Value, Primitive> {
        deinit { _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) } }
    }

    @usableFromInline let storage: Storage

    @inlinable package init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { LockWord.initialize($0) }
    }

    /// Runs `body` with the value while holding the lock.
    ///
    /// - Parameters:
    ///   - file: Where the lock is taken, for ``LockRule``'s message (debug builds only).
    ///   - line: The same, its line.
    ///   - body: A short state change: no user code, no other lock.
    /// - Returns: What `body` returned — what it let go of, for the caller to release after
    ///   unlocking.
    @inlinable package func withLock<Result>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, word in
            LockRule.willTake(.library, file: file, line: line)
            LockWord.lock(word)
            defer {
                LockRule.didRelease(.library)
                LockWord.unlock(word)
            }
            return try body(&value.pointee)
        }
    }
}
