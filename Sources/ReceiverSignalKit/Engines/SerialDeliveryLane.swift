public import Dispatch  // DispatchQueue.async, in the lane's inlinable code

/// One start of ``deliverOn(_:)-(Queue)`` on a serial queue (``Queue/isSerial``: a named queue or
/// the main queue): its events on their way to the queue, in the order they happened. The same
/// protocol as ``DeliveryLane``, with one lock round trip per event sent off the queue (and one
/// on the queue for all the events it finds waiting at once) where that one takes three, and one
/// per event that happens on the queue where that one takes two.
///
/// Everything that runs where `queue.isCurrent()` is true runs in turn with the queue's blocks, one
/// after another, and sees what the one before it wrote (Dispatch orders them). So what only the
/// queue touches — which events are taken, claimed, stale, and whether it is delivering — needs
/// no lock; only `incoming`, where the other threads put their events, is shared.
///
/// An event that happens off the queue is appended to `incoming` and gets a block on the queue.
/// The blocks are one, `block`, kept while events flow and let go of when none is on its way: a
/// block claims the oldest event no other block has claimed, and delivers it — its own event, as
/// the blocks run in the order they were dispatched. To find it, the queue takes the events
/// waiting in `incoming` with one lock round trip: a lone one straight out, several at once into
/// `taken`, where the blocks of the others find them without locking. Each block still delivers
/// one event, its own, so other work dispatched to the queue between two events runs between
/// them. An event that happens on the queue is delivered at once, after every event still waiting
/// (those in `taken` and `incoming`); the blocks of those events are then `stale`, and each finds
/// a stale count to take instead and does nothing. An event that happens on the queue while a
/// handler runs (and a block that runs nested in a handler, when the handler runs the main run
/// loop) only moves `claimed` forward: the delivering code delivers it when the handler returns.
///
/// So every event not delivered yet (in `taken` from `head` on, then in `incoming`) past the
/// `claimed` ones happened off the queue and has a block on its way; the blocks on their way
/// number `stale + (taken.count - head) + incoming.count - claimed`.
///
/// Its lock is a `StripedLock` (a mutex of its own would be most of this object): its sections
/// only append to `incoming`, swap it out or move one event out of it, and make or let go of
/// `block`; they release no event. `@unchecked Sendable`: `incoming` and `block` are only reached
/// under that lock, the rest only on the queue.
///
/// Idle, it keeps no more than the other lane: one buffer, of at most 64 places, and no block.
/// The queue takes a lone waiting event out of `incoming`, which keeps its storage for the next
/// one; it swaps a batch out only with `taken`'s spare storage or none. So `incoming` and `taken`
/// hold storage both only while events flow: once `taken` is delivered it keeps its storage only
/// if it left none in `incoming` (`incomingHasStorage`), and never more than 64 places. The
/// counters are `Int32` (each counts events or blocks on their way, which would fill the memory
/// long before they reached 2³¹), so the lane is smaller than the other.
@usableFromInline final class SerialDeliveryLane<T, E>: @unchecked Sendable {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    @usableFromInline let queue: Queue
    @usableFromInline let subscriber: Subscriber<T, E>
    /// Under the lock: the events that happened off the queue and that the queue has not taken
    /// yet, oldest first.
    @exclusivity(unchecked) @usableFromInline var incoming: [Event?] = []
    // The queue's own (see above): not locked.
    /// The events the queue took in a batch, from `head` on not delivered yet (those before are
    /// moved out); emptied as soon as they all are.
    @exclusivity(unchecked) @usableFromInline var taken: [Event?] = []
    @exclusivity(unchecked) @usableFromInline var head: Int32 = 0
    /// How many of the events not delivered yet the delivering code delivers before it stops.
    @exclusivity(unchecked) @usableFromInline var claimed: Int32 = 0
    /// How many blocks on their way will find their event delivered already.
    @exclusivity(unchecked) @usableFromInline var stale: Int32 = 0
    @exclusivity(unchecked) @usableFromInline var isDelivering = false
    /// Whether the queue left storage in `incoming` when it last took from it (the other threads
    /// only append, so it still has that storage, or more).
    @exclusivity(unchecked) @usableFromInline var incomingHasStorage = false
    /// Whether `block` may be set: a block ran since the queue last let go of it.
    @exclusivity(unchecked) @usableFromInline var mayKeepBlock = false
    /// Under the lock: what each event that happens off the queue dispatches — made by the first
    /// one sent when none is on its way, and let go of by the queue as soon as none is (`settle()`),
    /// so an idle lane keeps none. Dispatch copies a block it is given, which for this one, on the
    /// heap already, only counts a reference, where a closure written at the call would be copied
    /// into a new block each time (a `malloc`, and a `free` on the queue's thread). It holds the
    /// lane, so each dispatch holds the lane until its block ran. (Nothing generic touches it:
    /// unspecialised, as in a debug build, `unsafelyUnwrapped` asks the runtime for an optional
    /// block's type metadata, and on Linux that crashes. `!` and `== nil` need none.)
    @exclusivity(unchecked) @usableFromInline var block: LaneBlock?

