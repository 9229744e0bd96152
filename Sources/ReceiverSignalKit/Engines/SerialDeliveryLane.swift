public import Dispatch  // DispatchQueue.async, in the lane's inlinable code

// Why this shape: one start of `deliverOn` on a serial queue is reached by two kinds of code —
// the threads that send events, and the queue, which runs one block at a time — so its state is
// two parts, each with one owner: the `Inbox`, shared, under the lock, and the `QueueState`, which
// only code running on the queue touches, without a lock. Each transition is a mutating function
// of one part (or of the queue's part given the inbox, under the lock) that says what to do next;
// the class around them only locks, dispatches and calls the subscriber. Debug builds check the
// invariants after each transition; the transitions are tested alone, without Dispatch.

/// One start of ``deliverOn(_:)-(Queue)`` on a serial queue (``Queue/isSerial``: a named queue or
/// the main queue): its events on their way to the queue, in the order they happened. The same
/// protocol as ``DeliveryLane``, with one lock round trip per event sent off the queue (and one
/// on the queue for all the events it finds waiting at once) where that one takes three, and one
/// per event that happens on the queue where that one takes two.
///
/// An event that happens off the queue waits in the inbox and gets a block on the queue. The
/// blocks are one, the inbox's `block`, kept while events flow and let go of when none is on its
/// way: a block claims the oldest event no other block has claimed, and delivers it — its own
/// event, as the blocks run in the order they were dispatched. To find it, the queue takes the
/// events waiting in the inbox with one lock round trip: a lone one straight out, several at once
/// into `taken`, where the blocks of the others find them without locking. Each block still
/// delivers one event, its own, so other work dispatched to the queue between two events runs
/// between them. An event that happens on the queue is delivered at once, after every event still
/// waiting; the blocks of those events are then `stale`, and each finds a stale count to take
/// instead and does nothing. An event that happens on the queue while a handler runs (and a block
/// that runs nested in a handler, when the handler runs the main run loop) only moves `claimed`
/// forward: the delivering code delivers it when the handler returns.
///
/// Its lock is a `StripedLock` (a mutex of its own would be most of this object): its sections
/// only append to the inbox, swap its events out or move one event out, and make or let go of
/// `block`; they release no event. `@unchecked Sendable`: `inbox` is only reached under that lock,
/// `state` only on the queue.
///
/// Idle, it keeps no more than the other lane: one ring, of at most the places a ``DrainQueue``
/// keeps, and no block.
/// The counters are `Int32` (each counts events or blocks on their way, which would fill the
/// memory long before they reached 2³¹), so the lane is smaller than the other.
@usableFromInline final class SerialDeliveryLane<T, E>: @unchecked Sendable {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    @usableFromInline let queue: Queue
    @usableFromInline let subscriber: Subscriber<T, E>
    /// Shared with the threads that send: reached only under the lock.
    @exclusivity(unchecked) @usableFromInline var inbox = Inbox()
    /// The queue's own: reached only where `queue.isCurrent()` (Dispatch orders those runs), unlocked.
    @exclusivity(unchecked) @usableFromInline var state = QueueState()

    @inlinable init(_ queue: Queue, _ subscriber: Subscriber<T, E>) {
        (self.queue, self.subscriber) = (queue, subscriber)
    }

    /// Sends `event` on its way: delivered at once, after the events still waiting, if this code
    /// runs on the queue (or by the delivering code, when a handler sent it); otherwise dispatched.
    @inlinable func send(_ event: Event) {
        guard queue.isCurrent() else {
            let lock = StripedLock(for: self)
            lock.lock()
            if inbox.post(event) { inbox.block = { self.arrive() } }
            let block = inbox.block!  // held past the unlock: the queue may let go of the inbox's
            lock.unlock()
            queue.queue.async(execute: block)
            return
        }
        takeInbox()
        switch state.sendOnQueue(event) {
        case .deliverAtOnce:
            subscriber.put(event)
            deliverClaimed()
        case .deliverClaimed: deliverClaimed()
        case .none: break
        }
    }

    /// What each block does on the queue: claims the oldest unclaimed event and delivers it —
    /// unless the block is stale, or the queue delivers already (in a handler up the stack, which
    /// goes on to it).
    @inlinable func arrive() {
        switch state.arrive() {
        case .deliverClaimed: deliverClaimed()
        case .settle: settle()
        case .none: break
        }
    }

