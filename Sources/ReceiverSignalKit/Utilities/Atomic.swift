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
/// > Note: The closures of `with`, `tryWith` and `modify` run while the lock is held, as in
/// > SwiftSignalKit: keep them short, and never call back into the same `Atomic` from them (the
/// > lock is not recursive: that deadlocks, or stops the program on Apple platforms). What
/// > `modify` and `swap` replace is released after unlocking, so the `deinit` of a replaced
/// > value may use the same `Atomic` (in SwiftSignalKit it deadlocks).
public final class Atomic<T> {
    private let box: Locked<T>

    /// Makes an atomic holding `value`.
    ///
    /// ```swift
    /// let flag = Atomic(value: false)
    /// ```
    ///
    /// - Parameter value: The initial value.
    public init(value: T) {
        box = Locked(value)
    }

    /// Reads the value and returns what `f` makes of it.
    ///
    /// ```swift
    /// let isEven = counter.with { $0.isMultiple(of: 2) }
    /// ```
    ///
    /// - Parameter f: Called with the current value, under the lock.
    /// - Returns: What `f` returned.
    public func with<R>(_ f: (T) -> R) -> R {
        box.withLock { f($0) }
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
    public func tryWith<R>(_ f: (T) -> R) throws -> R {
        guard let result = box.withLockIfAvailable({ f($0) }) else { throw AtomicLockError.isLocked }
        return result
    }

    /// Replaces the value with what `f` makes of it.
    ///
    /// ```swift
    /// counter.modify { $0 + 1 }   // returns the incremented value
    /// ```
    ///
    /// - Parameter f: Called with the current value, under the lock; returns the new value.
    /// - Returns: The new value. The old one is released after unlocking.
    @discardableResult
    public func modify(_ f: (T) -> T) -> T {
        let (new, _) = box.withLock { value -> (T, T) in
            let old = value
            value = f(old)
            return (value, old)  // `old` dies out here, after unlocking
        }
        return new
    }

    /// Replaces the value with `value`.
    ///
    /// ```swift
    /// let wasSet = flag.swap(true)   // false the first time, true after
    /// ```
    ///
    /// - Parameter value: The new value.
    /// - Returns: The value it replaced (released after unlocking if the result is unused).
    @discardableResult
    public func swap(_ value: T) -> T {
        box.withLock { current in
            defer { current = value }
            return current
        }
    }
}

extension Atomic: Sendable where T: Sendable {}
