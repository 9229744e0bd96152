// Observation into a signal: each start reads a closure of `@Observable` properties, now and after
// every change. Built on the core's `Receiver.make(with:observing:isolation:)`, one pair per start.

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Signal where E == NoError {
    /// Makes a signal whose every start sends what `read` returns: once at the start, then again
    /// after every change to an `@Observable` property that `read` read, until it is disposed. It
    /// never completes.
    ///
    /// ```swift
    /// @Observable @MainActor final class SearchModel {
    ///     var query = ""
    ///     var results: [String] = []
    ///     private let search = MetaDisposable()
    ///
    ///     init(api: SearchAPI) {
    ///         search.set(      // `[weak self]`: the model owns the start
    ///             (Signal(observing: { [weak self] in self?.query ?? "" })
    ///                 |> distinctUntilChanged
    ///                 |> mapToSignal { api.search($0) }      // the previous request is disposed
    ///                 |> deliverOnMainQueue)
    ///                 .start(next: { [weak self] in self?.results = $0 }))
    ///     }
    /// }
    /// ```
    ///
    /// After a change, the value sent is the new one, never the old: Observation reports a change
    /// before the property is set (in its `willSet`), so the change schedules a new read instead of
    /// reading on the spot. Each read tracks what it reads, so the set of properties may change
    /// from one read to the next. Changes made together, in one job of the closure's actor, may be
    /// sent as one value. Equal consecutive values are sent as they come: add
    /// ``ReceiverSignalKit/distinctUntilChanged(_:)`` to drop them.
    ///
    /// **The last value.** Observation reports nothing once the new value is stored, so the last
    /// change is always sent for a model whose getter, once the change's `willSet` has been
    /// reported, returns the new value or waits for it:
    /// - a model changed only on `isolation`, the actor `read` runs on: a main-actor view model
    ///   read on main, or any model isolated to that actor (each read is a job of its own there,
    ///   after the job that made the change);
    /// - a thread-safe model whose setter holds its lock around `withMutation(keyPath:)` *and* the
    ///   store, its getter taking the same lock (a read waits for the store).
    ///
    /// A model changed on another thread that stores after `willSet` without such a lock
    /// (`set { withMutation(keyPath: \.x) { lock.withLock { _x = newValue } } }`) may be read in
    /// between: that read sends the old value again, and the new one comes only with the next
    /// change to a property `read` reads. Hold the lock around `withMutation` too, or isolate the
    /// model to an actor.
    ///
    /// > Note: `read` runs on `isolation`, the actor of the code that makes the signal, by default:
    /// > made on the main actor (a view model), it reads, and so sends, on main, in a main-actor
    /// > job of its own after each change — and it must be started on main, where the first read
    /// > happens. Where Swift passes no actor (`#isolation` is `nil` in a `lazy` property's
    /// > initializer, even in a main-actor class), a start on the main queue reads on the main
    /// > actor too. Started elsewhere in nonisolated code, the first read happens on the starting
    /// > thread and the next ones in a task on the global concurrent executor: a model changed on
    /// > another thread meanwhile must then be safe to read there, and locked as above (or isolate
    /// > it to an actor instead); each read runs `read` twice, so that a change made while it runs
    /// > is not missed (such a change may be sent twice).
    ///
    /// Disposing a start stops its reads: nothing is sent after `dispose()` returns (called on
    /// another thread while a value is being sent, it waits for that to end; from inside `read` or
    /// a handler, it returns at once), and `read` is released by that start (each start holds it;
    /// the signal itself holds it as long as it lives).
    ///
    /// - Parameters:
    ///   - read: Reads `@Observable` properties and returns the value to send.
    ///   - isolation: The actor `read` runs on. Leave it out: it is the caller's, which is the
    ///     closure's own. `nil` means the main actor for a start on the main queue.
    /// - Precondition: Each start happens on `isolation`.
    @_disfavoredOverload
    public convenience init(observing read: @escaping () -> T, isolation: (any Actor)? = #isolation) {
        // Disfavoured, so that a trailing closure (`Signal { ... }`) is never taken for `read`: it
        // stays the async initialiser's, or the generator's.
        self.init { subscriber in
            // `.warm(upTo: 1)`: the first read happens in `make`, before there is a listener.
            let (values, feed) = Receiver.make(with: .warm(upTo: 1), observing: read, isolation: isolation)
            let listener = values.listen { subscriber.putNext($0) }
            return ActionDisposable {
                feed.dispose()
                listener.dispose()
            }
        }
    }
}

extension Signal where T: Sendable, E: Error {
    /// Makes a signal whose every start runs `operation` in a new `Task`, then sends its result
    /// and completes, or fails with the error it throws: the async initialiser,
    /// `Signal(priority:operation:)`, for a function that does not suspend.
    ///
    /// ```swift
    /// let answer = Signal<Int, NoError> { 42 }
    /// answer.start(next: { print($0) })   // prints 42, from the task
    /// ```
    ///
    /// It exists so that `Signal { ... }` with a closure that does not `await` keeps meaning this,
    /// and not ``init(observing:isolation:)``: Swift prefers an initialiser that takes a
    /// synchronous closure to one that takes an asynchronous one, whatever their labels.
    ///
    /// - Parameters:
    ///   - priority: The priority of each start's task, as for `Task(priority:operation:)`.
    ///   - operation: The work of one start: its result is the signal's value, what it throws is
    ///     the signal's error.
    public convenience init(
        priority: TaskPriority? = nil, operation: @escaping @isolated(any) @Sendable () throws(E) -> T
    ) {
        self.init(priority: priority, operation: operation as @isolated(any) @Sendable () async throws(E) -> T)
    }
}
