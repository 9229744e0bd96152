import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// What a start's handlers capture is released when the start ends — by `dispose()` or by
/// terminating — even while the source still holds its subscriber (a request callback, a
/// registry): SwiftSignalKit's lifetime (the migration guide's "When things are released, as in
/// SwiftSignalKit"), for every family of operators.
@Suite(.detectingLeaks) struct SignalLifetimeTests {
    /// One operator under test: how to apply it, and what the source puts to end the start.
    struct Case: CustomTestStringConvertible, Sendable {
        enum Ending: Sendable { case completion, error }
        let name: String
        let ending: Ending
        let apply: @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>
        init(
            _ name: String, ending: Ending = .completion,
            _ apply: @escaping @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>
        ) {
            (self.name, self.ending, self.apply) = (name, ending, apply)
        }
        var testDescription: String { name }
    }

    static let queue = Queue(name: "SignalLifetimeTests")

    static let cases: [Case] = [
        // Signal_Mapping, and the pipe versions of the core's operators
        Case("map") { $0 |> map { $0 + 1 } },
        Case("filter") { $0 |> filter { $0 > 0 } },
        Case("flatMap") { $0 |> map { Optional($0) } |> flatMap { $0 + 1 } |> map { $0 ?? 0 } },
        Case("mapError") { $0 |> mapError { $0 } },
        Case("distinctUntilChanged") { $0 |> distinctUntilChanged },
        Case("skip") { $0 |> skip(1) },
        Case("withPrevious") { $0 |> withPrevious |> map { $0.1 } },
        Case("skipNil") { $0 |> map { Optional($0) } |> skipNil },
        // Signal_Take
        Case("take") { $0 |> take(5) },
        Case("take(until:)") { $0 |> take(until: { _ in SignalTakeAction(passthrough: true, complete: false) }) },
        Case("takeLast") { $0 |> takeLast },
        Case("last") { $0 |> last |> map { $0 ?? 0 } },
        // Signal_Reduce
        Case("reduceLeft") { $0 |> reduceLeft(value: 0, f: +) },
        Case("reduceLeft emitting") {
            $0
                |> reduceLeft(
                    value: 0,
                    f: { sum, value, emit in
                        emit(sum)
                        return sum + value
                    })
        },
        Case("reduceLeft generator") {
            $0 |> reduceLeft(0, generator: { sum, value in .single((sum + value, .Some(sum))) })
        },
        // Signal_Meta
        Case("mapToSignal") { $0 |> mapToSignal { .single($0) } },
        Case("mapToSignal, never-ending inner") { $0 |> mapToSignal { _ in .never() } },
        Case("switchToLatest") { $0 |> map { Signal<Int, TestError>.single($0) } |> switchToLatest },
        Case("queue") { $0 |> map { Signal<Int, TestError>.single($0) } |> ReceiverSignalKit.queue },
        Case("throttled") { $0 |> map { Signal<Int, TestError>.single($0) } |> throttled },
        Case("mapToQueue") { $0 |> mapToQueue { .single($0) } },
        Case("mapToThrottled") { $0 |> mapToThrottled { .single($0) } },
        Case("then") { $0 |> then(.single(0)) },
        Case("deferred") { signal in deferred { signal } },
        Case("ignoreValues") { signal in
            let ended = signal |> ignoreValues
            return Signal { subscriber in
                ended.start(error: { subscriber.putError($0) }, completed: { subscriber.putCompletion() })
            }
        },
        // Signal_Catch
        Case("catch") { $0 |> `catch` { _ in .complete() } },
        Case("restart", ending: .error) { restart($0) },
        Case("recurse", ending: .error) { $0 |> recurse(nil) },
        Case("restartIfError") { restartIfError($0) |> castError(TestError.self) },
        Case("restartOrMapError") { $0 |> restartOrMapError { .error($0) } },
        Case("retry") {
            $0 |> retry(retryOnError: { _ in false }, delayIncrement: 1, maxDelay: 1, maxRetries: nil, onQueue: queue)
        },
        // Signal_Combine
        Case("combineLatest") { combineLatest($0, .single(0)) |> map { $0.0 } },
        Case("combineLatest(queue:)") { combineLatest(queue: queue, $0, .single(0)) |> map { $0.0 } },
        Case("combineLatest of an array") { combineLatest([$0, .single(0)]) |> map { $0[0] } },
        // Signal_SideEffects
        Case("beforeNext") { $0 |> beforeNext { _ in } },
        Case("afterNext") { $0 |> afterNext { _ in } },
        Case("beforeStarted") { $0 |> beforeStarted {} },
        Case("beforeCompleted") { $0 |> beforeCompleted {} },
        Case("afterCompleted") { $0 |> afterCompleted {} },
        Case("afterDisposed") { $0 |> afterDisposed {} },
        Case("withState") { withState($0, { 0 }) },
        // Signal_Materialize
        Case("dematerialize, materialize") { $0 |> dematerialize |> materialize },
        // Signal_Dispatch
        Case("deliverOn") { $0 |> deliverOn(queue) },
        Case("runOn") { $0 |> runOn(queue) },
        // Signal_Timing (the timeout never fires: every value cancels it)
        Case("timeout") { $0 |> timeout(3_600, queue: queue, alternate: .complete()) },
    ]

    /// A source that keeps every subscriber it is given, forever, as a request registry would.
    final class Registry: Sendable {
        let subscribers = Atomic<[Subscriber<Int, TestError>]>(value: [])
        var signal: Signal<Int, TestError> {
            Signal { subscriber in
                self.subscribers.modify { $0 + [subscriber] }
                return EmptyDisposable
            }
        }
        func put(_ body: (Subscriber<Int, TestError>) -> Void) {
            for subscriber in subscribers.with({ $0 }) { body(subscriber) }
        }
    }