    @inlinable init(_ queue: Queue, _ subscriber: Subscriber<T, E>) {
        (self.queue, self.subscriber) = (queue, subscriber)
    }

    /// Sends `event` on its way: delivered at once, after the events still waiting, if this code
    /// runs on the queue (or by the delivering code, when a handler sent it); otherwise dispatched.
    @inlinable func send(_ event: Event) {
        guard queue.isCurrent() else {
            let lock = StripedLock(for: self)
            lock.lock()
            incoming.append(event)
            if block == nil { block = { self.arrive() } }
            let block = block!  // held past the unlock: the queue may let go of the lane's
            lock.unlock()
            queue.queue.async(execute: block)
            return
        }
        takeIncoming()
        let waiting = Int32(taken.count) - head
        stale += waiting - claimed  // the unclaimed ones are delivered now: their blocks find nothing
        guard waiting > 0 || isDelivering else {
            isDelivering = true  // nothing waits: delivered without being stored
            subscriber.put(event)
            deliverClaimed()
            return
        }
        taken.append(event)
        claimed = waiting + 1
        if !isDelivering { deliverClaimed() }
    }

    /// What each block does on the queue: claims the oldest unclaimed event and delivers it —
    /// unless the block is stale, or the queue delivers already (in a handler up the stack, which
    /// goes on to it).
    @inlinable func arrive() {
        mayKeepBlock = true
        guard stale == 0 else {
            stale -= 1
            if !isDelivering { settle() }
            return
        }
        claimed += 1
        if !isDelivering { deliverClaimed() }
    }

    /// Delivers the claimed events, oldest first, also those claimed while a handler runs.
    @inlinable func deliverClaimed() {
        isDelivering = true
        while claimed > 0 {
            claimed -= 1
            subscriber.put(takeOldest())
        }
        isDelivering = false
        settle()
    }

    /// Once the queue expects no more blocks but those of events in `incoming`, with the lane's
    /// `block` maybe kept: takes those events into `taken` at once (their blocks find them there),
    /// or, when there are none, lets go of `block` — the lane is idle.
    ///
    /// `block` is let go of under the lock (a local to release it after the unlock would be an
    /// optional block, whose type metadata unspecialised code asks for: see `block`). That runs no
    /// user code: the block's last reference to the lane is never the lane's last, as the code
    /// letting go of it runs in the lane's block or in `send`, whose caller holds the lane.
    @inlinable func settle() {
        guard mayKeepBlock, stale == 0, taken.isEmpty else { return }
        let lock = StripedLock(for: self)
        lock.lock()
        if incoming.isEmpty {
            block = nil  // under the lock: see above
            mayKeepBlock = false
        } else {
            swap(&taken, &incoming)
            incomingHasStorage = incoming.capacity > 0
        }
        lock.unlock()
    }

    /// The oldest event not delivered yet (there is one), moved out: from `taken`, or else from
    /// `incoming` — alone, if it waits alone there and `taken` has no storage to swap for it;
    /// otherwise with every event waiting there, swapped into `taken`.
    @inlinable func takeOldest() -> Event {
        if taken.isEmpty {
            let lock = StripedLock(for: self)
            lock.lock()
            if taken.capacity == 0, incoming.count == 1 {
                let event = incoming.removeLast()  // `incoming` keeps its storage
                if stale == 0, claimed == 0 {  // no block on its way: let go of `block` at once
                    block = nil
                    mayKeepBlock = false
                }
                lock.unlock()
                incomingHasStorage = true
                return event!
            }
            swap(&taken, &incoming)
            incomingHasStorage = incoming.capacity > 0
            lock.unlock()
        }
        let event = taken[Int(head)].take()!  // a claimed event is there: see the type's comment
        head += 1
        if Int(head) == taken.count { dropTaken() }
        return event
    }

    /// Moves the events waiting in `incoming` to the end of `taken`: when `taken` is empty, by
    /// swapping the two.
    @inlinable func takeIncoming() {
        var moved: [Event?] = []  // what was in `incoming`, if `taken` is not empty: freed unlocked
        let lock = StripedLock(for: self)
        lock.lock()
        guard !incoming.isEmpty else { return lock.unlock() }
        if taken.isEmpty {
            swap(&taken, &incoming)
            incomingHasStorage = incoming.capacity > 0
            lock.unlock()
            return
        }
        swap(&moved, &incoming)
        incomingHasStorage = false
        lock.unlock()
        taken.append(contentsOf: moved)
    }

    /// Empties `taken`, all delivered (only moved-out places are left), keeping its storage only
    /// if `incoming` has none and it is no more than 64 places.
    @inlinable func dropTaken() {
        if incomingHasStorage || taken.capacity > 64 { taken = [] } else { taken.removeAll(keepingCapacity: true) }
        head = 0
    }
}

/// What a serial lane of ``deliverOn(_:)-(Queue)`` dispatches while events flow (see
/// ``SerialDeliveryLane/block``).
@usableFromInline typealias LaneBlock = @Sendable @convention(block) () -> Void