    /// Delivers the claimed events, oldest first, also those claimed while a handler runs; then
    /// settles.
    @inlinable func deliverClaimed() {
        while let event = takeClaimed() { subscriber.put(event) }
        settle()
    }

    /// The oldest claimed event, moved out — from `taken` unlocked, or from the inbox under the
    /// lock; `nil` when none is claimed, and the queue stops delivering.
    @inlinable func takeClaimed() -> Event? {
        switch state.claimNext() {
        case .event(let event): return event
        case .inInbox:
            let lock = StripedLock(for: self)
            lock.lock()
            let lone = state.takeOldest(from: &inbox)
            lock.unlock()
            return lone ?? state.takeFromTaken()
        case .none: return nil
        }
    }

    /// Once the queue expects no more blocks but those of events in the inbox: takes those events
    /// (their blocks find them in `taken`), or, when there are none, lets go of the block — the
    /// lane is idle. The block is let go of under the lock: that runs no user code, as its last
    /// reference to the lane is never the lane's last (the code letting go of it runs in the
    /// lane's block, or in `send`, whose caller holds the lane).
    @inlinable func settle() {
        guard state.needsSettling else { return }
        let lock = StripedLock(for: self)
        lock.lock()
        state.settle(&inbox)
        lock.unlock()
    }

    /// Moves the events waiting in the inbox to the end of `taken` (by a swap when `taken` is
    /// empty; otherwise appended after the unlock, and their old buffer freed there).
    @inlinable func takeInbox() {
        let lock = StripedLock(for: self)
        lock.lock()
        guard !inbox.events.isEmpty else { return lock.unlock() }
        var moved = state.takeEvents(of: &inbox)
        lock.unlock()
        if !moved.isEmpty { state.receive(&moved) }
    }
}

/// What a serial lane of ``deliverOn(_:)-(Queue)`` dispatches while events flow (see
/// ``SerialDeliveryLane/Inbox/block``).
@usableFromInline typealias LaneBlock = @Sendable @convention(block) () -> Void

extension SerialDeliveryLane {
    /// The part of a serial lane shared with the threads that send: changed only under the lock.
    @usableFromInline struct Inbox {
        /// The events that happened off the queue and that the queue has not taken yet, oldest first.
        @usableFromInline var events = DrainQueue<Event>()
        /// What each event that happens off the queue dispatches — made by the first one sent when
        /// none is on its way, and let go of by the queue as soon as none is, so an idle lane keeps
        /// none. Dispatch copies a block it is given, which for this one, on the heap already, only
        /// counts a reference, where a closure written at the call would be copied into a new block
        /// each time (a `malloc`, and a `free` on the queue's thread). It holds the lane, so each
        /// dispatch holds the lane until its block ran. (Nothing generic touches it: unspecialised,
        /// as in a debug build, `unsafelyUnwrapped` asks the runtime for an optional block's type
        /// metadata, and on Linux that crashes. `!` and `== nil` need none.)
        @usableFromInline var block: LaneBlock?
        #if RECEIVER_DIAGNOSTICS
        /// Debug builds: how many blocks were dispatched, for the invariant on blocks on their way.
        @usableFromInline var blocksSent = 0
        #endif

        @inlinable init() {}

        /// An event that happened off the queue waits here, and its block is dispatched. Returns
        /// whether the lane has to make its block first: none is kept.
        @inlinable mutating func post(_ event: Event) -> Bool {
            events.appendSparingly(event)
            #if RECEIVER_DIAGNOSTICS
            blocksSent += 1
            #endif
            return block == nil
        }
    }

    /// What `sendOnQueue` asks for: deliver the event sent at once (it was stored nowhere), then
    /// the claimed ones; deliver the claimed ones (it is the last of them); or nothing, as the
    /// queue delivers already, in a handler up the stack, and goes on to it.
    @usableFromInline enum OnQueue { case deliverAtOnce, deliverClaimed, none }

    /// What a block's `arrive` asks for: deliver the claimed events; settle, as the block was
    /// stale and the lane may be idle now; or nothing.
    @usableFromInline enum Arrival { case deliverClaimed, settle, none }

    /// What `claimNext` hands back: the claimed event, from `taken`; the news that it is still in
    /// the inbox (take it under the lock); or none claimed: the queue has stopped delivering.
    @usableFromInline enum Claim {
        case event(Event)
        case inInbox
        case none
    }

