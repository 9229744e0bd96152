/// A value behind a lock: every read and change is one atomic step.
///
/// ```swift
/// let counter = Atomic(value: 0)
/// counter.modify { $0 + 1 }         // 1
/// counter.with { $0 * 10 }          // 10
/// counter.swap(5)                   // 1; the value is now 5
/// ```
///
/// > Note: The closures of `with` and `modify` run while the lock is held: keep them short, and
/// > never call back into the same `Atomic` from them (that deadlocks).
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

    /// Reads the value and returns what `body` makes of it.
    ///
    /// ```swift
    /// let isEven = counter.with { $0.isMultiple(of: 2) }
    /// ```
    ///
    /// - Parameter body: Called with the current value, under the lock.
    /// - Returns: What `body` returned.
    public func with<Result>(_ body: (T) -> Result) -> Result {
        box.withLock { body($0) }
    }

    /// Replaces the value with what `body` makes of it.
    ///
    /// ```swift
    /// counter.modify { $0 + 1 }   // returns the incremented value
    /// ```
    ///
    /// - Parameter body: Called with the current value, under the lock; returns the new value.
    /// - Returns: The new value.
    @discardableResult
    public func modify(_ body: (T) -> T) -> T {
        box.withLock { value in
            value = body(value)
            return value
        }
    }

    /// Replaces the value with `value`.
    ///
    /// ```swift
    /// let wasSet = flag.swap(true)   // false the first time, true after
    /// ```
    ///
    /// - Parameter value: The new value.
    /// - Returns: The value it replaced.
    @discardableResult
    public func swap(_ value: T) -> T {
        box.withLock { current in
            defer { current = value }
            return current
        }
    }
}

extension Atomic: Sendable where T: Sendable {}
