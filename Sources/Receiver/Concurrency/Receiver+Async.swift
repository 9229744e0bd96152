// async/await on `Receiver`: its waves as an `AsyncStream`.
//
// The stream is a plain listener whose handler yields into the stream's continuation, and whose
// `onTermination` disposes that listener. Nothing here touches the core's internals.

extension Receiver where Wave: Sendable {
    /// The waves as an asynchronous sequence: the replay first, then every live wave, in order,
    /// with an unbounded buffer.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
    /// transmitter.broadcast(1)
    /// transmitter.broadcast(2)
    /// for await wave in receiver.values {      // listens here: 2 is replayed at once
    ///     print(wave)                           // prints 2, then 3
    ///     if wave == 2 { transmitter.broadcast(3) }
    ///     if wave == 3 { break }                // ends the loop and disposes the listener
    /// }
    /// ```
    ///
    /// The stream starts listening when it is made, not when the loop first asks for a wave: the
    /// replay, and every wave broadcast after that, wait in its buffer. A slow consumer gets every
    /// wave; the waves it has not read yet stay in memory until it does. Use
    /// ``values(bufferingPolicy:)`` to bound that.
    ///
    /// The listener is disposed when the stream terminates: when the `for await` loop ends early
    /// (`break`, `return` or a thrown error, once the stream itself is no longer referenced, as
    /// in `for await wave in receiver.values`), or when the consuming task is cancelled. A
    /// receiver never finishes on its own, so a loop over `values` runs until one of those
    /// happens.
    ///
    /// > Note: `broadcast` never waits for the consumer: it hands the wave to the stream's
    /// > buffer and returns. Waves cross from the delivering thread to the consuming task, which
    /// > is why `Wave` must be `Sendable`. Like every `AsyncStream`, the stream has one consumer;
    /// > each access to `values` makes a new, independent listener.
    public var values: AsyncStream<Wave> {
        values(bufferingPolicy: .unbounded)
    }

    /// The waves as an asynchronous sequence whose buffer follows `bufferingPolicy` when the
    /// consumer falls behind.
    ///
    /// The policy decides what a slow consumer gets. Say a `.cold` pair has broadcast 1, 2, 3
    /// when the stream is made, and 4 is broadcast before the consumer reads anything:
    ///
    /// | policy                 | buffered, waiting for the consumer | the consumer reads |
    /// |------------------------|------------------------------------|--------------------|
    /// | `.unbounded`           | every wave not yet read            | 1 2 3 4            |
    /// | `.bufferingNewest(n)`  | the newest `n`; older ones dropped | 4 (for n = 1)      |
    /// | `.bufferingOldest(n)`  | the oldest `n`; newer ones dropped | 1 (for n = 1)      |
    ///
    /// The replay goes through the buffer like any other wave, so it counts against `n`.
    /// `.bufferingNewest(1)` suits state (the consumer always sees the latest value, never a
    /// backlog); `.bufferingOldest(n)` suits work where the first requests matter and later ones
    /// may be shed. A consumer that keeps up loses nothing under any policy.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
    /// for wave in 1...3 { transmitter.broadcast(wave) }
    /// let latest = receiver.values(bufferingPolicy: .bufferingNewest(1))
    /// transmitter.broadcast(4)
    /// for await wave in latest {
    ///     print(wave)   // prints 4: 1, 2 and 3 were dropped while nobody was reading
    ///     break
    /// }
    /// ```
    ///
    /// Listening, disposal and threading are as for ``values``.
    ///
    /// - Parameter bufferingPolicy: What the stream keeps while its consumer is behind.
    /// - Returns: A stream of the waves that disposes its listener when it terminates.
    public func values(bufferingPolicy: AsyncStream<Wave>.Continuation.BufferingPolicy) -> AsyncStream<Wave> {
        AsyncStream(bufferingPolicy: bufferingPolicy) { continuation in
            let disposable = listen { continuation.yield($0) }
            continuation.onTermination = { _ in disposable.dispose() }
        }
    }
}