    /// The part of a serial lane only the queue touches (whatever runs where `queue.isCurrent()`
    /// runs in turn with the queue's blocks, and sees what the one before it wrote), unlocked.
    ///
    /// Every event not delivered yet (in `taken`, then in the inbox) past the `claimed` ones
    /// happened off the queue and has a block on its way, so the blocks on their way number
    /// `stale + taken.count + inbox.events.count - claimed`.
    ///
    /// The inbox and `taken` hold storage both only while events flow: the queue takes a lone
    /// waiting event out of the inbox, which keeps its storage for the next one, and swaps a batch
    /// out only with `taken`'s spare storage or none; once `taken` is delivered it keeps its
    /// storage only if it left none in the inbox (`inboxHasStorage`), and never more than a
    /// ``DrainQueue`` keeps.
    @usableFromInline struct QueueState {
        /// The events the queue took in a batch and has not delivered yet, oldest first.
        @usableFromInline var taken = DrainQueue<Event>()
        /// How many of the events not delivered yet the delivering code delivers before it stops.
        @usableFromInline var claimed: Int32 = 0
        /// How many blocks on their way will find their event delivered already.
        @usableFromInline var stale: Int32 = 0
        @usableFromInline var isDelivering = false
        /// Whether the queue left storage in the inbox when it last took from it (the other
        /// threads only append, so it still has that storage, or more).
        @usableFromInline var inboxHasStorage = false
        /// Whether the inbox's block may be set: a block ran since the queue last let go of it.
        @usableFromInline var mayKeepBlock = false
        #if RECEIVER_DIAGNOSTICS
        /// Debug builds: how many blocks ran, for the invariant on blocks on their way.
        @usableFromInline var blocksArrived = 0
        #endif

        @inlinable init() {}

        /// The events taken and not delivered yet.
        @inlinable var waitingInTaken: Int32 { Int32(taken.count) }

        /// An event happened on the queue, after the inbox's events were taken (`takeEvents`):
        /// the events waiting are delivered first, so their unclaimed blocks become stale. Stored
        /// nowhere when nothing waits and nothing is delivered.
        @inlinable mutating func sendOnQueue(_ event: Event) -> OnQueue {
            let waiting = waitingInTaken
            stale += waiting - claimed  // the unclaimed ones are delivered now: their blocks find nothing
            defer { checkInvariants() }
            guard waiting > 0 || isDelivering else {
                isDelivering = true
                return .deliverAtOnce
            }
            taken.appendSparingly(event)
            claimed = waiting + 1
            guard !isDelivering else { return .none }
            isDelivering = true
            return .deliverClaimed
        }

        /// A block ran: it takes a stale count, or claims the oldest unclaimed event.
        @inlinable mutating func arrive() -> Arrival {
            mayKeepBlock = true
            #if RECEIVER_DIAGNOSTICS
            blocksArrived += 1
            #endif
            defer { checkInvariants() }
            guard stale == 0 else {
                stale -= 1
                return isDelivering ? .none : .settle
            }
            claimed += 1
            guard !isDelivering else { return .none }
            isDelivering = true
            return .deliverClaimed
        }

        /// Counts off the next claimed event and hands it back from `taken`, or says it is in the
        /// inbox; with none claimed, stops delivering.
        @inlinable mutating func claimNext() -> Claim {
            guard claimed > 0 else {
                isDelivering = false
                checkInvariants()
                return .none
            }
            claimed -= 1
            return taken.isEmpty ? .inInbox : .event(takeFromTaken())
        }

        /// Under the lock, `taken` empty: the oldest event, moved out of the inbox — alone, if it
        /// waits alone there and `taken` has no storage to swap for it (and if no block is on its
        /// way then, the block is let go of); otherwise `nil`, with every event waiting there
        /// swapped into `taken`.
        @inlinable mutating func takeOldest(from inbox: inout Inbox) -> Event? {
            guard !taken.hasStorage, inbox.events.count == 1 else {
                swap(&taken, &inbox.events)
                inboxHasStorage = inbox.events.hasStorage
                return nil
            }
            let event = inbox.events.popFirst()  // the inbox keeps its storage
            inboxHasStorage = true
            if stale == 0, claimed == 0 { letGoOfBlock(&inbox) }
            checkInvariants(with: inbox)
            return event!
        }

