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
/// > Note: Not thread-safe, as in SwiftSignalKit: its owner keeps it behind a lock. Lookups and
/// > removals are O(log n) (SwiftSignalKit's are linear); keys and order are the same.
public final class Bag<T> {
    /// What `add(_:)` returns to identify an item.
    public typealias Index = Int

    private var indices: [Index] = []  // increasing; removed items keep their slot until compaction
    private var items: [T?] = []  // nil marks a removed item
    private var count = 0  // items not removed
    private var nextIndex: Index = 0

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = Bag<Int>()
    /// ```
    public init() {}

    /// Whether the bag holds no items.
    ///
    /// ```swift
    /// Bag<Int>().isEmpty   // true
    /// ```
    public var isEmpty: Bool { count == 0 }

    /// Adds `item` after every item already in the bag.
    ///
    /// ```swift
    /// let index = bag.add("item")
    /// ```
    ///
    /// - Parameter item: What to keep.
    /// - Returns: The item's index: greater than every index returned before.
    /// - Complexity: O(1) amortised.
    @discardableResult
    public func add(_ item: T) -> Index {
        defer { nextIndex += 1 }
        indices.append(nextIndex)
        items.append(item)
        count += 1
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
    /// - Complexity: O(log n).
    public func get(_ index: Index) -> T? {
        position(of: index).flatMap { items[$0] }
    }

    /// Removes the item added under `index`; does nothing if it is gone already.
    ///
    /// ```swift
    /// bag.remove(index)
    /// ```
    ///
    /// - Parameter index: What `add(_:)` returned.
    /// - Complexity: O(log n), plus an occasional compaction that is O(1) amortised per removal.
    public func remove(_ index: Index) {
        guard let position = position(of: index), items[position] != nil else { return }
        items[position] = nil
        count -= 1
        while items.last.map({ $0 == nil }) == true {
            items.removeLast()
            indices.removeLast()
        }
        if items.count > 2 * count + 16 {
            indices = zip(indices, items).filter { $0.1 != nil }.map(\.0)
            items.removeAll { $0 == nil }
        }
        assert(indices.count == items.count && items.count >= count)
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
    public func removeAll() {
        (indices, items, count) = ([], [], 0)
    }

    /// The items, in the order they were added.
    ///
    /// ```swift
    /// bag.copyItems()   // ["b", "c"]
    /// ```
    ///
    /// - Returns: A copy of the items still in the bag.
    /// - Complexity: O(n).
    public func copyItems() -> [T] {
        items.compactMap { $0 }
    }

    /// The items with their indices, in the order they were added.
    ///
    /// ```swift
    /// bag.copyItemsWithIndices()   // [(1, "b"), (2, "c")]
    /// ```
    ///
    /// - Returns: A copy of the `(index, item)` pairs still in the bag.
    /// - Complexity: O(n).
    public func copyItemsWithIndices() -> [(Index, T)] {
        zip(indices, items).compactMap { index, item in item.map { (index, $0) } }
    }

    /// The earliest item still in the bag, with its index; `nil` if the bag is empty.
    ///
    /// ```swift
    /// bag.first   // (1, "b")
    /// ```
    ///
    /// - Complexity: O(1) unless items in front were removed: O(n) in the worst case.
    public var first: (Index, T)? {
        guard let position = items.firstIndex(where: { $0 != nil }) else { return nil }
        return (indices[position], items[position]!)
    }

    private func position(of index: Index) -> Int? {
        var (low, high) = (0, indices.count)
        while low < high {
            let middle = (low + high) / 2
            if indices[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < indices.count && indices[low] == index ? low : nil
    }
}
