// async/await into signals: a `Signal` made from an async function or from an `AsyncSequence`,
// as initialisers, the way Swift spells conversions (`Array(sequence)`) and `Task` spells running
// async work. (`Signal+Async.swift` goes the other way.) Each start runs its own `Task`, which
// reaches its subscriber through an `AsyncSignalRun`: disposing the start cancels the task and
// lets go of the subscriber at once, even while a task that ignores cancellation still runs.

extension Signal where T: Sendable, E: Error {
    /// Makes a signal whose every start runs `operation` in a new `Task`, then sends its result
    /// and completes, or fails with the error it throws.
    ///
    /// ```swift
    /// let profile = Signal<Profile, NoError> { await cache.profile(id) }       // cannot fail
    /// let fresh = Signal<Profile, APIError> { () throws(APIError) in try await api.profile(id) }
    /// let data = Signal { try await URLSession.shared.data(from: url).0 }    // Signal<Data, any Error>
    ///
    /// fresh.start(next: { print($0.name) }, error: { print("failed:", $0) })
    /// // prints "Ada", once the request answers
    /// ```
    ///
    /// The error type follows the function: a signal that cannot fail (`E` is ``NoError``) takes
    /// a function that does not throw; `E: Error` takes one that throws `E` (typed throws); a
    /// function that throws untyped errors makes a `Signal<T, any Error>`. (One initialiser serves
    /// all three: a function that does not throw is one that throws `Never`.)
    ///
    /// The signal is cold, like every ``Signal``: nothing runs until it is started, and each start
    /// runs `operation` again, in a task of its own. So it composes as any other signal does: in
    /// ``ReceiverSignalKit/mapToSignal(_:)`` switching to the next value disposes the previous
    /// start, which cancels its task; `combineLatest` starts one task per input; a ``Promise`` set
    /// to it runs `operation` once and disposes it when set again.
    ///
    /// Disposing a start cancels its task (`Task.isCancelled` turns true, and `Task.sleep`,
    /// `URLSession` and other cancellable calls throw `CancellationError`). Once `dispose()` has
    /// returned, the task puts nothing more — its value, its error and its completion are dropped
    /// — and the handlers are released then (or, if the task was putting at that moment, as that
    /// put returns), not when the task ends. So a function that finds itself cancelled may return
    /// anything (a placeholder): it is dropped.
    ///
    /// > Note: The value is put from the task, on `operation`'s actor: `Signal { @MainActor in … }`
    /// > puts its value on the main actor, so the handlers run there (unless an operator moves
    /// > them); a function that is not isolated puts it from the global concurrent executor.
    /// > `operation` may run several times at once (one per start), hence `@Sendable`.
    ///
    /// - Parameters:
    ///   - priority: The priority of each start's task, as for `Task(priority:operation:)`; `nil`
    ///     (the default) takes that of the task or thread that starts the signal, as `Task` does.
    ///   - operation: The work of one start: its result is the signal's value, what it throws is
    ///     the signal's error.
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @isolated(any) @Sendable () async throws(E) -> T
    ) {
        self.init { subscriber in
            let run = AsyncSignalRun(subscriber)
            run.keep(
                Task(priority: priority) {
                    await run.putResult(on: operation.isolation, of: operation)
                })
            return run
        }
    }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Signal where T: Sendable, E: Error {
    /// Makes a signal whose every start iterates `sequence` in a new `Task`: each element is a
    /// value, the end of the sequence is the completion, and what it throws is the error.
    ///
    /// ```swift
    /// let (numbers, input) = AsyncStream<Int>.makeStream()
    /// Signal(numbers).start(next: { print($0) }, completed: { print("done") })
    /// input.yield(1)       // prints 1 (from the task, soon after)
    /// input.yield(2)       // prints 2
    /// input.finish()       // prints "done"
    /// ```
    ///
    /// The error type is the sequence's `Failure`: an `AsyncStream` (which cannot fail) makes a
    /// `Signal<Element, NoError>`, an `AsyncThrowingStream<Element, any Error>` a
    /// `Signal<Element, any Error>`, and a sequence with a typed failure a signal with that error.
    ///
    /// Each start makes its own iterator, as `for await` does. So a sequence that can be iterated
    /// again (most can) runs again per start, like any cold signal; one that has a single consumer
    /// (such as an `AsyncStream`) should be started once — share that start with a ``Promise`` or
    /// ``Signal/pipe(with:)`` if several subscribers need it.
    ///
    /// Disposing a start cancels its task, which ends the iteration at its next suspension (an
    /// `AsyncStream` ends at once). Once `dispose()` has returned, the task puts nothing more, even
    /// from a sequence that ignores cancellation, and the handlers are released.
    ///
    /// > Note: Elements are put from the task, on the global concurrent executor: use
    /// > ``ReceiverSignalKit/deliverOnMainQueue(_:)`` before handlers that touch main-actor state.
    ///
    /// - Parameters:
    ///   - sequence: What each start iterates.
    ///   - priority: The priority of each start's task, as for `Task(priority:operation:)`.
    public convenience init<Elements: AsyncSequence & Sendable>(_ sequence: Elements, priority: TaskPriority? = nil)
    where Elements.Element == T, Elements.Failure == E {
        self.init { subscriber in
            let run = AsyncSignalRun(subscriber)
            run.keep(
                Task(priority: priority) {
                    await run.putEnd { () async throws(E) -> Void in
                        for try await element in sequence {
                            run.subscriber?.putNext(element)
                        }
                    }
                })
            return run
        }
    }
}

