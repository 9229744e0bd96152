#if canImport(Darwin)
public import Darwin  // os_unfair_lock, behind `LockWord.Primitive`
#endif

/// The adapter's lock: a value reachable only through `withLock`, with the lock word
/// tail-allocated after it so that it never moves. A `withLock` body is a short state change that
/// calls no user code and takes no other lock (``LockRule`` checks it in debug builds): it returns
/// what it lets go of, for the caller to release after unlocking. `@unchecked Sendable`: the value
/// is only touched under the lock. Package access, for ReceiverSignalKitTesting's scheduler.
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
