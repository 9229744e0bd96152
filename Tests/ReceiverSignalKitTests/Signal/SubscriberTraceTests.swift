import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// What SwiftSignalKit's own behaviour suite pins about a subscriber beyond the API, and what
/// comparing random programs with SwiftSignalKit trace for trace found: when a subscriber lets go
/// of its handlers, kept-alive objects and disposable, that a generator's disposable is disposed
/// once, how it describes itself, and that no handler runs after `dispose()` returned. Each test
/// logs a whole trace — generator runs (`a.subscribe#1`), disposals (`a.dispose#1`), handler
/// calls, `deinit`s — and compares it with SwiftSignalKit's, one behaviour per group (its `MARK`
/// names it). Where we keep our behaviour on purpose, the test pins ours and the migration guide
/// ("When things are released, as in SwiftSignalKit") lists it. The same comparison for promises,
/// side effects and flattening is in PromiseTraceTests, SignalSideEffectsTraceTests and
/// SignalMetaTraceTests.
@Suite(.detectingLeaks) struct SubscriberTraceTests {
    // MARK: Handlers kept — a subscriber lets go of its handlers when its start ends

    @Test func disposeReleasesTheHandlersWhileTheSourceStillHoldsTheSubscriber() {
        // The reproduction: a request callback keeps the subscriber; the screen captured
        // by `next` goes at `dispose()`.
        let log = History<String>()
        let pending = Atomic<[Subscriber<Int, NoError>]>(value: [])
        let request = Signal<Int, NoError> { subscriber in
            pending.modify { $0 + [subscriber] }
            subscriber.keepAlive(Logged("keepAlive", log))
            return ActionDisposable { log.record("dispose") }
        }
        let disposable: any Disposable
        do {
            let screen = Logged("callbacks", log)
            disposable = request.start(next: { _ in _ = screen })
        }
        disposable.dispose()
        #expect(log.recorded == ["dispose", "callbacks released", "keepAlive released"])
        #expect(pending.with { $0.count } == 1)
    }

    @Test func aSourceThatDropsItsSubscriberWhenDisposedReleasesTheHandlersAfter() {
        let log = History<String>()
        let pending = Atomic<[Subscriber<Int, NoError>]>(value: [])
        let request = Signal<Int, NoError> { subscriber in
            pending.modify { $0 + [subscriber] }
            subscriber.keepAlive(Logged("keepAlive", log))
            return ActionDisposable {
                log.record("dispose")
                pending.swap([])
                log.record("source dropped subscriber")
            }
        }
        let disposable: any Disposable
        do {
            let callbacks = Logged("callbacks", log)
            disposable = request.start(next: { _ in _ = callbacks }, completed: { _ = callbacks })
        }
        disposable.dispose()
        #expect(log.recorded == ["dispose", "source dropped subscriber", "callbacks released", "keepAlive released"])
    }

