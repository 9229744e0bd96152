#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

// The engine behind the flattening operators of Signal+Meta.swift (`switchToLatest`, `queue`,
// `throttled` and the `mapTo…` forms).
//
// Per start, the outer signal's events and the inner signals' events are broadcast into one `.hot`
// pair, and its single listener owns the state (which inner is current, whether the outer has
// completed, the inners waiting) and calls the downstream handlers. The pair serialises that
// listener, so that state needs no lock and no user code runs under one; an event broadcast while
// the listener runs (from another thread, or from the downstream's own handler) is queued behind
// it, never nested. Each inner's events carry its generation: the listener drops those of an inner
// it has replaced, so nothing of a replaced inner reaches the downstream after the switch.
//
// One exception keeps SwiftSignalKit's order without nesting: while the listener is starting an
// inner, what that inner sends synchronously, on the listener's own thread, is handled at once
// rather than queued — so a synchronous inner's value reaches the downstream before the inner is
// disposed, and its completion starts the next inner once its `start` has returned, as in
// SwiftSignalKit. That is not nesting: the listener is inside `start`, not inside a downstream
// handler. Events of that inner from any other thread go through the pair, and from then on so do
// all of its events, so they keep their order. The other orders below are SwiftSignalKit's too: a
// new inner is started before the one it replaces is disposed, and a start that ends while it is
// being made is torn down once it has returned.
//
// Ownership of one start (`Signal(start:)`: the pair is the start's only serialiser, so it needs no
// `Subscriber` of its own):
//
//     FlatteningStart ──▶ listener of the pair ──▶ Flattening ──▶ downstream handlers
//       │  (returned)                                  └──unowned──▶ Transmitter
//       ├──▶ outer start ──▶ its handlers ──▶ Transmitter ──▶ Receiver (pair state) ──▶ listener
//       └──▶ current inner start ──▶ its handlers ──▶ Inner ──▶ Transmitter, FlatteningStart
//
// The cycles through the starts' handlers are broken when the start ends: a terminal event or
// `dispose()` disposes the listener, the current inner and the outer (in that order).

/// One start of a flattening operator: the state its pair's listener owns.
@usableFromInline final class Flattening<R, E> {
    /// What the outer and the inner starts broadcast into the pair.
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