        /// The oldest event in `taken` (there is one), moved out; once all are, `taken` keeps its
        /// storage only if the inbox has none.
        @inlinable mutating func takeFromTaken() -> Event {
            let event = taken.popFirst()!  // a claimed event is there: see the type's comment
            if inboxHasStorage, taken.isEmpty { taken.dropStorage() }
            checkInvariants()
            return event
        }

        /// Whether `settle` has anything to do: a block may be kept, and none but those of the
        /// inbox's events is on its way.
        @inlinable var needsSettling: Bool { mayKeepBlock && stale == 0 && taken.isEmpty }

        /// Under the lock, when `needsSettling`: takes the inbox's events into `taken` (their
        /// blocks find them there), or, with none, lets go of the block.
        @inlinable mutating func settle(_ inbox: inout Inbox) {
            if inbox.events.isEmpty {
                letGoOfBlock(&inbox)
            } else {
                swap(&taken, &inbox.events)
                inboxHasStorage = inbox.events.hasStorage
            }
            checkInvariants(with: inbox)
        }

        /// Under the lock, the inbox not empty: its events, moved — swapped into `taken` if that is
        /// empty (and then nothing is handed back), otherwise handed back for `receive`.
        @inlinable mutating func takeEvents(of inbox: inout Inbox) -> DrainQueue<Event> {
            var moved = DrainQueue<Event>()
            if taken.isEmpty {
                swap(&taken, &inbox.events)
                inboxHasStorage = inbox.events.hasStorage
            } else {
                swap(&moved, &inbox.events)
                inboxHasStorage = false
            }
            return moved
        }

        /// Appends the events `takeEvents` handed back to `taken`.
        @inlinable mutating func receive(_ moved: inout DrainQueue<Event>) {
            while let event = moved.popFirst() { taken.appendSparingly(event) }
        }

        /// Lets go of the inbox's block: no block is on its way.
        @inlinable mutating func letGoOfBlock(_ inbox: inout Inbox) {
            inbox.block = nil
            mayKeepBlock = false
        }

        /// Debug builds: what holds after every transition of the queue's part.
        @inlinable func checkInvariants() {
            #if RECEIVER_DIAGNOSTICS
            precondition(claimed >= 0 && stale >= 0, "a serial lane's counts went negative")
            precondition(isDelivering || claimed == 0, "claimed events, and nobody delivering them")
            #endif
        }

        /// Debug builds: what holds after a transition under the lock, where both parts are seen.
        @inlinable func checkInvariants(with inbox: Inbox) {
            #if RECEIVER_DIAGNOSTICS
            checkInvariants()
            let waiting = Int(waitingInTaken) + inbox.events.count
            precondition(Int(claimed) <= waiting, "a serial lane claimed more events than wait")
            precondition(
                inbox.blocksSent - blocksArrived == Int(stale) + waiting - Int(claimed),
                "a serial lane's blocks on their way do not match its waiting events")
            precondition(inbox.block != nil || inbox.blocksSent == blocksArrived, "blocks on their way, and no block")
            #endif
        }
    }
}

// What the delivery lanes need of `DrainQueue` beyond its own API.
extension DrainQueue {
    /// Whether the queue holds a ring, empty or not (the serial lane keeps at most one while idle).
    @inlinable var hasStorage: Bool { storage != nil }

    /// Lets go of the ring of an empty queue, which releases nothing of the user's.
    @inlinable mutating func dropStorage() { storage = nil }

    /// ``append(_:)``, but a ring smaller than 4 slots grows one slot, then two, instead of
    /// starting at 4: an idle lane keeps the ring its last events needed, and most lanes see one
    /// event at a time, so this keeps a live `deliverOn` subscription as small as an array of one
    /// place kept it (both are one 64-byte malloc chunk on glibc).
    @inlinable mutating func appendSparingly(_ element: Element) {
        if let storage, storage.elementCount < storage.slotCount { return storage.append(element) }
        let slots = storage.map { 2 * $0.slotCount } ?? 1
        guard slots < 4 else { return append(element) }  // `DrainQueue`'s own growth from 4 slots on
        let larger = DrainQueueStorage<Element>.make(capacity: slots)
        if let storage { larger.moveElements(from: storage) }
        larger.append(element)
        storage = larger
    }
}
