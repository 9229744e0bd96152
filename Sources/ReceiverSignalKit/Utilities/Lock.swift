/// A plain lock, SwiftSignalKit's `Lock`: not recursive.
///
/// ```swift
/// let lock = Lock()
/// var count = 0
/// lock.locked { count += 1 }
/// ```
///
/// One object, its lock word allocated with it; `locked` is specialised in your module.
///
/// > Note: Locking it again from inside `locked` deadlocks (on Apple platforms, where it is an
/// > `os_unfair_lock`, the program stops instead). Prefer ``Atomic``, which ties the lock to the
/// > state it guards. The closure may use the rest of the library.
public final class Lock: Sendable {
    /// The lock, on the heap so that it never moves; freed in `deinit`.
    @usableFromInline nonisolated(unsafe) let word: UnsafeMutablePointer<LockWord.Primitive>

    /// Makes an unlocked lock.
    ///
    /// ```swift
    /// let lock = Lock()
    /// ```
    @inlinable public init() {
        word = LockWord.make()
    }

    deinit { LockWord.destroy(word) }

    /// Runs `f` while holding the lock.
    ///
    /// ```swift
    /// lock.locked { items.append(item) }
    /// ```
    ///
    /// - Parameter f: What to run under the lock.
    @inlinable public func locked(_ f: () -> Void) {
        LockRule.willTake(.user, file: #fileID, line: #line)
        LockWord.lock(word)
        defer { LockWord.unlock(word) }
        f()
    }

    /// Runs `f` while holding the lock; if it throws, unlocks, then rethrows the error.
    ///
    /// ```swift
    /// try lock.throwingLocked { try journal.append(entry) }
    /// ```
    ///
    /// - Parameter f: What to run under the lock.
    /// - Throws: What `f` threw, after the lock was released.
    @inlinable public func throwingLocked(_ f: () throws -> Void) throws {
        LockRule.willTake(.user, file: #fileID, line: #line)
        LockWord.lock(word)
        defer { LockWord.unlock(word) }
        try f()
    }
}
