// A subscription's state machine, in the shape of swift-async-algorithms' `ChannelStateMachine`:
// each `mutating` transition runs under the start's lock and returns what to do; the core does it
// (calls a handler, disposes, releases) after unlocking. The transitions call nothing, so they are
// tested alone, without locks or threads.

/// Where a subscription is in its life, and what it holds in that phase besides its handlers.
///
/// Not generic, so that the paths that run unspecialised (`dispose()`, the subscriber's `deinit`)
/// copy and destroy it without type metadata. `keptAlive` is in every phase, so the tag needs no
/// byte of its own: it fits in the array's spare bits.
@usableFromInline enum SubscriberPhase {
    /// Values are accepted and delivered. `generated`: what the generator returned, once it has.
    case running(generated: (any Disposable)?, keptAlive: [AnyObject])
    /// A terminal event was accepted and is on its way, behind the values queued before it.
    case terminating(generated: (any Disposable)?, keptAlive: [AnyObject])
    /// The terminal handler has been taken (and runs, or ran); `generated` waits for it.
    case terminated(generated: (any Disposable)?, keptAlive: [AnyObject])
    /// `dispose()` is disposing what the generator returned; the handlers wait for it to return.
    case disposing(keptAlive: [AnyObject], wasTerminated: Bool)
    /// Disposed: only what is kept alive from now on is held.
    case disposed(keptAlive: [AnyObject])
}

/// What a subscription knows: its handlers, its phase, and the ``Serializer`` of the events put
/// into it. The handlers are held from `start` until the terminal event's delivery, the
/// disposal's end or the subscriber's release, whichever comes first.
@usableFromInline struct SubscriberState<T, E> {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    /// The handlers `start` was given; a field is `nil` once let go of, or if none was given.
    @usableFromInline struct Handlers {
        @usableFromInline var next: ((T) -> Void)?
        @usableFromInline var error: ((E) -> Void)?
        @usableFromInline var completed: (() -> Void)?

        @inlinable @inline(__always) init(next: ((T) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?) {
            (self.next, self.error, self.completed) = (next, error, completed)
        }

        /// None.
        @inlinable @inline(__always) init() { (next, error, completed) = (nil, nil, nil) }

        @inlinable var isEmpty: Bool { next == nil && error == nil && completed == nil }
    }

    /// What ``admit(_:)`` decided about a `put`.
    @usableFromInline enum Admission {
        /// The calling thread delivers the event now.
        case deliver
        /// Queued for the thread already delivering.
        case queued
        /// Dropped: the subscription has ended. `release` is what was kept alive since it
        /// terminated, let go of by a later terminal event, as in SwiftSignalKit.
        case refused(release: [AnyObject])
    }

    /// What a transition let go of, for the caller to release (or dispose) after unlocking.
    @usableFromInline struct Release {
        @usableFromInline var handlers: Handlers
        @usableFromInline var disposable: (any Disposable)?
        @usableFromInline var keptAlive: [AnyObject]

        @inlinable @inline(__always) init(
            _ handlers: Handlers = Handlers(), disposable: (any Disposable)? = nil, keptAlive: [AnyObject] = []
        ) {
            (self.handlers, self.disposable, self.keptAlive) = (handlers, disposable, keptAlive)
        }
    }

    @usableFromInline var handlers: Handlers
    @usableFromInline var phase: SubscriberPhase
    @usableFromInline var serializer: Serializer<Event>

    @inlinable @inline(__always) init(_ handlers: Handlers) {
        (self.handlers, phase, serializer) = (handlers, .running(generated: nil, keptAlive: []), Serializer())
    }

    /// The handlers, moved out: the one way they are let go of.
    @inlinable @inline(__always) mutating func takeHandlers() -> Handlers {
        let taken = handlers
        handlers = Handlers()
        return taken
    }

    /// Moves the phase out, for a transition that puts the next one in its place.
    @inlinable @inline(__always) mutating func takePhase() -> SubscriberPhase {
        var taken = SubscriberPhase.disposed(keptAlive: [])
        swap(&taken, &phase)
        return taken
    }

    /// Whether `dispose()` has begun.
    @inlinable var isDisposed: Bool {
        switch phase {
        case .disposing, .disposed: true
        case .running, .terminating, .terminated: false
        }
    }

