// The operators of SwiftSignalKit's Signal_Mapping.swift.
//
// How the operators that only reshape a start are built (these, and most in the other
// Signal+… files). Such an operator transforms, drops or adds events, but never ends a start on
// its own and does nothing when it is disposed, so it needs no subscriber of its own: a start of
// the derived signal runs the upstream signal with handlers adapted from the downstream's and
// returns the upstream start's disposable. The upstream start already guarantees what a
// subscriber would — calls to one start's handlers never overlap, nothing follows its terminal
// event, after its `dispose()` returns no handler is called again — so the stage costs only the
// closures it adapts, and a value crosses it with one closure call.
//
// Two rules keep that true:
// - Per-start state (`distinctUntilChanged`'s last value, `take`'s count) is a local of the
//   start, captured by its handlers, and has no lock: the handlers of one start never overlap.
// - The adapted handlers are closure literals passed straight to `run`, the signal's stored
//   start function. Going through a differently typed closure or `start(next:…)` instead makes
//   the compiler re-wrap each handler between its specialised and its generic form: two more
//   allocations per stage and start (measured: 3 instead of 1 per `map`).
//
// A missing downstream handler stays missing, but the operator's own closures still run for
// every event (`map`'s transform runs even under a bare `start()`), as in SwiftSignalKit, whose
// stages always handle every event.

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
