public import Dispatch  // DispatchQueue.async, in the lane's inlinable code

/// One start of ``deliverOn(_:)-(Queue)`` on a serial queue (``Queue/isSerial``: a named queue, the
/// main queue, or a virtual one): its events on their way to the queue, in the order they happened.
///
/// The protocol of ``DeliveryLane``, with its state in two parts, each with one owner: the
/// ``Inbox``, where other threads post events, under the lock, and ``OnQueue``, which only code
/// running on the queue touches (the queue runs one block at a time), without a lock. Each event
/// posted gets a block, and each block delivers its own event, so other work dispatched to the queue
/// between two events runs between them; the queue takes what waits in the inbox with one lock
/// round trip, a lone event straight out, several into `taken`.
///
/// Its lock is a `StripedLock`; locked sections only move events and make or let go of the block,
/// and release no event. `@unchecked Sendable`: `inbox` is only reached under that lock, `onQueue`
/// only on the queue.
@usableFromInline final class SerialDeliveryLane<T, E>: @unchecked Sendable {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    @usableFromInline let queue: Queue
    @usableFromInline let subscriber: Subscriber<T, E>
    /// Shared with the threads that send: reached only under the lock.
    @exclusivity(unchecked) @usableFromInline var inbox = Inbox()
    /// The queue's own: reached only where `queue.isCurrent()` (the queue orders those runs), unlocked.
    @exclusivity(unchecked) @usableFromInline var onQueue = OnQueue()

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
            if let virtual = queue.virtual {
                virtual.schedule(after: 0, block)
            } else {
                queue.queue.async(execute: block)
            }
            return
        }
        collectInbox()
        if let now = onQueue.sendOnQueue(event) { deliver(now) }
    }

    /// What each block does on the queue: delivers its own event (or leaves it to the delivering
    /// code up the stack), unless the block is stale.
    @inlinable func arrive() {
        let event: Event
        switch onQueue.arrive() {
        case .stale:
            if !onQueue.serializer.isDelivering { settle() }
            return
        case .taken(let taken): event = taken
        case .inInbox:
            let lock = StripedLock(for: self)
            lock.lock()
            let oldest = onQueue.takeOldest(from: &inbox)
            lock.unlock()
            event = oldest
        }
        if onQueue.serializer.admit(event) { deliver(event) }
    }

    /// Delivers `event`, as the queue's deliverer, then the events left to it meanwhile; then
    /// settles.
    @inlinable func deliver(_ event: Event) {
        var event = event
        while true {
            subscriber.put(event)
            guard let following = onQueue.serializer.next() else { break }
            event = following
        }
        onQueue.trimStorage()
        settle()
    }

    /// Once the queue expects no more blocks but those of events in the inbox: takes those events
    /// into `taken` (their blocks find them there), or, when there are none, lets go of the block:
    /// the lane is idle. Letting go of the block under the lock runs no user code: its reference
    /// to the lane is never the last (this runs in the lane's block, or in `send`, whose caller
    /// holds the lane).
    @inlinable func settle() {
        guard onQueue.needsSettling else { return }
        let lock = StripedLock(for: self)
        lock.lock()
        onQueue.settle(&inbox)
        lock.unlock()
    }

    /// Moves the events waiting in the inbox to the end of `taken`: by a swap when `taken` is
    /// empty; otherwise appended after the unlock.
    @inlinable func collectInbox() {
        let lock = StripedLock(for: self)
        lock.lock()
        guard !inbox.events.isEmpty else { return lock.unlock() }
        var moved = onQueue.collect(from: &inbox)
        lock.unlock()
        if !moved.isEmpty { onQueue.taken.append(contentsOf: &moved) }
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
        /// What each event posted dispatches while events flow, `nil` while the lane is idle: made
        /// by the first event posted, let go of by the queue once no block is on its way. Dispatch
        /// only retains a block already on the heap, where a closure written at the call would be
        /// copied into a new block each time. (Nothing generic touches it: unspecialised,
        /// `unsafelyUnwrapped` asks the runtime for an optional block's type metadata, which
        /// crashes on Linux; `!` and `== nil` do not.)
        @usableFromInline var block: LaneBlock?
        #if RECEIVER_DIAGNOSTICS
        /// Debug builds: how many blocks were dispatched, for the invariant on blocks on their way.
        @usableFromInline var blocksSent = 0
        #endif

        @inlinable init() {}

        /// An event posted off the queue waits here, and its block is dispatched. Returns whether
        /// the lane has to make its block first: the lane was idle.
        @inlinable mutating func post(_ event: Event) -> Bool {
            events.append(event)
            #if RECEIVER_DIAGNOSTICS
            blocksSent += 1
            #endif
            return block == nil
        }
    }

    /// What a block finds when it runs: nothing (it is stale), its event in `taken`, or its event
    /// still in the inbox (take it under the lock).
    @usableFromInline enum Arrival {
        case stale
        case taken(Event)
        case inInbox
    }

    /// The part of a serial lane only the queue touches, unlocked: whatever runs where
    /// `queue.isCurrent()` runs in turn with the queue's blocks, and sees what the one before wrote.
    ///
    /// Every event in `taken` or in the inbox has a block on its way, and so has each stale count:
    /// the blocks on their way number `stale + taken.count + inbox.events.count`.
    @usableFromInline struct OnQueue {
        /// Events the queue took from the inbox in a batch, whose blocks have not run, oldest first.
        @usableFromInline var taken = DrainQueue<Event>()
        /// Who delivers on the queue, and the events left to it while a handler runs.
        @usableFromInline var serializer = Serializer<Event>()
        /// Whether the block may be kept: a block ran since the queue last let go of it.
        @usableFromInline var mayKeepBlock = false
        /// Whether the queue left storage in the inbox when it last took from it (the other
        /// threads only append, so it still has that storage, or more).
        @usableFromInline var inboxHasStorage = false
        /// How many blocks on their way will find their event delivered already. (`Int32`: each
        /// counts blocks on their way, which would fill the memory long before 2³¹.)
        @usableFromInline var stale: Int32 = 0
        #if RECEIVER_DIAGNOSTICS
        /// Debug builds: how many blocks ran, for the invariant on blocks on their way.
        @usableFromInline var blocksArrived = 0
        #endif

        @inlinable init() {}

        /// An event happened on the queue, after the inbox's events were collected into `taken`:
        /// it comes after them, and their blocks become stale. Returns the oldest, for this code to
        /// deliver, unless it delivers already (in a handler up the stack).
        @inlinable mutating func sendOnQueue(_ event: Event) -> Event? {
            defer { checkInvariants() }
            stale += Int32(taken.count)
            return serializer.admit(event, after: &taken)
        }

        /// A block ran: it finds a stale count, or its event — the oldest not delivered, in `taken`
        /// or still in the inbox.
        @inlinable mutating func arrive() -> Arrival {
            mayKeepBlock = true
            #if RECEIVER_DIAGNOSTICS
            blocksArrived += 1
            #endif
            guard stale == 0 else {
                stale -= 1
                return .stale
            }
            guard !taken.isEmpty else { return .inInbox }
            return .taken(popTaken())
        }

        /// The oldest event in `taken` (there is one), moved out; once `taken` is empty it keeps
        /// its storage only if the inbox has none, so an idle lane keeps one ring at most.
        @inlinable mutating func popTaken() -> Event {
            let event = taken.popFirst()!
            if inboxHasStorage, taken.isEmpty { taken.storage = nil }
            return event
        }

        /// Under the lock, `taken` empty: the block's event, the oldest in the inbox — moved out
        /// alone if it waits alone there and `taken` has no storage to swap for it (then, if no
        /// other block is on its way, the block is let go of); otherwise the inbox's events are
        /// swapped into `taken`, and it is taken from there.
        @inlinable mutating func takeOldest(from inbox: inout Inbox) -> Event {
            defer { checkInvariants(with: inbox) }
            guard taken.storage == nil, inbox.events.count == 1 else {
                swap(&taken, &inbox.events)
                inboxHasStorage = inbox.events.storage != nil
                return popTaken()  // this block's event is there
            }
            let event = inbox.events.popFirst()!  // the inbox keeps its storage
            inboxHasStorage = true
            if stale == 0 { letGoOfBlock(&inbox) }
            return event
        }

        /// Under the lock, the inbox not empty: its events — swapped into `taken` if that is empty
        /// (then nothing is handed back), otherwise handed back to be appended to it.
        @inlinable mutating func collect(from inbox: inout Inbox) -> DrainQueue<Event> {
            var moved = DrainQueue<Event>()
            if taken.isEmpty {
                swap(&taken, &inbox.events)
                inboxHasStorage = inbox.events.storage != nil
            } else {
                swap(&moved, &inbox.events)
                inboxHasStorage = false
            }
            return moved
        }

        /// The deliverer has stopped: drained rings go while another is kept (the inbox's first),
        /// so an idle lane keeps one at most.
        @inlinable mutating func trimStorage() {
            if inboxHasStorage, taken.isEmpty { taken.storage = nil }
            if inboxHasStorage || taken.storage != nil { serializer.waiting.storage = nil }
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
                inboxHasStorage = inbox.events.storage != nil
            }
            checkInvariants(with: inbox)
        }

        /// Lets go of the inbox's block: no block is on its way.
        @inlinable mutating func letGoOfBlock(_ inbox: inout Inbox) {
            inbox.block = nil
            mayKeepBlock = false
        }

        /// Debug builds: what holds after every transition of the queue's part.
        @inlinable func checkInvariants() {
            #if RECEIVER_DIAGNOSTICS
            precondition(stale >= 0, "a serial lane's stale count went negative")
            precondition(
                serializer.isDelivering || serializer.waiting.isEmpty, "events wait, and nobody delivers them")
            #endif
        }

        /// Debug builds: what holds after a transition under the lock, where both parts are seen.
        @inlinable func checkInvariants(with inbox: Inbox) {
            #if RECEIVER_DIAGNOSTICS
            checkInvariants()
            precondition(
                inbox.blocksSent - blocksArrived == Int(stale) + taken.count + inbox.events.count,
                "a serial lane's blocks on their way do not match its waiting events")
            precondition(inbox.block != nil || inbox.blocksSent == blocksArrived, "blocks on their way, and no block")
            #endif
        }
    }
}
