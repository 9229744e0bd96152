public import Dispatch  // DispatchQueue.async, in the lane's inlinable code

// Why this shape: on a queue that may run several blocks at once, every part of a `deliverOn`
// start's state is reached by several threads, so it is one `State`, changed only under the lock,
// whose transitions return the event to deliver next; the class around it only locks, dispatches
// and calls the subscriber. Debug builds check the invariants after each transition; the
// transitions are tested alone, without Dispatch.

/// One start of ``deliverOn(_:)-(Queue)`` on a queue that may run several blocks at once (one
/// made by `Queue(queue:)`, a global one) or runs on virtual time: its events on their way to the
/// queue, in the order they happened. (A serial queue has the cheaper ``SerialDeliveryLane``.)
///
/// An event that happens off the queue waits in `waiting` (a ``DrainQueue``) and gets a block on the queue. The
/// blocks are all alike (each holds only this lane, so its closure needs no context of its own,
/// and dispatching it allocates only what Dispatch does): a block claims the oldest waiting event
/// no other block has claimed, and delivers the events up to it — on a serial queue that is the
/// block's own event, as the blocks run in the order they were dispatched. An event that happens
/// on the queue is delivered at once, with every event still waiting before it; the blocks of
/// those events are then `stale`, and each finds a stale count to take instead and does nothing.
/// Only one thread delivers at a time (`isDelivering`): an event that happens on the queue while a
/// handler runs — or a block that runs while another thread delivers, on a concurrent queue — only
/// moves `claimed` forward, and that thread delivers it next.
///
/// Its lock is a `StripedLock` (a mutex of its own would be most of this object): its sections
/// only move events in and out of `waiting` and never release one (an event is moved out before
/// it is delivered; a drained ring of more than 16 places is let go of, which releases nothing of
/// the user's). `@unchecked Sendable`: `state` is only reached under that lock.
@usableFromInline final class DeliveryLane<T, E>: @unchecked Sendable {
    @usableFromInline enum Event {
        case next(T)
        case error(E)
        case completion
    }

    @usableFromInline let queue: Queue
    @usableFromInline let subscriber: Subscriber<T, E>
    /// Reached only under the lock.
    @exclusivity(unchecked) @usableFromInline var state = State()

    @inlinable init(_ queue: Queue, _ subscriber: Subscriber<T, E>) {
        (self.queue, self.subscriber) = (queue, subscriber)
    }

    /// Sends `event` on its way: delivered at once, after the events still waiting, if this thread
    /// is on the queue (or by the thread delivering there now); otherwise dispatched.
    @inlinable func send(_ event: Event) {
        guard queue.isCurrent() else {
            StripedLock(for: self).withLock { state.post(event) }
            // The closure goes to Dispatch as written, so that it becomes the block itself.
            if let virtual = queue.virtual {
                virtual.schedule(after: 0) { self.arrive() }
            } else {
                queue.queue.async { self.arrive() }
            }
            return
        }
        if let now = StripedLock(for: self).withLock({ state.sendOnQueue(event) }) { deliver(now) }
    }

    /// What each block does on the queue: claims the oldest unclaimed event and delivers up to
    /// it — unless the block is stale, or another thread delivers now (which then goes on to it).
    @inlinable func arrive() {
        if let event = StripedLock(for: self).withLock({ state.arrive() }) { deliver(event) }
    }

    /// Delivers `event`, which this thread took out as the one delivering, then the events claimed
    /// meanwhile, oldest first.
    @inlinable func deliver(_ event: Event) {
        var event = event
        while true {
            switch event {
            case .next(let value): subscriber.putNext(value)
            case .error(let error): subscriber.putError(error)
            case .completion: subscriber.putCompletion()
            }
            guard let following = StripedLock(for: self).withLock({ state.takeClaimed() }) else { return }
            event = following
        }
    }
}

extension DeliveryLane {
    /// Everything a lane knows, changed only under its lock. Each transition returns the event
    /// this thread delivers next (moved out: the caller delivers it after unlocking), or `nil`.
    ///
    /// Every event waiting past the `claimed` ones happened off the queue and has a block on its
    /// way, so the blocks on their way number `stale + waiting.count - claimed`.
    @usableFromInline struct State {
        /// The events not delivered yet, oldest first (the one being delivered is out already).
        @usableFromInline var waiting = DrainQueue<Event>()
        /// How many of the oldest waiting events the thread delivering now delivers before it stops.
        @usableFromInline var claimed = 0
        /// How many blocks on their way will find their event delivered already.
        @usableFromInline var stale = 0
        @usableFromInline var isDelivering = false
        #if RECEIVER_DIAGNOSTICS
        /// Debug builds: blocks dispatched and not run yet, for the invariant on blocks on their way.
        @usableFromInline var blocksOnTheirWay = 0
        #endif

        @inlinable init() {}

        /// An event happened off the queue: it waits, and a block is dispatched for it.
        @inlinable mutating func post(_ event: Event) {
            waiting.appendSparingly(event)
            #if RECEIVER_DIAGNOSTICS
            blocksOnTheirWay += 1
            #endif
            checkInvariants()
        }

        /// An event happened on the queue: it is delivered after every event still waiting, whose
        /// unclaimed blocks become stale — by this thread, from the oldest, or, if another delivers
        /// now, by that one (then `nil`).
        @inlinable mutating func sendOnQueue(_ event: Event) -> Event? {
            defer { checkInvariants() }
            stale += waiting.count - claimed
            guard !isDelivering else {
                waiting.appendSparingly(event)
                claimed = waiting.count
                return nil  // the thread delivering now delivers it next
            }
            isDelivering = true
            guard !waiting.isEmpty else { return event }  // nothing waits: delivered without being stored
            waiting.appendSparingly(event)
            claimed = waiting.count - 1
            return waiting.popFirst()
        }

        /// A block ran: it takes a stale count, or claims the oldest unclaimed event — and this
        /// thread delivers up to it, from the oldest, unless another delivers now (then `nil`).
        @inlinable mutating func arrive() -> Event? {
            #if RECEIVER_DIAGNOSTICS
            blocksOnTheirWay -= 1
            #endif
            defer { checkInvariants() }
            guard stale == 0 else {
                stale -= 1
                return nil
            }
            guard !isDelivering else {
                claimed += 1
                return nil
            }
            isDelivering = true
            return waiting.popFirst()
        }

        /// The oldest claimed event, moved out; or `nil`, and this thread stops delivering.
        @inlinable mutating func takeClaimed() -> Event? {
            defer { checkInvariants() }
            guard claimed > 0 else {
                isDelivering = false
                return nil
            }
            claimed -= 1
            return waiting.popFirst()
        }

        /// Debug builds: what holds after every transition.
        @inlinable func checkInvariants() {
            #if RECEIVER_DIAGNOSTICS
            precondition(claimed >= 0 && claimed <= waiting.count, "a lane claimed events that are not waiting")
            precondition(stale >= 0, "a lane's stale count went negative")
            precondition(isDelivering || claimed == 0, "claimed events, and no thread delivering them")
            precondition(
                blocksOnTheirWay == stale + waiting.count - claimed,
                "a lane's blocks on their way do not match its events")
            #endif
        }
    }
}