/// One start of a signal made from async code: the subscriber its task puts into, and the task.
/// Disposing it (the start's disposal, or the subscriber terminating) cancels the task and lets go
/// of the subscriber, so nothing the task produces later is put.
///
/// The task holds the run, and the run its task until it is disposed: a cycle that lasts while the
/// task runs, and ends when it finishes (a task releases its closure then) or is disposed.
final class AsyncSignalRun<T: Sendable, E: Error>: Disposable {
    private struct State {
        var subscriber: Subscriber<T, E>?
        var task: Task<Void, Never>?
        var isDisposed = false
    }

    private let state: Locked<State>

    init(_ subscriber: Subscriber<T, E>) { state = Locked(State(subscriber: subscriber)) }

    /// The subscriber to put into; `nil` once disposed.
    var subscriber: Subscriber<T, E>? { state.withLock { $0.subscriber } }

    /// Keeps `task` to cancel it on `dispose()`, or cancels it now if that came first (the task
    /// can finish, and so end the run, before the start that made it gets here).
    func keep(_ task: Task<Void, Never>) {
        let refused = state.withLock { state -> Task<Void, Never>? in
            guard !state.isDisposed else { return task }
            state.task = task
            return nil
        }
        refused?.cancel()
    }

    /// Runs `work` on `isolation` (or on the global concurrent executor for `nil`), then puts the
    /// value it returns and a completion, or the error it throws. When `isolation` is `work`'s
    /// own, no hop separates its return from the put: the value is put in the same job.
    func putResult(
        on isolation: isolated (any Actor)?, of work: @isolated(any) @Sendable () async throws(E) -> T
    ) async {
        do {
            let value = try await work()
            subscriber?.putNext(value)
            subscriber?.putCompletion()
        } catch {
            subscriber?.putError(error)
        }
    }

    /// Runs `work` (which puts the values itself), then puts a completion, or the error it throws.
    func putEnd(of work: () async throws(E) -> Void) async {
        do {
            try await work()
            subscriber?.putCompletion()
        } catch {
            subscriber?.putError(error)
        }
    }

    /// Cancels the task and lets go of the subscriber (after unlocking: releasing it may release
    /// the handlers, whose captures' `deinit`s are user code). A second call takes out nothing.
    func dispose() {
        let taken = state.withLock { state in
            defer { state = State(isDisposed: true) }
            return state
        }
        taken.task?.cancel()
    }
}
