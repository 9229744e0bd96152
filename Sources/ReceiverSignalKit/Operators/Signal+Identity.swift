/// A type with no values, as in SwiftSignalKit: the value type of a signal that only ends.
///
/// ```swift
/// let done: Signal<NoValue, NoError> = .complete()   // can complete or fail, never send a value
/// ```
public enum NoValue {}

extension NoValue: Sendable {}

/// Returns its argument; pass it as a function where a transform is expected.
///
/// ```swift
/// signal |> map(identity)   // the same values
/// identity(a: 3)            // 3
/// ```
///
/// - Parameter a: Any value.
/// - Returns: `a`.
@inlinable public func identity<A>(a: A) -> A { a }
