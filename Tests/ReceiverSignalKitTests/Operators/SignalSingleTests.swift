import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct SignalSingleTests {
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

/// `single`, `fail` and `complete` deliver everything before their start returns, without the
/// subscriber a generator's start has; each behaves exactly as the generator that puts the same
/// events does. Each test runs both and compares what they did.
@Suite(.detectingLeaks) struct InstantSubscriptionTests {
    enum Maker: CaseIterable, Sendable, CustomStringConvertible {
        case single, fail, complete

        var description: String { "\(self == .single ? "single" : self == .fail ? "fail" : "complete")" }

        /// The maker's signal.
        var instant: Signal<Int, LoadError> {
            switch self {
            case .single: .single(1)
            case .fail: .fail(.network)
            case .complete: .complete()
            }
        }

        /// The generator that puts what the maker's signal sends.
        var generated: Signal<Int, LoadError> {
            Signal { subscriber in
                switch self {
                case .single:
                    subscriber.putNext(1)
                    subscriber.putCompletion()
                case .fail: subscriber.putError(.network)
                case .complete: subscriber.putCompletion()
                }
                return EmptyDisposable
            }
        }
    }

    /// Starts `signal`, prints its handle, disposes it twice and prints it after each.
    func handleLog(_ signal: Signal<Int, LoadError>) -> [String] {
        let disposable = signal.start()
        var log = ["\(disposable)"]
        disposable.dispose()
        log.append("\(disposable)")
        disposable.dispose()
        log.append("\(disposable)")
        return log
    }

    @Test(arguments: Maker.allCases) func theHandlePrintsAsAGeneratorsStartDoes(_ maker: Maker) {
        let log = handleLog(maker.instant)
        #expect(
            log == [
                "SubscriberDisposable { disposable: hasValue }", "SubscriberDisposable { disposable: nil }",
                "SubscriberDisposable { disposable: nil }",
            ])
        #expect(log == handleLog(maker.generated))
    }

    /// Starts `signal` from inside its own handlers, two deep, and runs a restart loop over
    /// `looped` (`restart |> take(2)`) from inside them, logging each event, each start's return
    /// and its handle before and after disposal. (Inside a terminal handler the loop pauses on the
    /// ended start around it and resumes when that start returns.)
    func reentrantLog(_ signal: Signal<Int, LoadError>, looping looped: Signal<Int, LoadError>) -> [String] {
        var log: [String] = []
        var depth = 0
        func run(_ label: String) {
            depth += 1
            defer { depth -= 1 }
            let nested = { (mark: String) in
                guard depth < 3 else { return }
                run(label + mark)
                let loop = (restart(looped) |> take(2)).start(
                    next: { log.append("\(label) loop next \($0)") },
                    error: { log.append("\(label) loop error \($0)") },
                    completed: { log.append("\(label) loop completed") })
                log.append("\(label) loop returned \(loop)")
                loop.dispose()
            }
            let disposable = signal.start(
                next: {
                    log.append("\(label) next \($0)")
                    nested(">")
                },
                error: {
                    log.append("\(label) error \($0)")
                    nested("!")
                },
                completed: {
                    log.append("\(label) completed")
                    nested(".")
                })
            log.append("\(label) returned \(disposable)")
            disposable.dispose()
            log.append("\(label) disposed \(disposable)")
        }
        run("a")
        return log
    }

    @Test(arguments: Maker.allCases) func reenteringHandlersSeeWhatAGeneratorsStartShows(_ maker: Maker) {
        let log = reentrantLog(maker.instant, looping: Maker.single.instant)
        #expect(log.count > 10)
        #expect(log == reentrantLog(maker.generated, looping: Maker.single.generated))
    }

    /// Restart loops over each maker, around a `take` that stops them (they run iteratively,
    /// pausing on the ended start around them: thousands of restarts do not recurse).
    func loopLog(_ signal: Signal<Int, LoadError>, count: Int) -> [String] {
        var log: [String] = []
        var values = 0
        let disposable = (restart(signal |> then(.single(2))) |> take(count)).start(
            next: { values += $0 }, error: { log.append("error \($0)") }, completed: { log.append("completed") })
        log.append("sum \(values)")
        disposable.dispose()
        return log
    }

    @Test(arguments: Maker.allCases) func restartLoopsOverThemRunAsOverAGenerator(_ maker: Maker) {
        let log = loopLog(maker.instant, count: 20_000)
        #expect(log == loopLog(maker.generated, count: 20_000))
        #expect(log.last == (maker == .single ? "sum 30000" : maker == .fail ? "sum 0" : "sum 40000"))
    }

    @Test(arguments: Maker.allCases) func disposingTheHandleFromManyThreadsAtOnceIsSafe(_ maker: Maker) {
        let handles = (0..<256).map { _ in maker.instant.start() }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            // Half the threads look at each handle before disposing it, half only dispose it.
            for handle in thread.isMultiple(of: 2) ? handles : handles.reversed() {
                if thread >= 2 { _ = "\(handle)" }
                handle.dispose()
            }
        }
        #expect(handles.allSatisfy { "\($0)" == "SubscriberDisposable { disposable: nil }" })
    }
}
