import Foundation
import Receiver
import ReceiverSignalKitTesting
import Testing

/// `Receiver.make(with:observing:)`. The models are main-actor isolated, as a SwiftUI view model is
/// (so a change and the read after it are main-actor jobs, in order), except where a test says.
@Suite(.detectingLeaks, .timeLimit(.minutes(1))) @MainActor struct ReceiverObservingTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func theFirstReadIsBroadcastDuringMake() {
        let model = MainModel()
        model.a = 7
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let seen = History<Int>()
        receiver.listen(to: seen.record)  // the kept first read, replayed
        #expect(seen.recorded == [7])
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func eachChangeBroadcastsTheNewValueNeverTheOld() async {
        let model = MainModel()
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        for value in 1...5 {
            model.a = value
            #expect(await next.next() == value)
        }
        #expect(arrivals.history.recorded == [0, 1, 2, 3, 4, 5])
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func equalConsecutiveValuesAreBroadcastAsTheyCome() async {
        let model = MainModel()
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a > 0 })
        let arrivals = Arrivals<Bool>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == false)
        model.a = 1
        #expect(await next.next() == true)
        model.a = 2  // a change that reads the same value is broadcast all the same
        #expect(await next.next() == true)
        #expect(arrivals.history.recorded == [false, true, true])
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func changesMadeInOneJobCoalesceIntoTheLastValue() async {
        let model = MainModel()
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        for value in 1...10 { model.a = value }  // one main-actor job: the read comes after it
        await next.wait(for: 10)
        #expect(arrivals.history.recorded == [0, 10])
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func eachReadTracksWhatItReadSoThePropertiesMayChange() async {
        let model = MainModel()
        let reads = History<Int>()
        let (receiver, feed) = Receiver.make(
            with: .warm(upTo: 1),
            observing: {
                reads.record(0)
                return model.shown
            })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)  // reads `showsA` and `b`

        model.a = 1  // not read yet: no read
        model.b = 2
        #expect(await next.next() == 2)
        #expect(reads.recorded.count == 2)

        model.showsA = true  // reads `a` from now on
        #expect(await next.next() == 1)
        model.a = 3
        #expect(await next.next() == 3)  // only if the last read tracked `a`
        model.b = 4  // no longer read: no read
        model.a = 5
        #expect(await next.next() == 5)
        #expect(arrivals.history.recorded == [0, 2, 1, 3, 5])
        #expect(reads.recorded.count == 5)
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aChangeMadeWhileAValueIsDeliveredIsReadAfterIt() async {
        let model = MainModel()
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        receiver.listen { value in
            arrivals.record(value)
            if value == 1 { model.a = 2 }  // while the read of 1 is delivering
        }
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        model.a = 1
        #expect(await next.next() == 1)
        #expect(await next.next() == 2)
        #expect(arrivals.history.recorded == [0, 1, 2])
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func disposingFromAListenerStopsTheReads() async {
        let model = MainModel()
        let arrivals = Arrivals<Int>()
        let (receiver, feed) = Receiver.make(with: .hot, observing: { model.a })  // the first read reaches nobody
        receiver.listen { value in
            arrivals.record(value)
            feed.dispose()  // while its read is delivering
            model.a = value + 1  // a change after `dispose()`: not read
        }
        var seen = arrivals.stream.makeAsyncIterator()
        model.a = 1
        #expect(await seen.next() == 1)
        #expect(model.a == 2)
        let (other, otherFeed) = Receiver.make(with: .hot, observing: { model.a })
        let barrier = Arrivals<Int>()
        other.listen(to: barrier.record)
        var next = barrier.stream.makeAsyncIterator()
        model.a = 10
        #expect(await next.next() == 10)  // a later read, on the same actor
        #expect(arrivals.history.recorded == [1])
        #expect(model.a == 10)
        otherFeed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func changesRequestedFromOtherThreadsEndWithTheLastValue() async {
        let model = MainModel()
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        await withTaskGroup(of: Void.self) { group in
            for value in 1...50 {
                group.addTask { await MainActor.run { model.a = max(model.a, value) } }
            }
        }
        await next.wait(for: 50)
        let history = arrivals.history.recorded
        #expect(history == history.sorted())  // never an older value after a newer one
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aNonisolatedReadFollowsAModelChangedOnAnotherThread() async {
        let model = LockedModel()
        // Made in nonisolated code: later reads run in tasks on the global concurrent executor.
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        let writer = Thread {
            for value in 1...200 { model.a = value }
        }
        writer.start()
        await next.wait(for: 200)  // the last value always arrives
        let history = arrivals.history.recorded
        #expect(history == history.sorted())
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aChangeFromAnotherThreadWhileAReadRunsIsReadAfterIt() async {
        let model = LockedModel()
        let changesDuringReads = History<Int>()  // touched by the reads only, one at a time
        // Made in nonisolated code: the reads run on the global executor. The read that finds 1
        // has another thread set 2 after reading, before Observation tracks what it read.
        let (receiver, feed) = Receiver.make(
            with: .warm(upTo: 1),
            observing: {
                let value = model.a
                if value == 1, changesDuringReads.recorded.isEmpty {
                    changesDuringReads.record(2)
                    let written = DispatchSemaphore(value: 0)
                    Thread {
                        model.a = 2
                        written.signal()
                    }
                    .start()
                    written.wait()
                }
                return value
            })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        model.a = 1
        await next.wait(for: 2)  // read after it, not lost
        let history = arrivals.history.recorded
        #expect(history == history.sorted())
        feed.dispose()
    }

    // Observation reports a change in its `willSet`, before the store, and nothing after it. The
    // feed delivers the last value of a model whose getter, once the change is announced, returns
    // the new value or waits for it: so for a model locked around its announcement and its store,
    // and not for one locked around its store only (the docs say so). Both tests hold a change
    // made on another thread between its announcement and its store until the read it scheduled
    // has started: that read waits for the store, or returns the old value. (What releases a
    // waiting thread is another thread, never this test's task: the reads run on the cooperative
    // pool, which a blocked read may leave with no thread for the test.)

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aModelLockedAroundItsAnnouncementAndStoreIsReadAfterTheStore() async {
        let model = AnnouncedModel(locksTheAnnouncement: true)
        let reads = History<Int>()  // the number of each read; they never overlap
        let scheduledReadStarted = DispatchSemaphore(value: 0)
        let (receiver, feed) = Receiver.make(
            with: .warm(upTo: 1),
            observing: {
                reads.record(reads.recorded.count + 1)
                if reads.recorded.count == 3 { scheduledReadStarted.signal() }
                return model.a
            })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)  // reads 1 and 2: with no actor, each read runs twice
        model.betweenAnnouncementAndStore {
            // Read 3, the one the change scheduled, has started: it waits for the store.
            _ = scheduledReadStarted.wait(timeout: .now() + 10)
        }
        Thread { model.a = 1 }.start()
        #expect(await next.next() == 1)
        #expect(arrivals.history.recorded == [0, 1])
        #expect(reads.recorded.count == 4)
        feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aModelThatStoresAfterItsAnnouncementUnlockedMayHaveItsLastChangeReadEarly() async {
        let model = AnnouncedModel(locksTheAnnouncement: false)
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        let scheduledReadDelivered = DispatchSemaphore(value: 0)
        receiver.listen { value in
            arrivals.record(value)
            if arrivals.history.recorded.count == 2 { scheduledReadDelivered.signal() }
        }
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        model.betweenAnnouncementAndStore {
            // The read the change scheduled runs, and delivers, before the store.
            _ = scheduledReadDelivered.wait(timeout: .now() + 10)
        }
        let stored = Arrivals<Bool>()
        Thread {
            model.a = 1
            stored.record(true)
        }
        .start()
        #expect(await next.next() == 0)  // the read the change scheduled: the old value, once more
        var isStored = stored.stream.makeAsyncIterator()
        await isStored.wait(for: true)
        #expect(model.a == 1)  // stored, and not read: nothing reports the store
        model.betweenAnnouncementAndStore(nil)
        model.a = 2  // the next change is read, as ever
        #expect(await next.next() == 2)
        #expect(arrivals.history.recorded == [0, 0, 2])  // 1 never came
        feed.dispose()
    }

    /// The lossless side under real threads: bursts of changes from another thread to a model
    /// locked around its announcement and store; each burst's last value arrives (a lost one
    /// would hit the suite's time limit).
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func theLastOfEveryBurstOfChangesFromAnotherThreadArrives() async {
        let model = LockedModel()
        let (receiver, feed) = Receiver.make(with: .warm(upTo: 1), observing: { model.a })
        let arrivals = Arrivals<Int>()
        receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        for burst in 1...200 {
            let last = burst * 50
            Thread {
                for value in (last - 49)...last { model.a = value }
            }
            .start()
            await next.wait(for: last)
        }
        let history = arrivals.history.recorded
        #expect(history == history.sorted())
        feed.dispose()
    }

    /// SPEC: nothing after `dispose()` returns, also when it is called on another thread than the
    /// delivery under way: it waits for that delivery. (The one-second window only gives a
    /// `dispose()` that does not wait the chance to return early; it never makes this fail.) A
    /// thread of its own drives it, since the delivery holds a thread of the cooperative pool.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func disposingOnAnotherThreadWaitsForTheDeliveryUnderWay() async {
        let model = LockedModel()
        let (receiver, feed) = Receiver.make(with: .hot, observing: { model.a })
        let events = Arrivals<String>()
        let (delivering, release, disposed) =
            (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        receiver.listen { value in
            guard value == 1 else { return }
            events.record("delivering")
            delivering.signal()
            _ = release.wait(timeout: .now() + 10)
            events.record("delivered")
        }
        Thread {
            _ = delivering.wait(timeout: .now() + 10)
            Thread {
                feed.dispose()
                events.record("disposed")
                disposed.signal()
            }
            .start()
            if disposed.wait(timeout: .now() + 1) == .success { disposed.signal() }  // returned early
            release.signal()
        }
        .start()
        model.a = 1
        var event = events.stream.makeAsyncIterator()
        await event.wait(for: "disposed")
        #expect(events.history.recorded == ["delivering", "delivered", "disposed"])
    }

    /// From inside the read or the delivery, on the thread that runs them, `dispose()` returns at
    /// once (it does not wait for itself), and nothing is delivered after it. In a child process
    /// that stops itself after 20 seconds: a `dispose()` that waited for itself would hold a thread
    /// of the cooperative pool for good, and the suite's time limit with it.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func disposingFromInsideTheReadOrTheDeliveryReturnsAtOnce() async {
        await #expect(processExitsWith: .success) {
            alarm(20)
            guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else { return }
            let model = LockedModel()
            let events = Arrivals<String>()
            nonisolated(unsafe) var readFeed: (any Disposable)?
            let (read, feedOfRead) = Receiver.make(
                with: .warm(upTo: 1),
                observing: {
                    let value = model.a
                    if value == 1 {
                        readFeed?.dispose()
                        events.record("disposed in the read")
                    }
                    return value
                })
            readFeed = feedOfRead
            read.listen { events.record("read delivered \($0)") }
            let (delivered, feedOfDelivery) = Receiver.make(with: .hot, observing: { model.a })
            delivered.listen { value in
                events.record("delivery delivered \(value)")
                feedOfDelivery.dispose()
                events.record("disposed in the delivery")
            }
            model.a = 1
            // Each feed reads on the global executor, in its own task: in any order. With no
            // actor, each read runs twice, and so disposes twice.
            var awaited = ["disposed in the delivery": 1, "disposed in the read": 2]
            for await event in events.stream {
                awaited[event]? -= 1
                if awaited.values.allSatisfy({ $0 == 0 }) { break }
            }
            let recorded = events.history.recorded
            precondition(recorded.filter { $0.hasPrefix("read delivered") } == ["read delivered 0"], "\(recorded)")
            precondition(
                recorded.filter { $0.hasPrefix("delivery delivered") } == ["delivery delivered 1"], "\(recorded)")
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func nothingIsBroadcastAfterDisposeAndTheClosureIsReleased() async {
        let model = MainModel()
        weak var weakCapture: Witness?
        let arrivals = Arrivals<Int>()
        var feed: (any Disposable)?
        do {
            let capture = Witness()
            weakCapture = capture
            let made = Receiver.make(
                with: .warm(upTo: 1),
                observing: {
                    withExtendedLifetime(capture) { model.a }
                })
            made.receiver.listen(to: arrivals.record)
            feed = made.feed
        }
        #expect(weakCapture != nil)  // the feed holds the closure
        model.a = 1  // schedules a read, in a later job
        feed?.dispose()
        #expect(weakCapture == nil)  // disposing releases the closure

        // A later feed on the same model: once its read of the next change has arrived, the
        // disposed feed's scheduled read (earlier) has run too, and found nothing to do.
        let (other, otherFeed) = Receiver.make(with: .hot, observing: { model.a })
        let barrier = Arrivals<Int>()
        other.listen(to: barrier.record)
        var next = barrier.stream.makeAsyncIterator()
        model.a = 2
        #expect(await next.next() == 2)
        #expect(arrivals.history.recorded == [0])
        otherFeed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func madeOnMainWhereSwiftGivesNoActorItReadsOnMain() async {
        let owner = LazyFeedOwner()
        let arrivals = Arrivals<Int>()
        owner.made.receiver.listen(to: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        for value in 1...3 {
            owner.model.a = value
            #expect(await next.next() == value)
        }
        #expect(owner.readsOnMain.recorded == [true, true, true, true])
        owner.made.feed.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func makingItOffTheClosuresActorStops() async {
        // Off the main actor here (a nonisolated test), so the first read must not run: it stops.
        await #expect(processExitsWith: .failure) {
            _ = Receiver.make(with: .hot, observing: { 0 }, isolation: MainActor.shared)
        }
    }
}

/// A main-actor owner that makes its feed in a `lazy` property's initializer, where Swift passes
/// no actor (`#isolation` is `nil`) although the closure reads the main-actor model.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor private final class LazyFeedOwner {
    let model = MainModel()
    /// Whether each read ran on the main queue.
    let readsOnMain = History<Bool>()
    lazy var made = Receiver.make(
        with: .warm(upTo: 1),
        observing: { [model, readsOnMain] in
            readsOnMain.record(isOnMainQueue())
            return model.a
        })
}
