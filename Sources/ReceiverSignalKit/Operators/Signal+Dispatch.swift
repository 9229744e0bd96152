public import Dispatch  // DispatchQueue.async, in deliverOn's inlinable hop (Queue exposes DispatchQueue already)

/// Delivers every event of each start on `queue`, in the order they happened. An event that
/// happens on `queue` is delivered at once — after the start's earlier events still waiting for
/// `queue`, which are delivered first; an event that happens elsewhere is dispatched to `queue`.
/// The upstream is started on the calling thread.
///
/// ```swift
/// search(query) |> deliverOn(Queue.mainQueue())
/// ```
///
/// Disposing the start disposes the upstream start; an event dispatched but not yet delivered is
/// then dropped, because the start's subscriber has stopped.
///
/// Difference from SwiftSignalKit, which delivers an event that happens on `queue` at once, ahead
/// of the start's events still waiting for `queue`: there an older value can overtake a newer one
/// and stay the last. Here the waiting ones are delivered first, at once, so the event is still
/// delivered before the call that produced it returns, and in order.
///
/// - Parameter queue: Where the handlers run. Events keep their order on any queue: on a concurrent
///   one too, one thread delivers a start's events at a time.
/// - Returns: A function from a signal to the same signal delivered on `queue`.
@inlinable
public func deliverOn<T, E>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            guard queue.isSerial else {
                let lane = DeliveryLane(queue, subscriber)
                return signal.start(
                    next: { lane.send(.next($0)) }, error: { lane.send(.error($0)) },
                    completed: { lane.send(.completion) })
            }
            let lane = SerialDeliveryLane(queue, subscriber)
            return signal.start(
                next: { lane.send(.next($0)) }, error: { lane.send(.error($0)) }, completed: { lane.send(.completion) })
        }
    }
}

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
/// So every event still waiting past `claimed` happened off the queue and has a block on its
/// way, and the blocks on their way number `stale + (first + waiting.count - claimed)`.
///
/// Its lock is a `StripedLock` (a mutex of its own would be most of this object): its sections
/// only move events in and out of `waiting` and never release one (an event is moved out before
/// it is delivered). `@unchecked Sendable`: the variables are only reached under that lock.
@usableFromInline final class DeliveryLane<T, E>: @unchecked Sendable {
    @usableFromInline enum Event {
        case next(T)
        case error(E)
        case completion
    }

    @usableFromInline let queue: Queue
    @usableFromInline let subscriber: Subscriber<T, E>
    /// The events from number `first` on; those before `next` have been moved out (`nil`).
    @exclusivity(unchecked) @usableFromInline var waiting: [Event?] = []
    @exclusivity(unchecked) @usableFromInline var first = 0
    /// The number of the oldest event not delivered yet.
    @exclusivity(unchecked) @usableFromInline var next = 0
    /// The events before this number are delivered, or will be by the thread delivering now.
    @exclusivity(unchecked) @usableFromInline var claimed = 0
    /// How many blocks on their way will find their event delivered already.
    @exclusivity(unchecked) @usableFromInline var stale = 0
    @exclusivity(unchecked) @usableFromInline var isDelivering = false

    @inlinable init(_ queue: Queue, _ subscriber: Subscriber<T, E>) {
        (self.queue, self.subscriber) = (queue, subscriber)
    }

    /// Sends `event` on its way: delivered at once, after the events still waiting, if this thread
    /// is on the queue (or by the thread delivering there now); otherwise dispatched.
    @inlinable func send(_ event: Event) {
        guard queue.isCurrent() else {
            StripedLock(for: self).withLock { waiting.append(event) }
            // The closure goes to Dispatch as written, so that it becomes the block itself.
            if let virtual = queue.virtual {
                virtual.schedule(after: 0) { self.arrive() }
            } else {
                queue.queue.async { self.arrive() }
            }
            return
        }
        let now = StripedLock(for: self).withLock { () -> Event? in
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
            defer { next += 1 }
            return waiting[next - first].take()
        }
        if let now { deliver(now) }
    }

