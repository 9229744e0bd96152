import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// Something whose release shows in a log, as SwiftSignalKit's own suite logs "… released".
final class Logged: Sendable {
    let name: String
    let log: History<String>
    init(_ name: String, _ log: History<String>) { (self.name, self.log) = (name, log) }
    deinit { log.record("\(name) released") }
}

/// What SwiftSignalKit's own behaviour suite pins beyond the API, and what comparing random
/// programs with SwiftSignalKit trace for trace found: when handlers, kept-alive and replaced
/// objects are released, in which order starts are disposed (the migration guide's "When things
/// are released, as in SwiftSignalKit", Sources/ReceiverSignalKit/ReceiverSignalKit.docc/
/// SwiftSignalKitMigrationGuide.md), and that no handler runs after `dispose()` or after a start
/// has ended. Each test logs a whole trace — generator runs (`a.subscribe#1`), disposals
/// (`a.dispose#1`), handler calls, `deinit`s — and compares it with SwiftSignalKit's, one
/// behaviour per group (its `MARK` names it). Where we keep our behaviour on purpose, the test
/// pins ours and the migration guide lists it.
@Suite(.detectingLeaks) struct SwiftSignalKitTraceTests {
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

    // MARK: Replaced value released late — a promise lets go of it before the new one is delivered

    @Test func aPromiseReleasesItsReplacedValueBeforeDeliveringTheNewOne() {
        let log = History<String>()
        let promise = Promise<Logged>()
        let disposable = promise.get().start(next: { log.record("next \($0.name)") })
        promise.set(.single(Logged("1", log)))
        promise.set(.single(Logged("2", log)))
        #expect(log.recorded == ["next 1", "1 released", "next 2"])
        disposable.dispose()
    }

    @Test func aValuePromiseReleasesItsReplacedValueBeforeDeliveringTheNewOne() {
        let log = History<String>()
        let promise = ValuePromise(LoggedValue(Logged("1", log)))
        let disposable = promise.get().start(next: { log.record("next \($0.logged.name)") })
        promise.set(LoggedValue(Logged("2", log)))
        #expect(log.recorded == ["next 1", "1 released", "next 2"])
        disposable.dispose()
    }

    // MARK: ignoreRepeated keeps the original

    @Test func ignoringARepeatKeepsTheStoredObjectAndDropsTheNewOne() {
        let log = History<String>()
        let original = LoggedValue(Logged("original", log), key: 1)
        let promise = ValuePromise(original, ignoreRepeated: true)
        promise.set(LoggedValue(Logged("duplicate", log), key: 1))
        #expect(log.recorded == ["duplicate released"])
        #expect(current(promise.get())?.logged === original.logged)
    }

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

    // MARK: Synchronous inners — a value before its inner's disposal, inners disposed in SwiftSignalKit's order

    /// A logged inner that sends `value` and completes as it starts.
    static func synchronous(_ name: String, _ value: Int, _ log: History<String>) -> Signal<Int, TestError> {
        Source<Int>(name, log) { subscriber, _ in
            subscriber.putNext(value)
            subscriber.putCompletion()
        }.signal
    }

