// The queue behind ``Serializer``: what waits for the thread that delivers, oldest first.
//
// - One word: an empty queue is a `nil` reference, because it sits in objects kept by the thousand
//   (one per live subscription), most of which never queue anything.
// - A ring in one allocation, its bookkeeping in the allocation's header: append and take are O(1).
// - Taking an element out moves it out of its slot, so dropping the storage releases nothing of the
//   user's; the caller releases what it takes out after unlocking (a value's `deinit` is user code).
// - It grows from one slot, doubling, so a queue that holds one element at a time stays as small as
//   an array of one; drained, it keeps a ring of at most `keptCapacity` slots for the next burst.

/// A first-in, first-out queue of what waits for the thread that drains it (see the top of this file).
///
/// Its storage is a reference and is not copied on write: a queue is only ever moved (`swap`,
/// ``takeAll()``), never copied.
@usableFromInline struct DrainQueue<Element> {
    @usableFromInline var storage: DrainQueueStorage<Element>?

    /// An empty queue, with no storage.
    @inlinable init() {}

    /// Whether nothing waits.
    @inlinable var isEmpty: Bool { storage.map { $0.elementCount == 0 } ?? true }

    /// How many elements wait.
    @inlinable var count: Int { storage?.elementCount ?? 0 }

    /// Adds `element` at the end.
    ///
    /// - Complexity: O(1) amortised.
    @inlinable mutating func append(_ element: Element) {
        guard let storage, storage.elementCount < storage.slotCount else { return grow(appending: element) }
        storage.append(element)
    }

    /// Moves every element of `other` to the end of this queue, oldest first, leaving `other` empty.
    ///
    /// - Complexity: O(1) if this queue is empty, otherwise O(`other.count`).
    @inlinable mutating func append(contentsOf other: inout DrainQueue) {
        guard !isEmpty else { return swap(&self, &other) }
        while let element = other.popFirst() { append(element) }
    }

    /// Moves the oldest element out, or returns `nil` if the queue is empty. Once it is drained, a
    /// ring of more than ``DrainQueueStorage/keptCapacity`` slots is let go of.
    ///
    /// - Complexity: O(1).
    @inlinable mutating func popFirst() -> Element? {
        guard let storage, storage.elementCount > 0 else { return nil }
        let element = storage.removeFirst()
        if storage.elementCount == 0, storage.slotCount > DrainQueueStorage<Element>.keptCapacity {
            self.storage = nil
        }
        return element
    }

    /// Moves everything out, leaving this queue empty with no storage: for a caller that drops what
    /// waits and releases it after unlocking.
    ///
    /// - Complexity: O(1).
    @inlinable mutating func takeAll() -> DrainQueue {
        var all = DrainQueue()
        swap(&all, &self)
        return all
    }

    /// Appends `element` to a full ring (or to none): moves the elements into one twice as large.
    @inlinable mutating func grow(appending element: Element) {
        let old = storage
        let new = DrainQueueStorage<Element>.make(capacity: old.map { 2 * $0.slotCount } ?? 1)
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

    /// How many elements wait, and how many slots the ring has (`ManagedBuffer`'s own `capacity`
    /// asks the allocator). Read through the header's address: reading `header` is an access to a
    /// class's stored property, which release builds check for exclusivity at run time.
    @inlinable var elementCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.count } }
    @inlinable var slotCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.capacity } }

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