    /// SwiftSignalKit's `terminated`: a terminal event was accepted, or a disposal has finished.
    @inlinable var isTerminated: Bool {
        switch phase {
        case .running: false
        case .disposing(_, let wasTerminated): wasTerminated
        case .terminating, .terminated, .disposed: true
        }
    }

    /// A `put` of `event`: accepted while running (a terminal event ends the phase), then
    /// delivered by this thread if none is delivering, or queued for the one that is.
    @inlinable @inline(__always) mutating func admit(_ event: Event) -> Admission {
        switch phase {
        case .running:
            if case .next = event { break }
            guard case .running(let generated, let keptAlive) = phase else { break }
            phase = .terminating(generated: generated, keptAlive: keptAlive)
        case .terminating, .terminated:
            // A later terminal event lets go of what was kept alive since.
            if case .next = event { return .refused(release: []) }
            return .refused(release: takeKeptAlive())
        case .disposing, .disposed:
            return .refused(release: [])
        }
        return serializer.admit(event) ? .deliver : .queued
    }

    /// A value has been delivered: the next event for the delivering thread, or `nil` when it
    /// stops — nothing is queued, or the subscription is being disposed (what was queued then goes
    /// to `dropped`, to be released after unlocking).
    @inlinable @inline(__always) mutating func next(dropping dropped: inout DrainQueue<Event>) -> Event? {
        guard !isDisposed else {
            dropped = serializer.stop()
            return nil
        }
        return serializer.next()
    }

    /// The terminal event's delivery begins: the handlers and what is kept alive are handed over
    /// (the caller calls the terminal handler and releases the rest). Nothing is queued behind a
    /// terminal event.
    @inlinable @inline(__always) mutating func beginTermination() -> Release {
        guard case .terminating(let generated, let keptAlive) = phase else {
            return Release()  // never: the deliverer admitted the terminal event, and only it ends the phase
        }
        phase = .terminated(generated: generated, keptAlive: [])
        return Release(takeHandlers(), keptAlive: keptAlive)
    }

    /// The terminal handler has returned: the delivery ends, and what the generator returned is
    /// handed back to be disposed (`nil` if a disposal took it). The queue's storage goes to
    /// `drained`, to be let go of after unlocking.
    @inlinable @inline(__always) mutating func endTermination(releasing drained: inout DrainQueue<Event>) -> (
        any Disposable
    )? {
        drained = serializer.stop()
        guard case .terminated(let generated?, let keptAlive) = phase else { return nil }
        phase = .terminated(generated: nil, keptAlive: keptAlive)
        return generated
    }

    /// The generator returned `disposable`: held for the subscription's end, or refused (`false`:
    /// the caller disposes it at once) if it has ended already, as the generator may end it.
    @inlinable @inline(__always) mutating func hold(_ disposable: any Disposable) -> Bool {
        guard case .running = phase, case .running(_, let keptAlive) = takePhase() else { return false }
        phase = .running(generated: disposable, keptAlive: keptAlive)
        return true
    }

    /// Keeps `object` until the subscription ends, or, if it has, until the next terminal event,
    /// the disposal or the subscriber's release.
    @inlinable mutating func keepAlive(_ object: AnyObject) {
        var keptAlive = takeKeptAlive()
        keptAlive.append(object)
        phase = phase.replacingKeptAlive(with: keptAlive)
    }

    /// What is kept alive, moved out; the phase stays.
    @inlinable mutating func takeKeptAlive() -> [AnyObject] {
        let keptAlive = phase.keptAlive
        phase = phase.replacingKeptAlive(with: [])
        return keptAlive
    }

    /// The source let go of the subscriber: the handlers and what is kept alive are handed back,
    /// and what the generator returned too when nothing else holds it (`isHandleGone`: no
    /// `dispose()` can come). A disposal under way while running releases all of this itself when
    /// it ends, as SwiftSignalKit's handle holds its subscriber meanwhile.
    @inlinable @inline(__always) mutating func subscriberReleased(isHandleGone: Bool) -> Release {
        let taken = takePhase()
        switch consume taken {
        case .running(var generated, let keptAlive):
            let disposable = isHandleGone ? generated.take() : nil
            phase = .running(generated: generated, keptAlive: [])
            return Release(takeHandlers(), disposable: disposable, keptAlive: keptAlive)
        case .terminating(var generated, let keptAlive):
            let disposable = isHandleGone ? generated.take() : nil
            phase = .terminating(generated: generated, keptAlive: [])
            return Release(takeHandlers(), disposable: disposable, keptAlive: keptAlive)
        case .terminated(var generated, let keptAlive):
            let disposable = isHandleGone ? generated.take() : nil
            phase = .terminated(generated: generated, keptAlive: [])
            return Release(takeHandlers(), disposable: disposable, keptAlive: keptAlive)
        case .disposing(let keptAlive, let wasTerminated):
            guard wasTerminated else {
                phase = .disposing(keptAlive: keptAlive, wasTerminated: false)
                return Release()
            }
            phase = .disposing(keptAlive: [], wasTerminated: true)
            return Release(takeHandlers(), keptAlive: keptAlive)
        case .disposed(let keptAlive):
            return Release(takeHandlers(), keptAlive: keptAlive)
        }
    }

