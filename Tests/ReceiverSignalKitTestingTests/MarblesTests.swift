import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

// The marble-diagram helper of TestSupport: what the timing tests' diagrams mean, so that a
// diagram that passes says what it looks like it says.
@Suite(.detectingLeaks) struct MarblesTests {
    @Test func aDiagramIsReadTickByTickAndWrittenBackAlike() {
        #expect(marbleTicks("a-[bc]|") == [["a"], [], ["b", "c"], ["|"]])
        #expect(marbleDiagram(marbleTicks("[a]-[b^]")) == "a-[b^]")
        #expect(marbleTicks("") == [])
    }

    @Test func eventsAreWrittenAtTheirTicksFromTheStart() {
        let events: [RecordedEvent<Int, TestError>] = [
            .next(10, 1), .next(12, 2), .next(12, 3), .error(13, TestError(code: 1)),
        ]
        #expect(marbleDiagram(events, start: 10) == "1-[23]^")
        #expect(marbleDiagram(events, start: 10, ticks: 6) == "1-[23]^--")
        #expect(marbleDiagram(events, start: 10, ticks: 2) == "1-")  // later ones left out
        // Between ticks: written with their time, at the tick before, so no diagram matches them.
        #expect(marbleDiagram(events, start: 5, tick: 2.5) == "--[1{12.0:2}{12.0:3}]{13.0:^}")
        #expect(marbleDiagram([RecordedEvent<Int, NoError>.completed(0.5)]) == "{0.5:|}")
    }

    /// A cold diagram plays from each start: its tick 0 during the start, the rest on the queue.
    @Test func marblesPlaysItsDiagramFromEachStart() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let signal = marbles("a-[bc]^d", on: queue, tick: 0.5)
        let first = scheduler.record(signal)
        #expect(first.events == [.next(0, "a")])
        scheduler.advance(by: 1)
        let second = scheduler.record(signal)
        scheduler.advance(by: 2)
        #expect(first.events == [.next(0, "a"), .next(1, "b"), .next(1, "c"), .error(1.5, TestError(code: 0))])
        #expect(second.events == [.next(1, "a"), .next(2, "b"), .next(2, "c"), .error(2.5, TestError(code: 0))])
    }

    /// (Its subscriber drops them: the diagram's own work is not cancelled.)
    @Test func aDisposedStartOfMarblesSeesNoMore() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(marbles("a-b|", on: scheduler.queue()))
        scheduler.advance(by: 1)
        recording.dispose()
        scheduler.run()
        #expect(recording.events == [.next(0, "a")])
    }

    /// A hot diagram plays once, from when it was made: a later start sees only what follows.
    @Test func hotMarblesPlaysOnceWhoeverListens() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let signal = hotMarbles("a-b-c|", on: queue)
        scheduler.advance(by: 1)
        expectMarbles(signal, "-b-c|", on: scheduler)
    }

    @Test func expectMarblesRunsTheDiagramsTicksAndDisposes() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        expectMarbles(marbles("a-b-", on: queue), "a-b-", on: scheduler)
        #expect(scheduler.now == 3)
        expectMarbles(marbles("xy", on: queue, tick: 0.5), "x-y", on: scheduler, tick: 0.25)
        #expect(scheduler.now == 3.5)
        #expect(scheduler.run())  // nothing of theirs is left
        let start = CountingDisposable()
        expectMarbles(Signal<Int, NoError> { _ in start }, "--", on: scheduler)
        #expect(start.count == 1)  // disposed when the diagram ends
    }

    @Test func expectMarblesFailsOnAnEventAtAnotherTickOrAnExtraOne() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        withKnownIssue { expectMarbles(marbles("a-b", on: queue), "ab", on: scheduler) }
        withKnownIssue { expectMarbles(marbles("a-b", on: queue), "a--", on: scheduler) }
        withKnownIssue { expectMarbles(marbles("a|", on: queue), "a^", on: scheduler) }
    }
}
