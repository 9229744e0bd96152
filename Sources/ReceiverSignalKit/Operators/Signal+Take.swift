// The operators of SwiftSignalKit's Signal_Take.swift. Each start has a subscriber of its own:
// `take` and `take(until:)` end a start on their own, and `takeLast` and `last` put a value and
// the completion in one call — once the value's handler has disposed the start (or ended it
// further down), its subscriber drops the completion, where a reshaped start (Signal+Mapping.swift)
// would still call the handler.

/// Passes on the first `count` values of each start and completes right after the last of them,
/// which disposes the upstream start.
///
/// As in SwiftSignalKit, `take(0)` (or a negative count) still starts the upstream signal: it
/// passes nothing and completes only when the upstream completes (or fails when it fails).
///
/// ```swift
/// promise.get() |> take(1)   // the current value, then completion
/// ```
///
/// - Parameter count: How many values to pass on per start.
/// - Returns: A function from a signal to the signal of its first `count` values.
@inlinable public func take<T, E>(_ count: Int) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            // This start's count, touched only by its `next` handler (calls never overlap).
            var taken = 0
            return signal.run(
                { value in
                    guard taken < count else { return }
                    taken += 1
                    subscriber.putNext(value)
                    if taken == count { subscriber.putCompletion() }
                },
                { subscriber.putError($0) },
                { subscriber.putCompletion() }
            )
        }
    }
}

/// Passes on only the last value of each start, when the start completes. Use it without
/// parentheses.
///
/// ```swift
/// numbers |> takeLast   // 1, 2, 3, completion -> 3, completion
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The signal that, when the upstream completes, sends its last value (if it sent
///   any) and completes. An error is passed on and the value dropped.
@inlinable public func takeLast<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    Signal { subscriber in
        // This start's state, touched only by the upstream's handlers (calls never overlap).
        var last: T?
        return signal.run(
            { last = $0 }, { subscriber.putError($0) },
            {
                if let last { subscriber.putNext(last) }
                subscriber.putCompletion()
            })
    }
}

/// What ``take(until:)`` does with one value.
///
/// ```swift
/// SignalTakeAction(passthrough: true, complete: true)   // pass this value on, then complete
/// ```
public struct SignalTakeAction {
    /// Whether the value is passed on.
    public let passthrough: Bool
    /// Whether the start completes after this value (after passing it on, if it does).
    public let complete: Bool

    /// Makes an action.
    ///
    /// ```swift
    /// SignalTakeAction(passthrough: false, complete: true)   // drop this value and complete
    /// ```
    ///
    /// - Parameters:
    ///   - passthrough: Whether the value is passed on.
    ///   - complete: Whether the start completes after it.
    @inlinable public init(passthrough: Bool, complete: Bool) {
        self.passthrough = passthrough
        self.complete = complete
    }
}

extension SignalTakeAction: Sendable {}

/// Asks `until` what to do with each value: pass it on or not, complete or not.
///
/// ```swift
/// progress |> take(until: { SignalTakeAction(passthrough: true, complete: $0 >= 1.0) })
/// // passes values up to and including the first one >= 1.0, then completes
/// ```
///
/// - Parameter until: Called once per value per start, until it says to complete.
/// - Returns: A function from a signal to the signal of the values `until` passes; completing
///   disposes the upstream start.
@inlinable public func take<T, E>(until: @escaping (T) -> SignalTakeAction) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            signal.run(
                { value in
                    let action = until(value)
                    if action.passthrough { subscriber.putNext(value) }
                    if action.complete { subscriber.putCompletion() }
                },
                { subscriber.putError($0) },
                { subscriber.putCompletion() }
            )
        }
    }
}

/// Sends, when each start completes, its last value or `nil` if it sent none. Use it without
/// parentheses.
///
/// ```swift
/// numbers |> last   // 1, 2, 3, completion -> Optional(3), completion
/// empty |> last     // completion -> nil, completion
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The signal of one optional value, sent on completion, then completion. An error is
///   passed on without a value.
@inlinable public func last<T, E>(signal: Signal<T, E>) -> Signal<T?, E> {
    Signal { subscriber in
        // This start's state, touched only by the upstream's handlers (calls never overlap).
        var last: T?
        return signal.run(
            { last = $0 }, { subscriber.putError($0) },
            {
                subscriber.putNext(last)
                subscriber.putCompletion()
            })
    }
}