    /// What each block does on the queue: claims the oldest unclaimed event and delivers up to
    /// it — unless the block is stale, or another thread delivers now (which then goes on to it).
    @inlinable func arrive() {
        let event = StripedLock(for: self).withLock { () -> Event? in
            guard stale == 0 else {
                stale -= 1
                return nil
            }
            claimed += 1
            guard !isDelivering else { return nil }
            isDelivering = true
            defer { next += 1 }
            return waiting[next - first].take()
        }
        if let event { deliver(event) }
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
            guard let following = takeClaimed() else { return }
            event = following
        }
    }

    /// The oldest claimed event not delivered yet, moved out; or `nil`, and this thread stops
    /// delivering.
    @inlinable func takeClaimed() -> Event? {
        StripedLock(for: self).withLock { () -> Event? in
            guard next < claimed else {
                isDelivering = false
                dropDelivered()
                return nil
            }
            defer { next += 1 }
            return waiting[next - first].take()
        }
    }

    /// Forgets the delivered events' places (only `nil`s: nothing of the user's is released),
    /// once they are all delivered or make up most of `waiting`. Storage grown by a burst is let
    /// go of rather than kept for the life of the start.
    @inlinable func dropDelivered() {
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
}

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

/// Delivers every event on the main queue: `signal |> deliverOn(Queue.mainQueue())`. An event
/// produced on the main thread is delivered at once (after the start's earlier events still
/// waiting for the main queue). Use it without parentheses.
///
/// ```swift
/// profile.get() |> deliverOnMainQueue
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The same signal, delivered on the main queue.
@inlinable
public func deliverOnMainQueue<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    signal |> deliverOn(Queue.mainQueue())
}

/// Delivers every event of each start on its own lane of `threadPool`: each event becomes a
/// ``ThreadPoolTask`` on one ``ThreadPoolQueue`` per start, so a start's events arrive in order,
/// one at a time, on pool threads. The upstream is started on the calling thread.
///
/// ```swift
/// photos |> deliverOn(decodingPool) |> map(decode)
/// ```
///
/// - Parameter threadPool: Whose threads run the handlers.
/// - Returns: A function from a signal to the same signal delivered on `threadPool`.
@inlinable
public func deliverOn<T, E>(_ threadPool: ThreadPool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            let lane = threadPool.nextQueue()
            return signal.start(
                next: { value in lane.addTask(ThreadPoolTask { _ in subscriber.putNext(value) }) },
                error: { error in lane.addTask(ThreadPoolTask { _ in subscriber.putError(error) }) },
                completed: { lane.addTask(ThreadPoolTask { _ in subscriber.putCompletion() }) }
            )
        }
    }
}

/// Starts each run of the upstream on `queue`: at once if already on `queue`, otherwise
/// asynchronously. Events are not moved: they arrive on whatever thread the upstream sends them.
///
/// ```swift
/// database.read(key) |> runOn(databaseQueue) |> deliverOnMainQueue
/// ```
///
/// Disposing a start before it reached `queue` prevents it: the upstream is never started. (In
/// SwiftSignalKit the flag that says so is an unsynchronised variable, a data race; here it is
/// guarded by a lock.)
///
/// - Parameter queue: Where the upstream's generator runs.
/// - Returns: A function from a signal to the same signal started on `queue`.
@inlinable
public func runOn<T, E>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            guard !queue.isCurrent() else { return signal.startForwarding(to: subscriber) }
            let start = DeferredStart()
            queue.justDispatch { start.start { signal.startForwarding(to: subscriber) } }
            return start
        }
    }
}

/// Starts each run of the upstream as a task on `threadPool`. Events are not moved: they arrive on
/// whatever thread the upstream sends them.
///
/// ```swift
/// decodeLargeImage(data) |> runOn(imagePool)
/// ```
///
/// Disposing a start before its task ran prevents it: the upstream is never started.
///
/// - Parameter threadPool: Whose thread runs the upstream's generator.
/// - Returns: A function from a signal to the same signal started on `threadPool`.
@inlinable
public func runOn<T, E>(_ threadPool: ThreadPool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            let start = DeferredStart()
            threadPool.addTask(ThreadPoolTask { _ in start.start { signal.startForwarding(to: subscriber) } })
            return start
        }
    }
}

extension Signal {
    /// Starts this signal, putting each of its events into `subscriber`.
    @inlinable func startForwarding(to subscriber: Subscriber<T, E>) -> any Disposable {
        start(
            next: { subscriber.putNext($0) },
            error: { subscriber.putError($0) },
            completed: { subscriber.putCompletion() }
        )
    }
}
