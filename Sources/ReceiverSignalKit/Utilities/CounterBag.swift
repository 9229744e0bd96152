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
/// > Note: Not thread-safe, as in SwiftSignalKit: its owner keeps it behind a lock.
public final class CounterBag {
    private var tokens: Set<Int> = []
    private var nextToken = 1

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = CounterBag()
    /// ```
    public init() {}

    /// Whether every token handed out was removed.
    ///
    /// ```swift
    /// CounterBag().isEmpty   // true
    /// ```
    public var isEmpty: Bool { tokens.isEmpty }

    /// Hands out a new token and keeps it.
    ///
    /// ```swift
    /// let token = bag.add()
    /// ```
    ///
    /// - Returns: 1 the first time, then 2, 3, …; never reused.
    /// - Complexity: O(1) on average.
    public func add() -> Int {
        defer { nextToken += 1 }
        tokens.insert(nextToken)
        return nextToken
    }

    /// Removes `index`; does nothing if it is not in the bag.
    ///
    /// ```swift
    /// bag.remove(token)
    /// ```
    ///
    /// - Parameter index: A token `add()` returned.
    /// - Complexity: O(1) on average.
    public func remove(_ index: Int) {
        tokens.remove(index)
    }
}
