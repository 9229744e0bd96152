import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// `Signal(observing:)`, with main-actor models as SwiftUI view models are, unless a test says.
@Suite(.detectingLeaks, .timeLimit(.minutes(1))) @MainActor struct SignalObservingTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func eachStartSendsTheCurrentValueThenTheNewOneAfterEachChange() async {
        let model = MainModel()
        model.a = 1
        let signal = Signal(observing: { model.a })
        let arrivals = Arrivals<Int>()
        let start = signal.start(next: arrivals.record)
        #expect(arrivals.history.recorded == [1])  // the first read, during `start`
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 1)
        model.a = 2
        #expect(await next.next() == 2)
        model.a = 3
        #expect(await next.next() == 3)

        let second = Arrivals<Int>()
        let secondStart = signal.start(next: second.record)  // a start of its own
        #expect(second.history.recorded == [3])
        start.dispose()
        secondStart.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func changesInOneJobCoalesceAndTheLastIsSent() async {
        let model = MainModel()
        let arrivals = Arrivals<Int>()
        let start = Signal(observing: { model.a }).start(next: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        for value in 1...10 { model.a = value }
        await next.wait(for: 10)
        #expect(arrivals.history.recorded == [0, 10])
        start.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func eachReadTracksWhatItRead() async {
        let model = MainModel()
        let arrivals = Arrivals<Int>()
        let start = Signal(observing: { model.shown }).start(next: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        model.showsA = true
        model.a = 1
        #expect(await next.next() == 1)
        model.a = 2
        #expect(await next.next() == 2)
        #expect(arrivals.history.recorded == [0, 1, 2])
        start.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func madeOnMainWhereSwiftGivesNoActorItReadsOnMain() async {
        let owner = LazySignalOwner()
        let arrivals = Arrivals<Int>()
        let start = owner.values.start(next: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        for value in 1...3 {
            owner.model.a = value
            #expect(await next.next() == value)
        }
        #expect(owner.readsOnMain.recorded == [true, true, true, true])
        start.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aModelChangedOnAnotherThreadEndsWithTheLastValue() async {
        let model = LockedModel()
        let arrivals = Arrivals<Int>()
        let start = Signal(observing: { model.a }).start(next: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        let writer = Thread {
            for value in 1...200 { model.a = value }
        }
        writer.start()
        await next.wait(for: 200)
        let history = arrivals.history.recorded
        #expect(history == history.sorted())
        start.dispose()
    }

    // The contract of the core's feed, which each start runs (ReceiverObservingTests has the
    // rest): the last value of a model whose getter waits for the store once a change is
    // announced always comes; a model that stores after the announcement with its getter free may
    // be read in between, and its last change is sent only with the next one. Each test holds a
    // change made on another thread in that moment until the read it scheduled has run; another
    // thread, never the test's task, lets it go on (the reads hold threads of the cooperative pool).

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aModelLockedAroundItsAnnouncementAndStoreSendsItsLastValue() async {
        let model = AnnouncedModel(locksTheAnnouncement: true)
        let reads = History<Int>()
        let scheduledReadStarted = DispatchSemaphore(value: 0)
        let arrivals = Arrivals<Int>()
        let start = Signal(observing: {
            reads.record(reads.recorded.count + 1)
            if reads.recorded.count == 3 { scheduledReadStarted.signal() }  // 1 and 2: the start's
            return model.a
        })
        .start(next: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        model.betweenAnnouncementAndStore { _ = scheduledReadStarted.wait(timeout: .now() + 10) }
        Thread { model.a = 1 }.start()
        #expect(await next.next() == 1)  // the read waited for the store
        #expect(arrivals.history.recorded == [0, 1])
        start.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test nonisolated func aModelThatStoresAfterItsAnnouncementUnlockedMayHaveItsLastChangeSentLate() async {
        let model = AnnouncedModel(locksTheAnnouncement: false)
        let arrivals = Arrivals<Int>()
        let scheduledReadSent = DispatchSemaphore(value: 0)
        let start = Signal(observing: { model.a }).start(next: { value in
            arrivals.record(value)
            if arrivals.history.recorded.count == 2 { scheduledReadSent.signal() }
        })
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == 0)
        model.betweenAnnouncementAndStore { _ = scheduledReadSent.wait(timeout: .now() + 10) }
        let stored = Arrivals<Bool>()
        Thread {
            model.a = 1
            stored.record(true)
        }
        .start()
        #expect(await next.next() == 0)  // read before the store: the old value, once more
        var isStored = stored.stream.makeAsyncIterator()
        await isStored.wait(for: true)
        model.betweenAnnouncementAndStore(nil)
        model.a = 2
        #expect(await next.next() == 2)
        #expect(arrivals.history.recorded == [0, 0, 2])  // 1 was never sent
        start.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func nothingIsSentAfterDisposeAndTheStartReleasesTheClosure() async {
        let model = MainModel()
        weak var weakCapture: Witness?
        let arrivals = Arrivals<Int>()
        var start: (any Disposable)?
        do {
            let capture = Witness()
            weakCapture = capture
            start = Signal(observing: { withExtendedLifetime(capture) { model.a } }).start(next: arrivals.record)
        }
        #expect(weakCapture != nil)
        model.a = 1  // schedules a read, in a later job
        start?.dispose()
        #expect(weakCapture == nil)  // the signal was not kept: its only start let go of the closure

        let barrier = Arrivals<Int>()
        let other = Signal(observing: { model.a }).start(next: barrier.record)
        var next = barrier.stream.makeAsyncIterator()
        #expect(await next.next() == 1)
        model.a = 2
        #expect(await next.next() == 2)
        #expect(arrivals.history.recorded == [0])
        other.dispose()
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func itComposesAsASearchField() async {
        let model = MainModel()
        let arrivals = Arrivals<String>()
        let search =
            Signal(observing: { model.a })
            |> distinctUntilChanged
            |> mapToSignal { query in Signal<String, NoError>.single("results for \(query)") }
        let start = search.start(next: arrivals.record)
        var next = arrivals.stream.makeAsyncIterator()
        #expect(await next.next() == "results for 0")
        model.a = 0  // the same query: dropped by distinctUntilChanged
        model.a = 4
        #expect(await next.next() == "results for 4")
        #expect(arrivals.history.recorded == ["results for 0", "results for 4"])
        start.dispose()
    }
}

/// A main-actor owner that makes its signal in a `lazy` property's initializer, where Swift passes
/// no actor (`#isolation` is `nil`) although the closure reads the main-actor model.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor private final class LazySignalOwner {
    let model = MainModel()
    /// Whether each read ran on the main queue.
    let readsOnMain = History<Bool>()
    lazy var values = Signal(observing: { [model, readsOnMain] in
        readsOnMain.record(isOnMainQueue())
        return model.a
    })
}
