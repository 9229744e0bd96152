/// A plain holder of a value, a subscriber bag and a lock, with no behaviour of its own —
/// SwiftSignalKit's `MulticastPromise`, kept so code that names it compiles.
///
/// ```swift
/// let shared = MulticastPromise<Int>()
/// shared.lock.locked {
///     shared.value = 1
///     shared.subscribers.add { print($0) }
/// }
/// ```
///
/// > Note: Nothing here is synchronised for you: touch `value` and `subscribers` only inside
/// > `lock.locked`, and call the subscribers after unlocking. Prefer ``Promise``.
public final class MulticastPromise<T> {
    /// The subscribers' handlers.
    ///
    /// ```swift
    /// var handlers: [(Int) -> Void] = []
    /// shared.lock.locked { handlers = shared.subscribers.copyItems() }
    /// handlers.forEach { $0(1) }
    /// ```
    public let subscribers = Bag<(T) -> Void>()
    /// The lock its user holds while touching `value` and `subscribers`.
    ///
    /// ```swift
    /// shared.lock.locked { shared.value = 2 }
    /// ```
    public let lock = Lock()
    /// The current value, if any.
    ///
    /// ```swift
    /// shared.value   // nil until someone stores one
    /// ```
    public var value: T?

    /// Makes an empty holder: no value, no subscribers.
    ///
    /// ```swift
    /// let shared = MulticastPromise<String>()
    /// ```
    public init() {}
}
