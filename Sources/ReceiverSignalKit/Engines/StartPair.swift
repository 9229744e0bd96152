/// One start of an operator that runs a second signal once the first has ended (`then`, `catch`):
/// what the start returns, disposing both starts, and the downstream's handlers for what the
/// operator itself passes on.
///
/// The first signal's values go to the downstream directly, as `map`'s do: that start already
/// serialises them and stops them when disposed. What the operator passes on itself — the second
/// signal's events, and the first's terminal event — goes through this object, which drops it once
/// the start is disposed: the second signal may start, and send synchronously, while the start is
/// being disposed on another thread, or from inside its own generator. A terminal event releases
/// the handlers and then disposes both starts, as a `Subscriber`'s does.
///
/// The signals' handlers do not hold this object: they hold its ``Sender``, which holds it. So
/// once both sources have let go of their subscribers (`never()` does at once) without ending,
/// the sender is released, and it releases the downstream's handlers, as a plain start's
/// subscriber does when its source lets go of it. Without that, handlers that hold the start
/// (`get()`'s do, through a `MetaDisposable`) would hold this object, which holds them: nothing
/// would ever be released, and `get()` would wait for good instead of stopping with its message.
/// The starts themselves stay, to be disposed when this is.
///
///     then / catch start ──▶ StartPair ──▶ first, second (the starts) ──▶ their handlers
///                              ▲   │                                        │
///                              │   └──▶ downstream handlers                 ▼
///                              └────────────────────────────────────── Sender
///
/// Thread-safe: its lock is the object's stripe of the lock table; no handler is called and nothing
/// is released under it (what a locked section takes out is released after unlocking). The second
/// start may be set before the first: a first signal that ends synchronously starts the second
/// inside its own `start`. After `dispose()`, a start set in either slot is disposed at once.
@usableFromInline final class StartPair<T, E>: Disposable, @unchecked Sendable {
    /// Only touched under the lock (which also makes the exclusivity check redundant).
    @exclusivity(unchecked) @usableFromInline var first: (any Disposable)?, second: (any Disposable)?
    @exclusivity(unchecked) @usableFromInline var isDisposed = false
    /// `nil` once the start has ended or been disposed.
    @exclusivity(unchecked) @usableFromInline var next: ((T) -> Void)?, error: ((E) -> Void)?,
        completed: (() -> Void)?

    @inlinable init(next: ((T) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?) {
        (self.next, self.error, self.completed) = (next, error, completed)
    }

    /// What the signals' handlers hold to reach the pair: both signals' (the second's handlers are
    /// made by the first's). When the last of them is released, no event can come any more.
    @usableFromInline final class Sender: @unchecked Sendable {
        @usableFromInline let pair: StartPair

        @inlinable init(_ pair: StartPair) { self.pair = pair }

        deinit { pair.sendersGone() }
    }

    /// Nothing can send any more: releases the downstream's handlers, as a subscriber does when
    /// its source lets go of it. The starts stay, for `dispose()`.
    @usableFromInline func sendersGone() {
        let lock = StripedLock(for: self)
        lock.lock()
        var next = next, error = error, completed = completed
        (self.next, self.error, self.completed) = (nil, nil, nil)
        lock.unlock()
        (next, error, completed) = (nil, nil, nil)  // released here
        _ = (next, error, completed)
    }

    /// Holds the first signal's start; disposes it at once if the pair is disposed.
    @inlinable func setFirst(_ disposable: any Disposable) {
        let isRefused = StripedLock(for: self).withLock { () -> Bool in
            guard !isDisposed else { return true }
            first = disposable
            return false
        }
        if isRefused { disposable.dispose() }
    }

    /// Holds the second signal's start; disposes it at once if the pair is disposed.
    @inlinable func setSecond(_ disposable: any Disposable) {
        let isRefused = StripedLock(for: self).withLock { () -> Bool in
            guard !isDisposed else { return true }
            second = disposable
            return false
        }
        if isRefused { disposable.dispose() }
    }

    // The handlers are copied out between `lock()` and `unlock()`, not returned from `withLock`:
    // a closure returned through a generic function comes back at its unsubstituted abstraction,
    // which costs a reabstraction thunk (an allocation) per handler.

    /// Passes `value` on, unless the start has ended or been disposed.
    @inlinable func putNext(_ value: T) {
        let lock = StripedLock(for: self)
        lock.lock()
        var next = next
        lock.unlock()
        next?(value)
        next = nil  // released before returning, not later by the caller
    }

    /// Passes `failure` on and ends the start, unless it has ended or been disposed.
    @inlinable func putError(_ failure: E) {
        let lock = StripedLock(for: self)
        lock.lock()
        var next = next, error = error, completed = completed
        (self.next, self.error, self.completed) = (nil, nil, nil)
        lock.unlock()
        (next, completed) = (nil, nil)
        error?(failure)
        error = nil
        _ = (next, error, completed)
        dispose()  // the start has ended: as a `Subscriber` does, it disposes what it started
    }

    /// Passes the completion on and ends the start, unless it has ended or been disposed.
    @inlinable func putCompletion() {
        let lock = StripedLock(for: self)
        lock.lock()
        var next = next, error = error, completed = completed
        (self.next, self.error, self.completed) = (nil, nil, nil)
        lock.unlock()
        (next, error) = (nil, nil)
        completed?()
        completed = nil
        _ = (next, error, completed)
        dispose()  // the start has ended: as a `Subscriber` does, it disposes what it started
    }

    @inlinable func dispose() {
        let lock = StripedLock(for: self)
        lock.lock()
        isDisposed = true
        var first = first, second = second
        var next = next, error = error, completed = completed
        (self.first, self.second) = (nil, nil)
        (self.next, self.error, self.completed) = (nil, nil, nil)
        lock.unlock()
        first?.dispose()
        second?.dispose()
        (first, second) = (nil, nil)
        (next, error, completed) = (nil, nil, nil)  // released here
        _ = (first, second, next, error, completed)
    }
}
