// Several parts of the adapter deliver on one thread at a time: a subscriber's events, a delivery
// lane's hops, the values `combineLatest` combines. The thread that finds nobody delivering becomes
// the one that drains; any other thread, and the draining thread itself when a handler sends more,
// only appends to the drain queue, and the draining thread takes events out, oldest first, until it
// finds the queue empty. Each place keeps its own "is someone draining" flag beside its other state,
// under its own lock; this file is the queue they all share.
//
// Its shape follows from how it is used:
// - One word. It sits in objects kept by the thousand (one per live subscription), most of which
//   never queue anything: an empty queue is a `nil` reference and costs nothing else.
// - A ring in one allocation, with its bookkeeping in the allocation's header: appending and taking
//   out are O(1) without a head index to reset or a prefix to compact.
// - Taking an event out moves it out of its slot, so the queue never holds one that was delivered,
//   and dropping the storage releases nothing of the user's. The caller releases what it takes out
//   after unlocking, because a value's `deinit` is user code.
// - Drained, it keeps a small ring for the next burst and lets go of a large one, so a burst does not
//   cost memory for the rest of the owner's life.

/// A first-in, first-out queue of what waits for the thread that drains it. See the top of this file.
///
/// Its storage is a reference and is not copied on write: two copies of a queue would share one
/// ring. So a queue is only ever moved (`swap`, ``removeAll()``), never copied.
@usableFromInline struct DrainQueue<Element> {
    @usableFromInline var storage: DrainQueueStorage<Element>?

    /// An empty queue, with no storage.
    @inlinable init() {}

    /// Whether nothing waits.
    @inlinable var isEmpty: Bool { storage.map { $0.header.count == 0 } ?? true }

    /// How many elements wait.
    @inlinable var count: Int { storage?.header.count ?? 0 }

    /// Adds `element` at the end.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable mutating func append(_ element: Element) {
        guard let storage, storage.header.count < storage.header.capacity else { return grow(appending: element) }
        storage.append(element)
    }

    /// Moves the oldest element out, or returns `nil` if the queue is empty. Once it is drained, a
    /// ring of more than ``DrainQueueStorage/keptCapacity`` slots is let go of.
    ///
    /// - Complexity: O(1).
    @inlinable mutating func popFirst() -> Element? {
        guard let storage, storage.header.count > 0 else { return nil }
        let element = storage.removeFirst()
        if storage.header.count == 0, storage.header.capacity > DrainQueueStorage<Element>.keptCapacity {
            self.storage = nil
        }
        return element
    }

    /// Moves everything out, leaving this queue empty with no storage: for a caller that drops what
    /// waits (its owner was disposed) and releases it after unlocking.
    ///
    /// - Complexity: O(1).
    @inlinable mutating func removeAll() -> DrainQueue {
        var all = DrainQueue()
        swap(&all, &self)
        return all
    }

    /// Appends `element` to a ring with no free slot (or to no ring): moves the elements into one
    /// twice as large, oldest first.
    @inlinable mutating func grow(appending element: Element) {
        let old = storage
        let capacity = Swift.max(4, 2 * (old?.header.capacity ?? 0))
        let new = DrainQueueStorage<Element>.make(capacity: capacity)
        if let old { new.moveElements(from: old) }
        new.append(element)
        storage = new
    }
}

/// The ring behind a ``DrainQueue``: the header says where the oldest element is, how many there
/// are, and how many fit; the elements follow it in the same allocation.
@usableFromInline final class DrainQueueStorage<Element>: ManagedBuffer<DrainQueueHeader, Element> {
    /// The largest ring a drained queue keeps for its next burst.
    @inlinable static var keptCapacity: Int { 16 }

    @inlinable static func make(capacity: Int) -> DrainQueueStorage {
        let buffer = create(minimumCapacity: capacity) { _ in DrainQueueHeader(capacity: capacity) }
        return unsafeDowncast(buffer, to: DrainQueueStorage.self)
    }

    /// Appends `element`; there is a free slot.
    @inlinable func append(_ element: Element) {
        withUnsafeMutablePointers { header, elements in
            let end = (header.pointee.head + header.pointee.count) % header.pointee.capacity
            (elements + end).initialize(to: element)
            header.pointee.count += 1
        }
        checkInvariants()
    }

    /// Moves the oldest element out; there is one. A ring left empty starts again at its first slot.
    @inlinable func removeFirst() -> Element {
        let element = withUnsafeMutablePointers { header, elements in
            let element = (elements + header.pointee.head).move()
            header.pointee.count -= 1
            header.pointee.head = header.pointee.count == 0 ? 0 : (header.pointee.head + 1) % header.pointee.capacity
            return element
        }
        checkInvariants()
        return element
    }

    /// Moves every element of `old` into this empty ring, oldest first, leaving `old` empty.
    @inlinable func moveElements(from old: DrainQueueStorage) {
        old.withUnsafeMutablePointers { oldHeader, oldElements in
            withUnsafeMutablePointers { header, elements in
                let (head, count, capacity) = (
                    oldHeader.pointee.head, oldHeader.pointee.count, oldHeader.pointee.capacity
                )
                let firstPart = Swift.min(count, capacity - head)
                elements.moveInitialize(from: oldElements + head, count: firstPart)
                (elements + firstPart).moveInitialize(from: oldElements, count: count - firstPart)
                (header.pointee.head, header.pointee.count) = (0, count)
                (oldHeader.pointee.head, oldHeader.pointee.count) = (0, 0)
            }
        }
        checkInvariants()
    }

    /// In debug builds of the library, stops the program if the header is impossible.
    @inlinable func checkInvariants() {
        #if RECEIVER_DIAGNOSTICS
        let header = header
        precondition(header.capacity > 0, "DrainQueue: a ring has at least one slot")
        precondition((0...header.capacity).contains(header.count), "DrainQueue: more elements than slots")
        precondition((0..<header.capacity).contains(header.head), "DrainQueue: the oldest element is out of the ring")
        precondition(header.count > 0 || header.head == 0, "DrainQueue: an empty ring starts at its first slot")
        #endif
    }

    deinit {
        // Only a queue dropped with elements still in it has any to destroy.
        withUnsafeMutablePointers { header, elements in
            let (head, count, capacity) = (header.pointee.head, header.pointee.count, header.pointee.capacity)
            let firstPart = Swift.min(count, capacity - head)
            (elements + head).deinitialize(count: firstPart)
            elements.deinitialize(count: count - firstPart)
        }
    }
}

/// Where a ``DrainQueueStorage``'s oldest element is, how many there are, and how many fit.
@usableFromInline struct DrainQueueHeader {
    @usableFromInline var head: Int, count: Int, capacity: Int
    @inlinable init(capacity: Int) { (head, count, self.capacity) = (0, 0, capacity) }
}
