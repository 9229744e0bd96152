// The operators of SwiftSignalKit's Signal_Mapping.swift, and how an operator that only reshapes a
// start is built (these, and most in the other Signal+… files). It never ends a start on its own
// and does nothing at disposal, so it needs no subscriber: a start runs the upstream with handlers
// adapted from the downstream's and returns the upstream start, which already keeps a subscriber's
// promises (one handler call at a time, nothing after the end or after `dispose()` returned).
// - Per-start state is a local of the start, captured by its handlers, with no lock.
// - The adapted handlers are closure literals passed straight to `run`: through another closure
//   type or `start(next:…)`, the compiler re-wraps each handler, allocating at every start.
// - A missing downstream handler stays missing, but the operator's own closures run for every
//   event (`map`'s transform under a bare `start()` too), as in SwiftSignalKit.

/// Transforms each value.
///
/// ```swift
/// Signal<Int, NoError>.single(2) |> map { $0 * 10 }   // sends 20, then completes
/// ```
///
/// - Parameter transform: Called once per value per start.
/// - Returns: A function from a signal to the signal of transformed values; errors and
///   completion pass through.
@inlinable public func map<T, E, R>(_ transform: @escaping (T) -> R) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in
        Signal(start: { next, error, completed in
            signal.run(
                { value in
                    let result = transform(value)
                    next?(result)
                }, error, completed)
        })
    }
}

/// Passes on only the values for which `isIncluded` returns `true`.
///
/// ```swift
/// numbers |> filter { $0.isMultiple(of: 2) }   // 1, 2, 3, 4 -> 2, 4
/// ```
///
/// - Parameter isIncluded: Decides, per value, whether it is passed on.
/// - Returns: A function from a signal to the signal of included values.
@inlinable public func filter<T, E>(_ isIncluded: @escaping (T) -> Bool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal(start: { next, error, completed in
            signal.run(
                { value in
                    if isIncluded(value) { next?(value) }
                }, error, completed)
        })
    }
}

/// Transforms each non-`nil` value and passes `nil` on as `nil`: a `map` over optionals (not a
/// flattening `flatMap`, despite the name, which is SwiftSignalKit's).
///
/// ```swift
/// optionalNames |> flatMap { $0.uppercased() }   // "a", nil, "b" -> "A", nil, "B"
/// ```
///
/// - Parameter transform: Called once per non-`nil` value per start.
/// - Returns: A function from a signal of optionals to the signal of transformed optionals.
@inlinable public func flatMap<T, E, R>(_ transform: @escaping (T) -> R) -> (Signal<T?, E>) -> Signal<R?, E> {
    { signal in
        Signal(start: { next, error, completed in
            signal.run(
                { value in
                    let result = value.map(transform)
                    next?(result)
                }, error, completed)
        })
    }
}

/// Transforms the error; values and completion pass through.
///
/// ```swift
/// download(url) |> mapError { _ in LoadError.network }
/// ```
///
/// - Parameter transform: Called with the error that ends a start, if any.
/// - Returns: A function from a signal to the same signal with the new error type.
@inlinable public func mapError<T, E, R>(_ transform: @escaping (E) -> R) -> (Signal<T, E>) -> Signal<T, R> {
    { signal in
        Signal(start: { next, error, completed in
            signal.run(
                next,
                { failure in
                    let result = transform(failure)
                    error?(result)
                }, completed)
        })
    }
}

/// Gives a signal that cannot fail any error type, so it composes with signals that can.
///
/// ```swift
/// let cached: Signal<Data, LoadError> = memoryCache.get() |> castError(LoadError.self)
/// ```
///
/// - Parameter type: The new error type.
/// - Returns: A function from a signal that cannot fail to the same signal typed with `type`;
///   it never sends an error.
@inlinable public func castError<T, E>(_ type: E.Type) -> (Signal<T, NoError>) -> Signal<T, E> {
    { signal in Signal(start: { next, _, completed in signal.run(next, nil, completed) }) }
}

/// Drops a value equal to the last value passed on (per start). Use it without parentheses.
///
/// ```swift
/// numbers |> distinctUntilChanged   // 1, 1, 2, 2, 3, 1 -> 1, 2, 3, 1
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The signal without consecutive duplicates.
@inlinable public func distinctUntilChanged<T: Equatable, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    signal |> distinctUntilChanged(isEqual: ==)
}

/// Drops a value that `isEqual` says repeats the last value passed on (per start).
///
/// The comparison is with the last value *passed on*, not the last received: with
/// `isEqual: { abs($0 - $1) < 2 }`, the values 1, 2, 3 give 1, 3 (2 is dropped as close to 1,
/// then 3 is compared with 1).
///
/// ```swift
/// users |> distinctUntilChanged(isEqual: { $0.id == $1.id })
/// ```
///
/// - Parameter isEqual: Whether a new value repeats the last one passed on: called with
///   `(last, new)`.
/// - Returns: A function from a signal to the signal without repeats.
@inlinable public func distinctUntilChanged<T, E>(isEqual: @escaping (T, T) -> Bool) -> (_ signal: Signal<T, E>) ->
    Signal<T, E>
{
    { signal in
        Signal(start: { next, error, completed in
            // This start's state, touched only by its `next` handler (calls never overlap).
            var last: T?
            return signal.run(
                { value in
                    if let last, isEqual(last, value) { return }
                    last = value
                    next?(value)
                }, error, completed)
        })
    }
}
