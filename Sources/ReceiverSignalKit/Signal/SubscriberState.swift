// A subscription's state machine: every way a ``SubscriberCore`` changes is one transition,
// called under the start's lock, that changes its fields and returns what to do next — the shape
// of the core's `Receiver.State` and of swift-async-algorithms' channel state machines. The
// caller does what it returns (calls a handler, disposes, releases) after unlocking, so that no
// user code runs under the lock; the transitions themselves call nothing, and can be tested
// without locks or threads. Debug builds check the invariants after each one.
//
// The state is the core's own stored properties, not a struct the core stores: measured on a
// release build, such a struct (88 bytes) cost `never().start()` + `dispose()` 1,943 instructions
// instead of 1,416 — the compiler built it aside and copied it in through its value witness on
// every start, and each call to one of its methods from the unspecialised paths (`dispose()`, the
// subscriber's `deinit`, the descriptions) passed its type metadata, looked up at run time. As
// methods of the class, the transitions are reached through `self`, whose layout does not depend
// on `T` or `E`. The actions are structs rather than tuples: a closure moved into a specialised
// tuple is re-abstracted, which allocates.

/// Where a subscription is in its life. A terminal event ends ``running``; `dispose()` can begin
/// in either of the first two phases, and passes through a disposing one while it disposes what
/// the generator returned.
@usableFromInline enum SubscriberPhase: UInt8 {
    /// Values are accepted and delivered.
    case running
    /// A terminal event was accepted: nothing more is, and its delivery lets go of the handlers.
    case terminated
    /// `dispose()` began while running and is disposing what the generator returned: nothing is
    /// accepted or delivered, but the handlers and what is kept alive are held until it has.
    case disposing
    /// `dispose()` began after a terminal event and is disposing what the generator returned: as
    /// ``disposing``, but the subscriber is terminated, so its release lets go of the handlers.
    case terminatedAndDisposing
    /// Disposed: only what is kept alive from now on is held.
    case disposed
}

extension SubscriberCore {
    /// What ``SubscriberCore/admit(_:)`` decided about a `put`.
    @usableFromInline enum Admission {
        /// The calling thread delivers the event now.
        case deliver
        /// Queued for the thread already delivering.
        case queued
        /// Dropped, the subscription having ended; `release` is what was kept alive since it
        /// terminated, let go of by a later terminal event, as in SwiftSignalKit.
        case refused(release: [AnyObject])
    }

    /// What ``SubscriberCore/beginDisposal()`` decided about a `dispose()`.
    @usableFromInline enum DisposalStart {
        /// Disposed already: nothing to do.
        case alreadyDisposed
        /// Dispose this (what the generator returned, if the subscription still held it), then
        /// call ``SubscriberCore/endDisposal()``.
        case dispose((any Disposable)?)
    }

    /// What a transition let go of: the caller releases (or disposes) it after unlocking, in the
    /// order the operation documents. Fields that are `nil` or empty hold nothing.
    @usableFromInline struct Release {
        @usableFromInline var next: ((T) -> Void)?
        @usableFromInline var error: ((E) -> Void)?
        @usableFromInline var completed: (() -> Void)?
        @usableFromInline var disposable: (any Disposable)?
        @usableFromInline var keptAlive: [AnyObject]

        /// Holds nothing; the transition moves into it what it lets go of.
        @inlinable @inline(__always) init() {
            (next, error, completed, disposable, keptAlive) = (nil, nil, nil, nil, [])
        }
    }

    /// Whether `dispose()` has begun.
    @inlinable var isDisposed: Bool { phase == .disposing || phase == .terminatedAndDisposing || phase == .disposed }
    /// SwiftSignalKit's `terminated`: a terminal event was accepted, or a disposal has finished.
    @inlinable var isTerminated: Bool { phase == .terminated || phase == .terminatedAndDisposing || phase == .disposed }

    /// A `put` of `event`: accepted while running (a terminal event ends the phase), and then
    /// delivered by this thread if none is delivering, or queued for the one that is.
    @inlinable @inline(__always) func admit(_ event: Event) -> Admission {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        var isTerminal: Bool {
            if case .next = event { return false }
            return true
        }
        guard phase == .running else {
            guard phase == .terminated, isTerminal else { return .refused(release: []) }
            return .refused(release: keptAlive.take())
        }
        if isTerminal { phase = .terminated }
        guard !isDelivering else {
            queue.append(event)
            return .queued
        }
        isDelivering = true
        return .deliver
    }

    /// A value has been delivered: the next queued event for the delivering thread, or `nil`
    /// when it stops — nothing is queued (the queue keeps a small ring for the next burst), or
    /// the start is being disposed (then what was queued is moved to `dropped`, to be released
    /// after unlocking).
    @inlinable @inline(__always) func advance(dropping dropped: inout DrainQueue<Event>) -> Event? {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        guard !isDisposed else {
            dropped = queue.removeAll()
            isDelivering = false
            return nil
        }
        guard let event = queue.popFirst() else {
            isDelivering = false
            return nil
        }
        return event
    }

