/// An insertion-ordered collection whose items are removed by the index `add(_:)` returned.
///
/// Indices increase and are never reused, so a stale index can never remove a newer item.
///
/// ```swift
/// let bag = Bag<String>()
/// let a = bag.add("a")      // 0
/// let b = bag.add("b")      // 1
/// bag.remove(a)
/// bag.add("c")              // 2
/// bag.copyItems()           // ["b", "c"]
/// bag.get(b)                // "b"
/// ```
///
/// Two parallel arrays, the items and their increasing indices: a removal is a binary search and
/// one `remove(at:)`, `copyItems()` hands out the items array itself (copied only if changed
/// later), and every member is specialised in your module.
///
/// > Note: Not thread-safe, as in SwiftSignalKit: its owner keeps it behind a lock. Lookups are
/// > O(log n); keys and order are SwiftSignalKit's. What `remove(_:)` and
/// > `removeAll()` take out is released after the bag has changed, so an item's `deinit` may use
/// > the bag.
public final class Bag<T> {
    /// What `add(_:)` returns to identify an item.
    public typealias Index = Int

    // Unchecked exclusivity: no user code runs during an access to them (an item's `deinit` runs
    // after the change that let it go), so the runtime's check could never fire.
    /// The index of each item of `items`, in the same order.
    @exclusivity(unchecked) @usableFromInline var indices = IncreasingIndices(from: 0)
    @exclusivity(unchecked) @usableFromInline var items: [T] = []

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = Bag<Int>()
    /// ```
    @inlinable public init() {}

    /// Whether the bag holds no items.
    ///
    /// ```swift
    /// Bag<Int>().isEmpty   // true
    /// ```
    @inlinable public var isEmpty: Bool { items.isEmpty }

    /// Adds `item` after every item already in the bag.
    ///
    /// ```swift
    /// let index = bag.add("item")
    /// ```
    ///
    /// - Parameter item: What to keep.
    /// - Returns: The item's index: greater than every index returned before.
    /// - Complexity: O(1) amortised.
    @inlinable @discardableResult
    public func add(_ item: T) -> Index {
        let index = indices.add()
        items.append(item)
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
    /// - Complexity: O(log n).
    @inlinable public func get(_ index: Index) -> T? {
        indices.position(of: index).map { items[$0] }
    }

    /// Removes the item added under `index`; does nothing if it is gone already.
    ///
    /// ```swift
    /// bag.remove(index)
    /// ```
    ///
    /// - Parameter index: What `add(_:)` returned.
    /// - Complexity: O(log n) to find it, plus moving the items added after it.
    @inlinable public func remove(_ index: Index) {
        guard let position = indices.position(of: index) else { return }
        let removed: T
        if position == items.count &- 1 {  // the latest item: nothing to move
            indices.inUse.removeLast()
            removed = items.removeLast()
        } else {
            indices.inUse.remove(at: position)
            removed = items.remove(at: position)
        }
        withExtendedLifetime(removed) {}  // released here, once the bag is whole again
    }

    /// Removes every item. The indices go on counting: the next `add(_:)` returns a new one.
    ///
    /// ```swift
    /// bag.removeAll()
    /// bag.isEmpty     // true
    /// bag.add("d")    // 3, after 0, 1 and 2 were handed out
    /// ```
    ///
    /// - Complexity: O(n).
    @inlinable public func removeAll() {
        var removed: [T] = []
        swap(&removed, &items)
        indices.inUse.removeAll()
        withExtendedLifetime(removed) {}  // released here, once the bag is empty
    }

    /// The items, in the order they were added.
    ///
    /// ```swift
    /// bag.copyItems()   // ["b", "c"]
    /// ```
    ///
    /// - Returns: A copy of the items still in the bag.
    /// - Complexity: O(1): the array is shared until the bag changes.
    @inlinable public func copyItems() -> [T] {
        items
    }

    /// The items with their indices, in the order they were added.
    ///
    /// ```swift
    /// bag.copyItemsWithIndices()   // [(1, "b"), (2, "c")]
    /// ```
    ///
    /// - Returns: A copy of the `(index, item)` pairs still in the bag.
    /// - Complexity: O(n).
    @inlinable public func copyItemsWithIndices() -> [(Index, T)] {
        Array(zip(indices.inUse, items))
    }

    /// The earliest item still in the bag, with its index; `nil` if the bag is empty.
    ///
    /// ```swift
    /// bag.first   // (1, "b")
    /// ```
    ///
    /// - Complexity: O(1).
    @inlinable public var first: (Index, T)? {
        items.first.map { (indices.inUse[0], $0) }
    }
}
