// The library behind the adapter's model-based test: each program's signals built with
// ReceiverSignalKit's public API — `Signal { subscriber in … }`, the operators as free functions
// with `|>`, `Promise`, `ValuePromise`, `ValuePipe`, `MetaDisposable`, `DisposableSet` — so that
// it keeps working whatever the library's internals become.
//
// In the test target the library is the module `ReceiverSignalKit`; the fuzz target compiles its
// sources into the same module as this file, so there is nothing to import.
#if canImport(ReceiverSignalKit)
import ReceiverSignalKit
#endif

/// What a driven generator returns: on **every** `dispose()` call (not idempotent on purpose, so
/// that a second call shows), logs `gN.dispose#k` and puts the program's `disposalPuts` into its
/// subscriber.
///
/// `@unchecked Sendable`: `Disposable` is `Sendable`; the model-based test runs on one thread.
final class SignalModelLoggingDisposable: Disposable, @unchecked Sendable {
    private weak var context: (any SignalModelContext)?
    private weak var subscriber: Subscriber<Int, Int>?
    private let generator: Int, start: Int, puts: [SignalModelPut]

    init(
        _ context: any SignalModelContext, _ subscriber: Subscriber<Int, Int>, generator: Int, start: Int,
        puts: [SignalModelPut]
    ) {
        (self.context, self.subscriber) = (context, subscriber)
        (self.generator, self.start, self.puts) = (generator, start, puts)
    }

    func dispose() {
        context?.generatorDisposed(generator, start: start)
        guard let subscriber else { return }
        for event in puts { SignalLibraryEngine.put(event, into: subscriber) }
    }
}

final class SignalLibraryEngine: SignalModelEngine {
    typealias Handle = any Disposable

    private unowned let context: any SignalModelContext
    private let program: SignalModelProgram
    private let promises: [Promise<Int>]
    private let valuePromises: [ValuePromise<Int>]
    private let pipes: [ValuePipe<Int>]
    private let metas: [MetaDisposable]
    private let sets: [DisposableSet]
    /// Each generator's starts' subscribers, in order: `put` reaches them.
    private var subscribers: [[Subscriber<Int, Int>]]

    init(_ program: SignalModelProgram, options: SignalModelOptions, context: any SignalModelContext) {
        (self.program, self.context) = (program, context)
        promises = program.promises.map { initial in initial.map { Promise($0) } ?? Promise() }
        valuePromises = program.valuePromises.map { spec in
            spec.initial.map { ValuePromise($0, ignoreRepeated: spec.ignoreRepeated) }
                ?? ValuePromise(ignoreRepeated: spec.ignoreRepeated)
        }
        pipes = (0..<program.pipes).map { _ in ValuePipe() }
        metas = (0..<program.metas).map { _ in MetaDisposable() }
        sets = (0..<program.sets).map { _ in DisposableSet() }
        subscribers = Array(repeating: [], count: program.generators.count)
    }

    func start(
        _ signal: SignalModelSignal, next: @escaping (Int) -> Void, error: @escaping (Int) -> Void,
        completed: @escaping () -> Void
    ) -> any Disposable {
        self.signal(signal).start(next: next, error: error, completed: completed)
    }

    func dispose(_ handle: any Disposable) { handle.dispose() }

    func put(generator: Int, start: Int, _ event: SignalModelPut) {
        guard start <= subscribers[generator].count else { return }
        Self.put(event, into: subscribers[generator][start - 1])
    }

    func setPromise(_ promise: Int, _ signal: SignalModelSignal) {
        let source = self.signal(signal)
        // As a `Signal<Int, NoError>`: a stage that passes values and the completion on.
        promises[promise].set(
            Signal { subscriber in
                source.start(next: { subscriber.putNext($0) }, completed: { subscriber.putCompletion() })
            })
    }

    func setValue(_ promise: Int, _ value: Int) { valuePromises[promise].set(value) }

    func putPipe(_ pipe: Int, _ value: Int) { pipes[pipe].putNext(value) }

    func setMeta(_ meta: Int, _ handle: (any Disposable)?) { metas[meta].set(handle) }

    func disposeMeta(_ meta: Int) { metas[meta].dispose() }

    func addToSet(_ set: Int, _ handle: any Disposable) { sets[set].add(handle) }

    func removeFromSet(_ set: Int, _ handle: any Disposable) { sets[set].remove(handle) }

    func disposeSet(_ set: Int) { sets[set].dispose() }

