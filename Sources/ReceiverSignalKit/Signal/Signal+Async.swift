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
    /// Differences from SwiftSignalKit, which never resumes in either case: a signal that
    /// completes without a value stops the program with a message that says so (use ``first()`` to get
    /// `nil` instead), and cancelling the task does not stop the wait, since there is no value to
    /// return (use `first()` to be cancellable).
    ///
    /// - Returns: The first value.
    /// - Precondition: The signal sends a value before it completes.
    public func get() async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<Unchecked<T>, Never>) in
            let resumed = Locked(false)
            let subscription = MetaDisposable()
            subscription.set(
                start(
                    next: { value in
                        guard
                            resumed.withLock({ resumed in
                                defer { resumed = true }
                                return !resumed
                            })
                        else { return }
                        subscription.dispose()
                        continuation.resume(returning: Unchecked(value))
                    },
                    completed: {
                        let hasValue = resumed.withLock { $0 }
                        guard hasValue else {
                            fatalError(
                                "Signal.get() needs a value, but the signal completed without one; first() returns nil instead"
                            )
                        }
                    }
                ))
        }.value
    }
}