    @Test func queueDeliversEachSynchronousInnersValueBeforeDisposingIt() {
        let log = History<String>()
        let (outer, a) = (Source<Signal<Int, TestError>>("o", log), Source<Int>("a", log))
        (outer.signal |> ReceiverSignalKit.queue).start(
            next: { log.record("next \($0)") }, completed: { log.record("completed") })
        outer.emit(a.signal)
        outer.emit(Self.synchronous("s2", 2, log))
        outer.emit(Self.synchronous("s3", 3, log))
        a.complete()
        outer.complete()
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "s2.subscribe#1", "next 2", "s2.dispose#1", "a.dispose#1",
                "s3.subscribe#1", "next 3", "s3.dispose#1", "completed", "o.dispose#1",
            ])
    }

    @Test func switchToLatestDeliversEachSynchronousInnersValueBeforeDisposingIt() {
        let log = History<String>()
        let outer = Source<Int>("o", log)
        (outer.signal |> mapToSignal { Self.synchronous("s\($0)", $0, log) }).start(
            next: { log.record("next \($0)") }, completed: { log.record("completed") })
        outer.emit(1)
        outer.emit(2)
        outer.complete()
        #expect(
            log.recorded == [
                "o.subscribe#1", "s1.subscribe#1", "next 1", "s1.dispose#1", "s2.subscribe#1", "next 2", "s2.dispose#1",
                "completed", "o.dispose#1",
            ])
    }

    @Test(arguments: ["switchToLatest", "queue"])
    func endingTheStartWhileASynchronousInnerStartsDisposesTheOuterThenTheInner(_ name: String) {
        let log = History<String>()
        let outer = Source<Signal<Int, TestError>>("o", log)
        let inner = Source<Int>("s", log) { subscriber, _ in subscriber.putNext(1) }
        let flattened = name == "queue" ? outer.signal |> ReceiverSignalKit.queue : outer.signal |> switchToLatest
        (flattened |> take(1)).start(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        outer.emit(inner.signal)
        #expect(
            log.recorded == ["o.subscribe#1", "s.subscribe#1", "next 1", "completed", "o.dispose#1", "s.dispose#1"])
    }

    /// The outer fails while the start is being made; the start is torn down when it returns,
    /// so the outer's disposal (as its generator returns) comes before the inner's.
    @Test func aSynchronousFailureDisposesTheOuterThenTheInner() {
        let log = History<String>()
        let gen2 = Source<Int>("gen2", log)
        let gen1 = Source<Int>("gen1", log) { subscriber, _ in
            subscriber.putNext(3)
            subscriber.putError(TestError(code: 1))
        }
        (gen1.signal |> mapToSignal { _ in gen2.signal }).start(
            next: { log.record("next \($0)") }, error: { log.record("error \($0.code)") })
        #expect(
            log.recorded == ["gen1.subscribe#1", "gen2.subscribe#1", "error 1", "gen1.dispose#1", "gen2.dispose#1"])
    }

    /// Ours, kept (the migration guide's row on an outer value that arrives after the result has
    /// failed): once the result has failed, a value the outer still puts while its generator runs
    /// starts no inner. SwiftSignalKit, which cannot stop the outer before its generator returns,
    /// still starts `gen2` for the value 1 and disposes it: `["gen1.subscribe#1", "error 2",
    /// "gen2.subscribe#1", "gen2.dispose#1", "gen1.dispose#1"]`.
    @Test func noInnerStartsForAValueThatComesAfterTheResultFailed() {
        let log = History<String>()
        let gen2 = Source<Int>("gen2", log)
        let gen1 = Source<Int>("gen1", log) { subscriber, _ in
            subscriber.putNext(2)  // -> fail: the result fails
            subscriber.putNext(1)  // -> gen2: not started
        }
        let inners: [Signal<Int, TestError>] = [.never(), gen2.signal, .fail(TestError(code: 2))]
        (gen1.signal |> mapToSignal { inners[$0 % 3] }).start(
            next: { log.record("next \($0)") }, error: { log.record("error \($0.code)") })
        #expect(log.recorded == ["gen1.subscribe#1", "error 2", "gen1.dispose#1"])
        #expect(gen2.starts == 0)
    }

    /// A lazy promise whose first access sends "A" then "B", read behind two `mapToSignal`s. The
    /// inner `get()` is started while the outer `mapToSignal` is still making its start, inside the
    /// synchronous start window, so it delivers both values as SwiftSignalKit does (without the
    /// window, in the library's earlier design, the switch waited behind the handler, and "B"
    /// arrived twice).
    @Test func aLazyPromiseBehindTwoSwitchesDeliversEverythingItsFirstAccessSends() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let log = History<String>()
        let promise = Promise<String>(
            initializeOnFirstAccess: Signal { subscriber in
                subscriber.putNext("A")
                subscriber.putNext("B")
                return EmptyDisposable
            })
        (Signal<Int, NoError>.single(0) |> mapToSignal { _ in promise.get() } |> mapToSignal { _ in promise.get() })
            .start(next: { log.record("next \($0)") }).disposed(by: bag)
        #expect(log.recorded == ["next A", "next B"])
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

    @Test func thenDoesNotStartItsNextSignalOnceTheStartEndedDownstream() {
        let log = History<String>()
        let (gen, following) = (Source<Int>("gen", log), Source<Int>("following", log))
        let events =
            gen.signal |> dematerialize |> castError(TestError.self)
            |> then(following.signal |> map { _ in .Completion })
        (events |> take(until: { _ in SignalTakeAction(passthrough: true, complete: true) }))
            .start(next: { log.record("next \($0)") }, completed: { log.record("completed") })
        gen.complete()
        #expect(log.recorded == ["gen.subscribe#1", "next Completion", "completed", "gen.dispose#1"])
        #expect(following.starts == 0)
    }

    // MARK: then does not start its next signal after dispose()

    @Test func thenDoesNotStartItsNextSignalWhenDisposedByTheLastValue() {
        let log = History<String>()
        let (gen, other) = (Source<Int>("gen", log), Source<Int?>("other", log))
        let start = MetaDisposable()
        start.set(
            (gen.signal |> last |> then(other.signal)).start(next: {
                log.record("next \(String(describing: $0))")
                start.dispose()
            }))
        gen.emit(1)
        gen.complete()
        #expect(log.recorded == ["gen.subscribe#1", "next Optional(1)", "gen.dispose#1"])
        #expect(other.starts == 0)
    }

    // MARK: No leak when a start's handle is dropped

    @Test func aNeverEndingQueuedReduceLeftWhoseHandleIsDroppedIsFreed() {
        weak var weakSentinel: Witness?
        do {
            let sentinel = Witness()
            weakSentinel = sentinel
            (Signal<Int, NoError>.never()
                |> reduceLeft(
                    0,
                    generator: { sum, value in
                        _ = sentinel
                        return .single((sum + value, .None))
                    }))
                .start()
        }
        #expect(weakSentinel == nil)
    }

    /// Where SwiftSignalKit leaks (a cycle through its subscribers): `then` after a never-ending
    /// start, and a `mapToSignal` whose inner never ends, each started and its handle dropped:
    /// once their source is gone, nothing of theirs is left (a promise's own `get()` start keeps
    /// that promise alive, by design, so the source here is a pipe, which its signal holds weakly).
    @Test func startsThatSwiftSignalKitLeaksAreFreedWhenTheirHandleIsDropped() {
        weak var weakWitness: Witness?
        weak var weakPromise: Promise<Int>?
        do {
            let witness = Witness()
            weakWitness = witness
            let (pipe, promise) = (ValuePipe<Int>(), Promise<Int>())
            weakPromise = promise
            (pipe.signal() |> then(promise.get())).start(next: { _ in _ = witness })
            (pipe.signal() |> mapToSignal { _ in Signal<Int, NoError>.never() }).start(next: { _ in _ = witness })
            pipe.putNext(1)
        }
        #expect(weakWitness == nil)
        #expect(weakPromise == nil)
    }
}

/// An `Equatable` value around a logged object: equal when the keys are, whatever the object.
struct LoggedValue: Equatable, Sendable {
    let logged: Logged
    let key: Int
    init(_ logged: Logged, key: Int? = nil) { (self.logged, self.key) = (logged, key ?? Int(logged.name) ?? 0) }
    static func == (a: Self, b: Self) -> Bool { a.key == b.key }
}

/// A disposable that does nothing but hold a logged object, to show when it is released.
final class LoggedDisposable: Disposable {
    let logged: Logged
    init(_ logged: Logged) { self.logged = logged }
    func dispose() {}
}
