/// The precedence of `|>`: left-associative and tighter than the default, so
/// `signal |> map { $0 + 1 } |> filter { $0 > 1 }` reads left to right.
precedencegroup PipeRight {
    associativity: left
    higherThan: DefaultPrecedence
}

/// Applies a function to a value: `value |> f` is `f(value)`.
infix operator |> : PipeRight

/// Applies `function` to `value`, so transformations read in the order they happen.
///
/// ```swift
/// let doubled = promise.get() |> map { $0 * 2 } |> distinctUntilChanged
/// 3 |> { $0 + 1 }   // 4
/// ```
///
/// - Parameters:
///   - value: The input.
///   - function: What to apply.
/// - Returns: `function(value)`.
public func |> <T, U>(value: T, function: (T) -> U) -> U {
    function(value)
}
