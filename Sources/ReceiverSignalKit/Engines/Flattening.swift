#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

// The engine behind the flattening operators of Signal+Meta.swift (`switchToLatest`, `queue`,
// `throttled`, the `mapTo…` forms): one `Flattening` per subscription. The outer's and the inners'
// events go through one ``Serializer``, so one thread at a time handles them and calls the
// downstream, never nested; events of a replaced inner (an older generation) are dropped. The
// "window" keeps SwiftSignalKit's order without nesting: while the deliverer starts an inner, what
// that inner sends synchronously on the deliverer's thread is handled at once; once anything of it
// comes from another thread, all of it goes through the serializer.
//
//     Flattening (returned) ──▶ outer subscription ──▶ its handlers ──▶ Sender ──▶ Flattening
//            └──▶ current inner subscription ──▶ its handlers ──▶ Inner ──▶ Sender
//
// A terminal event or `dispose()` breaks the cycles, disposing the inner and the outer; once every
// source has let go of its `Sender`, nothing can send, and the downstream's handlers are released.

/// One start of a flattening operator, and the disposable it returns: `dispose()` stops the
/// handlers (none is called after it returns), then disposes the current inner, then the outer.
///
/// `shared` is reached under the lock (a `StripedLock`), which releases nothing; the rest belongs
/// to the deliverer (and to an inner's handlers within its window, on the deliverer's thread), and,
/// once the start is disposed with no deliverer, to `dispose()`. `@unchecked Sendable` for that.
@usableFromInline final class Flattening<R, E>: Disposable, @unchecked Sendable {
    /// What the outer and the inner starts send.
    @usableFromInline enum Event {
        case signal(Signal<R, E>)
        case outerFailed(E)
        case outerCompleted
        case next(UInt, R)
        case innerFailed(UInt, E)
        case innerCompleted(UInt)
    }

    /// What happens to an inner signal that arrives while another runs.
    @usableFromInline enum Mode {
        /// It replaces the running one (`switchToLatest`).
        case switching
        /// It waits its turn in a FIFO (`queue`).
        case queueing
        /// It waits, replacing any inner already waiting (`throttled`).
        case throttling
    }

    /// An inner being started on `thread`, the deliverer's: what it sends there is handled at once.
    private struct Window {
        let generation: UInt
        let thread: pthread_t
        /// Something of this inner went through the serializer: the rest must follow it there.
        var isBypassed = false
        var hasCompleted = false
    }

    /// What the lock guards.
    @usableFromInline struct Shared {
        @usableFromInline var serializer = Serializer<Event>()
        @usableFromInline var outer: (any Disposable)?, inner: (any Disposable)?
        @usableFromInline var isDisposed = false
        /// The start function has not returned: an end is torn down when it does.
        @usableFromInline var isStarting = true
        @usableFromInline var hasEnded = false
        /// The downstream's handlers have been let go of (`releaseHandlers`).
        @usableFromInline var isReleased = false

        @inlinable init() {}
    }

    @usableFromInline let mode: Mode
    @exclusivity(unchecked) @usableFromInline var shared = Shared()
    /// The inner being started, if any; under the lock too.
    @exclusivity(unchecked) private var window: Window?
    // The deliverer's. No access to them calls out while it lasts, so the run-time exclusivity
    // checks of a class's stored `var` would check nothing.
    @exclusivity(unchecked) @usableFromInline var next: ((R) -> Void)?, error: ((E) -> Void)?,
        completed: (() -> Void)?
    /// The current inner's generation: events of any other are dropped.
    @exclusivity(unchecked) @usableFromInline var generation: UInt = 0
    @exclusivity(unchecked) @usableFromInline var isInnerRunning = false, isOuterCompleted = false
    /// The downstream has had its terminal event: nothing more is passed on.
    @exclusivity(unchecked) @usableFromInline var isEnded = false
    @exclusivity(unchecked) @usableFromInline var waiting: ArraySlice<Signal<R, E>> = []

