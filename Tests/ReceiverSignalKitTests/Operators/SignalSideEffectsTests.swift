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

@Suite(.detectingLeaks) struct SignalSideEffectsTests {
    @Test func beforeNextRunsBeforeEachValueIsPassedOn() {
        let log = History<String>()
        startLogging(logged(log, [1, 2]) |> beforeNext { log.record("before \($0)") }, into: log)
        #expect(
            log.recorded == [
                "upstream started", "before 1", "next 1", "before 2", "next 2", "completed", "upstream disposed",
            ])
    }

    @Test func afterNextRunsAfterEachValueIsPassedOn() {
        let log = History<String>()
        startLogging(logged(log, [1, 2]) |> afterNext { log.record("after \($0)") }, into: log)
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
        startLogging(upstream |> afterNext { log.record("after \($0)") } |> take(1), into: log)
        [1, 2].forEach(input.putNext)
        #expect(log.recorded == ["next 1", "completed", "upstream disposed", "after 1"])
        // A generator still sending before it returns cannot be disposed yet: its later values
        // still pass `afterNext` (take drops them), as in SwiftSignalKit.
        let synchronous = History<String>()
        startLogging(
            logged(synchronous, [1, 2], completes: false) |> afterNext { synchronous.record("after \($0)") } |> take(1),
            into: synchronous)
        #expect(
            synchronous.recorded == [
                "upstream started", "next 1", "completed", "after 1", "after 2", "upstream disposed",
            ])
    }

    @Test func beforeStartedRunsAtEachStartBeforeTheUpstreamStarts() {
        let log = History<String>()
        let signal = logged(log, [1]) |> beforeStarted { log.record("before started") }
        startLogging(signal, into: log)
        startLogging(signal, into: log)
        let once = ["before started", "upstream started", "next 1", "completed", "upstream disposed"]
        #expect(log.recorded == once + once)
    }

    @Test func beforeCompletedRunsBeforeTheCompletionOnly() {
        let log = History<String>()
        startLogging(logged(log, [1]) |> beforeCompleted { log.record("before completed") }, into: log)
        #expect(log.recorded == ["upstream started", "next 1", "before completed", "completed", "upstream disposed"])
        let quiet = History<String>()
        startLogging(
            logged(quiet, [], error: TestError(code: 1)) |> beforeCompleted { quiet.record("before completed") },
            into: quiet)
        startLogging(
            logged(quiet, [], completes: false) |> beforeCompleted { quiet.record("before completed") }, into: quiet
        )
        .dispose()
        #expect(!quiet.recorded.contains("before completed"))
    }

    @Test func afterCompletedRunsAfterTheCompletionOnly() {
        let log = History<String>()
        startLogging(logged(log, [1]) |> afterCompleted { log.record("after completed") }, into: log)
        #expect(log.recorded == ["upstream started", "next 1", "completed", "after completed", "upstream disposed"])
        let quiet = History<String>()
        startLogging(
            logged(quiet, [], error: TestError(code: 1)) |> afterCompleted { quiet.record("after completed") },
            into: quiet)
        startLogging(
            logged(quiet, [], completes: false) |> afterCompleted { quiet.record("after completed") }, into: quiet
        )
        .dispose()
        #expect(!quiet.recorded.contains("after completed"))
    }

    @Test func afterDisposedRunsOnceOnDisposalAfterTheUpstreamIsDisposed() {
        let log = History<String>()
        let disposable = startLogging(
            logged(log, [1], completes: false) |> afterDisposed { log.record("after disposed") }, into: log)
        #expect(log.recorded == ["upstream started", "next 1"])
        disposable.dispose()
        disposable.dispose()
        #expect(log.recorded == ["upstream started", "next 1", "upstream disposed", "after disposed"])
    }

    @Test func afterDisposedRunsOnceWhenTheStartEnds() {
        let log = History<String>()
        let completed = startLogging(logged(log, [1]) |> afterDisposed { log.record("after disposed") }, into: log)
        completed.dispose()
        #expect(log.recorded == ["upstream started", "next 1", "completed", "upstream disposed", "after disposed"])
        let failed = History<String>()
        startLogging(
            logged(failed, [], error: TestError(code: 2)) |> afterDisposed { failed.record("after disposed") },
            into: failed)
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
        startLogging(signal, into: log)
        startLogging(signal, into: log)
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
        let disposable = startLogging(
            withState(
                logged(log, [], error: TestError(code: 3)), { "s" },
                error: { log.record("state error \($0) \($1)") },
                disposed: { log.record("state disposed \($0)") }
            ), into: log)
        disposable.dispose()
        #expect(
            log.recorded == [
                "upstream started", "state error TestError(code: 3) s", "error TestError(code: 3)",
                "upstream disposed", "state disposed s",
            ])
        let quiet = History<String>()
        let running = startLogging(
            withState(logged(quiet, [], completes: false), { "s" }, disposed: { quiet.record("state disposed \($0)") }),
            into: quiet)
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
        startLogging(void, into: log)
        #expect(log.recorded == ["c", "a", "next 1", "b", "d", "completed", "e", "f"])
        let plain: Signal<Int, LoadError> = withState(Signal<Int, LoadError>.fail(.network), { 0 })
        startLogging(plain, into: log)
        #expect(log.recorded.last == "error network")
    }
}