    /// The terminal event's delivery begins: every handler and what is kept alive are taken
    /// out (the delivering thread calls the terminal handler and releases the rest). Nothing
    /// is queued behind a terminal event: the queue is empty.
    @inlinable @inline(__always) func beginTermination() -> Release {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        // Copied out, then cleared, rather than `take()`n: the generic `Optional.take()`
        // returns a handler at its unsubstituted abstraction, which costs two reabstraction
        // thunks (two allocations) per handler.
        var release = Release()
        (release.next, release.error, release.completed, release.keptAlive, next, error, completed, keptAlive) =
            (next, error, completed, keptAlive, nil, nil, nil, [])
        return release
    }

    /// The terminal handler has returned: the delivery ends, and what the generator returned
    /// is handed back to be disposed (`nil` if a disposal has taken it). The queue's ring,
    /// empty, goes to `drained`, to be let go of after unlocking: nothing is queued any more.
    @inlinable @inline(__always) func endTermination(releasing drained: inout DrainQueue<Event>) -> (any Disposable)? {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        let disposable = disposable
        self.disposable = nil
        drained = queue.removeAll()
        isDelivering = false
        return disposable
    }

    /// The generator returned `disposable`: held for the start's end, or, if the start has ended
    /// already (the generator may terminate before it returns), refused — `false`: the caller
    /// disposes it at once.
    @inlinable @inline(__always) func hold(_ disposable: any Disposable) -> Bool {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        guard phase == .running else { return false }
        self.disposable = disposable
        return true
    }

    /// Keeps `object` until the start ends, or, if it has, until the next terminal event, the
    /// disposal or the subscriber's release.
    @inlinable @inline(__always) func addKeptAlive(_ object: AnyObject) {
        keptAlive.append(object)
    }

    /// The source let go of the subscriber: the handlers and what is kept alive are released,
    /// and what the generator returned too when nothing else holds it (`isHandleGone`: no
    /// `dispose()` can come). While a disposal is disposing what the generator returned, it
    /// releases all of this itself when that returns (SwiftSignalKit's handle holds its
    /// subscriber meanwhile): nothing is released here.
    ///
    @usableFromInline @inline(__always) final func subscriberWasReleased(isHandleGone: Bool) -> Release {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        guard phase != .disposing else { return Release() }
        var release = Release()
        (release.next, release.error, release.completed, release.keptAlive, next, error, completed, keptAlive) =
            (next, error, completed, keptAlive, nil, nil, nil, [])
        if isHandleGone { (release.disposable, disposable) = (disposable, nil) }
        return release
    }

    /// `dispose()` begins: nothing is accepted or delivered from now on (a delivering thread
    /// drops its queue), and what the generator returned is taken out, so that this disposal
    /// alone disposes it, exactly once.
    @usableFromInline @inline(__always) final func beginDisposal() -> DisposalStart {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        switch phase {
        case .disposing, .terminatedAndDisposing, .disposed: return .alreadyDisposed
        case .running: phase = .disposing
        case .terminated: phase = .terminatedAndDisposing
        }
        let disposable = disposable
        self.disposable = nil
        return .dispose(disposable)
    }

    /// What the generator returned has been disposed: the start is terminated, and the
    /// handlers and what is kept alive are handed back to be released. The subscriber holds
    /// them until then, as SwiftSignalKit's does, so what that disposal did to it (a
    /// `keepAlive`, a look at its `description`) saw it as it was.
    @usableFromInline @inline(__always) final func endDisposal() -> Release {
        #if RECEIVER_DIAGNOSTICS
        defer { checkInvariants() }
        #endif
        phase = .disposed
        var release = Release()
        (release.next, release.error, release.completed, release.keptAlive, next, error, completed, keptAlive) =
            (next, error, completed, keptAlive, nil, nil, nil, [])
        return release
    }

    /// The first invariant the state breaks, or `nil`.
    @usableFromInline var brokenInvariant: String? {
        if !isDelivering, !queue.isEmpty { return "events are queued with no thread delivering them" }
        switch phase {
        case .running:
            return nil
        case .terminated:
            if isDelivering { return nil }  // the terminal event is on its way
            if next != nil || error != nil || completed != nil {
                return "a terminated start holds handlers after its delivery"
            }
            if disposable != nil { return "a terminated start holds what the generator returned" }
        case .disposing, .terminatedAndDisposing:
            if disposable != nil { return "a disposing start holds what the generator returned" }
        case .disposed:
            if next != nil || error != nil || completed != nil { return "a disposed start holds handlers" }
            if disposable != nil { return "a disposed start holds what the generator returned" }
        }
        return nil
    }

    /// Stops the program if the state breaks an invariant; debug builds call it after every
    /// transition.
    @usableFromInline func checkInvariants() {
        if let broken = brokenInvariant { preconditionFailure("SubscriberCore: \(broken)") }
    }
}
