/// What a ``ThreadPoolTask``'s action can see of its task: whether it has been cancelled.
///
/// ```swift
/// let task = ThreadPoolTask { state in
///     for chunk in chunks {
///         if state.cancelled.with({ $0 }) { return }   // stop early once cancelled
///         process(chunk)
///     }
/// }
/// ```
public final class ThreadPoolTaskState: Sendable {
    /// Whether the task's `cancel()` has been called.
    ///
    /// ```swift
    /// if state.cancelled.with({ $0 }) { return }
    /// ```
    public let cancelled = Atomic<Bool>(value: false)

    init() {}
}

/// A unit of work for a ``ThreadPool``: runs its action once on a pool thread, unless it was
/// cancelled before that.
///
/// ```swift
/// let task = ThreadPoolTask { state in resize(image) }
/// pool.addTask(task)
/// task.cancel()   // resize never runs if no thread has started the task yet
/// ```
///
/// > Note: The action is an ordinary closure, as in SwiftSignalKit: it runs on a pool thread, and
/// > the caller answers for what it touches there.
public final class ThreadPoolTask: Sendable {
    private let state = ThreadPoolTaskState()
    // Called once, on a pool thread; `nonisolated(unsafe)` only because it is an ordinary,
    // non-`@Sendable` closure (as `Queue.async` takes one).
    private nonisolated(unsafe) let action: (ThreadPoolTaskState) -> Void

    /// Makes a task that runs `action` when a pool thread gets to it.
    ///
    /// ```swift
    /// let task = ThreadPoolTask { state in
    ///     guard !state.cancelled.with({ $0 }) else { return }
    ///     decode(data)
    /// }
    /// ```
    ///
    /// - Parameter action: The work; it receives the task's state, to check for cancellation.
    public init(_ action: @escaping (ThreadPoolTaskState) -> Void) {
        self.action = action
    }

    /// Cancels the task: it is skipped if no thread has started it yet, and a running action can
    /// see it through `state.cancelled`.
    ///
    /// ```swift
    /// task.cancel()
    /// ```
    public func cancel() {
        state.cancelled.swap(true)
    }

    /// Runs the action unless the task was cancelled.
    func execute() {
        if !state.cancelled.with({ $0 }) { action(state) }
    }
}
