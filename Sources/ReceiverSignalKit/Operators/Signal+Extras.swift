// Operators the project adds to SwiftSignalKit's: the pipe versions of the core's `skip`,
// `withPrevious` and `skipNil` (listed in the migration guide's "What differs in shape"). Each only
// reshapes a start (see Signal+Mapping.swift for how those are built).

/// Drops the first `count` values each start receives.
///
/// ```swift
/// numbers |> skip(2)   // 1, 2, 3 -> 3
/// ```
///
/// - Parameter count: How many values to drop; `0` passes every value.
/// - Returns: A function from a signal to the signal of the values after the first `count`.
/// - Precondition: `count` is 0 or more (as the core's `skip(count:)`; SwiftSignalKit has no
///   `skip`).
@inlinable public func skip<T, E>(_ count: Int) -> (Signal<T, E>) -> Signal<T, E> {
    guard count >= 0 else { fatalError("skip(_:) needs a count of 0 or more, got \(count)") }
    return { signal in
        Signal(start: { next, error, completed in
            // This start's count, touched only by its `next` handler (calls never overlap).
            var remaining = count
            return signal.run(
                { value in
                    guard remaining == 0 else {
                        remaining -= 1
                        return
                    }
                    next?(value)
                }, error, completed)
        })
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
@inlinable public func withPrevious<T, E>(_ signal: Signal<T, E>) -> Signal<(T?, T), E> {
    Signal(start: { next, error, completed in
        // This start's state, touched only by its `next` handler (calls never overlap).
        var previous: T?
        return signal.run(
            { value in
                defer { previous = value }
                next?((previous, value))
            }, error, completed)
    })
}

/// Drops `nil` values and unwraps the others. Use it without parentheses.
///
/// ```swift
/// optionals |> skipNil   // 1, nil, 2 -> 1, 2
/// ```
///
/// - Parameter signal: The upstream signal of optionals.
/// - Returns: The signal of the non-`nil` values, unwrapped.
@inlinable public func skipNil<T, E>(_ signal: Signal<T?, E>) -> Signal<T, E> {
    Signal(start: { next, error, completed in
        signal.run(
            { value in
                if let value { next?(value) }
            }, error, completed)
    })
}
