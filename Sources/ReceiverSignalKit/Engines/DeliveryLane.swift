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
/// An event that happens off the queue waits in `waiting` and gets a block on the queue. The
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
/// it is delivered). `@unchecked Sendable`: `state` is only reached under that lock.
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
    /// Every event still waiting past `claimed` happened off the queue and has a block on its
    /// way, so the blocks on their way number `stale + (first + waiting.count - claimed)`.
    @usableFromInline struct State {
        /// The events from number `first` on; those before `next` have been moved out (`nil`).
        @usableFromInline var waiting: [Event?] = []
        @usableFromInline var first = 0
        /// The number of the oldest event not delivered yet.
        @usableFromInline var next = 0
        /// The events before this number are delivered, or will be by the thread delivering now.
        @usableFromInline var claimed = 0
        /// How many blocks on their way will find their event delivered already.
        @usableFromInline var stale = 0
        @usableFromInline var isDelivering = false
        #if DEBUG
        /// Debug builds: blocks dispatched and not run yet, for the invariant on blocks on their way.
        @usableFromInline var blocksOnTheirWay = 0
        #endif

        @inlinable init() {}

        /// An event happened off the queue: it waits, and a block is dispatched for it.
        @inlinable mutating func post(_ event: Event) {
            waiting.append(event)
            #if DEBUG
            blocksOnTheirWay += 1
            #endif
            checkInvariants()
        }

        /// An event happened on the queue: it is delivered after every event still waiting, whose
        /// unclaimed blocks become stale — by this thread, from the oldest, or, if another delivers
        /// now, by that one (then `nil`).
        @inlinable mutating func sendOnQueue(_ event: Event) -> Event? {
            defer { checkInvariants() }
            let count = first + waiting.count
            (stale, claimed) = (stale + count - claimed, count + 1)
            guard !isDelivering else {
                waiting.append(event)
                return nil  // the thread delivering now delivers it next
            }
            isDelivering = true
            guard !waiting.isEmpty else {
                (first, next) = (count + 1, count + 1)  // nothing waits: delivered without being stored
                return event
            }
            waiting.append(event)
            return moveOutNext()
        }

        /// A block ran: it takes a stale count, or claims the oldest unclaimed event — and this
        /// thread delivers up to it, from the oldest, unless another delivers now (then `nil`).
        @inlinable mutating func arrive() -> Event? {
            #if DEBUG
            blocksOnTheirWay -= 1
            #endif
            defer { checkInvariants() }
            guard stale == 0 else {
                stale -= 1
                return nil
            }
            claimed += 1
            guard !isDelivering else { return nil }
            isDelivering = true
            return moveOutNext()
        }

        /// The oldest claimed event not delivered yet, moved out; or `nil`, and this thread stops
        /// delivering.
        @inlinable mutating func takeClaimed() -> Event? {
            defer { checkInvariants() }
            guard next < claimed else {
                isDelivering = false
                dropDelivered()
                return nil
            }
            return moveOutNext()
        }

        /// The event numbered `next`, moved out.
        @inlinable mutating func moveOutNext() -> Event? {
            defer { next += 1 }
            return waiting[next - first].take()
        }

        /// Forgets the delivered events' places (only `nil`s: nothing of the user's is released),
        /// once they are all delivered or make up most of `waiting`. Storage grown by a burst is let
        /// go of rather than kept for the life of the start.
        @inlinable mutating func dropDelivered() {
            let delivered = next - first
            if delivered == waiting.count {
                if waiting.capacity > 64 { waiting = [] } else { waiting.removeAll(keepingCapacity: true) }
            } else if delivered >= 32, delivered * 2 >= waiting.count {
                waiting.removeFirst(delivered)
            } else {
                return
            }
            first = next
        }

        /// Debug builds: what holds after every transition.
        @inlinable func checkInvariants() {
            #if DEBUG
            let end = first + waiting.count  // the number the next event sent gets
            precondition(first <= next && next <= claimed && claimed <= end, "a lane's counts are out of order")
            precondition(stale >= 0, "a lane's stale count went negative")
            precondition(isDelivering || next == claimed, "claimed events, and no thread delivering them")
            // The places on each side of `next` (all of them would make a burst quadratic).
            precondition(next == first || waiting[next - first - 1] == nil, "a delivered event is still waiting")
            precondition(next == end || waiting[next - first] != nil, "a waiting event is gone")
            precondition(
                blocksOnTheirWay == stale + end - claimed, "a lane's blocks on their way do not match its events")
            #endif
        }
    }
}
