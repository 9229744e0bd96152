/// A plain lock, SwiftSignalKit's `Lock`: not recursive.
///
/// ```swift
/// let lock = Lock()
/// var count = 0
/// lock.locked { count += 1 }
/// ```
///
/// One object holding its lock (on Linux a `Synchronization.Mutex`, inline; on Apple platforms an
/// `os_unfair_lock`, allocated with it); `locked` is specialised in your module.
///
/// > Note: Locking it again from inside `locked` stops the program (`os_unfair_lock` on Apple
/// > platforms and the toolchain's `Mutex` on Linux detect it) or deadlocks. Prefer ``Atomic``,
/// > which ties the lock to the state it guards. The closure may use the rest of the library.
public final class Lock: Sendable {
    /// The lock word.
    @usableFromInline let word = LockWord.Own()

    /// Makes an unlocked lock.
    ///
    /// ```swift
    /// let lock = Lock()
    /// ```
    @inlinable public init() {}

    /// Runs `f` while holding the lock.
    ///
    /// ```swift
    /// lock.locked { items.append(item) }
    /// ```
    ///
    /// - Parameter f: What to run under the lock.
    @inlinable public func locked(_ f: () -> Void) {
        LockRule.willTake(.user, file: #fileID, line: #line)
        word.lock()
        defer { word.unlock() }
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
        word.lock()
        defer { word.unlock() }
        try f()
    }
}
