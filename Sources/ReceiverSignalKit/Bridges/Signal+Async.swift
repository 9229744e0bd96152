// async/await for signals: `values` as an async sequence, `first()` as one awaited value.

extension Signal where T: Sendable, E: Error {
    // Disfavoured so that a signal that cannot fail gets the non-throwing `values` below: the two
    // overloads are otherwise ambiguous in a `for await` loop.
    /// The values as an async sequence that finishes when the signal completes and throws its
    /// error. Each iteration starts the signal once; ending the loop (or cancelling its task)
    /// disposes that start. The buffer is unbounded.
    ///
    /// ```swift
    /// for try await value in signal.values { print(value) }
    /// ```
    @_disfavoredOverload
    public var values: AsyncThrowingStream<T, any Error> {
        AsyncThrowingStream { continuation in
            let subscription = MetaDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            subscription.set(
                start(
                    next: { continuation.yield($0) },
                    error: { continuation.finish(throwing: $0) },
                    completed: { continuation.finish() }
                ))
        }
    }

    /// Starts the signal and returns its first value, or `nil` if it completes without one.
    /// The start is disposed before this returns.
    ///
    /// ```swift
    /// let name = try await profile.get().first()   // the current name
    /// ```
    ///
    /// - Returns: The first value, or `nil` when the signal completes first.
    /// - Throws: The signal's error, or `CancellationError` when the task is cancelled first
    ///   (which disposes the start too).
    public func first() async throws -> T? {
        let waiter = Locked(FirstWaiter.idle)
        let subscription = MetaDisposable()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard waiter.withLock({ $0.wait(continuation) }) else {
                    return continuation.resume(throwing: CancellationError())
                }
                let finish = { (result: Result<T?, any Error>) in
                    subscription.dispose()
                    waiter.withLock { $0.finish() }?.resume(with: result)
                }
                subscription.set(
                    start(
                        next: { finish(.success($0)) },
                        error: { finish(.failure($0)) },
                        completed: { finish(.success(nil)) }
                    ))
            }
        } onCancel: {
            subscription.dispose()
            waiter.withLock { $0.finish() }?.resume(throwing: CancellationError())
        }
    }

    /// Where `first()` stands. Transitions run under the lock and hand out the continuation at
    /// most once, so it is resumed exactly once, outside the lock.
    enum FirstWaiter {
        case idle
        case waiting(CheckedContinuation<T?, any Error>)
        case finished  // resumed, or cancelled before waiting

        /// Stores `continuation`; false if the task was cancelled before.
        mutating func wait(_ continuation: CheckedContinuation<T?, any Error>) -> Bool {
            guard case .idle = self else { return false }
            self = .waiting(continuation)
            return true
        }

        /// The continuation to resume, if nobody has resumed it yet.
        mutating func finish() -> CheckedContinuation<T?, any Error>? {
            defer { self = .finished }
            guard case .waiting(let continuation) = self else { return nil }
            return continuation
        }
    }
}

extension Signal where T: Sendable, E == NoError {
    /// The values as an async sequence that finishes when the signal completes. Each iteration
    /// starts the signal once; ending the loop (or cancelling its task) disposes that start. The
    /// buffer is unbounded.
    ///
    /// ```swift
    /// for await value in promise.get().values { print(value) }
    /// ```
    public var values: AsyncStream<T> {
        AsyncStream { continuation in
            let subscription = MetaDisposable()
            continuation.onTermination = { _ in subscription.dispose() }
            subscription.set(start(next: { continuation.yield($0) }, completed: { continuation.finish() }))
        }
    }
}

extension Signal where E == NoError {
    /// Waits for the signal's first value: SwiftSignalKit's `get() async`. The start is disposed
    /// once the value has arrived.
    ///
    /// ```swift
    /// let name = await profile.get().get()   // the current name
    /// ```
    ///
    /// When no value can come, it stops the program with a message that says why, in release
    /// builds too, where SwiftSignalKit never resumes (and its task hangs for good):
    /// - the signal completes without a value (use ``first()`` to get `nil` instead);
    /// - the signal lets go of its subscriber without a value, so nothing can send one any more:
    ///   `never()`, a `ValuePipe` that is gone, a generator that keeps no subscriber. (A source
    ///   that keeps its subscriber, an empty `Promise`, say, is waited for, however long.)
    ///
    /// Cancelling the task does not stop the wait, since there is no value to return (use
    /// `first()` to be cancellable). The continuation is resumed exactly once, or never when the
    /// program stops: it is never leaked.
    ///
    /// - Returns: The first value.
    /// - Precondition: The signal sends a value before it completes or lets go of its subscriber.
    public func get() async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Unchecked<T>, Never>) in
            let waiter = GetWaiter(continuation)
            let subscription = MetaDisposable()
            subscription.set(
                start(
                    next: { value in
                        guard let continuation = waiter.take() else { return }
                        subscription.dispose()
                        continuation.resume(returning: Unchecked(value))
                    },
                    completed: {
                        guard waiter.isResumed else {
                            fatalError(
                                "Signal.get() needs a value, but the signal completed without one; first() returns nil instead"
                            )
                        }
                    }
                ))
        }.value
    }
}

/// `get()`'s continuation, shared by its handlers and handed out at most once. The handlers are
/// its only holders: when they are let go of while it still waits, the source has let go of its
/// subscriber without a value, and no value can come. Then its `deinit` stops the program with a
/// message rather than let the continuation go unresumed (which the runtime reports as a misuse,
/// leaving the task suspended for good); it stops before the continuation is released.
final class GetWaiter<T>: @unchecked Sendable {
    private let continuation: Locked<CheckedContinuation<Unchecked<T>, Never>?>

    init(_ continuation: CheckedContinuation<Unchecked<T>, Never>) { self.continuation = Locked(continuation) }

    /// The continuation, to resume, if nobody has taken it yet.
    func take() -> CheckedContinuation<Unchecked<T>, Never>? { continuation.withLock { $0.take() } }

    /// Whether the continuation has been taken.
    var isResumed: Bool { continuation.withLock { $0 == nil } }

    deinit {
        if continuation.withLock({ $0 != nil }) {
            fatalError(
                "Signal.get() needs a value, but the signal let go of its subscriber without sending one, so none can "
                    + "come (never() does so, as does a generator that keeps no subscriber, or a ValuePipe that is gone); "
                    + "first() waits for a value and can be cancelled"
            )
        }
    }
}
