import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// An upstream that writes its start, what it sends and its disposal in `log`: `values`, then
/// an error if `error` is given, a completion if `completes`, else nothing more.
private func logged(
    _ log: History<String>, _ values: [Int], error: TestError? = nil, completes: Bool = true
) -> Signal<Int, TestError> {
    Signal { subscriber in
        log.record("upstream started")
        values.forEach(subscriber.putNext)
        if let error { subscriber.putError(error) } else if completes { subscriber.putCompletion() }
        return ActionDisposable { log.record("upstream disposed") }
    }
}

/// Starts `signal`, writing what it sends in `log`.
@discardableResult
private func start<T, E>(_ signal: Signal<T, E>, _ log: History<String>) -> any Disposable {
    signal.start(
        next: { log.record("next \($0)") }, error: { log.record("error \($0)") }, completed: { log.record("completed") }
    )
}

@Suite(.detectingLeaks) struct SignalSideEffectsTests {
    @Test func beforeNextRunsBeforeEachValueIsPassedOn() {
        let log = History<String>()
        start(logged(log, [1, 2]) |> beforeNext { log.record("before \($0)") }, log)
        #expect(
            log.recorded == [
                "upstream started", "before 1", "next 1", "before 2", "next 2", "completed", "upstream disposed",
            ])
    }

    @Test func afterNextRunsAfterEachValueIsPassedOn() {
        let log = History<String>()
        start(logged(log, [1, 2]) |> afterNext { log.record("after \($0)") }, log)
        #expect(
            log.recorded == [
                "upstream started", "next 1", "after 1", "next 2", "after 2", "completed", "upstream disposed",
            ])
    }

    /// The value ends the start downstream (take(1) completes and disposes the upstream start),
    /// and `afterNext` still runs for it.
    @Test func afterNextRunsEvenWhenTheValueEndedTheStart() {
        let log = History<String>()
        let (input, output) = Signal<Int, TestError>.pipe()
        let upstream = Signal<Int, TestError> { subscriber in
            let forwarding = output.start(next: subscriber.putNext)
            return ActionDisposable {
                forwarding.dispose()
                log.record("upstream disposed")
            }
        }
        start(upstream |> afterNext { log.record("after \($0)") } |> take(1), log)
        [1, 2].forEach(input.putNext)
        #expect(log.recorded == ["next 1", "completed", "upstream disposed", "after 1"])
        // A generator still sending before it returns cannot be disposed yet: its later values
        // still pass `afterNext` (take drops them), as in SwiftSignalKit.
        let synchronous = History<String>()
        start(
            logged(synchronous, [1, 2], completes: false) |> afterNext { synchronous.record("after \($0)") } |> take(1),
            synchronous)
        #expect(
            synchronous.recorded == [
                "upstream started", "next 1", "completed", "after 1", "after 2", "upstream disposed",
            ])
    }

    @Test func beforeStartedRunsAtEachStartBeforeTheUpstreamStarts() {
        let log = History<String>()
        let signal = logged(log, [1]) |> beforeStarted { log.record("before started") }
        start(signal, log)
        start(signal, log)
        let once = ["before started", "upstream started", "next 1", "completed", "upstream disposed"]
        #expect(log.recorded == once + once)
    }

    @Test func beforeCompletedRunsBeforeTheCompletionOnly() {
        let log = History<String>()
        start(logged(log, [1]) |> beforeCompleted { log.record("before completed") }, log)
        #expect(log.recorded == ["upstream started", "next 1", "before completed", "completed", "upstream disposed"])
        let quiet = History<String>()
        start(
            logged(quiet, [], error: TestError(code: 1)) |> beforeCompleted { quiet.record("before completed") }, quiet)
        start(logged(quiet, [], completes: false) |> beforeCompleted { quiet.record("before completed") }, quiet)
            .dispose()
        #expect(!quiet.recorded.contains("before completed"))
    }

    @Test func afterCompletedRunsAfterTheCompletionOnly() {
        let log = History<String>()
        start(logged(log, [1]) |> afterCompleted { log.record("after completed") }, log)
        #expect(log.recorded == ["upstream started", "next 1", "completed", "after completed", "upstream disposed"])
        let quiet = History<String>()
        start(logged(quiet, [], error: TestError(code: 1)) |> afterCompleted { quiet.record("after completed") }, quiet)
        start(logged(quiet, [], completes: false) |> afterCompleted { quiet.record("after completed") }, quiet)
            .dispose()
        #expect(!quiet.recorded.contains("after completed"))
    }

    @Test func afterDisposedRunsOnceOnDisposalAfterTheUpstreamIsDisposed() {
        let log = History<String>()
        let disposable = start(
            logged(log, [1], completes: false) |> afterDisposed { log.record("after disposed") }, log)
        #expect(log.recorded == ["upstream started", "next 1"])
        disposable.dispose()
        disposable.dispose()
        #expect(log.recorded == ["upstream started", "next 1", "upstream disposed", "after disposed"])
    }

    @Test func afterDisposedRunsOnceWhenTheStartEnds() {
        let log = History<String>()
        let completed = start(logged(log, [1]) |> afterDisposed { log.record("after disposed") }, log)
        completed.dispose()
        #expect(log.recorded == ["upstream started", "next 1", "completed", "upstream disposed", "after disposed"])
        let failed = History<String>()
        start(
            logged(failed, [], error: TestError(code: 2)) |> afterDisposed { failed.record("after disposed") }, failed)
        #expect(
            failed.recorded == ["upstream started", "error TestError(code: 2)", "upstream disposed", "after disposed"])
    }

    @Test func withStateMakesStatePerStartAndSeesEveryEventFirst() {
        let log = History<String>()
        let made = Atomic(value: 0)
        let signal = withState(
            logged(log, [1]),
            { () -> String in "state\(made.modify { $0 + 1 })" },
            next: { log.record("state next \($0) \($1)") },
            completed: { log.record("state completed \($0)") },
            disposed: { log.record("state disposed \($0)") }
        )
        start(signal, log)
        start(signal, log)
        func run(_ state: String) -> [String] {
            [
                "upstream started", "state next 1 \(state)", "next 1", "state completed \(state)", "completed",
                "upstream disposed", "state disposed \(state)",
            ]
        }
        #expect(log.recorded == run("state1") + run("state2"))
    }

    @Test func withStateSeesTheErrorAndIsDisposedOnce() {
        let log = History<String>()
        let disposable = start(
            withState(
                logged(log, [], error: TestError(code: 3)), { "s" },
                error: { log.record("state error \($0) \($1)") },
                disposed: { log.record("state disposed \($0)") }
            ), log)
        disposable.dispose()
        #expect(
            log.recorded == [
                "upstream started", "state error TestError(code: 3) s", "error TestError(code: 3)",
                "upstream disposed", "state disposed s",
            ])
        let quiet = History<String>()
        let running = start(
            withState(logged(quiet, [], completes: false), { "s" }, disposed: { quiet.record("state disposed \($0)") }),
            quiet)
        running.dispose()
        running.dispose()
        #expect(quiet.recorded == ["upstream started", "upstream disposed", "state disposed s"])
    }

    @Test func sideEffectsAcceptErrorTypesThatAreNotErrors() {
        let log = History<String>()
        let void: Signal<Int, Void> =
            Signal<Int, Void>.single(1)
            |> beforeNext { _ in log.record("a") } |> afterNext { _ in log.record("b") }
            |> beforeStarted { log.record("c") }
            |> beforeCompleted { log.record("d") } |> afterCompleted { log.record("e") }
            |> afterDisposed { log.record("f") }
        start(void, log)
        #expect(log.recorded == ["c", "a", "next 1", "b", "d", "completed", "e", "f"])
        let plain: Signal<Int, LoadError> = withState(Signal<Int, LoadError>.fail(.network), { 0 })
        start(plain, log)
        #expect(log.recorded.last == "error network")
    }
}