    /// Starts `signal` with handlers that capture a witness; returns the start and a weak view of
    /// the witness.
    func start(_ signal: Signal<Int, TestError>) -> (any Disposable, () -> Witness?) {
        weak var weakWitness: Witness?
        let disposable: any Disposable
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = signal.start(
                next: { _ in _ = witness }, error: { _ in _ = witness }, completed: { _ = witness })
        }
        return (disposable, { weakWitness })
    }

    /// Lets everything dispatched to the test queue so far run.
    func settle() { Self.queue.sync {} }

    @Test(arguments: cases)
    func disposingReleasesWhatTheHandlersCapture(_ operation: Case) {
        let registry = Registry()
        let (disposable, witness) = start(operation.apply(registry.signal))
        registry.put { $0.putNext(1) }
        settle()
        #expect(witness() != nil)
        disposable.dispose()
        settle()
        #expect(witness() == nil)
        #expect(registry.subscribers.with { $0.count } <= 2)  // still held by the source
    }

    @Test(arguments: cases)
    func terminatingReleasesWhatTheHandlersCapture(_ operation: Case) {
        let registry = Registry()
        let (disposable, witness) = start(operation.apply(registry.signal))
        settle()
        registry.put { $0.putNext(1) }
        settle()
        registry.put { subscriber in
            switch operation.ending {
            case .completion: subscriber.putCompletion()
            case .error: subscriber.putError(TestError(code: 1))
            }
        }
        settle()
        #expect(witness() == nil)
        _ = disposable
    }

    @Test func promisesAndPipesReleaseWhatTheirSubscribersCapture() {
        let (promise, valuePromise, pipe) = (Promise(1), ValuePromise(1), ValuePipe<Int>())
        for signal in [promise.get(), valuePromise.get(), pipe.signal(), Receiver<Int>.make(with: .cold).1.signal] {
            let (disposable, witness) = start(signal |> map { $0 } |> castError(TestError.self))
            #expect(witness() != nil)
            disposable.dispose()
            #expect(witness() == nil)
        }
    }

    /// `then` and `catch` whose running source lets go of its subscriber without ending: the
    /// first signal (`never()`), or the second one. Like a plain start's, the handlers, and what
    /// they capture, are released then, also when they hold the start themselves (as `get()`'s do).
    static let sourcesThatLetGo: [(String, Signal<Int, TestError>)] = [
        ("plain never()", .never()),
        ("then, first lets go", Signal<Int, TestError>.never() |> then(.single(1))),
        ("then, second lets go", Signal<Int, TestError>.complete() |> then(.never())),
        ("catch, first lets go", Signal<Int, TestError>.never() |> `catch` { _ in .single(1) }),
        ("catch, second lets go", Signal<Int, TestError>.fail(TestError(code: 1)) |> `catch` { _ in .never() }),
        (
            "then, first held, then let go",
            Signal<Int, TestError> { subscriber in
                let held = Atomic<Subscriber<Int, TestError>?>(value: subscriber)
                held.swap(nil)
                return EmptyDisposable
            } |> then(.single(1))
        ),
    ]

    @Test(arguments: 0..<sourcesThatLetGo.count)
    func aStartWhoseSourceLetsGoReleasesItsHandlersThoughTheyHoldTheStart(_ index: Int) {
        let (name, signal) = Self.sourcesThatLetGo[index]
        weak var weakWitness: Witness?
        weak var weakHolder: MetaDisposable?
        do {
            let witness = Witness()
            let holder = MetaDisposable()
            (weakWitness, weakHolder) = (witness, holder)
            holder.set(
                signal.start(
                    next: { _ in _ = (witness, holder) }, error: { _ in _ = (witness, holder) },
                    completed: { _ = (witness, holder) }))
        }
        #expect(weakWitness == nil, "\(name)")
        #expect(weakHolder == nil, "\(name)")
    }

    /// SwiftSignalKit keeps this start alive for good through a retain cycle, and never disposes
    /// `gen`'s disposables; here, once every reference is dropped without `dispose()`, it is freed,
    /// and the promise, freed with it, disposes the run of `gen` it was set to (the migration
    /// guide's row on abandoned starts).
    @Test func anAbandonedStartWhoseHandlersLeadBackThroughAPromiseIsFreed() {
        let disposals = Atomic<[Int]>(value: [])
        let subscribers = Atomic<[Subscriber<Int, NoError>]>(value: [])
        weak var weakPromise: Promise<Int>?
        weak var weakWitness: Witness?
        do {
            let promise = Promise<Int>()
            let witness = Witness()
            (weakPromise, weakWitness) = (promise, witness)
            let gen = Signal<Int, NoError> { subscriber in
                let run = subscribers.modify { $0 + [subscriber] }.count
                return ActionDisposable { disposals.modify { $0 + [run] } }
            }
            var start: (any Disposable)? =
                (Signal<Int, NoError>.single(0) |> mapToSignal { _ in gen }
                |> mapToSignal { [promise.get(), .never()][$0 % 2] })
                .start(next: { _ in _ = witness })
            subscribers.with { $0[0] }.putNext(0)
            subscribers.with { $0[0] }.putNext(5)
            promise.set(gen)
            #expect(subscribers.with { $0.count } == 2)
            start = nil
            _ = start
        }
        subscribers.swap([])  // the source lets go of its subscribers too: nothing is left
        #expect(weakPromise == nil)
        #expect(weakWitness == nil)
        #expect(disposals.with { $0 } == [2])
    }
}
