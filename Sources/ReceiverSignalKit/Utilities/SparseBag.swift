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
/// Every member is specialised in your module.
///
/// > Note: Not thread-safe, as in SwiftSignalKit: its owner keeps it behind a lock. Iteration
/// > order is unspecified; use ``Bag`` when the order of addition matters. What `remove(_:)` and
/// > `removeAll()` take out is released after the bag has changed, so an item's `deinit` may use
/// > the bag.
public final class SparseBag<T>: Sequence {
    /// What `add(_:)` returns to identify an item.
    public typealias Index = Int

    // Unchecked exclusivity: no user code runs during an access to it (an item's `deinit` runs
    // after the change that let it go), so the runtime's check could never fire.
    @exclusivity(unchecked) @usableFromInline var items: [Index: T] = [:]
    @usableFromInline var nextIndex: Index = 0

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = SparseBag<Int>()
    /// ```
    @inlinable public init() {}

    /// Whether the bag holds no items.
    ///
    /// ```swift
    /// SparseBag<Int>().isEmpty   // true
    /// ```
    @inlinable public var isEmpty: Bool { items.isEmpty }

    /// Adds `item`.
    ///
    /// ```swift
    /// let index = bag.add("item")
    /// ```
    ///
    /// - Parameter item: What to keep.
    /// - Returns: The item's index: 0, 1, 2, …, never reused, also after `removeAll()`.
    /// - Complexity: O(1) on average.
    @inlinable @discardableResult
    public func add(_ item: T) -> Index {
        let index = nextIndex
        nextIndex += 1
        items[index] = item
        return index
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
    @inlinable public func get(_ index: Index) -> T? {
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
    @inlinable public func remove(_ index: Index) {
        let removed = items.removeValue(forKey: index)
        withExtendedLifetime(removed) {}  // released here, once the bag is whole again
    }

    /// Removes every item; the indices go on counting.
    ///
    /// ```swift
    /// bag.removeAll()
    /// ```
    ///
    /// - Complexity: O(n).
    @inlinable public func removeAll() {
        var removed: [Index: T] = [:]
        swap(&removed, &items)
        withExtendedLifetime(removed) {}  // released here, once the bag is empty
    }

    /// Iterates over the items as they were when it was made, in no particular order.
    ///
    /// ```swift
    /// for item in bag { print(item) }
    /// ```
    ///
    /// - Returns: An iterator over a snapshot of the items: changing the bag meanwhile is safe.
    @inlinable public func makeIterator() -> AnyIterator<T> {
        var snapshot = items.values.makeIterator()
        return AnyIterator { snapshot.next() }
    }
}
