/// The disposable of a start that happens later, or never: `runOn`'s start on another queue or
/// pool thread, `delay`'s start when its timer fires.
///
/// Disposing it before ``start(_:)`` prevents the start, and invalidates the timer it waits for;
/// disposing it after disposes what was started. Every transition happens under one lock, and
/// whatever a transition lets go of (a timer, whose completion holds the upstream signal; a
/// started disposable) is released after unlocking.
@usableFromInline final class DeferredSubscription: Disposable {
    private enum State {
        /// Not started; the timer that will start it, if any.
        case waiting(Timer?)
        case started(any Disposable)
        case disposed
    }

    private let state = Locked(State.waiting(nil))

    @usableFromInline init() {}

    /// Makes `timer` the one the start waits for, invalidating the one it replaces.
    ///
    /// - Returns: `false` if the start was disposed or has happened: then `timer` should not run.
    @usableFromInline func replaceTimer(with timer: Timer) -> Bool {
        let replaced = state.withLock { state -> State? in
            guard case .waiting = state else { return nil }
            defer { state = .waiting(timer) }
            return state
        }
        guard let replaced else { return false }
        if case .waiting(let previous?) = replaced { previous.invalidate() }
        return true
    }

    /// Runs `body` and keeps the disposable it returns, unless the start was disposed or has
    /// happened already. If it is disposed while `body` runs, what `body` returns is disposed.
    /// Called at most once per start (by the one block or timer that starts it).
    @usableFromInline func start(_ body: () -> any Disposable) {
        let isWaiting = state.withLock { state in
            if case .waiting = state { return true }
            return false
        }
        guard isWaiting else { return }
        let started = body()
        // The replaced state (holding the timer) is returned only to be dropped here.
        let (_, late) = state.withLock { state -> (State?, (any Disposable)?) in
            guard case .waiting = state else { return (nil, started) }
            defer { state = .started(started) }
            return (state, nil)
        }
        late?.dispose()
    }

    /// Prevents the start (invalidating its timer), or disposes what was started.
    @usableFromInline func dispose() {
        let replaced = state.withLock { state in
            defer { state = .disposed }
            return state
        }
        switch replaced {
        case .waiting(let timer): timer?.invalidate()
        case .started(let disposable): disposable.dispose()
        case .disposed: break
        }
    }
}
