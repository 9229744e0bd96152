import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct MulticastTests {
    /// An upstream that counts its starts and hands out a counting disposable per start.
    final class Upstream: Sendable {
        let disposables = History<CountingDisposable>()
        let input: Subscriber<Int, NoError>
        let output: Signal<Int, NoError>

        init() { (input, output) = Signal<Int, NoError>.pipe() }

        var signal: Signal<Int, NoError> {
            Signal { subscriber in
                let disposable = CountingDisposable()
                self.disposables.record(disposable)
                let forwarding = self.output.start(next: subscriber.putNext, completed: subscriber.putCompletion)
                return ActionDisposable {
                    forwarding.dispose()
                    disposable.dispose()
                }
            }
        }

        var disposeCounts: [Int] { disposables.recorded.map(\.count) }
    }

    @Test func theFirstSubscriberStartsTheUpstreamAndLaterOnesJoinWithoutReplay() {
        let (multicast, upstream) = (Multicast<Int>(), Upstream())
        var (a, b): ([Int], [Int]) = ([], [])
        let first = multicast.get(key: "k", signal: upstream.signal).start(next: { a.append($0) })
        upstream.input.putNext(1)
        let second = multicast.get(key: "k", signal: upstream.signal).start(next: { b.append($0) })
        upstream.input.putNext(2)
        #expect(a == [1, 2])
        #expect(b == [2])
        #expect(upstream.disposeCounts == [0])
        first.dispose()
        second.dispose()
    }

    @Test func keysAreSharedSeparately() {
        let (multicast, upstream) = (Multicast<Int>(), Upstream())
        let subscriptions = ["x", "y", "x"].map { multicast.get(key: $0, signal: upstream.signal).start() }
        #expect(upstream.disposeCounts == [0, 0])
        subscriptions.forEach { $0.dispose() }
        #expect(upstream.disposeCounts == [1, 1])
    }

    @Test func theLastSubscriberLeavingDisposesTheUpstreamAndForgetsTheKey() {
        // A deliberate difference: SwiftSignalKit forgets the key but never disposes the upstream.
        let (multicast, upstream) = (Multicast<Int>(), Upstream())
        let first = multicast.get(key: "k", signal: upstream.signal).start()
        let second = multicast.get(key: "k", signal: upstream.signal).start()
        first.dispose()
        #expect(upstream.disposeCounts == [0])
        second.dispose()
        #expect(upstream.disposeCounts == [1])
        let third = multicast.get(key: "k", signal: upstream.signal).start()  // a new upstream
        #expect(upstream.disposeCounts == [1, 0])
        third.dispose()
        #expect(upstream.disposeCounts == [1, 1])
    }

    @Test func upstreamCompletionForgetsTheKeyWithoutCompletingSubscribers() {
        let (multicast, upstream) = (Multicast<Int>(), Upstream())
        var events: [String] = []
        let old = multicast.get(key: "k", signal: upstream.signal).start(
            next: { events.append("old \($0)") }, completed: { events.append("old completed") })
        upstream.input.putCompletion()
        let fresh = Upstream()
        let new = multicast.get(key: "k", signal: fresh.signal).start(next: { events.append("new \($0)") })
        #expect(fresh.disposeCounts == [0])  // the key was forgotten: a new upstream started
        fresh.input.putNext(1)
        old.dispose()  // leaving the completed upstream does not touch the new one
        #expect(fresh.disposeCounts == [0])
        fresh.input.putNext(2)
        new.dispose()
        #expect(fresh.disposeCounts == [1])
        #expect(events == ["new 1", "new 2"])
    }

    @Test func theSignalAndItsSubscriptionsKeepTheMulticastAlive() {
        let upstream = Upstream()
        weak var watcher: Multicast<Int>?
        var signal: Signal<Int, NoError>?
        do {
            let multicast = Multicast<Int>()
            watcher = multicast
            signal = multicast.get(key: "k", signal: upstream.signal)
        }
        let subscription = signal?.start()
        signal = nil
        #expect(watcher != nil)
        subscription?.dispose()
        #expect(watcher == nil)
        #expect(upstream.disposeCounts == [1])
    }

    @Test func subscribersJoiningAndLeavingOnThreadsShareOneUpstream() {
        let (multicast, upstream) = (Multicast<Int>(), Upstream())
        let holder = multicast.get(key: "k", signal: upstream.signal).start()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<200 {
                let subscription = multicast.get(key: "k", signal: upstream.signal).start()
                if index.isMultiple(of: 10) { upstream.input.putNext(thread) }
                subscription.dispose()
            }
        }
        #expect(upstream.disposeCounts == [0])
        holder.dispose()
        #expect(upstream.disposeCounts == [1])
    }

    @Test func everyUpstreamIsDisposedExactlyOnceWhenItsLastSubscriberLeaves() {
        let (multicast, upstream) = (Multicast<Int>(), Upstream())
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<200 {
                let subscriptions = (0..<2).map { _ in multicast.get(key: "k", signal: upstream.signal).start() }
                subscriptions.forEach { $0.dispose() }
            }
        }
        let counts = upstream.disposeCounts
        #expect(!counts.isEmpty)
        #expect(counts == Array(repeating: 1, count: counts.count))
        let after = multicast.get(key: "k", signal: upstream.signal).start()  // the key was forgotten
        #expect(upstream.disposeCounts.count == counts.count + 1)
        after.dispose()
    }

    @Test func isSendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(Multicast<Int>())
    }
}
