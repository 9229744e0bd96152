import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A signal of `values`, then an error.
private func failing(after values: [Int]) -> Signal<Int, TestError> {
    Signal { subscriber in
        values.forEach(subscriber.putNext)
        subscriber.putError(TestError(code: 1))
        return EmptyDisposable
    }
}

/// A live upstream that writes down its starts, values delivered, and disposals in `log`.
private func logged(_ output: Signal<Int, TestError>, _ log: History<String>) -> Signal<Int, TestError> {
    Signal { subscriber in
        log.record("started")
        let forwarding = output.start(
            next: subscriber.putNext, error: subscriber.putError, completed: subscriber.putCompletion)
        return ActionDisposable {
            forwarding.dispose()
            log.record("disposed")
        }
    }
}

@Suite(.detectingLeaks) struct SignalTakeTests {
    @Test func takePassesTheFirstValuesThenCompletesAndDisposesTheUpstream() {
        let log = History<String>()
        let (input, output) = Signal<Int, TestError>.pipe()
        (logged(output, log) |> take(2)).start(
            next: { log.record("next \($0)") }, completed: { log.record("completed") })
        [1, 2, 3].forEach(input.putNext)
        #expect(log.recorded == ["started", "next 1", "next 2", "completed", "disposed"])
    }

    @Test func takeCountsPerStart() {
        let signal = values([1, 2, 3]) |> take(2)
        #expect(history(of: signal) == ["1", "2", "completed"])
        #expect(history(of: signal) == ["1", "2", "completed"])
    }

    @Test func takeOfMoreThanTheUpstreamSendsEndsWithTheUpstream() {
        #expect(history(of: values([1]) |> take(3)) == ["1", "completed"])
        #expect(history(of: failing(after: [1]) |> take(3)) == ["1", "error TestError(code: 1)"])
    }

    /// SwiftSignalKit's quirk, kept: `take(0)` subscribes and waits for the upstream to end.
    @Test(arguments: [0, -1])
    func takeZeroOrLessStartsTheUpstreamPassesNothingAndEndsWithIt(count: Int) {
        let log = History<String>()
        let (input, output) = Signal<Int, TestError>.pipe()
        (logged(output, log) |> take(count)).start(
            next: { log.record("next \($0)") }, completed: { log.record("completed") })
        [1, 2].forEach(input.putNext)
        #expect(log.recorded == ["started"])
        input.putCompletion()
        #expect(log.recorded == ["started", "completed", "disposed"])
        #expect(history(of: failing(after: [1]) |> take(count)) == ["error TestError(code: 1)"])
    }

    @Test func takeLastSendsTheLastValueOnCompletion() {
        #expect(history(of: values([1, 2, 3]) |> takeLast) == ["3", "completed"])
        #expect(history(of: values([]) |> takeLast) == ["completed"])
        #expect(history(of: failing(after: [1, 2]) |> takeLast) == ["error TestError(code: 1)"])
    }

    @Test func signalTakeActionKeepsWhatItWasGiven() {
        let action = SignalTakeAction(passthrough: true, complete: false)
        #expect(action.passthrough && !action.complete)
        let other = SignalTakeAction(passthrough: false, complete: true)
        #expect(!other.passthrough && other.complete)
    }

    @Test func takeUntilPassesAndCompletesAsEachActionSays() {
        let log = History<String>()
        let (input, output) = Signal<Int, TestError>.pipe()
        let asked = History<Int>()
        let signal =
            logged(output, log)
            |> take(until: { value in
                asked.record(value)
                return SignalTakeAction(passthrough: value.isMultiple(of: 2), complete: value == 3)
            })
        signal.start(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        [1, 2, 3, 4].forEach(input.putNext)
        #expect(log.recorded == ["started", "next 2", "completed", "disposed"])
        #expect(asked.recorded == [1, 2, 3])
        let passLast = values([1, 2]) |> take(until: { SignalTakeAction(passthrough: true, complete: $0 == 2) })
        #expect(history(of: passLast) == ["1", "2", "completed"])
        #expect(
            history(of: values([1]) |> take(until: { _ in SignalTakeAction(passthrough: true, complete: false) })) == [
                "1", "completed",
            ])
    }

    @Test func lastSendsTheLastValueOrNilOnCompletion() {
        #expect(history(of: values([1, 2, 3]) |> last) == ["Optional(3)", "completed"])
        #expect(history(of: values([]) |> last) == ["nil", "completed"])
        #expect(history(of: failing(after: [1]) |> last) == ["error TestError(code: 1)"])
    }

    @Test func lastAndTakeLastStartAfreshForEachStart() {
        // Sends 1 on its first start only: a second start must not see the first one's value.
        let starts = Atomic(value: 0)
        let once = Signal<Int, TestError> { subscriber in
            if starts.modify({ $0 + 1 }) == 1 { subscriber.putNext(1) }
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let lastOfOnce = once |> last
        #expect(history(of: lastOfOnce) == ["Optional(1)", "completed"])
        #expect(history(of: lastOfOnce) == ["nil", "completed"])
        _ = starts.swap(0)
        let takeLastOfOnce = once |> takeLast
        #expect(history(of: takeLastOfOnce) == ["1", "completed"])
        #expect(history(of: takeLastOfOnce) == ["completed"])
    }

    @Test func takeOperatorsAcceptErrorTypesThatAreNotErrors() {
        let void: Signal<Int, Void> = Signal<Int, Void>.single(1) |> take(1) |> takeLast
        #expect(history(of: void) == ["1", "completed"])
        let plain: Signal<Int?, LoadError> =
            Signal<Int, LoadError>.fail(.network)
            |> take(until: { _ in SignalTakeAction(passthrough: true, complete: false) }) |> last
        #expect(history(of: plain) == ["error network"])
    }
}
