/// A slot for one disposable: setting a new one disposes the one before.
///
/// ```swift
/// let search = MetaDisposable()
/// search.set(results(for: "a").start(next: show))
/// search.set(results(for: "ab").start(next: show))   // disposes the "a" search
/// search.dispose()                                   // disposes the "ab" search
/// search.set(results(for: "abc").start())            // disposed at once
/// ```
///
/// > Note: Thread-safe. Disposables are disposed, and released, outside the lock, on the thread
/// > whose call replaced them (or that called `dispose()`), so their `deinit` may use this
/// > `MetaDisposable` again. Releasing the `MetaDisposable` does not dispose its occupant.
public final class MetaDisposable: Disposable {
    private let state = Locked<(current: (any Disposable)?, isDisposed: Bool)>((nil, false))

    /// Makes an empty slot.
    ///
    /// ```swift
    /// let disposable = MetaDisposable()
    /// ```
    public init() {}

    /// Puts `disposable` in the slot and disposes the one it replaces. After `dispose()`, it
    /// disposes `disposable` at once instead.
    ///
    /// ```swift
    /// meta.set(first)
    /// meta.set(second)   // first.dispose() is called
    /// meta.set(nil)      // second.dispose() is called; the slot is empty
    /// ```
    ///
    /// - Parameter disposable: The new occupant, or `nil` to empty the slot. Setting the current
    ///   occupant again disposes it and keeps it in the slot, as SwiftSignalKit does.
    public func set(_ disposable: (any Disposable)?) {
        let finished = state.withLock { state -> (any Disposable)? in
            guard !state.isDisposed else { return disposable }
            defer { state.current = disposable }
            return state.current
        }
        finished?.dispose()
    }

    /// Disposes the occupant, and every disposable set later.
    ///
    /// ```swift
    /// meta.dispose()
    /// ```
    public func dispose() {
        let finished = state.withLock { state -> (any Disposable)? in
            state.isDisposed = true
            return state.current.take()
        }
        finished?.dispose()
    }
}
