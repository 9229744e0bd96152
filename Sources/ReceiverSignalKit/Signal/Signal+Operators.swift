// Signal operators as free functions for the pipe, as in SwiftSignalKit:
//
//     promise.get() |> map { $0 * 2 } |> filter { $0 > 2 } |> distinctUntilChanged
//
// Each returns a signal that, per start, starts its upstream and relays what it sends. Operator
// state lives in the relaying handler: calls to one start's handlers never overlap, so it needs
// no lock. Errors and completion pass through; disposing or terminating a start disposes its
// upstream start.

extension Signal {
    /// A signal whose every start starts this one and passes each value to the handler that
    /// `makeNext` makes for that start's subscriber (fresh per start, so it may own state).
    func relay<R>(_ makeNext: @escaping (Subscriber<R, E>) -> (T) -> Void) -> Signal<R, E> {
        Signal<R, E> { subscriber in
            self.start(next: makeNext(subscriber), error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
        }
    }
}

/// Transforms each value.
///
/// ```swift
/// Signal<Int, NoError>.single(2) |> map { $0 * 10 }   // sends 20, then completes
/// ```
///
/// - Parameter transform: Called once per value per start.
/// - Returns: A function from a signal to the signal of transformed values.
public func map<T, E, R>(_ transform: @escaping (T) -> R) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in signal.relay { subscriber in { subscriber.putNext(transform($0)) } } }
}

/// Passes on only the values for which `isIncluded` returns `true`.
///
/// ```swift
/// numbers |> filter { $0.isMultiple(of: 2) }   // 1, 2, 3, 4 -> 2, 4
/// ```
///
/// - Parameter isIncluded: Decides, per value, whether it is passed on.
/// - Returns: A function from a signal to the signal of included values.
public func filter<T, E>(_ isIncluded: @escaping (T) -> Bool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in signal.relay { subscriber in { if isIncluded($0) { subscriber.putNext($0) } } } }
}

/// Drops a value equal to the last value passed on (per start). Use it without parentheses.
///
/// ```swift
/// numbers |> distinctUntilChanged   // 1, 1, 2, 2, 3, 1 -> 1, 2, 3, 1
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The signal without consecutive duplicates.
public func distinctUntilChanged<T: Equatable, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    (distinctUntilChanged(isEqual: ==))(signal)
}

/// Drops a value that `isEqual` says repeats the last value passed on (per start).
///
/// ```swift
/// users |> distinctUntilChanged(isEqual: { $0.id == $1.id })
/// ```
///
/// - Parameter isEqual: Whether two consecutive values count as the same.
/// - Returns: A function from a signal to the signal without consecutive repeats.
public func distinctUntilChanged<T, E>(isEqual: @escaping (T, T) -> Bool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        signal.relay { subscriber in
            var last: T?
            return { value in
                if let last, isEqual(last, value) { return }
                last = value
                subscriber.putNext(value)
            }
        }
    }
}

/// Passes on the first `count` values, then completes (which disposes the upstream start).
/// `take(0)` completes at once without starting the upstream signal.
///
/// ```swift
/// promise.get() |> take(1)   // the current value, then completion
/// ```
///
/// - Parameter count: How many values to pass on.
/// - Returns: A function from a signal to the signal of its first `count` values.
/// - Precondition: `count` is 0 or more.
public func take<T, E>(_ count: Int) -> (Signal<T, E>) -> Signal<T, E> {
    precondition(count >= 0, "take(_:) needs a count of 0 or more, got \(count)")
    return { signal in
        guard count > 0 else { return .complete() }
        return signal.relay { subscriber in
            var remaining = count
            return { value in
                guard remaining > 0 else { return }
                remaining -= 1
                subscriber.putNext(value)
                if remaining == 0 { subscriber.putCompletion() }
            }
        }
    }
}

/// Drops the first `count` values each start receives.
///
/// ```swift
/// numbers |> skip(2)   // 1, 2, 3 -> 3
/// ```
///
/// - Parameter count: How many values to drop; `0` passes every value.
/// - Returns: A function from a signal to the signal of the values after the first `count`.
/// - Precondition: `count` is 0 or more.
public func skip<T, E>(_ count: Int) -> (Signal<T, E>) -> Signal<T, E> {
    precondition(count >= 0, "skip(_:) needs a count of 0 or more, got \(count)")
    return { signal in
        signal.relay { subscriber in
            var remaining = count
            return { value in
                guard remaining == 0 else { return remaining -= 1 }
                subscriber.putNext(value)
            }
        }
    }
}

/// Pairs each value with the one before it (per start). Use it without parentheses.
///
/// ```swift
/// numbers |> withPrevious   // 1, 2, 3 -> (nil, 1), (1, 2), (2, 3)
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The signal of `(previous, current)` pairs; each start's first value pairs with `nil`.
public func withPrevious<T, E>(_ signal: Signal<T, E>) -> Signal<(T?, T), E> {
    signal.relay { subscriber in
        var previous: T?
        return { value in
            defer { previous = value }
            subscriber.putNext((previous, value))
        }
    }
}

/// Drops `nil` values and unwraps the others. Use it without parentheses.
///
/// ```swift
/// optionals |> skipNil   // 1, nil, 2 -> 1, 2
/// ```
///
/// - Parameter signal: The upstream signal of optionals.
/// - Returns: The signal of the non-`nil` values, unwrapped.
public func skipNil<T, E>(_ signal: Signal<T?, E>) -> Signal<T, E> {
    signal.relay { subscriber in { if let value = $0 { subscriber.putNext(value) } } }
}
