// The loop the restarting operators (`restart`, `recurse`, `retry`, `restartIfError`,
// `restartOrMapError`, `feedbackLoop`) run their source through. It sits with the Signal core
// because the core drives it: a loop that pauses on a subscription being made is resumed once that
// subscription's generator returns (SubscriptionsBeingMade.swift).
//
// - A source that ends synchronously asks for its restart inside its `start`: the loop notes it
//   and starts again once `start` returns — turns of a loop, not stack frames.
// - The loop is its subscriber's disposable before its first turn, so whatever ends that
//   subscription stops it; and while it is being made, it pauses once a subscription around it
//   has ended, and resumes when that one's generator returns, unless its end disposed the loop.
// - A loop that restarts synchronously with nothing around it able to end it stops the program
//   after `synchronousLimit` turns with a message, instead of spinning (not `feedbackLoop`'s).

/// Starts a source again each time one of its handlers calls ``request()``, in a loop on the
/// thread that asked (never recursively), until ``dispose()``.
///
/// The step that starts the source is released on `dispose()`, which breaks the cycle between this
/// object and the handlers the step makes (they capture it to call `request()`).
@usableFromInline final class Restarts: Disposable {
    /// Starts the source once, with handlers that may call `request()` on the object passed in;
    /// returns what stops that start, or `nil` when there is nothing to start.
    @usableFromInline typealias Step = (Restarts) -> (any Disposable)?

    /// How many starts one loop makes in a row, each asked for by the one before from inside its
    /// `start`, before it stops the program: ten times the synchronous restarts that overflow
    /// SwiftSignalKit's stack, so no loop that works there reaches it.
    static let synchronousLimit = 100_000

    private struct State {
        var step: Step?  // nil once disposed
        var current: (any Disposable)?
        var isRunning = false  // a thread is in the loop
        var isRequested = false  // a start was requested while it was (or while it was paused)
        var nextPaused: Restarts?  // the next loop paused on the same start being made
    }

    private let state: Locked<State>
    /// Whether the loop stops the program after `synchronousLimit` starts in a row.
    private let isLimited: Bool

    private init(step: @escaping Step, isLimited: Bool) {
        (state, self.isLimited) = (Locked(State(step: step)), isLimited)
    }

    /// Makes the loop, hands it to `subscriber` as what stops its start, and makes the first
    /// start, on this thread. `isLimited`: it stops the program after `synchronousLimit` starts in
    /// a row (not for `feedbackLoop`, whose `once` ends it).
    ///
    /// Handed over before the loop's first turn rather than when the generator returns it: if the
    /// start ends while the loop runs (its subscriber terminates, or the downstream disposes it),
    /// the loop is disposed then, and stops at its next turn instead of running on unseen.
    @usableFromInline static func start<T, E>(
        serving subscriber: Subscriber<T, E>, isLimited: Bool = true, _ step: @escaping Step
    ) -> Restarts {
        let restarts = Restarts(step: step, isLimited: isLimited)
        subscriber.core.assign(restarts)
        restarts.request(around: SubscriptionsBeingMade.innermost)
        return restarts
    }

    /// Starts the source again, after the start that asked has returned. New starts are made
    /// before the previous one is disposed. Does nothing after `dispose()`.
    @usableFromInline func request() { request(around: nil) }

    /// `request()`, for a loop being made inside the starts from `around` outwards (the loop's
    /// own first): it pauses once one of them has ended.
    private func request(around: UnsafeMutableRawPointer?) {
        let isLooping = state.withLock { state in
            guard state.step != nil else { return false }
            guard !state.isRunning else {
                state.isRequested = true
                return false
            }
            state.isRunning = true
            return true
        }
        if isLooping { loop(around: around) }
    }

    /// Resumes the loops paused on a start being made, now that its generator has returned: each
    /// that is still alive and still owes a start makes it, inside the starts around that one.
    @usableFromInline static func resume(_ paused: Restarts) {
        var next: Restarts? = paused
        while let restarts = next {
            let isLooping = restarts.state.withLock { state in
                next = state.nextPaused.take()
                guard state.step != nil, state.isRequested, !state.isRunning else { return false }
                state.isRunning = true
                return true
            }
            if isLooping { restarts.loop(around: SubscriptionsBeingMade.innermost) }
        }
    }

    /// Starts the source for as long as starts are requested while it runs. This thread is the
    /// one running the loop.
    private func loop(around: UnsafeMutableRawPointer?) {
        var again = true
        var turns = 0
        let limit = isLimited ? Self.synchronousLimit : .max
        while again,
            let step = state.withLock({ state in
                state.isRequested = false
                return state.step
            })
        {
            turns += 1
            if turns > limit { Self.stopSpinning() }
            let started = step(self)
            let replaced: (any Disposable)?
            (replaced, again) = state.withLock { state in
                guard state.step != nil else { return (started, false) }  // disposed meanwhile
                defer { state.current = started }
                state.isRunning = state.isRequested
                return (state.current, state.isRequested)
            }
            replaced?.dispose()
            if again, let ended = SubscriptionsBeingMade.innermostEnded(from: around) {
                // Paused: the start owed stays requested, for `resume` or for a later request.
                let paused = ended.pointee.paused.take()
                state.withLock { state in
                    state.isRunning = false
                    state.nextPaused = paused
                }
                ended.pointee.paused = self
                again = false
            }
        }
    }

    /// Stops the program: the loop has restarted its source `synchronousLimit` times in a row.
    private static func stopSpinning() -> Never {
        fatalError(
            "A restart loop (restart, recurse, restartIfError or restartOrMapError) started its source "
                + "\(synchronousLimit) times in a row, each start asked for by the one before from inside its start, "
                + "and nothing around it can stop it: an operator after it that waits for another input or a timer "
                + "(combineLatest, timeout) only starts once the loop returns. Make the source asynchronous (deliverOn), "
                + "or end the loop right after it (take, take(until:))"
        )
    }

    /// Starts the source again after `delay` seconds, on `queue` (always asynchronously).
    @usableFromInline func request(after delay: Double, on queue: Queue) {
        queue.after(delay) { self.request() }
    }

    /// Disposes the current start and stops restarting.
    @usableFromInline func dispose() {
        let (current, step) = state.withLock { state in (state.current.take(), state.step.take()) }
        current?.dispose()
        _ = step  // released here, after unlocking
    }
}