    @inlinable init(mode: Mode, next: ((R) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?) {
        self.mode = mode
        (self.next, self.error, self.completed) = (next, error, completed)
    }

    /// A signal whose every start makes a `Flattening` and starts the outer signal with
    /// `startOuter`, whose handlers send `.signal`, `.outerFailed` and `.outerCompleted`.
    @inlinable static func signal(_ mode: Mode, startOuter: @escaping (Sender) -> any Disposable) -> Signal<R, E> {
        Signal(start: { next, error, completed in
            let flattening = Flattening(mode: mode, next: next, error: error, completed: completed)
            flattening.set(outer: startOuter(Sender(flattening)))
            flattening.finishStarting()
            return flattening
        })
    }

    /// What the sources' handlers hold to reach the flattening: when the last is released, no
    /// event can come any more, and the downstream's handlers are let go of.
    @usableFromInline final class Sender {
        @usableFromInline let flattening: Flattening

        @inlinable init(_ flattening: Flattening) { self.flattening = flattening }

        /// Sends `event` to the flattening.
        @inlinable func send(_ event: Event) { flattening.send(event, from: self) }

        deinit { flattening.releaseHandlers() }
    }

    /// Handles `event` on this thread, or leaves it to the thread handling one; drops it once the
    /// start is disposed. `sender` is the caller's, for the inners this thread starts.
    @inlinable func send(_ event: Event, from sender: Sender) {
        let lock = StripedLock(for: self)
        guard lock.withLock({ !shared.isDisposed && shared.serializer.admit(event) }) else { return }
        var event = event
        while true {
            receive(event, from: sender)
            var dropped: DrainQueue<Event>?  // what a disposal left waiting, released after unlocking
            let following = lock.withLock { () -> Event? in
                guard !shared.isDisposed else {
                    dropped = shared.serializer.stop()
                    return nil
                }
                return shared.serializer.next()
            }
            guard let following else {
                if dropped != nil { releaseHandlers() }  // disposed while this thread delivered
                return
            }
            event = following
        }
    }

    @inlinable func receive(_ event: Event, from sender: Sender) {
        guard !isEnded else { return }
        switch event {
        case .signal(let signal):
            guard mode != .switching, isInnerRunning else { return run(signal, from: sender) }
            if mode == .throttling { waiting = [signal] } else { waiting.append(signal) }
        case .next(let from, let value):
            if from == generation { next?(value) }
        case .innerFailed(let from, let failure):
            if from == generation { fail(failure) }
        case .innerCompleted(let from):
            guard from == generation, let following = innerCompleted() else { return }
            run(following, from: sender)
        case .outerFailed(let failure):
            fail(failure)
        case .outerCompleted:
            isOuterCompleted = true
            if !isInnerRunning { finish() }
        }
    }

    /// Starts `signal` as the current inner, then disposes the inner it replaces; an inner that
    /// completed while it was being started is followed by the next waiting one, in this loop.
    @inlinable func run(_ signal: Signal<R, E>, from sender: Sender) {
        var following: Signal<R, E>? = signal
        while let signal = following.take(), !isEnded {
            generation &+= 1
            isInnerRunning = true
            openWindow(for: generation)
            // One object for the three handlers: each closure captures only it, so none needs a
            // context of its own.
            let handlers = Inner(of: sender)
            let inner = signal.start(
                next: { handlers.next($0) }, error: { handlers.failed($0) }, completed: { handlers.completed() })
            if closeWindow(replacingInnerWith: inner) { following = innerCompleted() }
        }
    }

    /// The handlers of one inner start: its events are handled at once in its window, and
    /// otherwise sent through the serializer.
    @usableFromInline final class Inner {
        @usableFromInline let sender: Sender
        @usableFromInline let generation: UInt

        @inlinable init(of sender: Sender) {
            (self.sender, generation) = (sender, sender.flattening.generation)
        }

        @inlinable func next(_ value: R) {
            let flattening = sender.flattening
            guard flattening.claimWindow(for: generation) else { return sender.send(.next(generation, value)) }
            if !flattening.isEnded { flattening.next?(value) }
        }

        @inlinable func failed(_ failure: E) {
            guard sender.flattening.claimWindow(for: generation) else {
                return sender.send(.innerFailed(generation, failure))
            }
            sender.flattening.fail(failure)
        }

        @inlinable func completed() {
            guard sender.flattening.claimWindow(for: generation, completing: true) else {
                return sender.send(.innerCompleted(generation))
            }
        }
    }

    /// The current inner has completed: the next waiting inner to run, if any; otherwise the
    /// start completes if the outer has.
    @inlinable func innerCompleted() -> Signal<R, E>? {
        isInnerRunning = false
        if let following = waiting.popFirst() {
            if waiting.isEmpty { waiting = [] }  // let the drained buffer go
            return following
        }
        if isOuterCompleted { finish() }
        return nil
    }

    @inlinable func fail(_ failure: E) {
        guard !isEnded else { return }
        isEnded = true
        error?(failure)
        end()
    }

    @inlinable func finish() {
        guard !isEnded else { return }
        isEnded = true
        completed?()
        end()
    }

    /// Lets go of the downstream's handlers and the inners waiting, once: by the deliverer
    /// stopping at a disposal, by `dispose()` when nobody delivers, or when no source can send.
    @usableFromInline func releaseHandlers() {
        let isFirst = StripedLock(for: self).withLock {
            defer { shared.isReleased = true }
            return !shared.isReleased
        }
        guard isFirst else { return }
        (next, error, completed) = (nil, nil, nil)
        waiting = []
    }

    /// Keeps `outer`, the outer start; after `dispose()`, disposes it at once instead.
    @usableFromInline func set(outer: any Disposable) {
        let refused = StripedLock(for: self).withLock { () -> (any Disposable)? in
            guard !shared.isDisposed else { return outer }
            shared.outer = outer
            return nil
        }
        refused?.dispose()
    }

    /// The start function has returned: a start that ended meanwhile is torn down now.
    @usableFromInline func finishStarting() {
        let hasEnded = StripedLock(for: self).withLock {
            shared.isStarting = false
            return shared.hasEnded
        }
        if hasEnded { dispose() }
    }

    /// The downstream has had its terminal event: tears the start down, or notes it for
    /// `finishStarting()` while the start is being made.
    @usableFromInline func end() {
        let isStarting = StripedLock(for: self).withLock {
            shared.hasEnded = true
            return shared.isStarting
        }
        if !isStarting { dispose() }
    }

    @usableFromInline func openWindow(for generation: UInt) {
        let thread = pthread_self()
        StripedLock(for: self).withLock { window = Window(generation: generation, thread: thread) }
    }

    /// Claims inner `generation`'s window for one of its events, on this thread, and returns true:
    /// the event is handled at once. Only in that inner's window, on the deliverer's thread, while
    /// nothing of it went through the serializer; otherwise returns false and marks the window
    /// bypassed, so that this event and the rest of this inner's go through the serializer. A
    /// completion claimed (`completing`) is noted for `closeWindow`.
    @usableFromInline func claimWindow(for generation: UInt, completing: Bool = false) -> Bool {
        let thread = pthread_self()
        return StripedLock(for: self).withLock {
            guard var claimed = window, claimed.generation == generation else { return false }
            defer { window = claimed }
            guard !claimed.isBypassed, !shared.isDisposed, pthread_equal(claimed.thread, thread) != 0 else {
                claimed.isBypassed = true
                return false
            }
            claimed.hasCompleted = claimed.hasCompleted || completing
            return true
        }
    }

    /// Ends the window, makes `inner` the current inner and disposes the one it replaces (after
    /// the new one started); after `dispose()`, disposes `inner` instead.
    /// - Returns: Whether the inner completed within its window.
    @usableFromInline func closeWindow(replacingInnerWith inner: any Disposable) -> Bool {
        let (replaced, hasCompleted) = StripedLock(for: self).withLock { () -> ((any Disposable)?, Bool) in
            defer { window = nil }
            guard !shared.isDisposed else { return (inner, false) }
            defer { shared.inner = inner }
            return (shared.inner, window?.hasCompleted == true)
        }
        replaced?.dispose()
        return hasCompleted
    }

    @usableFromInline func dispose() {
        let (starts, isDelivering) = StripedLock(for: self).withLock {
            () -> ((outer: (any Disposable)?, inner: (any Disposable)?)?, Bool) in
            guard !shared.isDisposed else { return (nil, true) }
            shared.isDisposed = true
            defer { (shared.outer, shared.inner) = (nil, nil) }
            return ((shared.outer, shared.inner), shared.serializer.isDelivering)
        }
        guard let starts else { return }
        if !isDelivering { releaseHandlers() }  // otherwise the deliverer does, as it stops
        starts.inner?.dispose()
        starts.outer?.dispose()
    }
}
