// An `AsyncSequence` into a receiver: a pair whose transmitter a task drives, until the sequence
// ends or the feed is disposed. (`Receiver+Async.swift` goes the other way: `values` turns a
// receiver into an `AsyncStream`.)

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Receiver where Wave: Sendable {
    /// Makes a pair with `strategy` whose transmitter is fed by `waves`: a task iterates the
    /// sequence and broadcasts each element, until the sequence ends or `feed` is disposed.
    ///
    /// ```swift
    /// let (temperatures, sensor) = AsyncStream<Int>.makeStream()
    /// let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), from: temperatures)
    /// receiver.listen { print($0) }
    /// sensor.yield(21)    // prints 21 (from the feed's task, soon after)
    /// feed.dispose()      // stops the task: later elements are not broadcast
    /// ```
    ///
    /// The task starts at once, not at the first `listen`, so pick the strategy with that in
    /// mind: with `.hot`, elements that arrive before the first `listen` reach nobody;
    /// `.warm(upTo: 1)` keeps the latest one for whoever listens next (state, such as a setting or
    /// a location), `.cold` keeps them all. When the sequence ends, the task ends and the receiver
    /// stays as it is: it keeps what its strategy kept, and nothing more arrives.
    ///
    /// `feed.dispose()` cancels the task: no element that the task gets after `dispose()` has
    /// returned is broadcast, even from a sequence that ignores cancellation (one the task was
    /// already broadcasting may still be finishing on its thread, as for any broadcast from
    /// another thread), and the iteration ends at its next suspension (an `AsyncStream` ends at
    /// once).
    ///
    /// The task holds the transmitter, which holds the receiver (as any transmitter does): the pair
    /// and its listeners live until the sequence ends or the feed is disposed, whoever else holds
    /// the receiver. Like a `Task`, dropping the feed does not stop it: dispose it.
    ///
    /// The sequence must not throw (its `Failure` is `Never`): a receiver has no way to end with an
    /// error. For one that can throw, decide first what an error means — map it into waves with
    /// an `AsyncStream` of your own — or make it a `Signal` (ReceiverSignalKit's `Signal(_:priority:)`),
    /// which carries the error.
    ///
    /// > Note: Waves are broadcast from the task, on the global concurrent executor, so handlers run
    /// > there. A handler that touches main-actor state must hop to the main actor itself.
    ///
    /// - Parameters:
    ///   - strategy: What the pair keeps for new listeners (see ``Strategy``).
    ///   - waves: The sequence to broadcast, element by element.
    ///   - priority: The priority of the task, as for `Task(priority:operation:)`.
    /// - Returns: The receiver of the pair, and the feed: disposing it stops the task (disposing it
    ///   again, or after the sequence has ended, does nothing).
    /// - Precondition: A `.warm(upTo:)` count is 0 or more.
    public static func make<Waves: AsyncSequence & Sendable>(
        with strategy: Strategy, from waves: Waves, priority: TaskPriority? = nil
    ) -> (receiver: Receiver, feed: any Disposable) where Waves.Element == Wave, Waves.Failure == Never {
        let (transmitter, receiver) = make(with: strategy)
        let task = Task(priority: priority) {
            for await wave in waves {
                // Checked per element: after `dispose()` has returned, nothing is broadcast, even
                // from a sequence that does not end when its task is cancelled.
                guard !Task.isCancelled else { return }
                transmitter.broadcast(wave)
            }
        }
        return (receiver, ReceiverFeed(task: task))
    }
}

/// Stops the task that feeds a pair made by `make(with:from:priority:)`. `Task.cancel()` is
/// idempotent and thread-safe, so this needs no lock.
final class ReceiverFeed: Disposable {
    let task: Task<Void, Never>

    init(task: Task<Void, Never>) { self.task = task }

    func dispose() { task.cancel() }
}
