import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct SignalPipeTests {
    enum Event: Equatable {
        case next(Int)
        case error(TestError)
        case completed
    }

    func record(_ signal: Signal<Int, TestError>) -> (History<Event>, any Disposable) {
        let events = History<Event>()
        let disposable = signal.start(
            next: { events.record(.next($0)) },
            error: { events.record(.error($0)) },
            completed: { events.record(.completed) }
        )
        return (events, disposable)
    }

    @Test(arguments: [
        (Receiver<Int>.Strategy.hot, [SignalPipeTests.Event.next(3)], [SignalPipeTests.Event.completed]),
        (.warm(upTo: 2), [.next(1), .next(2), .next(3)], [.next(2), .next(3), .completed]),
        (.cold, [.next(0), .next(1), .next(2), .next(3)], [.next(0), .next(1), .next(2), .next(3), .completed]),
    ])
    func lateSubscribersGetTheKeptValuesThenTheTerminalEvent(
        strategy: Receiver<Int>.Strategy, midway: [Event], afterTheEnd: [Event]
    ) {
        let (input, output) = Signal<Int, TestError>.pipe(with: strategy)
        let (early, _) = record(output)
        input.putNext(0)
        input.putNext(1)
        input.putNext(2)
        let (middle, _) = record(output)
        input.putNext(3)
        input.putCompletion()
        input.putNext(4)  // after the end: goes nowhere
        let (late, _) = record(output)
        #expect(early.recorded == [.next(0), .next(1), .next(2), .next(3), .completed])
        #expect(middle.recorded == midway + [.completed])
        #expect(late.recorded == afterTheEnd)
    }

    @Test func theFirstTerminalEventIsKeptAndAnErrorReachesLateSubscribers() {
        let (input, output) = Signal<Int, TestError>.pipe(with: .warm(upTo: 1))
        input.putNext(1)
        input.putError(TestError(code: 1))
        input.putCompletion()
        input.putError(TestError(code: 2))
        let (late, _) = record(output)
        #expect(late.recorded == [.next(1), .error(TestError(code: 1))])
    }

    @Test func disposingOneStartLeavesTheOthers() {
        let (input, output) = Signal<Int, TestError>.pipe()
        let (first, firstDisposable) = record(output)
        let (second, _) = record(output)
        input.putNext(1)
        firstDisposable.dispose()
        input.putNext(2)
        #expect(first.recorded == [.next(1)])
        #expect(second.recorded == [.next(1), .next(2)])
    }

    @Test func aStartRacingTheEndGetsEveryValueAfterItsReplayThenTheEnd() {
        for _ in 0..<20 {
            let (input, output) = Signal<Int, TestError>.pipe(with: .warm(upTo: 1))
            let histories = Atomic<[[Event]]>(value: [])
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                if thread == 0 {
                    for value in 0..<200 { input.putNext(value) }
                    input.putCompletion()
                } else {
                    for _ in 0..<20 {
                        let (events, _) = record(output)
                        histories.modify { $0 + [events.recorded] }
                    }
                }
            }
            for history in histories.with({ $0 }) {
                // Each history is consecutive values, possibly followed by the completion.
                let values = history.compactMap { if case .next(let value) = $0 { value } else { nil } }
                #expect(values == Array(values.first.map { $0..<($0 + values.count) } ?? 0..<0))
                #expect(history.dropLast().allSatisfy { $0 != .completed })
            }
            let (late, _) = record(output)
            #expect(late.recorded == [.next(199), .completed])
        }
    }
}
