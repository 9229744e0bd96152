import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// The flattening operators and `then`, compared trace for trace with SwiftSignalKit (see
/// SubscriberTraceTests for the method): inners that end as they start, the order of disposals,
/// no inner or next signal started once the start has ended, and no leak where SwiftSignalKit
/// leaks.
@Suite(.detectingLeaks) struct SignalMetaTraceTests {
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
