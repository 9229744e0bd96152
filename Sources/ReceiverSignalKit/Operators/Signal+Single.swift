// SwiftSignalKit's Signal_Single.swift: the static makers of Signal as free functions that name
// their types, for places where they cannot be inferred.

/// A signal that sends `value`, then completes: `Signal<T, E>.single(value)` with its error type
/// spelled out.
///
/// ```swift
/// let signal = single(1, NoError.self)   // Signal<Int, NoError>
/// ```
///
/// - Parameters:
///   - value: The one value.
///   - errorType: The signal's error type.
/// - Returns: A signal of `value` and a completion.
@inlinable public func single<T, E>(_ value: T, _ errorType: E.Type) -> Signal<T, E> {
    Signal<T, E>.single(value)
}

/// A signal that fails with `error`: `Signal<T, E>.fail(error)` with its value type spelled out.
///
/// ```swift
/// let signal = fail(Int.self, LoadError.network)   // Signal<Int, LoadError>
/// ```
///
/// - Parameters:
///   - valueType: The signal's value type.
///   - error: The error.
/// - Returns: A signal that only fails.
@inlinable public func fail<T, E>(_ valueType: T.Type, _ error: E) -> Signal<T, E> {
    Signal<T, E>.fail(error)
}

/// A signal that completes without a value: `Signal<T, E>.complete()` with its types spelled out.
///
/// ```swift
/// let signal = complete(Int.self, NoError.self)   // Signal<Int, NoError>
/// ```
///
/// - Parameters:
///   - valueType: The signal's value type.
///   - error: The signal's error type.
/// - Returns: A signal that only completes.
@inlinable public func complete<T, E>(_ valueType: T.Type, _ error: E.Type) -> Signal<T, E> {
    Signal<T, E>.complete()
}

/// A signal that never sends anything: `Signal<T, E>.never()` with its types spelled out.
///
/// ```swift
/// let signal = never(Int.self, NoError.self)   // Signal<Int, NoError>
/// ```
///
/// - Parameters:
///   - valueType: The signal's value type.
///   - error: The signal's error type.
/// - Returns: A signal that neither sends nor ends.
@inlinable public func never<T, E>(_ valueType: T.Type, _ error: E.Type) -> Signal<T, E> {
    Signal<T, E>.never()
}
