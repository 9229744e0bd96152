/// The two starts of an operator that runs a second signal once the first has ended (`then`,
/// `catch`): what such a start returns, disposing both.
///
/// A `DisposableSet` did this, at two allocations (the set and its buffer); this is one object
/// with a slot each. The second start may be set before the first: a first signal that ends
/// synchronously starts the second inside its own `start`.
///
/// Thread-safe: its lock is the object's stripe of the lock table. After `dispose()`, a start
/// set in either slot is disposed at once. What it holds is disposed after unlocking, first then
/// second.
@usableFromInline final class StartPair: Disposable, @unchecked Sendable {
    /// Only touched under the lock (which also makes the exclusivity check redundant).
    @exclusivity(unchecked) @usableFromInline var first: (any Disposable)?, second: (any Disposable)?
    @exclusivity(unchecked) @usableFromInline var isDisposed = false

    @inlinable init() {}

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

    @inlinable func dispose() {
        var first: (any Disposable)?, second: (any Disposable)?
        StripedLock(for: self).withLock {
            isDisposed = true
            swap(&first, &self.first)
            swap(&second, &self.second)
        }
        first?.dispose()
        second?.dispose()
    }
}