    /// What ``beginDisposal()`` decided about a `dispose()`.
    @usableFromInline enum DisposalStart {
        /// Disposed already: nothing to do.
        case alreadyDisposed
        /// Dispose this (what the generator returned, if the subscription still held it), then
        /// call ``endDisposal(releasing:)``.
        case dispose((any Disposable)?)
    }

    /// `dispose()` begins: nothing is accepted or delivered from now on (a delivering thread drops
    /// its queue), and what the generator returned is taken out, for this disposal alone to
    /// dispose, once.
    @inlinable @inline(__always) mutating func beginDisposal() -> DisposalStart {
        switch phase {
        case .running(let generated, let keptAlive):
            phase = .disposing(keptAlive: keptAlive, wasTerminated: false)
            return .dispose(generated)
        case .terminating(let generated, let keptAlive), .terminated(let generated, let keptAlive):
            phase = .disposing(keptAlive: keptAlive, wasTerminated: true)
            return .dispose(generated)
        case .disposing, .disposed:
            return .alreadyDisposed
        }
    }

    /// What the generator returned has been disposed: the subscription is disposed, and the
    /// handlers and what is kept alive are handed back. The subscriber held them until then, as
    /// SwiftSignalKit's does, so what that disposal did to it (a `keepAlive`, a look at its
    /// `description`) saw it as it was. If nobody delivers, the queue's storage goes to `drained`,
    /// to be let go of after unlocking (a delivering thread lets go of it when it stops).
    @inlinable @inline(__always) mutating func endDisposal(releasing drained: inout DrainQueue<Event>) -> Release {
        let keptAlive = phase.keptAlive
        phase = .disposed(keptAlive: [])
        if !serializer.isDelivering { drained = serializer.stop() }
        return Release(takeHandlers(), keptAlive: keptAlive)
    }

    /// Whether what the generator returned is the subscriber's, as its `description` shows it:
    /// until it terminates, also while a disposal that has taken it out disposes it (as
    /// SwiftSignalKit's subscriber shows it).
    @inlinable var subscriberHoldsGenerated: Bool {
        switch phase {
        case .running(let generated, _): generated != nil
        case .disposing(_, let wasTerminated): !wasTerminated
        case .terminating, .terminated, .disposed: false
        }
    }

    /// The invariant the phases cannot hold by construction, if it is broken.
    @usableFromInline var brokenInvariant: String? {
        if !serializer.isDelivering, !serializer.waiting.isEmpty {
            return "events are queued with no thread delivering them"
        }
        switch phase {
        case .running, .terminating, .disposing: return nil
        case .terminated, .disposed:
            return serializer.isDelivering || handlers.isEmpty ? nil : "an ended subscription holds handlers"
        }
    }
}

extension SubscriberPhase {
    /// What is kept alive, in any phase.
    @inlinable var keptAlive: [AnyObject] {
        switch self {
        case .running(_, let keptAlive), .terminating(_, let keptAlive), .terminated(_, let keptAlive),
            .disposing(let keptAlive, _), .disposed(let keptAlive):
            keptAlive
        }
    }

    /// The same phase, keeping `keptAlive` alive instead.
    @inlinable func replacingKeptAlive(with keptAlive: [AnyObject]) -> SubscriberPhase {
        switch self {
        case .running(let generated, _): .running(generated: generated, keptAlive: keptAlive)
        case .terminating(let generated, _): .terminating(generated: generated, keptAlive: keptAlive)
        case .terminated(let generated, _): .terminated(generated: generated, keptAlive: keptAlive)
        case .disposing(_, let wasTerminated): .disposing(keptAlive: keptAlive, wasTerminated: wasTerminated)
        case .disposed: .disposed(keptAlive: keptAlive)
        }
    }
}