    static func put(_ event: SignalModelPut, into subscriber: Subscriber<Int, Int>) {
        switch event {
        case .next(let value): subscriber.putNext(value)
        case .error(let error): subscriber.putError(error)
        case .completed: subscriber.putCompletion()
        }
    }

    /// The library's signal for `signal`.
    private func signal(_ signal: SignalModelSignal) -> Signal<Int, Int> {
        typealias F = SignalModelFunctions
        switch signal {
        case .single(let value):
            return .single(value)
        case .complete:
            return .complete()
        case .fail(let error):
            return .fail(error)
        case .never:
            return .never()
        case .generator(let generator):
            return Signal { [unowned self] subscriber in
                let start = context.generatorStarted(generator)
                subscribers[generator].append(subscriber)
                for event in program.generators[generator] { Self.put(event, into: subscriber) }
                return SignalModelLoggingDisposable(
                    context, subscriber, generator: generator, start: start, puts: program.disposalPuts[generator])
            }
        case .promise(let promise):
            return promises[promise].get() |> castError(Int.self)
        case .valuePromise(let promise):
            return valuePromises[promise].get() |> castError(Int.self)
        case .pipe(let pipe):
            return pipes[pipe].signal() |> castError(Int.self)
        case .map(let k, let upstream):
            return self.signal(upstream) |> map { F.map(k, $0) }
        case .filter(let k, let upstream):
            return self.signal(upstream) |> filter { F.filter(k, $0) }
        case .distinctUntilChanged(let upstream):
            return self.signal(upstream) |> distinctUntilChanged
        case .take(let count, let upstream):
            return self.signal(upstream) |> take(count)
        case .then(let upstream, let following):
            return self.signal(upstream) |> then(self.signal(following))
        case .catch(let upstream, let alternatives):
            let alternatives = alternatives.map(self.signal)
            return self.signal(upstream) |> `catch` { F.pick(alternatives, $0) }
        case .mapError(let k, let upstream):
            return self.signal(upstream) |> mapError { F.mapError(k, $0) }
        case .ignoreValues(let upstream):
            return self.signal(upstream) |> ignoreValues |> map { (never: Never) -> Int in }
        case .mapToSignal(let upstream, let inners):
            let inners = inners.map(self.signal)
            return self.signal(upstream) |> mapToSignal { F.pick(inners, $0) }
        case .switchToLatest(let upstream, let inners):
            let inners = inners.map(self.signal)
            return self.signal(upstream) |> map { F.pick(inners, $0) } |> switchToLatest
        case .queue(let upstream, let inners):
            let inners = inners.map(self.signal)
            return self.signal(upstream) |> map { F.pick(inners, $0) } |> queue
        case .combineLatest(let inputs):
            let inputs = inputs.map(self.signal)
            switch inputs.count {
            case 2:
                return combineLatest(inputs[0], inputs[1]) |> map { F.combine([$0.0, $0.1]) }
            case 3:
                return combineLatest(inputs[0], inputs[1], inputs[2]) |> map { F.combine([$0.0, $0.1, $0.2]) }
            default:
                return combineLatest(inputs) |> map { F.combine($0) }
            }
        case .reduceLeft(let initial, let upstream):
            return self.signal(upstream) |> reduceLeft(value: initial) { F.reduce($0, $1) }
        case .reduceLeftGenerator(let initial, let upstream, let step):
            let step = self.signal(step)
            return self.signal(upstream)
                |> reduceLeft(initial) { accumulator, value in
                    step
                        |> map { x -> (Int, Passthrough<Int>) in
                            let (next, passes) = F.step(accumulator, value, x)
                            return (next, passes ? .Some(next) : .None)
                        }
                }
        case .sideEffect(let kind, let fx, let upstream):
            let upstream = self.signal(upstream)
            let context = context
            switch kind {
            case .beforeNext: return upstream |> beforeNext { context.sideEffect(fx, kind, $0) }
            case .afterNext: return upstream |> afterNext { context.sideEffect(fx, kind, $0) }
            case .beforeStarted: return upstream |> beforeStarted { context.sideEffect(fx, kind, nil) }
            case .beforeCompleted: return upstream |> beforeCompleted { context.sideEffect(fx, kind, nil) }
            case .afterCompleted: return upstream |> afterCompleted { context.sideEffect(fx, kind, nil) }
            case .afterDisposed: return upstream |> afterDisposed { context.sideEffect(fx, kind, nil) }
            }
        }
    }
}
