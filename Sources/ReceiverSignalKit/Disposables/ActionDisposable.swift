/// A disposable that runs a closure once, on the first `dispose()`.
///
/// ```swift
/// let disposable = ActionDisposable { print("stopped") }
/// disposable.dispose()   // prints "stopped"
/// disposable.dispose()   // does nothing
/// ```
///
/// > Note: `action` runs on the thread that calls `dispose()` first, outside any lock, and is
/// > released right after it ran. A second `dispose()` racing the first returns at once, possibly
/// > before `action` has finished on the other thread.
public final class ActionDisposable: Disposable {
    private let action: Locked<(() -> Void)?>

    /// Makes a disposable that runs `action` on its first `dispose()`.
    ///
    /// ```swift
    /// let timer = ActionDisposable { clock.stop() }
    /// ```
    ///
    /// - Parameter action: What to run; it is released once it ran.
    public init(action: @escaping () -> Void) {
        self.action = Locked(action)
    }

    /// Runs the action if no `dispose()` ran it before.
    ///
    /// ```swift
    /// disposable.dispose()   // runs the action once
    /// ```
    public func dispose() {
        action.withLock { $0.take() }?()
    }
}
