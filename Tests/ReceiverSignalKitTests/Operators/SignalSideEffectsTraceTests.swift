import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// When the side effects' functions run relative to a start's end, compared trace for trace with
/// SwiftSignalKit (see SubscriberTraceTests for the method): `afterCompleted`, `afterDisposed` and
/// `withState` after the upstream was disposed; nothing after a function disposed the start, or
/// after the start ended further down.
@Suite(.detectingLeaks) struct SignalSideEffectsTraceTests {
    // MARK: afterCompleted order — its function runs after the upstream was disposed

    @Test func afterCompletedRunsAfterTheUpstreamIsDisposed() {
        let log = History<String>()
        let a = Source<Int>("a", log)
        (a.signal |> afterCompleted { log.record("afterCompleted") })
            .start(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        a.emit(1)
        a.complete()
        #expect(log.recorded == ["a.subscribe#1", "next 1", "completed", "a.dispose#1", "afterCompleted"])
    }

    @Test func afterDisposedAndWithStateRunAfterTheUpstreamIsDisposed() {
        let log = History<String>()
        let a = Source<Int>("a", log)
        (a.signal |> afterDisposed { log.record("afterDisposed") }).start(completed: { log.record("completed") })
        a.complete()
        let b = Source<Int>("b", log)
        withState(b.signal, { 0 }, disposed: { _ in log.record("disposed") }).start()
        b.complete()
        #expect(
            log.recorded == [
                "a.subscribe#1", "completed", "a.dispose#1", "afterDisposed", "b.subscribe#1", "b.dispose#1",
                "disposed",
            ])
    }

    // MARK: No value or completion after a function disposed the start

    @Test func beforeCompletedsFunctionDisposingTheStartStopsTheCompletion() {
        let log = History<String>()
        let gen = Source<Int>("gen", log)
        let start = MetaDisposable()
        start.set(
            (gen.signal |> beforeCompleted { start.dispose() }).start(completed: { log.record("completed") }))
        gen.complete()
        #expect(log.recorded == ["gen.subscribe#1", "gen.dispose#1"])
    }

    @Test func beforeNextsFunctionDisposingTheStartStopsTheValue() {
        let log = History<String>()
        let gen = Source<Int>("gen", log)
        let start = MetaDisposable()
        start.set((gen.signal |> beforeNext { _ in start.dispose() }).start(next: { log.record("next \($0)") }))
        gen.emit(1)
        #expect(log.recorded == ["gen.subscribe#1", "gen.dispose#1"])
    }

    // MARK: No work after a start ended downstream

    @Test func beforeCompletedDoesNotRunOnceTheStartEndedDownstream() {
        let log = History<String>()
        let gen = Source<Int>("gen", log)
        (gen.signal |> last |> beforeCompleted { log.record("f") } |> take(1))
            .start(next: { log.record("next \(String(describing: $0))") }, completed: { log.record("completed") })
        gen.emit(1)
        gen.complete()
        #expect(log.recorded == ["gen.subscribe#1", "next Optional(1)", "completed", "gen.dispose#1"])
    }
}
