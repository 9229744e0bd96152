/// A plain lock, SwiftSignalKit's `Lock`: not recursive.
///
/// ```swift
/// let lock = Lock()
/// var count = 0
/// lock.locked { count += 1 }
/// ```
///
/// > Note: Locking it again from inside `locked` deadlocks (on Apple platforms, where it is an
/// > `os_unfair_lock`, the program stops instead). Prefer ``Atomic``, which ties the lock to the
/// > state it guards.
public final class Lock: Sendable {
    // Not `Locked(())`: a zero-sized value shares its address with the lock word behind it, and
    // the thread sanitizer then reports each access to the value as a race with the mutex.
    private let box = Locked(false)

    /// Makes an unlocked lock.
    ///
    /// ```swift
    /// let lock = Lock()
    /// ```
    public init() {}

    /// Runs `f` while holding the lock.
    ///
    /// ```swift
    /// lock.locked { items.append(item) }
    /// ```
    ///
    /// - Parameter f: What to run under the lock.
    public func locked(_ f: () -> Void) {
        box.withLock { _ in f() }
    }

    /// Runs `f` while holding the lock; if it throws, unlocks, then rethrows the error.
    ///
    /// ```swift
    /// try lock.throwingLocked { try journal.append(entry) }
    /// ```
    ///
    /// - Parameter f: What to run under the lock.
    /// - Throws: What `f` threw, after the lock was released.
    public func throwingLocked(_ f: () throws -> Void) throws {
        try box.withLock { _ in try f() }
    }
}
