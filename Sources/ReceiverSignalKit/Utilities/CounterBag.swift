/// A set of tokens, SwiftSignalKit's `CounterBag`: `add()` hands out 1, 2, 3, …, and the bag is
/// empty once each was removed.
///
/// ```swift
/// let loading = CounterBag()
/// let first = loading.add()    // 1
/// let second = loading.add()   // 2
/// loading.remove(first)
/// loading.isEmpty              // false: 2 is still in
/// loading.remove(second)
/// loading.isEmpty              // true
/// ```
///
/// The tokens are kept in an increasing array: `add()` appends, `remove(_:)` is a binary search
/// and one `remove(at:)`, and every member is specialised in your module.
///
/// > Note: Not thread-safe, as in SwiftSignalKit: its owner keeps it behind a lock.
public final class CounterBag {
    /// The tokens, from 1. Unchecked exclusivity: no user code runs during an access to it.
    @exclusivity(unchecked) @usableFromInline var tokens = IncreasingIndices(from: 1)

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = CounterBag()
    /// ```
    @inlinable public init() {}

    /// Whether every token handed out was removed.
    ///
    /// ```swift
    /// CounterBag().isEmpty   // true
    /// ```
    @inlinable public var isEmpty: Bool { tokens.inUse.isEmpty }

    /// Hands out a new token and keeps it.
    ///
    /// ```swift
    /// let token = bag.add()
    /// ```
    ///
    /// - Returns: 1 the first time, then 2, 3, …; never reused.
    /// - Complexity: O(1) amortised.
    @inlinable public func add() -> Int {
        tokens.add()
    }

    /// Removes `index`; does nothing if it is not in the bag.
    ///
    /// ```swift
    /// bag.remove(token)
    /// ```
    ///
    /// - Parameter index: A token `add()` returned.
    /// - Complexity: O(log n) to find it, plus moving the tokens handed out after it.
    @inlinable public func remove(_ index: Int) {
        if let position = tokens.position(of: index) { tokens.remove(at: position) }
    }
}