    @Test func anErrorReleasesTheOtherHandlersBeforeItsOwnRuns() {
        let log = History<String>()
        let kept = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let signal = Signal<Int, TestError> { subscriber in
            kept.swap(subscriber)
            return ActionDisposable { log.record("dispose") }
        }
        do {
            let (next, error, completed) = (Logged("next", log), Logged("error", log), Logged("completed", log))
            signal.start(
                next: { _ in _ = next },
                error: { _ in
                    _ = error
                    log.record("error handler")
                },
                completed: { _ = completed })
        }
        kept.with { $0 }?.putError(TestError(code: 1))
        #expect(
            log.recorded == ["next released", "completed released", "error handler", "error released", "dispose"])
        #expect(kept.with { $0 }?.description.hasSuffix("terminated: true }") == true)
    }

    @Test func aCompletionReleasesTheOtherHandlersBeforeItsOwnRuns() {
        let log = History<String>()
        let kept = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let signal = Signal<Int, TestError> { subscriber in
            kept.swap(subscriber)
            subscriber.keepAlive(Logged("keepAlive", log))
            return ActionDisposable { log.record("dispose") }
        }
        do {
            let (next, error, completed) = (Logged("next", log), Logged("error", log), Logged("completed", log))
            signal.start(
                next: { _ in _ = next }, error: { _ in _ = error },
                completed: {
                    _ = completed
                    log.record("completed handler")
                })
        }
        kept.with { $0 }?.putCompletion()
        #expect(
            log.recorded == [
                "next released", "error released", "completed handler", "completed released", "dispose",
                "keepAlive released",
            ])
    }

    @Test func aSubscriberMadeDirectlyReleasesItsHandlersWhenItTerminates() {
        let log = History<String>()
        let subscriber: Subscriber<Int, TestError>
        do {
            let (next, completed) = (Logged("next", log), Logged("completed", log))
            subscriber = Subscriber(next: { _ in _ = next }, completed: { _ = completed })
        }
        subscriber.putNext(1)
        #expect(log.recorded == [])
        subscriber.putCompletion()
        #expect(log.recorded == ["next released", "completed released"])
    }

    @Test func aHandlerThatOwnsTheSubscriberIsNoLeakOnceTheStartEnds() {
        // An owner that keeps the subscriber and is captured by its handler: a cycle until the
        // start is disposed, then nothing holds the owner.
        final class Owner: @unchecked Sendable { var subscriber: Subscriber<Int, NoError>? }
        weak var weakOwner: Owner?
        let disposable: any Disposable
        do {
            let owner = Owner()
            weakOwner = owner
            disposable = Signal<Int, NoError> { subscriber in
                owner.subscriber = subscriber
                return EmptyDisposable
            }.start(next: { _ in _ = owner })
        }
        #expect(weakOwner != nil)
        disposable.dispose()
        #expect(weakOwner == nil)
    }

    @Test func whileItsDisposableIsDisposedTheSubscriberIsAsItWasThenLetsGoOfEverything() {
        let log = History<String>()
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let seen = Atomic<String>(value: "")
        let signal = Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            return ActionDisposable {
                log.record("dispose")
                seen.swap(kept.with { $0 }?.description ?? "")
                kept.with { $0 }?.keepAlive(Logged("kept during disposal", log))
                kept.with { $0 }?.putNext(99)  // dropped: the start is being disposed
            }
        }
        let disposable = signal.start(next: { log.record("next \($0)") }, completed: {})
        disposable.dispose()
        #expect(log.recorded == ["dispose", "kept during disposal released"])
        #expect(
            seen.with { $0 }
                == "Subscriber { next: hasValue, error: nil, completed: hasValue, disposable: hasValue, terminated: false }"
        )
        #expect(
            kept.with { $0 }?.description
                == "Subscriber { next: nil, error: nil, completed: nil, disposable: nil, terminated: true }")
    }

    @Test func duringItsTerminalHandlerASubscriberNoLongerShowsItsDisposable() {
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let seen = Atomic<String>(value: "")
        Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            return EmptyDisposable
        }.start(completed: { seen.swap(kept.with { $0 }?.description ?? "") })
        kept.with { $0 }?.putCompletion()
        #expect(
            seen.with { $0 }
                == "Subscriber { next: nil, error: nil, completed: nil, disposable: nil, terminated: true }")
    }

    @Test func aReleasedSubscriberWhoseHandleIsGoneLetsGoOfItsDisposableFirst() {
        let log = History<String>()
        let pending = Atomic<[Subscriber<Int, TestError>]>(value: [])
        let signal = Signal<Int, TestError> { subscriber in
            pending.modify { $0 + [subscriber] }
            subscriber.keepAlive(Logged("keepAlive", log))
            return LoggedDisposable(Logged("inner", log))
        }
        do {
            let (next, error, completed) = (Logged("next", log), Logged("error", log), Logged("completed", log))
            _ = signal.start(next: { _ in _ = next }, error: { _ in _ = error }, completed: { _ = completed })
        }
        pending.swap([])
        #expect(
            log.recorded == [
                "inner released", "keepAlive released", "next released", "error released", "completed released",
            ])
    }

    // MARK: keepAlive owner — kept-alive objects belong to the subscriber

    @Test func aGeneratorThatDoesNotKeepItsSubscriberReleasesKeptObjectsBeforeStartReturns() {
        let log = History<String>()
        let signal = Signal<Int, NoError> { subscriber in
            subscriber.keepAlive(Logged("keepAlive", log))
            log.record("generator end")
            return EmptyDisposable
        }
        let disposable = signal.start()
        log.record("start returned")
        #expect(log.recorded == ["generator end", "keepAlive released", "start returned"])
        disposable.dispose()
    }

    @Test func aSourceThatDropsItsSubscriberWithoutTerminatingReleasesKeptObjectsThen() {
        let log = History<String>()
        let pending = Atomic<[Subscriber<Int, NoError>]>(value: [])
        let signal = Signal<Int, NoError> { subscriber in
            subscriber.keepAlive(Logged("keepAlive", log))
            pending.modify { $0 + [subscriber] }
            return ActionDisposable { log.record("dispose") }
        }
        let disposable = signal.start()
        log.record("start returned")
        pending.swap([])
        log.record("source dropped subscriber")
        disposable.dispose()
        #expect(
            log.recorded == ["start returned", "keepAlive released", "source dropped subscriber", "dispose"])
    }

    @Test func aReleasedSubscriberLetsGoOfKeptObjectsThenOfItsHandlersInOrder() {
        let log = History<String>()
        let pending = Atomic<[Subscriber<Int, NoError>]>(value: [])
        let signal = Signal<Int, NoError> { subscriber in
            subscriber.keepAlive(Logged("keepAlive", log))
            pending.modify { $0 + [subscriber] }
            return EmptyDisposable
        }
        do {
            let (next, completed) = (Logged("next", log), Logged("completed", log))
            signal.start(next: { _ in _ = next }, completed: { _ = completed })
        }
        pending.swap([])
        #expect(log.recorded == ["keepAlive released", "next released", "completed released"])
    }

    @Test func anObjectKeptAfterTerminationIsHeldUntilTheNextTerminalCall() {
        let log = History<String>()
        let subscriber = Subscriber<Int, NoError>()
        subscriber.putCompletion()
        subscriber.keepAlive(Logged("late", log))
        subscriber.putNext(1)
        #expect(log.recorded == [])
        subscriber.putCompletion()
        #expect(log.recorded == ["late released"])
    }

    @Test func anObjectKeptInsideTheCompletedHandlerIsHeldUntilTheStartIsDisposed() {
        let log = History<String>()
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let disposable = Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            return EmptyDisposable
        }.start(completed: { kept.with { $0 }?.keepAlive(Logged("late", log)) })
        kept.with { $0 }?.putCompletion()
        #expect(log.recorded == [])
        disposable.dispose()
        #expect(log.recorded == ["late released"])
    }

    @Test func keptObjectsGoAtTerminationAndAtDisposal() {
        let log = History<String>()
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let signal = Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            subscriber.keepAlive(Logged("kept", log))
            return EmptyDisposable
        }
        signal.start()
        kept.with { $0 }?.putCompletion()
        #expect(log.recorded == ["kept released"])
        let disposable = signal.start()
        disposable.dispose()
        #expect(log.recorded == ["kept released", "kept released"])
    }
    // MARK: Disposed twice — we dispose a generator's disposable once (listed in the guide)

    @Test func aGeneratorsDisposableIsDisposedOnceWhenItsStartEndsAndIsDisposed() {
        let counter = CountingDisposable()
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let disposable = Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            return counter
        }.start()
        kept.with { $0 }?.putCompletion()
        disposable.dispose()
        disposable.dispose()
        #expect(counter.count == 1)
        let promise = Promise<Int>()
        let source = Source<Int>("s", History())
        promise.set(source.signal |> take(1) |> `catch` { _ in Signal<Int, NoError>.complete() })
        source.emit(1)  // take(1) completes and disposes the source once
        #expect(source.log.recorded == ["s.subscribe#1", "s.dispose#1"])
    }

    // MARK: Description text

    @Test func aSubscriberDescribesWhatItHoldsAsSwiftSignalKitDoes() {
        let kept = Atomic<Subscriber<Int, String>?>(value: nil)
        let signal = Signal<Int, String> { subscriber in
            kept.swap(subscriber)
            #expect(
                subscriber.description
                    == "Subscriber { next: hasValue, error: nil, completed: hasValue, disposable: nil, terminated: false }"
            )
            return EmptyDisposable
        }
        let disposable = signal.start(next: { _ in }, completed: {})
        let subscriber = try! #require(kept.with { $0 })
        #expect(
            subscriber.description
                == "Subscriber { next: hasValue, error: nil, completed: hasValue, disposable: hasValue, terminated: false }"
        )
        #expect("\(disposable)" == "SubscriberDisposable { disposable: hasValue }")
        subscriber.putCompletion()
        #expect(
            subscriber.description
                == "Subscriber { next: nil, error: nil, completed: nil, disposable: nil, terminated: true }")
        #expect("\(disposable)" == "SubscriberDisposable { disposable: hasValue }")
        disposable.dispose()
        #expect("\(disposable)" == "SubscriberDisposable { disposable: nil }")
        #expect(
            "\(Subscriber<Int, NoError>(next: { _ in }))"
                == "Subscriber { next: hasValue, error: nil, completed: nil, disposable: nil, terminated: false }")
    }

    @Test func aDisposedStartDescribesItsSubscriberAsTerminated() {
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let disposable = Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            return EmptyDisposable
        }.start(next: { _ in })
        disposable.dispose()
        #expect(
            kept.with { $0 }?.description
                == "Subscriber { next: nil, error: nil, completed: nil, disposable: nil, terminated: true }")
    }

    // MARK: No handler after dispose() returned, when an operator puts a value and its end at once

    /// `gen |> op |> map { $0 }`, disposed from the handler of the value the operator sends when
    /// `gen` completes: nothing after that, the completion included.
    @Test(arguments: ["last", "takeLast", "reduceLeft", "reduceLeftEmitting", "catch + reduceLeft", "dematerialize"])
    func aStartDisposedByTheValueBeforeItsCompletionGetsNoCompletion(_ name: String) {
        let log = History<String>()
        let gen = Source<Int>("gen", log)
        let operators: [String: (Signal<Int, TestError>) -> Signal<String, TestError>] = [
            "last": { $0 |> last |> map { "\(String(describing: $0))" } },
            "takeLast": { $0 |> takeLast |> map { "\($0)" } },
            "reduceLeft": { $0 |> reduceLeft(value: 0, f: +) |> map { "\($0)" } },
            "reduceLeftEmitting": {
                $0 |> reduceLeft(value: 0, f: { sum, value, _ in sum + value }) |> map { "\($0)" }
            },
            "catch + reduceLeft": {
                $0 |> `catch` { _ in .fail(TestError(code: 9)) } |> reduceLeft(value: 0, f: +) |> map { "\($0)" }
            },
            "dematerialize": { signal in
                signal |> dematerialize
                    |> map { event in
                        if case .Completion = event { return "end" }
                        return "event"
                    } |> castError(TestError.self)
            },
        ]
        let start = MetaDisposable()
        start.set(
            (gen.signal |> operators[name]!).start(
                next: { value in
                    log.record("next \(value)")
                    if value != "event" { start.dispose() }  // the value sent with the completion
                }, error: { log.record("error \($0)") }, completed: { log.record("completed") }))
        gen.emit(1)
        gen.complete()
        let expected = ["last": "next Optional(1)", "dematerialize": "next end"][name] ?? "next 1"
        #expect(log.recorded.suffix(2) == [expected, "gen.dispose#1"])
        #expect(!log.recorded.contains("completed"))
    }
}

/// A disposable that does nothing but hold a logged object, to show when it is released.
final class LoggedDisposable: Disposable {
    let logged: Logged
    init(_ logged: Logged) { self.logged = logged }
    func dispose() {}
}
