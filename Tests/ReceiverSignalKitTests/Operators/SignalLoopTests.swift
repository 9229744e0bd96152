import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A turn of a loop: logs its start ("l1.subscribe") and its disposal ("l1.dispose"), and is
/// driven by the test through its subscriber.
private final class Turn: Sendable {
    let name: String
    let log: History<String>
    private let subscribers = History<Subscriber<Int, TestError>>()

    init(_ name: String, _ log: History<String>) { (self.name, self.log) = (name, log) }

    var signal: Signal<Int, TestError> {
        Signal { subscriber in
            self.subscribers.record(subscriber)
            self.log.record("\(self.name).subscribe")
            return ActionDisposable { self.log.record("\(self.name).dispose") }
        }
    }

    func emit(_ value: Int) { subscribers.recorded.last?.putNext(value) }
    func fail(_ code: Int) { subscribers.recorded.last?.putError(TestError(code: code)) }
    func complete() { subscribers.recorded.last?.putCompletion() }
}

private func describe(_ state: SignalFeedbackLoopState<Int>) -> String {
    switch state {
    case .initial: "initial"
    case .loop(let value): "loop \(value)"
    }
}

@Suite(.detectingLeaks) struct SignalLoopTests {
    @Test func feedbackLoopStateHasTheInitialAndTheLoopCases() {
        #expect([.initial, .loop(3)].map(describe) == ["initial", "loop 3"])
    }

    /// `once` always gets `.initial`, the turns' values are dropped, `reduce` is never called,
    /// and no value is ever sent: the loop only completes, when `once` returns nil.
    @Test func feedbackLoopRunsTurnsUntilOnceReturnsNilAndSendsNothing() {
        let log = History<String>()
        let turns = [Turn("l1", log), Turn("l2", log)]
        let calls = Atomic(value: 0)
        let signal: Signal<String, TestError> = feedbackLoop(
            once: { (state: SignalFeedbackLoopState<Int>) in
                let call = calls.modify { $0 + 1 }
                log.record("once \(call) \(describe(state))")
                return call <= turns.count ? turns[call - 1].signal : nil
            },
            reduce: { lhs, rhs in
                log.record("reduce")
                return lhs + rhs
            })
        signal.start(
            next: { log.record("next \($0)") }, error: { log.record("error \($0.code)") },
            completed: { log.record("completed") })
        turns[0].emit(1)
        turns[0].emit(2)
        turns[0].complete()
        turns[1].emit(3)
        turns[1].complete()
        #expect(
            log.recorded == [
                "once 1 initial", "l1.subscribe", "once 2 initial", "l2.subscribe", "l1.dispose",
                "once 3 initial", "completed", "l2.dispose",
            ])
    }

    /// `once` ends the loop, so it has no limit on synchronous turns (restart's stops after 100,000).
    @Test func feedbackLoopRunsMoreSynchronousTurnsThanRestartsLimit() {
        var turns = 0
        var completed = false
        let signal: Signal<Never, NoError> = feedbackLoop(
            once: { (_: SignalFeedbackLoopState<Int>) in
                turns += 1
                return turns <= 150_000 ? .complete() : nil
            },
            reduce: { lhs, _ in lhs })
        signal.start(completed: { completed = true })
        #expect(turns == 150_001)
        #expect(completed)
    }

    @Test func feedbackLoopPassesOnATurnsError() {
        let log = History<String>()
        let turn = Turn("l1", log)
        let signal: Signal<Int, TestError> = feedbackLoop(
            once: { (_: SignalFeedbackLoopState<Int>) in turn.signal }, reduce: { $1 })
        signal.start(error: { log.record("error \($0.code)") }, completed: { log.record("completed") })
        turn.fail(4)
        #expect(log.recorded == ["l1.subscribe", "error 4", "l1.dispose"])
    }

    /// 10,000 turns that complete as they start: a loop, not 10,000 stack frames.
    @Test func feedbackLoopLoopsOverSynchronousTurns() {
        let calls = Atomic(value: 0)
        let signal: Signal<Int, NoError> = feedbackLoop(
            once: { (_: SignalFeedbackLoopState<Int>) in
                calls.modify { $0 + 1 } <= 10_000 ? .complete() : nil
            }, reduce: { $1 })
        var completed = false
        signal.start(completed: { completed = true })
        #expect(completed)
        #expect(calls.with { $0 } == 10_001)
    }

    /// SwiftSignalKit's loop closure holds itself, so every start leaked its subscriber and what
    /// `once` captured. Here nothing is left once the loop completes, or once it is disposed.
    @Test(arguments: [true, false])
    func feedbackLoopLetsGoOfEverythingWhenItEnds(byCompleting: Bool) {
        weak var onceCapture: Witness?
        weak var handlerCapture: Witness?
        do {
            let (captured, handlerWitness) = (Witness(), Witness())
            (onceCapture, handlerCapture) = (captured, handlerWitness)
            let calls = Atomic(value: 0)
            let signal: Signal<Int, NoError> = feedbackLoop(
                once: { (_: SignalFeedbackLoopState<Int>) in
                    _ = captured
                    let call = calls.modify { $0 + 1 }
                    if byCompleting { return call <= 2 ? .complete() : nil }
                    return .never()
                }, reduce: { $1 })
            let disposable = signal.start(completed: { _ = handlerWitness })
            if !byCompleting { disposable.dispose() }
        }
        #expect(onceCapture == nil)
        #expect(handlerCapture == nil)
    }
}
