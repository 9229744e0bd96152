import Receiver
import ReceiverSignalKitTesting
import Testing

/// `receiver.values` and `receiver.values(bufferingPolicy:)`: the receiver's side of async/await.
///
/// Disposal is proved two ways, without sleeps: a counter in a `map` upstream of the stream
/// (a disposed listener's transform is never called again), and a token captured only by that
/// transform, observed through a weak reference (a disposed listener's closures are released).
@Suite(.detectingLeaks) struct ReceiverAsyncTests {
    static let strategies: [Receiver<Int>.Strategy] = [.hot, .warm(upTo: 2), .cold]

    /// Marks the end of what a test broadcasts, so that reading a stream never waits forever.
    static let end = -1

    /// What a new listener is replayed after 1, 2, 3 were broadcast.
    static func replay(of strategy: Receiver<Int>.Strategy) -> [Int] {
        switch strategy {
        case .hot: []
        case .warm(let count): Array([1, 2, 3].suffix(count))
        case .cold: [1, 2, 3]
        }
    }

    @Test("values: the replay, then the live waves, in order", arguments: strategies)
    func replayThenLiveWavesInOrder(strategy: Receiver<Int>.Strategy) async {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        for wave in 1...3 { transmitter.broadcast(wave) }
        let stream = receiver.values
        for wave in 4...6 { transmitter.broadcast(wave) }
        transmitter.broadcast(Self.end)

        let received = await Self.waves(of: stream)

        #expect(received == Self.replay(of: strategy) + [4, 5, 6])
    }

    @Test("values: live waves from another task arrive in order while the loop waits", arguments: strategies)
    func liveWavesFromAnotherTaskInOrder(strategy: Receiver<Int>.Strategy) async {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        for wave in 1...3 { transmitter.broadcast(wave) }
        let stream = receiver.values
        let consumer = Task { await Self.waves(of: stream) }
        let producer = Task.detached {
            for wave in 4...1_000 { transmitter.broadcast(wave) }
            transmitter.broadcast(Self.end)
        }

        await producer.value
        let received = await consumer.value

        #expect(received == Self.replay(of: strategy) + Array(4...1_000))
    }

    @Test("values: breaking out of the loop disposes the listener", arguments: strategies)
    func breakingOutDisposes(strategy: Receiver<Int>.Strategy) async {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        transmitter.broadcast(0)
        let calls = Calls()
        weak var released: Token?
        do {
            let token = Token()
            released = token
            let counted = receiver.map { [token] wave in
                token.touch()
                calls.count += 1
                return wave
            }
            // The stream is a temporary of the loop, as in `for await wave in receiver.values`.
            for await wave in Self.listening(counted.values, then: { transmitter.broadcast(1) }) {
                #expect(wave == (strategy == .hot ? 1 : 0))
                break
            }
        }
        let callsAfterLoop = calls.count
        #expect(callsAfterLoop == (strategy == .hot ? 1 : 2))

        transmitter.broadcast(2)

        #expect(calls.count == callsAfterLoop, "the listener is still called after the loop ended")
        #expect(released == nil, "the listener's closures are still held after the loop ended")
    }

    @Test("values: cancelling the consuming task disposes the listener", arguments: strategies)
    func cancellingTheTaskDisposes(strategy: Receiver<Int>.Strategy) async {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        let calls = Calls()
        weak var released: Token?
        let stream: AsyncStream<Int>
        do {
            let token = Token()
            released = token
            stream =
                receiver.map { [token] wave in
                    token.touch()
                    calls.count += 1
                    return wave
                }.values
        }
        let (received, receiving) = Self.signal()
        let consumer = Task {
            for await wave in stream { receiving.yield(wave) }
        }
        transmitter.broadcast(1)
        for await _ in received { break }  // the consumer is inside its loop now

        consumer.cancel()
        await consumer.value
        let callsAfterCancel = calls.count
        transmitter.broadcast(2)

        #expect(callsAfterCancel == 1)
        #expect(calls.count == callsAfterCancel, "the listener is still called after its task was cancelled")
        #expect(released == nil, "the listener's closures are still held after its task was cancelled")
        // Still referenced here: cancellation alone disposed the listener.
        withExtendedLifetime(stream) {}
    }

    @Test("values: dropping a stream that was never iterated disposes the listener")
    func droppingTheStreamDisposes() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        transmitter.broadcast(1)
        let calls = Calls()
        do {
            _ =
                receiver.map { wave in
                    calls.count += 1
                    return wave
                }.values
        }
        #expect(calls.count == 1)  // the replay went into the dropped stream's buffer

        transmitter.broadcast(2)

        #expect(calls.count == 1, "the listener of a dropped stream is still called")
    }

    static let policies: [(AsyncStream<Int>.Continuation.BufferingPolicy, [Int])] = [
        (.unbounded, [1, 2, 3, 4]),
        (.bufferingNewest(1), [4]),
        (.bufferingNewest(2), [3, 4]),
        (.bufferingOldest(1), [1]),
        (.bufferingOldest(2), [1, 2]),
    ]

    @Test("values(bufferingPolicy:): what a slow consumer of a cold pair gets", arguments: policies)
    func slowConsumer(policy: AsyncStream<Int>.Continuation.BufferingPolicy, expected: [Int]) async {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        for wave in 1...3 { transmitter.broadcast(wave) }
        let stream = receiver.values(bufferingPolicy: policy)
        transmitter.broadcast(4)  // nobody has read anything yet

        var received: [Int] = []
        for await wave in stream {
            if wave == Self.end { break }
            received.append(wave)
            // Reading one wave made room for one more in any policy's buffer.
            if received.count == 1 { transmitter.broadcast(Self.end) }
        }

        #expect(received == expected)
    }

    @Test("values(bufferingPolicy: .bufferingNewest(1)) keeps the newest wave", arguments: strategies)
    func bufferingNewestKeepsTheNewest(strategy: Receiver<Int>.Strategy) async {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        for wave in 1...3 { transmitter.broadcast(wave) }
        let latest = receiver.values(bufferingPolicy: .bufferingNewest(1))
        for wave in 4...9 { transmitter.broadcast(wave) }

        for await wave in latest {
            #expect(wave == 9)
            break
        }
    }

    // MARK: - Helpers

    /// Reads `stream` up to ``end``.
    static func waves(of stream: AsyncStream<Int>) async -> [Int] {
        var received: [Int] = []
        for await wave in stream {
            if wave == end { break }
            received.append(wave)
        }
        return received
    }

    /// Returns `stream` after running `body`: `body` runs once the stream listens, and the
    /// stream stays a temporary of the caller's `for await` loop.
    static func listening(_ stream: AsyncStream<Int>, then body: () -> Void) -> AsyncStream<Int> {
        body()
        return stream
    }

    /// A stream and its continuation, for one task to tell another that something happened.
    static func signal() -> (AsyncStream<Int>, AsyncStream<Int>.Continuation) {
        var continuation: AsyncStream<Int>.Continuation?
        let stream = AsyncStream<Int> { continuation = $0 }
        return (stream, continuation!)
    }
}

/// Counts calls; only touched on the test's own task (broadcasts deliver synchronously there).
private final class Calls {
    var count = 0
}

/// Something a listener's closure holds, to see through a weak reference when it is released.
private final class Token {
    func touch() {}
}
