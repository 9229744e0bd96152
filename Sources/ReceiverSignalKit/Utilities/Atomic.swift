/// What ``Atomic/tryWith(_:)`` throws when it cannot take the lock at once.
///
/// ```swift
/// do {
///     let value = try cache.tryWith { $0.count }
/// } catch AtomicLockError.isLocked {
///     // another thread (or this one) holds the lock
/// }
/// ```
public enum AtomicLockError: Error {
    /// The lock was held, by another thread or by the caller itself.
    case isLocked
}

/// A value behind a lock: every read and change is one atomic step.
///
/// ```swift
/// let counter = Atomic(value: 0)
/// counter.modify { $0 + 1 }         // 1
/// counter.with { $0 * 10 }          // 10
/// counter.swap(5)                   // 1; the value is now 5
/// ```
///
/// One object: the value and its lock are stored in it (on Linux a `Synchronization.Mutex`, inline;
/// on Apple platforms an `os_unfair_lock`, allocated with it since it must not move); `with`,
/// `modify` and `swap` are specialised in your module, so each costs one lock round trip plus your
/// closure.
///
/// > Note: The closures of `with`, `tryWith` and `modify` run while the lock is held, as in
/// > SwiftSignalKit: keep them short, and never call back into the same `Atomic` from them (the
/// > lock is not recursive: that stops the program, or deadlocks). They may use the rest of the
/// > library (its own locks are never held while your code runs). What `modify` and `swap`
/// > replace is released after unlocking, so the `deinit` of a replaced value may use the same
/// > `Atomic` (in SwiftSignalKit it deadlocks).
public final class Atomic<T> {
    /// Only ever touched under `lock`, which also makes the exclusivity check redundant.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var value: T
    /// The lock: taken and released by separate calls, so that what `modify` and `swap` replace
    /// can be released after unlocking.
    @usableFromInline let lock = LockWord.Own()

    /// Makes an atomic holding `value`.
    ///
    /// ```swift
    /// let flag = Atomic(value: false)
    /// ```
    ///
    /// - Parameter value: The initial value.
    @inlinable public init(value: T) {
        self.value = value
    }

    /// Reads the value and returns what `f` makes of it.
    ///
    /// ```swift
    /// let isEven = counter.with { $0.isMultiple(of: 2) }
    /// ```
    ///
    /// - Parameter f: Called with the current value, under the lock.
    /// - Returns: What `f` returned.
    @inlinable public func with<R>(_ f: (T) -> R) -> R {
        LockRule.willTake(.user, file: #fileID, line: #line)
        lock.lock()
        defer { lock.unlock() }
        return f(value)
    }

    /// Reads the value as ``with(_:)`` does, but only if the lock is free at once.
    ///
    /// ```swift
    /// let count = try? cache.tryWith { $0.count }   // nil while someone holds the lock
    /// ```
    ///
    /// - Parameter f: Called with the current value, under the lock.
    /// - Returns: What `f` returned.
    /// - Throws: ``AtomicLockError/isLocked`` without calling `f` if the lock is held, by
    ///   another thread or by the caller (from inside `with`, say).
    @inlinable public func tryWith<R>(_ f: (T) -> R) throws -> R {
        LockRule.willTake(.user, file: #fileID, line: #line)
        guard lock.tryLock() else { throw AtomicLockError.isLocked }
        defer { lock.unlock() }
        return f(value)
    }

    /// Replaces the value with what `f` makes of it.
    ///
    /// ```swift
    /// counter.modify { $0 + 1 }   // returns the incremented value
    /// ```
    ///
    /// - Parameter f: Called with the current value, under the lock; returns the new value.
    /// - Returns: The new value.
    @inlinable @discardableResult
    public func modify(_ f: (T) -> T) -> T {
        LockRule.willTake(.user, file: #fileID, line: #line)
        lock.lock()
        var replaced = f(value)
        Swift.swap(&value, &replaced)
        let new = value
        lock.unlock()
        return new  // `replaced`, the old value, is released here
    }

    /// Replaces the value with `value`.
    ///
    /// ```swift
    /// let wasSet = flag.swap(true)   // false the first time, true after
    /// ```
    ///
    /// - Parameter value: The new value.
    /// - Returns: The value it replaced.
    @inlinable @discardableResult
    public func swap(_ value: T) -> T {
        var replaced = value
        LockRule.willTake(.user, file: #fileID, line: #line)
        lock.lock()
        Swift.swap(&self.value, &replaced)
        lock.unlock()
        return replaced
    }
}

extension Atomic: Sendable where T: Sendable {}
