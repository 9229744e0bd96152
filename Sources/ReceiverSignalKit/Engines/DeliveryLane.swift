public import Dispatch  // DispatchQueue.async, in the lane's inlinable code

/// One start of ``deliverOn(_:)-(Queue)`` on a queue that may run several blocks at once (one
/// made by `Queue(queue:)`, a global one): its events on their way to the queue, in the order they
/// happened. (A serial queue has ``SerialDeliveryLane``.)
///
/// An event that happens off the queue is `posted` and gets a block on the queue; each block takes
/// the oldest posted event and delivers it, through a ``Serializer``, so that one thread delivers
/// at a time: a block that runs while another thread delivers (on a concurrent queue) leaves its
/// event to that thread. An event that happens on the queue is delivered at once, after every
/// event still posted; the blocks of those are then `stale`, and each finds nothing to do.
///
/// Its lock is a `StripedLock`; locked sections only move events, never release one.
/// `@unchecked Sendable`: `state` is only reached under that lock.
@usableFromInline final class DeliveryLane<T, E>: @unchecked Sendable {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    @usableFromInline let queue: Queue
    @usableFromInline let subscriber: Subscriber<T, E>
    /// Reached only under the lock.
    @exclusivity(unchecked) @usableFromInline var state = State()

    @inlinable init(_ queue: Queue, _ subscriber: Subscriber<T, E>) {
        (self.queue, self.subscriber) = (queue, subscriber)
    }

    /// Sends `event` on its way: delivered at once, after the events still posted, if this thread
    /// is on the queue (or by the thread delivering there now); otherwise dispatched.
    @inlinable func send(_ event: Event) {
        guard queue.isCurrent() else {
            StripedLock(for: self).withLock { state.post(event) }
            // The closure goes to Dispatch as written, so that it becomes the block itself. (Never
            // a virtual queue: those are serial, and take the other lane.)
            queue.queue.async { self.arrive() }
            return
        }
        if let now = StripedLock(for: self).withLock({ state.sendOnQueue(event) }) { deliver(now) }
    }

    /// What each block does on the queue: takes the oldest posted event and delivers it, unless
    /// the block is stale or another thread delivers now (which then goes on to it).
    @inlinable func arrive() {
        if let event = StripedLock(for: self).withLock({ state.arrive() }) { deliver(event) }
    }

    /// Delivers `event`, as the lane's deliverer, then the events left to it meanwhile.
    @inlinable func deliver(_ event: Event) {
        var event = event
        while true {
            subscriber.put(event)
            guard let following = StripedLock(for: self).withLock({ state.serializer.next() }) else { return }
            event = following
        }
    }
}

extension DeliveryLane {
    /// Everything a lane knows, changed only under its lock. Each transition returns the event
    /// this thread delivers now (moved out: the caller delivers it after unlocking), or `nil`.
    ///
    /// Every posted event has a block on its way, and so has each stale count: the blocks on their
    /// way number `posted.count + stale`.
    @usableFromInline struct State {
        /// The events that happened off the queue and that no block has taken yet, oldest first.
        @usableFromInline var posted = DrainQueue<Event>()
        /// Who delivers, and the events taken while it does.
        @usableFromInline var serializer = Serializer<Event>()
        /// How many blocks on their way will find their event delivered already.
        @usableFromInline var stale = 0
        #if RECEIVER_DIAGNOSTICS
        /// Debug builds: blocks dispatched and not run yet, for the invariant on blocks on their way.
        @usableFromInline var blocksOnTheirWay = 0
        #endif

        @inlinable init() {}

        /// An event happened off the queue: it is posted, and a block is dispatched for it.
        @inlinable mutating func post(_ event: Event) {
            posted.append(event)
            #if RECEIVER_DIAGNOSTICS
            blocksOnTheirWay += 1
            #endif
            checkInvariants()
        }

        /// An event happened on the queue: it comes after every posted event, whose blocks become
        /// stale. Returns the oldest, for this thread to deliver, unless another delivers now.
        @inlinable mutating func sendOnQueue(_ event: Event) -> Event? {
            defer { checkInvariants() }
            stale += posted.count
            return serializer.admit(event, after: &posted)
        }

        /// A block ran: it finds its event delivered already (stale), or takes the oldest posted
        /// one, for this thread to deliver unless another delivers now.
        @inlinable mutating func arrive() -> Event? {
            #if RECEIVER_DIAGNOSTICS
            blocksOnTheirWay -= 1
            #endif
            defer { checkInvariants() }
            guard stale == 0 else {
                stale -= 1
                return nil
            }
            guard let event = posted.popFirst() else { return nil }  // never: a block's event is posted
            return serializer.admit(event) ? event : nil
        }

        /// Debug builds: what holds after every transition.
        @inlinable func checkInvariants() {
            #if RECEIVER_DIAGNOSTICS
            precondition(stale >= 0, "a lane's stale count went negative")
            precondition(
                serializer.isDelivering || serializer.waiting.isEmpty, "events wait, and no thread delivers them")
            precondition(
                blocksOnTheirWay == stale + posted.count, "a lane's blocks on their way do not match its events")
            #endif
        }
    }
}