    @usableFromInline let mode: Mode
    /// Unowned: the pair's state holds this object (through the listener), so a strong reference
    /// would be a cycle that outlives every start feeding the pair. The listener only runs inside
    /// a `broadcast`, which keeps the transmitter alive.
    @usableFromInline unowned let transmitter: Receiver<Event>.Transmitter
    @usableFromInline let start: FlatteningStart
    @usableFromInline let next: ((R) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?
    // The state below is only touched by the pair's listener and by an inner's handlers while
    // its start's window is open, one at a time; no access to it calls out while it lasts. So the
    // run-time exclusivity checks a class's stored `var` gets (five a value, about 40
    // instructions each) check nothing: `@exclusivity(unchecked)`.
    /// The current inner's generation: events of any other are dropped.
    @exclusivity(unchecked) @usableFromInline var generation: UInt = 0
    @exclusivity(unchecked) @usableFromInline var isInnerRunning = false, isOuterCompleted = false
    /// The downstream has had its terminal event: nothing more is passed on.
    @exclusivity(unchecked) @usableFromInline var isEnded = false
    @exclusivity(unchecked) @usableFromInline var waiting: ArraySlice<Signal<R, E>> = []

    @inlinable init(
        mode: Mode, transmitter: Receiver<Event>.Transmitter, start: FlatteningStart, next: ((R) -> Void)?,
        error: ((E) -> Void)?, completed: (() -> Void)?
    ) {
        (self.mode, self.transmitter, self.start) = (mode, transmitter, start)
        (self.next, self.error, self.completed) = (next, error, completed)
    }

    /// A signal whose every start makes a pair, listens to it, and calls `startOuter` with its
    /// transmitter: the outer start broadcasts `.signal`, `.outerFailed` and `.outerCompleted`.
    @inlinable static func signal(_ mode: Mode, startOuter: @escaping (Receiver<Event>.Transmitter) -> any Disposable)
        -> Signal<R, E>
    {
        Signal(start: { next, error, completed in
            let (transmitter, receiver) = Receiver<Event>.make()
            let start = FlatteningStart()
            let state = Flattening(
                mode: mode, transmitter: transmitter, start: start, next: next, error: error, completed: completed)
            start.set(receiver.listen { state.receive($0) }, as: .listening)
            start.set(startOuter(transmitter), as: .outer)
            start.finishStarting()
            return start
        })
    }

    @inlinable func receive(_ event: Event) {
        guard !isEnded else { return }
        switch event {
        case .signal(let signal):
            guard mode != .switching, isInnerRunning else { return run(signal) }
            if mode == .throttling { waiting = [signal] } else { waiting.append(signal) }
        case .next(let from, let value):
            if from == generation { next?(value) }
        case .innerFailed(let from, let failure):
            if from == generation { fail(failure) }
        case .innerCompleted(let from):
            guard from == generation, let following = innerCompleted() else { return }
            run(following)
        case .outerFailed(let failure):
            fail(failure)
        case .outerCompleted:
            isOuterCompleted = true
            if !isInnerRunning { finish() }
        }
    }

    /// Starts `signal` as the current inner, then disposes the inner it replaces; an inner that
    /// completed while it was being started is followed by the next waiting one, in this loop.
    @inlinable func run(_ signal: Signal<R, E>) {
        var following: Signal<R, E>? = signal
        while let signal = following.take(), !isEnded {
            generation &+= 1
            isInnerRunning = true
            start.openWindow(for: generation)
            // One object for the three handlers: each closure captures only it, so none needs a
            // context of its own.
            let handlers = Inner(of: self)
            let inner = signal.start(
                next: { handlers.next($0) }, error: { handlers.failed($0) }, completed: { handlers.completed() })
            if start.closeWindow(replacingInnerWith: inner) { following = innerCompleted() }
        }
    }

    /// What the handlers of one inner start need: its generation, the start's window and the pair.
    /// An inner's event is handled at once in its window (see the top of Flattening.swift), and
    /// otherwise broadcast into the pair.
    @usableFromInline final class Inner {
        /// Unowned, as the inner's handlers were: the listener owns the state, and these handlers
        /// only reach it within the window, while the listener runs.
        @usableFromInline unowned let state: Flattening
        @usableFromInline let generation: UInt
        @usableFromInline let start: FlatteningStart
        @usableFromInline let transmitter: Receiver<Event>.Transmitter

        @inlinable init(of state: Flattening) {
            (self.state, generation, start, transmitter) = (state, state.generation, state.start, state.transmitter)
        }

        @inlinable func next(_ value: R) {
            guard start.claimWindow(for: generation) else { return transmitter.broadcast(.next(generation, value)) }
            if !state.isEnded { state.next?(value) }
        }

        @inlinable func failed(_ failure: E) {
            guard start.claimWindow(for: generation) else {
                return transmitter.broadcast(.innerFailed(generation, failure))
            }
            state.fail(failure)
        }

        @inlinable func completed() {
            guard start.claimWindow(for: generation, completing: true) else {
                return transmitter.broadcast(.innerCompleted(generation))
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
        start.end()
    }

    @inlinable func finish() {
        guard !isEnded else { return }
        isEnded = true
        completed?()
        start.end()
    }
}

/// What a flattening start holds — its listener, its outer start and its current inner start —
/// and the window in which an inner is being started. It is what the start returns: `dispose()`
/// stops the listener (so no handler is called after it returns), then disposes the current inner,
/// then the outer.
///
/// As a `Subscriber` does for a generator, it defers its end while the start is still being made:
/// a start that ends before it has returned (its outer failed synchronously, say) is torn down when
/// it returns, after whatever ended meanwhile.
///
/// Its lock is a `StripedLock`; locked sections only move state in or out, and what they let go
/// of is disposed after unlocking. `@unchecked Sendable`: `state` is only reached under that lock.
@usableFromInline final class FlatteningStart: Disposable, @unchecked Sendable {
    @usableFromInline enum Slot { case listening, outer }

    /// An inner being started on `thread`, which is the listener's: what it sends on that thread
    /// is handled at once (see Flattening.swift).
    private struct Window {
        let generation: UInt
        let thread: pthread_t
        /// Something of this inner went through the pair: the rest must follow it there.
        var isBypassed = false
        var hasCompleted = false
    }

    private struct State {
        var listening: (any Disposable)?, outer: (any Disposable)?, inner: (any Disposable)?
        var window: Window?
        var isDisposed = false
        var isStarting = true
        var hasEnded = false
    }

    @exclusivity(unchecked) private var state = State()

    @usableFromInline init() {}

    private func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        StripedLock(for: self).withLock { body(&state) }
    }

    /// Puts `disposable` in `slot`; after `dispose()`, disposes it at once instead.
    @usableFromInline func set(_ disposable: any Disposable, as slot: Slot) {
        let refused = withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return disposable }
            switch slot {
            case .listening: state.listening = disposable
            case .outer: state.outer = disposable
            }
            return nil
        }
        refused?.dispose()
    }

