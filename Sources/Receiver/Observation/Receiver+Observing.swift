// Observation into a receiver: a pair whose transmitter broadcasts what a closure reads from
// `@Observable` models, now and after every change. (`Observed.swift` goes the other way.)

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Receiver {
    /// Makes a pair with `strategy` whose transmitter broadcasts what `read` returns: once now,
    /// then again after every change to an `@Observable` property that `read` read, until `feed` is
    /// disposed.
    ///
    /// ```swift
    /// @Observable final class SearchModel { var query = "" }
    ///
    /// let model = SearchModel()
    /// let (queries, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.query })
    /// queries.listen { print("query:", $0) }    // prints "query: " (the kept first read)
    /// model.query = "cat"                        // prints "query: cat", from the next read
    /// feed.dispose()                             // stops: later changes are not read
    /// ```
    ///
    /// The first read happens during this call, so pick the strategy with that in mind: with
    /// `.hot` it reaches nobody; `.warm(upTo: 1)` keeps the latest value for whoever listens (what
    /// you want for state such as a query or a setting), `.cold` keeps them all.
    ///
    /// After a change, the value broadcast is the new one, never the old: Observation reports a
    /// change before the property is set (in its `willSet`), so the change schedules a new read
    /// instead of reading on the spot. Each read tracks what it reads, so the set of properties may
    /// change from one read to the next (`{ model.showsAll ? model.all : model.favourites }`).
    /// Changes made together, in one job of the closure's actor, may be read once, as one value.
    /// Equal consecutive values are broadcast as they come: add ``skipRepeats()`` to drop them.
    ///
    /// **The last value.** Observation reports nothing once the new value is stored, so the last
    /// change is always read for a model whose getter, once the change's `willSet` has been
    /// reported, returns the new value or waits for it:
    /// - a model changed only on `isolation`, the actor `read` runs on: a main-actor view model
    ///   read on main, or any model isolated to that actor (each read is a job of its own there,
    ///   after the job that made the change);
    /// - a thread-safe model whose setter holds its lock around `withMutation(keyPath:)` *and* the
    ///   store, its getter taking the same lock (a read waits for the store).
    ///
    /// A model changed on another thread that stores after `willSet` without such a lock
    /// (`set { withMutation(keyPath: \.x) { lock.withLock { _x = newValue } } }`) may be read in
    /// between: that read broadcasts the old value again, and the new one comes only with the next
    /// change to a property `read` reads. Hold the lock around `withMutation` too, or isolate the
    /// model to an actor.
    ///
    /// > Note: `read` runs on `isolation`, the caller's actor by default: made on the main actor
    /// > (a view model's `init`, a view), it reads on main, and the waves are broadcast on main, in
    /// > a main-actor job of their own after the change. Where Swift passes no actor but this runs
    /// > on the main queue, it reads on the main actor too: a `lazy` property's initializer gets no
    /// > `#isolation` even in a main-actor class. Made in other nonisolated code, it reads in a
    /// > task on the global concurrent executor: a model changed on another thread meanwhile must
    /// > then be safe to read there, and locked as above (or isolate it to an actor instead, which
    /// > is what this is built for); each read runs `read` twice, so that a change made while it
    /// > runs is not missed (such a change may be broadcast twice).
    ///
    /// `feed.dispose()` stops the reads and releases `read` (a weak reference to what it captured
    /// becomes `nil`). Nothing is broadcast after it returns: called on another thread while a
    /// broadcast of the feed is under way, it waits for that broadcast to end (so do not call it
    /// holding something the listeners wait for); called from inside `read` or a listener, it
    /// returns at once. Like a `Task`, dropping the feed does not stop it: the models `read`
    /// tracks keep it until it is disposed.
    ///
    /// - Parameters:
    ///   - strategy: What the pair keeps for new listeners (see ``Strategy``).
    ///   - read: Reads `@Observable` properties and returns the wave to broadcast.
    ///   - isolation: The actor `read` runs on. Leave it out: it is the caller's, which is the
    ///     closure's own, and this call runs the first read right here. `nil` on the main queue
    ///     means the main actor.
    /// - Returns: The receiver of the pair, and the feed: disposing it stops the reads.
    /// - Precondition: This is called on `isolation`; a `.warm(upTo:)` count is 0 or more.
    public static func make(
        with strategy: Strategy, observing read: @escaping () -> Wave, isolation: (any Actor)? = #isolation
    ) -> (receiver: Receiver, feed: any Disposable) {
        let (transmitter, receiver) = make(with: strategy)
        let feed = ObservationFeed(isolation: isolation, read: read, deliver: transmitter.broadcast)
        feed.start()
        return (receiver, feed)
    }
}
