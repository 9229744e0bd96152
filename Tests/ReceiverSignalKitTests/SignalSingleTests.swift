import ReceiverSignalKit
import Testing

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