    /// The start function has returned: a start that ended meanwhile is torn down now.
    @usableFromInline func finishStarting() {
        let hasEnded = withLock { state in
            state.isStarting = false
            return state.hasEnded
        }
        if hasEnded { dispose() }
    }

    /// The downstream has had its terminal event: tears the start down, or notes it for
    /// `finishStarting()` while the start is being made.
    @usableFromInline func end() {
        let isStarting = withLock { state in
            state.hasEnded = true
            return state.isStarting
        }
        if !isStarting { dispose() }
    }

    @usableFromInline func openWindow(for generation: UInt) {
        let thread = pthread_self()
        withLock { $0.window = Window(generation: generation, thread: thread) }
    }

    /// Claims inner `generation`'s window for one of its events, on this thread, and returns true:
    /// the event is handled at once. Only in that inner's window, on the listener's thread, while
    /// nothing of it went through the pair; otherwise returns false and marks the window bypassed,
    /// so that this event and the rest of this inner's go through the pair. A completion claimed
    /// (`completing`) is noted for `closeWindow`.
    @usableFromInline func claimWindow(for generation: UInt, completing: Bool = false) -> Bool {
        let thread = pthread_self()
        return withLock { state in
            guard var window = state.window, window.generation == generation else { return false }
            defer { state.window = window }
            guard !window.isBypassed, !state.isDisposed, pthread_equal(window.thread, thread) != 0 else {
                window.isBypassed = true
                return false
            }
            window.hasCompleted = window.hasCompleted || completing
            return true
        }
    }

    /// Ends the window, makes `inner` the current inner and disposes the one it replaces (after
    /// the new one started); after `dispose()`, disposes `inner` instead.
    /// - Returns: Whether the inner completed within its window.
    @usableFromInline func closeWindow(replacingInnerWith inner: any Disposable) -> Bool {
        let (replaced, hasCompleted) = withLock { state -> ((any Disposable)?, Bool) in
            defer { state.window = nil }
            guard !state.isDisposed else { return (inner, false) }
            defer { state.inner = inner }
            return (state.inner, state.window?.hasCompleted == true)
        }
        replaced?.dispose()
        return hasCompleted
    }

    @usableFromInline func dispose() {
        let taken = withLock { state -> State in
            defer { state = State(isDisposed: true, isStarting: state.isStarting, hasEnded: state.hasEnded) }
            return state
        }
        guard !taken.isDisposed else { return }
        taken.listening?.dispose()
        taken.inner?.dispose()
        taken.outer?.dispose()
    }
}
