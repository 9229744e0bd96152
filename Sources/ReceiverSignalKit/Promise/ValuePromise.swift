/// A current value that is set directly: `get()` sends the current value, then every new one.
///
/// ```swift
/// let count = ValuePromise(0, ignoreRepeated: true)
/// count.get().start(next: { print($0) })   // prints 0
/// count.set(1)                             // prints 1
/// count.set(1)                             // prints nothing: equal to the current value
/// ```
///
/// Built on a `.warm(upTo: 1)` pair: the kept wave is the current value, so reading it is
/// synchronous, from any thread and from inside a handler:
/// `var v: Int?; count.get().start(next: { v = $0 }).dispose()`. (If other threads `set` at the
/// same moment, a newer value may also reach the handler, on their thread, before `dispose()`:
/// keep such a read in an ``Atomic``.)
///
/// The signal `get()` returns, and each of its subscriptions until it is disposed, keep the
/// promise alive, as in SwiftSignalKit.
///
/// > Note: A `set` made while a subscriber is being delivered to (from its handler, or from
/// > another thread) is queued and delivered after the current value, FIFO. SwiftSignalKit
/// > delivers it nested: with subscribers a and b, and a calling `set(2)` when it gets 1,
/// > SwiftSignalKit gives `a 1, a 2, b 2, b 1`; this gives `a 1, b 1, a 2, b 2`, so every
/// > subscriber sees the values in the order they were set.
///
/// > Note: With `ignoreRepeated`, `set` compares the new value with the current one (outside any
/// > lock: `==` is your code) and drops an equal one, so the current value stays the object that
/// > was stored first, as in SwiftSignalKit. Two threads setting at the same moment can both pass
/// > that check; each subscriber also drops a value equal to the last one it received, so even
/// > then nobody sees a repeat.
public final class ValuePromise<T: Equatable> {
    /// Whether a value equal to the current one is ignored.
    ///
    /// ```swift
    /// ValuePromise(1, ignoreRepeated: true).ignoreRepeated   // true
    /// ```
    public let ignoreRepeated: Bool
    @usableFromInline let transmitter: Receiver<T>.Transmitter
    @usableFromInline let receiver: Receiver<T>
    /// The current value, for `set` to compare with when `ignoreRepeated` (the pair keeps it too,
    /// for the subscribers); `nil` when every value is sent.
    @usableFromInline let current: Locked<T?>?

    /// Makes a promise whose current value is `value`.
    ///
    /// ```swift
    /// let promise = ValuePromise(1, ignoreRepeated: true)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The current value.
    ///   - ignoreRepeated: Whether setting a value equal to the current one is ignored.
    @inlinable public convenience init(_ value: T, ignoreRepeated: Bool = false) {
        self.init(ignoreRepeated: ignoreRepeated)
        set(value)
    }

    /// Makes a promise without a current value.
    ///
    /// ```swift
    /// let promise = ValuePromise<Int>(ignoreRepeated: true)
    /// ```
    ///
    /// - Parameter ignoreRepeated: Whether setting a value equal to the current one is ignored.
    @inlinable public init(ignoreRepeated: Bool = false) {
        self.ignoreRepeated = ignoreRepeated
        (transmitter, receiver) = Receiver<T>.make(with: .warm(upTo: 1))
        current = ignoreRepeated ? Locked(nil) : nil
    }

    /// Makes `value` the current value and sends it to every subscriber (unless
    /// `ignoreRepeated` and it equals the current value).
    ///
    /// ```swift
    /// promise.set(2)
    /// ```
    ///
    /// - Parameter value: The new value.
    @inlinable public func set(_ value: T) {
        if let current {
            guard current.withLock({ $0 }) != value else { return }  // the new value is dropped
            var replaced: T? = value
            current.withLock { swap(&$0, &replaced) }
            replaced = nil  // its copy in the pair is released when the pair lets go of it
        }
        // The replaced value is released after unlocking, before the new one is delivered.
        transmitter.broadcast(value)
    }

    /// A signal of the current value (if there is one, sent at start on the starting thread),
    /// then of every new value. It never completes. The signal and each started subscription
    /// keep the promise alive.
    ///
    /// ```swift
    /// promise.get() |> map { "\($0)" }
    /// ```
    ///
    /// - Returns: The signal of the promise's values.
    @inlinable public func get() -> Signal<T, NoError> {
        Signal(start: { next, _, _ in
            guard self.ignoreRepeated else {
                return self.receiver.listen { value in withExtendedLifetime(self) { next?(value) } }
            }
            var last: T?
            return self.receiver.listen { value in
                withExtendedLifetime(self) {
                    guard value != last else { return }
                    last = value
                    next?(value)
                }
            }
        })
    }
}

extension ValuePromise: Sendable where T: Sendable {}
