/// The indices a bag hands out — increasing, never reused — and those still in use, in order: the
/// keys of ``Bag`` and the tokens of ``CounterBag``. Finding one in use is a binary search, at once
/// for the first and the last (the usual removals).
@usableFromInline struct IncreasingIndices {
    /// The indices handed out and not removed, increasing.
    @usableFromInline var inUse: [Int] = []
    @usableFromInline var next: Int

    @inlinable init(from first: Int) {
        next = first
    }

    /// Hands out the next index and keeps it.
    @inlinable mutating func add() -> Int {
        let index = next
        next += 1
        inUse.append(index)
        return index
    }

    /// Where `index` is in ``inUse``, or `nil` if it is not in use.
    @inlinable func position(of index: Int) -> Int? {
        guard let first = inUse.first, let last = inUse.last, index >= first, index <= last else { return nil }
        if index == first { return 0 }
        if index == last { return inUse.count &- 1 }
        var (low, high) = (1, inUse.count &- 1)
        while low < high {
            let middle = (low &+ high) >> 1
            if inUse[middle] < index { low = middle &+ 1 } else { high = middle }
        }
        return inUse[low] == index ? low : nil
    }

    /// Removes the index at `position` (from ``position(of:)``). (``Bag`` removes from ``inUse``
    /// itself, in the same branch as from its items.)
    @inlinable mutating func remove(at position: Int) {
        if position == inUse.count &- 1 { inUse.removeLast() } else { inUse.remove(at: position) }
    }
}
