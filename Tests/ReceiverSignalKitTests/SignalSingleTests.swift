import ReceiverSignalKit
import Testing

/// A plain error type that does not conform to `Error`, as Telegram's are.
private enum LoadError { case network }

/// Starts `signal` and returns, as text, what it sent synchronously: each value, then
/// `error <e>` or `completed`.
private func history<T, E>(of signal: Signal<T, E>) -> [String] {
    let events = History<String>()
    signal.start(
        next: { events.record("\($0)") }, error: { events.record("error \($0)") },
        completed: { events.record("completed") })
    return events.recorded
}

@Suite struct SignalSingleTests {
    @Test func singleSendsTheValueThenCompletes() {
        let signal: Signal<Int, NoError> = single(1, NoError.self)
        #expect(history(of: signal) == ["1", "completed"])
        let plain: Signal<String, LoadError> = single("a", LoadError.self)
        #expect(history(of: plain) == ["a", "completed"])
    }

    @Test func failFailsAtOnce() {
        let signal: Signal<Int, LoadError> = fail(Int.self, LoadError.network)
        #expect(history(of: signal) == ["error network"])
        let void: Signal<Int, Void> = fail(Int.self, ())
        #expect(history(of: void) == ["error ()"])
    }

    @Test func completeCompletesAtOnce() {
        let signal: Signal<Int, Void> = complete(Int.self, Void.self)
        #expect(history(of: signal) == ["completed"])
    }

    @Test func neverSendsNothing() {
        let signal: Signal<Int, LoadError> = never(Int.self, LoadError.self)
        #expect(history(of: signal) == [])
    }
}
