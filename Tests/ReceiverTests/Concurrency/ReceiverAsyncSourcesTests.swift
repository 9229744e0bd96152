import Receiver
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks, .timeLimit(.minutes(1))) struct ReceiverAsyncSourcesTests {
    /// A listener that records its waves and tells the test about each one.
    private final class Listener: Sendable {
        let history = History<Int>()
        let seen: AsyncStream<Int>
        private let seeing: AsyncStream<Int>.Continuation

        init() { (seen, seeing) = AsyncStream.makeStream() }

        func record(_ wave: Int) {
            history.record(wave)
            seeing.yield(wave)
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test(arguments: allStrategies)
    func theFeedBroadcastsEachElementAndTheStrategyKeepsThem(strategy: Receiver<Int>.Strategy) async {
        let (stream, input) = AsyncStream<Int>.makeStream()
        let (receiver, feed) = Receiver.make(with: strategy, from: stream)
        let first = Listener()
        receiver.listen(to: first.record)
        var seen = first.seen.makeAsyncIterator()
        for element in 1...3 { input.yield(element) }
        for element in 1...3 { #expect(await seen.next() == element) }

        let late = History<Int>()
        receiver.listen(to: late.record)  // the replay is synchronous
        let expected: [Int] =
            switch strategy {
            case .hot: []
            case .warm: [2, 3]
            case .cold: [1, 2, 3]
            }
        #expect(late.recorded == expected)
        #expect(first.history.recorded == [1, 2, 3])
        feed.dispose()
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func theEndOfTheSequenceLeavesTheReceiverAsItIs() async {
        let (stream, input) = AsyncStream<Int>.makeStream()
        let (receiver, feed) = Receiver.make(with: .cold, from: stream)
        let first = Listener()
        receiver.listen(to: first.record)
        var seen = first.seen.makeAsyncIterator()
        input.yield(1)
        input.finish()
        #expect(await seen.next() == 1)
        let late = History<Int>()
        receiver.listen(to: late.record)
        #expect(late.recorded == [1])
        feed.dispose()  // after the end: does nothing
        feed.dispose()
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func disposingTheFeedCancelsTheTask() async {
        let (stream, input) = AsyncStream<Int>.makeStream()
        let (terminated, terminating) = AsyncStream<String>.makeStream()
        input.onTermination = { terminating.yield("\($0)") }
        let (receiver, feed) = Receiver.make(with: .cold, from: stream, priority: .low)
        let first = Listener()
        receiver.listen(to: first.record)
        var seen = first.seen.makeAsyncIterator()
        input.yield(1)
        #expect(await seen.next() == 1)

        feed.dispose()
        var terminatedIterator = terminated.makeAsyncIterator()
        #expect(await terminatedIterator.next() == "cancelled")  // the iterating task was cancelled
        if case .terminated = input.yield(2) {} else { Issue.record("the stream still accepts elements") }
        let late = History<Int>()
        receiver.listen(to: late.record)
        #expect(late.recorded == [1])
        #expect(first.history.recorded == [1])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func nothingIsBroadcastAfterDisposeEvenFromASequenceThatIgnoresCancellation() async {
        let sequence = DeafSequence()
        let (receiver, feed) = Receiver.make(with: .cold, from: sequence)
        let first = Listener()
        receiver.listen(to: first.record)
        var seen = first.seen.makeAsyncIterator()
        sequence.send(1)
        #expect(await seen.next() == 1)

        feed.dispose()
        sequence.send(2)  // the task is cancelled, but this sequence does not care
        sequence.send(nil)
        var released = sequence.iteratorReleased.makeAsyncIterator()
        await released.next()  // the loop has ended: 2 was handed to the task and not broadcast
        let late = History<Int>()
        receiver.listen(to: late.record)
        #expect(late.recorded == [1])
        #expect(first.history.recorded == [1])
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)  // the sequence bridges
    @Test func theFeedKeepsThePairAliveUntilTheSequenceEnds() async {
        let tag = "feed-keeps-the-pair"
        let sequence = DeafSequence()
        var receiver: Receiver<Int>? = Receiver.make(with: .hot, from: sequence).receiver
        let first = Listener()
        receiver?.listen { [witness = Tracked(1, tag: tag)] in first.record($0 * witness.value) }
        var seen = first.seen.makeAsyncIterator()
        sequence.send(1)
        #expect(await seen.next() == 1)

        receiver = nil  // the feed's task holds the transmitter, which holds the receiver
        sequence.send(2)
        #expect(await seen.next() == 2)
        #expect(Tracked.count(tag) == 1)
        sequence.send(nil)  // the end: the task lets go of the pair
        var released = sequence.iteratorReleased.makeAsyncIterator()
        await released.next()
        #expect(first.history.recorded == [1, 2])
        while Tracked.count(tag) != 0 { await Task.yield() }  // the task's last release, just after
    }
}
