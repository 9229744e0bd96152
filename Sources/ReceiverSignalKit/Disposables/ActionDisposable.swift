/// A disposable that runs a closure once, on the first `dispose()`.
///
/// ```swift
/// let disposable = ActionDisposable { print("stopped") }
/// disposable.dispose()   // prints "stopped"
/// disposable.dispose()   // does nothing
/// ```
///
/// One object holding the closure: its lock comes from the library's lock table, so it costs no
/// memory, and `dispose()` is specialised in your module.
///
/// > Note: `action` runs on the thread that calls `dispose()` first, outside any lock, and is
/// > released right after it ran. A second `dispose()` racing the first returns at once, possibly
/// > before `action` has finished on the other thread.
public final class ActionDisposable: Disposable {
    /// Only ever touched under the object's stripe of the lock table (`StripedLock`), which also
    /// makes the exclusivity check redundant. `nil` once taken by `dispose()`.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var action: Action?

    /// The closure in a struct: a closure returned as `withLock`'s generic result would be
    /// re-abstracted through a thunk, which allocates on every call.
    @usableFromInline struct Action {
        @usableFromInline let run: () -> Void
        @inlinable init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Makes a disposable that runs `action` on its first `dispose()`.
    ///
    /// ```swift
    /// let timer = ActionDisposable { clock.stop() }
    /// ```
    ///
    /// - Parameter action: What to run; it is released once it ran.
    @inlinable public init(action: @escaping () -> Void) {
        self.action = Action(action)
    }

    /// Runs the action if no `dispose()` ran it before.
    ///
    /// ```swift
    /// disposable.dispose()   // runs the action once
    /// ```
    @inlinable public func dispose() {
        // Taken out under the lock; run, then released, after unlocking.
        StripedLock(for: self).withLock { action.take() }?.run()
    }
}
