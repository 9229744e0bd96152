/// A bag whose items are kept in a dictionary under the index `add(_:)` returned, SwiftSignalKit's
/// `SparseBag`: O(1) lookups and removals, in no particular order.
///
/// ```swift
/// let bag = SparseBag<String>()
/// let a = bag.add("a")      // 0
/// bag.add("b")              // 1
/// bag.remove(a)
/// Array(bag)                // ["b"]
/// ```
///
/// > Note: Not thread-safe, as in SwiftSignalKit: its owner keeps it behind a lock. Iteration
/// > order is unspecified; use ``Bag`` when the order of addition matters.
public final class SparseBag<T>: Sequence {
    /// What `add(_:)` returns to identify an item.
    public typealias Index = Int

    private var items: [Index: T] = [:]
    private var nextIndex: Index = 0

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = SparseBag<Int>()
    /// ```
    public init() {}

    /// Whether the bag holds no items.
    ///
    /// ```swift
    /// SparseBag<Int>().isEmpty   // true
    /// ```
    public var isEmpty: Bool { items.isEmpty }

    /// Adds `item`.
    ///
    /// ```swift
    /// let index = bag.add("item")
    /// ```
    ///
    /// - Parameter item: What to keep.
    /// - Returns: The item's index: 0, 1, 2, …, never reused, also after `removeAll()`.
    /// - Complexity: O(1) on average.
    @discardableResult
    public func add(_ item: T) -> Index {
        defer { nextIndex += 1 }
        items[nextIndex] = item
        return nextIndex
    }

    /// The item added under `index`, or `nil` if it was removed (or never added).
    ///
    /// ```swift
    /// bag.get(index)   // "item"
    /// ```
    ///
    /// - Parameter index: What `add(_:)` returned.
    /// - Returns: The item, or `nil`.
    /// - Complexity: O(1) on average.
    public func get(_ index: Index) -> T? {
        items[index]
    }

    /// Removes the item added under `index`; does nothing if it is gone already.
    ///
    /// ```swift
    /// bag.remove(index)
    /// ```
    ///
    /// - Parameter index: What `add(_:)` returned.
    /// - Complexity: O(1) on average.
    public func remove(_ index: Index) {
        items[index] = nil
    }

    /// Removes every item; the indices go on counting.
    ///
    /// ```swift
    /// bag.removeAll()
    /// ```
    ///
    /// - Complexity: O(n).
    public func removeAll() {
        items = [:]
    }

    /// Iterates over the items as they were when it was made, in no particular order.
    ///
    /// ```swift
    /// for item in bag { print(item) }
    /// ```
    ///
    /// - Returns: An iterator over a snapshot of the items: changing the bag meanwhile is safe.
    public func makeIterator() -> AnyIterator<T> {
        var snapshot = items.values.makeIterator()
        return AnyIterator { snapshot.next() }
    }
}
