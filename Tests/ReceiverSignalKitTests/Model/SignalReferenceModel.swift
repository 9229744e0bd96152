// The reference model of the adapter: SwiftSignalKit's observable behaviour (each operator's
// events, the migration guide's "Quirks we keep" and "When things are released, as in
// SwiftSignalKit") and the differences the migration guide lists in "Behaviour that differs, and
// why" (Sources/ReceiverSignalKit/ReceiverSignalKit.docc/SwiftSignalKitMigrationGuide.md), as a
// plain, sequential program, written from that behaviour and not from the library's code.
//
// Its structure is SwiftSignalKit's, because the target is SwiftSignalKit's observable behaviour,
// including when things are disposed: every operator's start has a subscriber of its own; a
// subscriber that terminates calls its handler, then disposes what its generator returned; a
// start's handle disposes that too, through a reference of its own (so when a handler disposes
// the handle of the start that is terminating, the generator is disposed right then, as
// SwiftSignalKit's `afterCompleted` trace shows). Then it differs where the migration guide says
// the library differs on purpose:
// - a put into a subscriber whose handler is running is queued and delivered after it returns,
//   FIFO, never nested; promises, value promises and pipes are the core's pairs (queued, replayed
//   to a start that joins, in the order of the calls: the threading contract, Threading and
//   Re-entrancy article, Sources/Receiver/Receiver.docc/ThreadingAndReentrancy.md);
// - a start's `dispose()` stops its subscriber first, then disposes what the generator returned,
//   so nothing is delivered after it returns (the guide's row "Disposal order of a start");
// - every disposable is disposed at most once (SwiftSignalKit disposes some twice);
// - `switchToLatest` and `mapToSignal` ignore everything a replaced inner sends (its completion
//   included), start no inner once their start has terminated (the guide's row on an outer value
//   that arrives after the result has failed), and never switch inside the start of an inner: a
//   value that arrives meanwhile switches once that start has returned;
// - `SignalModelOptions.flattening`, where the library matches SwiftSignalKit only as far as it
//   can without nesting deliveries: the target is the library's listed behaviour (the guide's
//   rows on `switchToLatest`, `mapToSignal` and `queue`; `.library`: one FIFO per start, the
//   switch queued while the start handles an event, an inner's own synchronous events handled at
//   once); `.swiftSignalKit` is SwiftSignalKit's nested switch, kept for comparison.
//
// `SignalModelOptions.earlierDesign` models the library's earlier design: a flattening start's
// single FIFO with no synchronous start window, and operators that only reshape events with no
// subscriber of their own (written from the library's design as its
// comments described it then); the harness's own test uses it as a model that differs on purpose.
//
// It is slow on purpose (no compaction, linear scans) so that it stays obviously right.
//
// Plain Swift with no test framework, so the fuzz target (Tests/Fuzz) compiles it too.

final class SignalReferenceModel: SignalModelEngine {
    // MARK: Disposables

    /// A disposable of the model; this base class is `EmptyDisposable`.
    class Disposal {
        func dispose() {}
    }

    /// `ActionDisposable`: runs its action on the first `dispose()`.
    final class Action: Disposal {
        private var action: (() -> Void)?

        init(_ action: @escaping () -> Void) { self.action = action }

        override func dispose() {
            let taken = action
            action = nil
            taken?()
        }
    }

    /// `DisposableSet`: disposes its members in the order they were added, once; later members
    /// at once.
    final class Bag: Disposal {
        private var members: [Disposal]? = []
        var isDisposed: Bool { members == nil }
        var isOccupied: Bool { !(members ?? []).isEmpty }
        var count: Int { members?.count ?? 0 }

        func add(_ disposal: Disposal) {
            if members == nil { disposal.dispose() } else { members?.append(disposal) }
        }

        func remove(_ disposal: Disposal) {
            if let index = members?.firstIndex(where: { $0 === disposal }) { members?.remove(at: index) }
        }

        override func dispose() {
            let taken = members ?? []
            members = nil
            for member in taken { member.dispose() }
        }
    }

    /// `MetaDisposable`: `set` disposes the occupant it replaces (even the same object) after
    /// storing the new one; after `dispose()`, disposes what it is given at once.
    final class Meta: Disposal {
        private var current: Disposal?
        private(set) var isDisposed = false
        var isOccupied: Bool { current != nil }

        func set(_ disposal: Disposal?) {
            guard !isDisposed else {
                disposal?.dispose()
                return
            }
            let replaced = current
            current = disposal
            replaced?.dispose()
        }

        override func dispose() {
            guard !isDisposed else { return }
            isDisposed = true
            let taken = current
            current = nil
            taken?.dispose()
        }
    }

    /// What a driven generator returns: logs `gN.dispose#k`, once (where SwiftSignalKit disposes
    /// some twice: the guide's row "A generator's disposable, when its start has ended and is then
    /// disposed"), then puts the program's `disposalPuts` into its subscriber.
    final class GeneratorDisposal: Disposal {
        private weak var context: (any SignalModelContext)?
        private weak var subscriber: Subscriber?
        private let generator: Int, start: Int, puts: [SignalModelPut]
        private var isDisposed = false

        init(
            _ context: any SignalModelContext, _ subscriber: Subscriber, generator: Int, start: Int,
            puts: [SignalModelPut]
        ) {
            (self.context, self.subscriber) = (context, subscriber)
            (self.generator, self.start, self.puts) = (generator, start, puts)
        }

        override func dispose() {
            guard !isDisposed else { return }
            isDisposed = true
            context?.generatorDisposed(generator, start: start)
            for event in puts { subscriber?.put(event) }
        }
    }

    /// The start handle's own reference to what the generator returned (SwiftSignalKit's
    /// `WrappedSubscriberDisposable`): disposed by the handle, dropped when the subscriber ends.
    final class Wrapped: Disposal {
        private(set) var disposal: Disposal?

        init(_ disposal: Disposal) { self.disposal = disposal }

        func take() -> Disposal? {
            defer { disposal = nil }
            return disposal
        }

        override func dispose() { take()?.dispose() }

        func markTerminated() { disposal = nil }
    }

    /// What `start` returns (SwiftSignalKit's `SubscriberDisposable`), with the project's order:
    /// the subscriber stops first, then the generator's disposable is disposed.
    final class StartHandle: Disposal {
        private weak var subscriber: Subscriber?
        private var wrapped: Wrapped?

        init(_ subscriber: Subscriber, _ wrapped: Wrapped?) { (self.subscriber, self.wrapped) = (subscriber, wrapped) }

        override func dispose() {
            let (subscriber, wrapped) = (self.subscriber, self.wrapped)
            (self.subscriber, self.wrapped) = (nil, nil)
            let disposal = wrapped?.take()
            if let subscriber, subscriber.isDelivering { subscriber.reach(.disposedWhileDelivering) }
            subscriber?.stop()
            disposal?.dispose()
        }
    }

    // MARK: Subscriber

    /// One start's subscriber: SwiftSignalKit's, with queued, never nested delivery.
    final class Subscriber {
        private var next: ((Int) -> Void)?, error: ((Int) -> Void)?, completed: (() -> Void)?
        private(set) var isTerminated = false
        private var disposal: Disposal?
        private weak var wrapped: Wrapped?
        private(set) var isDelivering = false
        private var queued: [SignalModelPut] = []
        let reach: (SignalModelFeature) -> Void

        init(_ handlers: Handlers, reach: @escaping (SignalModelFeature) -> Void) {
            (next, error, completed) = handlers
            self.reach = reach
        }

        /// `putNext`, `putError`, `putCompletion`: delivered now, or after the handler call in
        /// progress returns (queued FIFO, never nested: the guide's row "A `putNext` made from
        /// inside a handler of the same subscriber").
        func put(_ event: SignalModelPut) {
            guard !isTerminated else { return }
            guard !isDelivering else {
                reach(.queuedPut)
                return queued.append(event)
            }
            isDelivering = true
            deliver(event)
            while !queued.isEmpty { deliver(queued.removeFirst()) }
            isDelivering = false
        }

        private func deliver(_ event: SignalModelPut) {
            guard !isTerminated else { return }
            switch event {
            case .next(let value):
                next?(value)
            case .error(let failure):
                let (handler, taken) = (error, terminate())
                handler?(failure)
                finish(taken)
            case .completed:
                let (handler, taken) = (completed, terminate())
                handler?()
                finish(taken)
            }
        }

        /// The first terminal event: the handlers are let go and the generator's disposable
        /// taken, to be disposed after the handler returns.
        private func terminate() -> Disposal? {
            isTerminated = true
            (next, error, completed) = (nil, nil, nil)
            defer { disposal = nil }
            return disposal
        }

        private func finish(_ taken: Disposal?) {
            taken?.dispose()
            wrapped?.markTerminated()
        }

        /// Hands over what the generator returned: disposed at once if the subscriber has
        /// terminated already; otherwise kept, and a reference to it for the handle.
        func assign(_ disposal: Disposal) -> Wrapped? {
            guard !isTerminated else {
                reach(.terminatedWhileStarting)
                disposal.dispose()
                return nil
            }
            self.disposal = disposal
            let wrapped = Wrapped(disposal)
            self.wrapped = wrapped
            return wrapped
        }

        /// The handle's `dispose()`: no handler is called after this, and nothing queued is
        /// delivered. What the generator returned is dropped here (the handle disposes it).
        func stop() {
            isTerminated = true
            (next, error, completed) = (nil, nil, nil)
            queued = []
            disposal = nil
            wrapped?.markTerminated()
        }
    }

    // MARK: Pairs (the core's, as the threading contract states them): promises, value promises, pipes

    final class PairListener {
        /// How many values the pair had broadcast when it joined: it gets live values from here.
        let since: Int
        let deliver: (Int?) -> Void
        var isDisposed = false
        var isReplaying = true
        var held: [Int?] = []

        init(since: Int, deliver: @escaping (Int?) -> Void) { (self.since, self.deliver) = (since, deliver) }
    }

    /// A `.hot` (keeps 0) or `.warm(upTo: 1)` (keeps 1) pair of `Int?`.
    final class Pair {
        let keeps: Int
        var kept: [Int?] = []
        var broadcasts = 0
        var listeners: [PairListener] = []
        var isDelivering = false
        var queued: [(number: Int, value: Int?)] = []
        let reach: (SignalModelFeature) -> Void

        init(keeps: Int, reach: @escaping (SignalModelFeature) -> Void) { (self.keeps, self.reach) = (keeps, reach) }

        /// Queued while the pair delivers; the delivering call delivers it after the current
        /// value has reached every listener, FIFO.
        func broadcast(_ value: Int?) {
            let number = broadcasts
            broadcasts += 1
            if keeps > 0 {
                kept.append(value)
                if kept.count > keeps { kept.removeFirst() }
            }
            queued.append((number, value))
            guard !isDelivering else { return reach(.queuedBroadcast) }
            isDelivering = true
            while !queued.isEmpty {
                let (number, value) = queued.removeFirst()
                var position = 0
                while position < listeners.count {
                    let listener = listeners[position]
                    position += 1
                    guard !listener.isDisposed, listener.since <= number else { continue }
                    if listener.isReplaying {
                        reach(.queuedBroadcast)
                        listener.held.append(value)
                    } else {
                        listener.deliver(value)
                    }
                }
            }
            isDelivering = false
        }

        /// The kept value, then the live values held meanwhile, before it returns.
        func listen(_ deliver: @escaping (Int?) -> Void) -> PairListener {
            if isDelivering || listeners.contains(where: \.isReplaying) { reach(.joinedDuringDelivery) }
            let listener = PairListener(since: broadcasts, deliver: deliver)
            listeners.append(listener)
            var pending = kept
            while !pending.isEmpty {
                for value in pending where !listener.isDisposed { listener.deliver(value) }
                (pending, listener.held) = (listener.held, [])
            }
            listener.isReplaying = false
            return listener
        }
    }

    /// `Promise<Int>`: a `.warm(upTo: 1)` pair of optional values (`nil` clears the current one
    /// without notifying anyone) and a `MetaDisposable` for its source.
    final class PromiseModel {
        let pair: Pair
        let source = Meta()
        var hasSource = false

        init(reach: @escaping (SignalModelFeature) -> Void) { pair = Pair(keeps: 1, reach: reach) }
    }

    final class ValuePromiseModel {
        let pair: Pair
        let ignoreRepeated: Bool
        var value: Int?

        init(_ spec: SignalModelValuePromise, reach: @escaping (SignalModelFeature) -> Void) {
            pair = Pair(keeps: 1, reach: reach)
            (value, ignoreRepeated) = (spec.initial, spec.ignoreRepeated)
            if let initial = spec.initial { pair.broadcast(initial) }
        }

        func set(_ value: Int) {
            if ignoreRepeated, self.value == value { return }
            self.value = value
            pair.broadcast(value)
        }
    }

    // MARK: The engine

    typealias Handle = Disposal

    /// The handlers of a start: what its stage puts into the stage downstream.
    typealias Handlers = (next: ((Int) -> Void)?, error: ((Int) -> Void)?, completed: (() -> Void)?)

    private unowned let context: any SignalModelContext
    private let program: SignalModelProgram
    private let options: SignalModelOptions
    private let promises: [PromiseModel]
    private let valuePromises: [ValuePromiseModel]
    private let pipes: [Pair]
    private let metas: [Meta]
    private let sets: [Bag]
    /// Each generator's starts' subscribers, in order: `put` reaches them.
    private var subscribers: [[Subscriber]]
    private let reach: (SignalModelFeature) -> Void

    init(_ program: SignalModelProgram, options: SignalModelOptions, context: any SignalModelContext) {
        (self.program, self.options, self.context) = (program, options, context)
        let reach: (SignalModelFeature) -> Void = { [weak context] in context?.reached($0) }
        self.reach = reach
        promises = program.promises.map { initial in
            let promise = PromiseModel(reach: reach)
            if let initial { promise.pair.broadcast(initial) }
            return promise
        }
        valuePromises = program.valuePromises.map { ValuePromiseModel($0, reach: reach) }
        pipes = (0..<program.pipes).map { _ in Pair(keeps: 0, reach: reach) }
        metas = (0..<program.metas).map { _ in Meta() }
        sets = (0..<program.sets).map { _ in Bag() }
        subscribers = Array(repeating: [], count: program.generators.count)
    }

    func start(
        _ signal: SignalModelSignal, next: @escaping (Int) -> Void, error: @escaping (Int) -> Void,
        completed: @escaping () -> Void
    ) -> Disposal {
        start(signal, (next, error, completed))
    }

    func dispose(_ handle: Disposal) { handle.dispose() }

    func put(generator: Int, start: Int, _ event: SignalModelPut) {
        guard start <= subscribers[generator].count else { return }
        subscribers[generator][start - 1].put(event)
    }

    /// `Promise.set`: clears the current value, starts the new source, then disposes the old one.
    func setPromise(_ promise: Int, _ signal: SignalModelSignal) {
        let promise = promises[promise]
        if promise.hasSource { reach(.promiseReplaced) }
        promise.hasSource = true
        promise.pair.broadcast(nil)
        let pair = promise.pair
        // `signal` as a `Signal<Int, NoError>`: a `Signal { … }` that passes values and the
        // completion on.
        let source = start(
            generator: { subscriber in
                self.start(signal, ({ subscriber.put(.next($0)) }, nil, { subscriber.put(.completed) }))
            },
            ({ pair.broadcast($0) }, nil, nil))
        promise.source.set(source)
    }

    func setValue(_ promise: Int, _ value: Int) { valuePromises[promise].set(value) }

    func putPipe(_ pipe: Int, _ value: Int) { pipes[pipe].broadcast(value) }

    func setMeta(_ meta: Int, _ handle: Disposal?) {
        if metas[meta].isOccupied || metas[meta].isDisposed && handle != nil { reach(.containerDisposed) }
        metas[meta].set(handle)
    }

    func disposeMeta(_ meta: Int) {
        if metas[meta].isOccupied { reach(.containerDisposed) }
        metas[meta].dispose()
    }

    func addToSet(_ set: Int, _ handle: Disposal) {
        if sets[set].isDisposed { reach(.containerDisposed) }
        sets[set].add(handle)
    }

    func removeFromSet(_ set: Int, _ handle: Disposal) { sets[set].remove(handle) }

    func disposeSet(_ set: Int) {
        if sets[set].isOccupied { reach(.containerDisposed) }
        if sets[set].count > 1 { reach(.setDisposedSeveral) }
        sets[set].dispose()
    }

    // MARK: Starting signals

    /// `Signal.start` of a `Signal { subscriber in … }`: a subscriber, the generator, the
    /// disposable it returns assigned; the handle.
    private func start(generator: (Subscriber) -> Disposal, _ handlers: Handlers) -> StartHandle {
        let subscriber = Subscriber(handlers, reach: reach)
        let disposal = generator(subscriber)
        return StartHandle(subscriber, subscriber.assign(disposal))
    }

    /// What a subscriber's `put…` calls look like as handlers.
    private static func handlers(_ subscriber: Subscriber) -> Handlers {
        ({ subscriber.put(.next($0)) }, { subscriber.put(.error($0)) }, { subscriber.put(.completed) })
    }

    /// An operator that only reshapes the events of the start `body` makes (`map`, `filter`,
    /// `reduceLeft(value:f:)`, the `before…`/`after…` side effects, `castError`, `Promise.get`, …):
    /// as in SwiftSignalKit, a `Signal { subscriber in … }` whose subscriber `body` puts into (the
    /// target); with `stagesHaveSubscribers == false`, `body` calls the downstream handlers
    /// itself and its start is the start (the library's earlier design).
    private func stage(_ handlers: Handlers, _ body: @escaping (Handlers) -> Disposal) -> Disposal {
        guard options.stagesHaveSubscribers else { return body(handlers) }
        return start(generator: { body(Self.handlers($0)) }, handlers)
    }

    /// Starts `signal` with `handlers`.
    private func start(_ signal: SignalModelSignal, _ handlers: Handlers) -> Disposal {
        typealias F = SignalModelFunctions
        let h = handlers
        switch signal {
        case .promise(let promise):
            // `castError` over `get()`: two stages.
            return stage(h) { h in self.stage(h) { h in self.listen(self.promises[promise].pair, h.next) } }
        case .valuePromise(let promise):
            return stage(h) { h in self.stage(h) { h in self.listen(self.valuePromises[promise].pair, h.next) } }
        case .pipe(let pipe):
            return stage(h) { h in self.stage(h) { h in self.listen(self.pipes[pipe], h.next) } }
        case .map(let k, let upstream):
            return stage(h) { h in self.start(upstream, ({ h.next?(F.map(k, $0)) }, h.error, h.completed)) }
        case .filter(let k, let upstream):
            return stage(h) { h in self.start(upstream, ({ if F.filter(k, $0) { h.next?($0) } }, h.error, h.completed))
            }
        case .distinctUntilChanged(let upstream):
            return stage(h) { h in
                var last: Int?
                return self.start(
                    upstream,
                    (
                        { value in
                            guard value != last else { return }
                            last = value
                            h.next?(value)
                        }, h.error, h.completed
                    ))
            }
        case .mapError(let k, let upstream):
            return stage(h) { h in self.start(upstream, (h.next, { h.error?(F.mapError(k, $0)) }, h.completed)) }
        case .ignoreValues(let upstream):
            // `ignoreValues`, then a `map` back to `Int`: two stages.
            return stage(h) { h in self.stage(h) { h in self.start(upstream, (nil, h.error, h.completed)) } }
        case .combineLatest(let inputs):
            // `combineLatest(…)`, then a `map` to one `Int`.
            return stage(h) { h in self.start(generator: { self.combineLatest(inputs, into: $0) }, h) }
        case .reduceLeft(let initial, let upstream):
            return stage(h) { h in
                var accumulator = initial
                return self.start(
                    upstream,
                    (
                        { accumulator = F.reduce(accumulator, $0) }, h.error,
                        {
                            h.next?(accumulator)
                            h.completed?()
                        }
                    ))
            }
        case .sideEffect(let kind, let fx, let upstream) where kind != .afterDisposed:
            return stage(h) { h in self.sideEffect(kind, fx, upstream, h) }
        default:
            return start(generator: { self.generate(signal, into: $0) }, h)
        }
    }

    /// Starts `signal` with handlers that put everything into `subscriber`.
    private func relay(_ signal: SignalModelSignal, into subscriber: Subscriber) -> Disposal {
        start(signal, Self.handlers(subscriber))
    }

    /// The generator of a `Signal { subscriber in … }`: what one start of it does.
    private func generate(_ signal: SignalModelSignal, into subscriber: Subscriber) -> Disposal {
        typealias F = SignalModelFunctions
        switch signal {
        case .single(let value):
            subscriber.put(.next(value))
            subscriber.put(.completed)
            return Disposal()
        case .complete:
            subscriber.put(.completed)
            return Disposal()
        case .fail(let failure):
            subscriber.put(.error(failure))
            return Disposal()
        case .never:
            return Disposal()
        case .generator(let generator):
            let number = context.generatorStarted(generator)
            subscribers[generator].append(subscriber)
            for event in program.generators[generator] { subscriber.put(event) }
            return GeneratorDisposal(
                context, subscriber, generator: generator, start: number, puts: program.disposalPuts[generator])
        case .take(let count, let upstream):
            // SwiftSignalKit's `take`: passes the first `count` values and completes right after the
            // `count`-th; `take(0)` subscribes and completes only when the upstream completes (the
            // guide's "Quirks we keep").
            if count == 0 { reach(.takeZero) }
            var taken = 0
            return start(
                upstream,
                (
                    { value in
                        taken += 1
                        if taken <= count { subscriber.put(.next(value)) }
                        if taken == count { subscriber.put(.completed) }
                    }, { subscriber.put(.error($0)) }, { subscriber.put(.completed) }
                ))
        case .then(let upstream, let following):
            let starts = Bag()
            starts.add(
                start(
                    upstream,
                    (
                        { subscriber.put(.next($0)) }, { subscriber.put(.error($0)) },
                        {
                            self.reach(.thenStarted)
                            starts.add(self.relay(following, into: subscriber))
                        }
                    )))
            return starts
        case .catch(let upstream, let alternatives):
            // The alternative starts before the failed source's subscription is disposed.
            let starts = Bag()
            starts.add(
                start(
                    upstream,
                    (
                        { subscriber.put(.next($0)) },
                        {
                            self.reach(.caught)
                            starts.add(self.relay(F.pick(alternatives, $0), into: subscriber))
                        },
                        { subscriber.put(.completed) }
                    )))
            return starts
        case .mapToSignal(let upstream, let inners), .switchToLatest(let upstream, let inners):
            // Both are the outer's values mapped by one stage, then `switchToLatest`.
            return flatten(upstream, inners, queueing: false, into: subscriber)
        case .queue(let upstream, let inners):
            return flatten(upstream, inners, queueing: true, into: subscriber)
        case .reduceLeftGenerator(let initial, let upstream, let step):
            let fold = QueuedFold(self, initial: initial, step: step, subscriber: subscriber)
            let upstreamStart = start(
                upstream, ({ fold.enqueue($0) }, { subscriber.put(.error($0)) }, { fold.beginCompletion() }))
            return Action {
                fold.current.dispose()
                upstreamStart.dispose()
            }
        case .sideEffect(let kind, let fx, let upstream):
            // `afterDisposed`: runs once, after the upstream is disposed (on disposal or after the end).
            let context = context
            let disposals = Bag()
            disposals.add(relay(upstream, into: subscriber))
            disposals.add(Action { context.sideEffect(fx, kind, nil) })
            return disposals
        case .promise, .valuePromise, .pipe, .map, .filter, .distinctUntilChanged, .mapError, .ignoreValues,
            .combineLatest, .reduceLeft:
            return relay(signal, into: subscriber)
        }
    }

    /// `promise.get()`, `valuePromise.get()`, `pipe.signal()`: joins the pair (receiving the kept
    /// value at once) and leaves it when disposed.
    private func listen(_ pair: Pair, _ next: ((Int) -> Void)?) -> Disposal {
        let listener = pair.listen { value in
            if let value { next?(value) }
        }
        return Action { listener.isDisposed = true }
    }

    /// `beforeNext`, `afterNext`, `beforeStarted`, `beforeCompleted`, `afterCompleted`.
    private func sideEffect(_ kind: SignalModelSideEffect, _ fx: Int, _ upstream: SignalModelSignal, _ h: Handlers)
        -> Disposal
    {
        let context = context
        switch kind {
        case .beforeNext:
            return start(
                upstream,
                (
                    { value in
                        context.sideEffect(fx, kind, value)
                        h.next?(value)
                    }, h.error, h.completed
                ))
        case .afterNext:
            return start(
                upstream,
                (
                    { value in
                        h.next?(value)
                        context.sideEffect(fx, kind, value)
                    }, h.error, h.completed
                ))
        case .beforeStarted:
            context.sideEffect(fx, kind, nil)
            return start(upstream, h)
        case .beforeCompleted:
            return start(
                upstream,
                (
                    h.next, h.error,
                    {
                        context.sideEffect(fx, kind, nil)
                        h.completed?()
                    }
                ))
        case .afterDisposed:
            preconditionFailure("afterDisposed has a subscriber of its own: see generate(_:into:)")
        case .afterCompleted:
            return start(
                upstream,
                (
                    h.next, h.error,
                    {
                        h.completed?()
                        context.sideEffect(fx, kind, nil)
                    }
                ))
        }
    }

    // MARK: combineLatest

    private final class Combining {
        var values: [Int?]
        var completed: Set<Int> = []
        var hasFailed = false

        init(count: Int) { values = Array(repeating: nil, count: count) }
    }

    /// Starts every input in order; sends the latest values once each input has sent one;
    /// completes when all have completed; passes the first error on.
    private func combineLatest(_ inputs: [SignalModelSignal], into subscriber: Subscriber) -> Disposal {
        let state = Combining(count: inputs.count)
        let starts = Bag()
        for (index, input) in inputs.enumerated() {
            // Each input through a stage of its own (SwiftSignalKit's `signalOfAny`).
            starts.add(
                stage(
                    (
                        { value in
                            state.values[index] = value
                            let values = state.values.compactMap { $0 }
                            guard values.count == inputs.count else { return }
                            self.reach(.combined)
                            subscriber.put(.next(SignalModelFunctions.combine(values)))
                        },
                        { failure in
                            guard !state.hasFailed else { return }
                            state.hasFailed = true
                            subscriber.put(.error(failure))
                        },
                        {
                            guard state.completed.insert(index).inserted else { return }
                            if state.completed.count == inputs.count { subscriber.put(.completed) }
                        }
                    )
                ) { self.start(input, $0) })
        }
        return starts
    }

    // MARK: Flattening: switchToLatest, mapToSignal, queue

    /// SwiftSignalKit's `SignalQueueState`, with the project's differences (see the file's top).
    final class Flattening: Disposal {
        private unowned let model: SignalReferenceModel
        private let subscriber: Subscriber
        private let inners: [SignalModelSignal]
        private let isQueueing: Bool
        var outer: Disposal = Disposal()
        private let current = Meta()
        private var isExecuting = false, isOuterCompleted = false
        private var waiting: [Int] = []
        /// The current inner's number: what any other inner sends is ignored.
        private var generation = 0
        /// Inside the start of an inner begun by `enqueue`, and the outer values that arrived
        /// meanwhile (they switch once that start has returned).
        private var isStarting = false
        private var deferred: [Int] = []

        init(_ model: SignalReferenceModel, inners: [SignalModelSignal], queueing: Bool, subscriber: Subscriber) {
            (self.model, self.inners, isQueueing, self.subscriber) = (model, inners, queueing, subscriber)
        }

        /// An outer value: its inner starts now (switching), or waits its turn (queueing).
        func enqueue(_ value: Int) {
            guard !subscriber.isTerminated else { return }  // no work for a finished result
            if isQueueing, isExecuting {
                model.reach(.queuedInner)
                return waiting.append(value)
            }
            if isStarting { return deferred.append(value) }
            if isExecuting { model.reach(.switched) }
            isExecuting = true
            isStarting = true
            let started = startInner(value) { [unowned self] in headCompleted() }
            isStarting = false
            current.set(started)
            while !deferred.isEmpty { enqueue(deferred.removeFirst()) }
        }

        private func startInner(_ value: Int, completed: @escaping () -> Void) -> Disposal {
            generation += 1
            let generation = generation
            let subscriber = subscriber
            return model.start(
                SignalModelFunctions.pick(inners, value),
                (
                    { [unowned self] in if generation == self.generation { subscriber.put(.next($0)) } },
                    { [unowned self] in if generation == self.generation { subscriber.put(.error($0)) } },
                    { [unowned self] in if generation == self.generation { completed() } }
                ))
        }

        /// The current inner completed: the next waiting one starts, or the start completes if
        /// the outer has. Inners that complete while they start are run in a loop, not recursively.
        private func headCompleted() {
            while true {
                let hasLeft = Box(false)
                isExecuting = false
                var following: Int?
                var isFinished = false
                if isQueueing, !waiting.isEmpty {
                    following = waiting.removeFirst()
                    isExecuting = true
                } else {
                    isFinished = isOuterCompleted
                }
                if isFinished {
                    subscriber.put(.completed)
                } else if let following, !subscriber.isTerminated {
                    let started = startInner(following) { [unowned self] in
                        if hasLeft.swap(true) { headCompleted() }
                    }
                    current.set(started)
                }
                if !hasLeft.swap(true) { break }
            }
        }

        func beginCompletion() {
            isOuterCompleted = true
            if !isExecuting { subscriber.put(.completed) }
        }

        /// The current inner, then the outer.
        override func dispose() {
            current.dispose()
            outer.dispose()
        }
    }

    final class Box {
        var value: Bool
        init(_ value: Bool) { self.value = value }
        func swap(_ new: Bool) -> Bool {
            defer { value = new }
            return value
        }
    }

    private func flatten(
        _ upstream: SignalModelSignal, _ inners: [SignalModelSignal], queueing: Bool, into subscriber: Subscriber
    ) -> Disposal {
        guard options.flattening == .swiftSignalKit else {
            return QueuedFlattening.start(
                self, upstream, inners, queueing: queueing, synchronousWindow: options.flattening == .library,
                into: subscriber)
        }
        let state = Flattening(self, inners: inners, queueing: queueing, subscriber: subscriber)
        // The outer, mapped to signals by a stage of its own (`mapToSignal`'s, or the `map` before
        // `switchToLatest`/`queue`).
        state.outer = stage(({ state.enqueue($0) }, { subscriber.put(.error($0)) }, { state.beginCompletion() })) {
            self.start(upstream, $0)
        }
        return state
    }

    /// `SignalModelFlattening.library` (with `synchronousWindow`) and `.beforeStartWindow`
    /// (without): one FIFO of events per start.
    final class QueuedFlattening: Disposal {
        enum Event {
            case signal(Int)
            case outerFailed(Int)
            case outerCompleted
            case next(Int, Int)
            case innerFailed(Int, Int)
            case innerCompleted(Int)
        }

        private unowned let model: SignalReferenceModel
        private let subscriber: Subscriber
        private let inners: [SignalModelSignal]
        private let isQueueing: Bool
        /// What an inner sends while it is being started is handled at once (`.library`).
        private let hasSynchronousWindow: Bool
        private var generation = 0
        private var isInnerRunning = false, isOuterCompleted = false
        private var waiting: [Int] = []
        private var events: [Event] = []
        private var isHandling = false
        private var isDisposed = false
        /// The downstream has had its terminal event: nothing more is handled.
        private var isEnded = false
        /// The start is being made (`start` has not returned); it ended meanwhile.
        private var isStarting = true, hasEndedWhileStarting = false
        /// The inner being started, and whether it completed meanwhile.
        private var window: Int?, hasCompletedInWindow = false
        private var outer: Disposal?, inner: Disposal?

        init(
            _ model: SignalReferenceModel, inners: [SignalModelSignal], queueing: Bool, synchronousWindow: Bool,
            subscriber: Subscriber
        ) {
            (self.model, self.inners, isQueueing, self.subscriber) = (model, inners, queueing, subscriber)
            hasSynchronousWindow = synchronousWindow
        }

        static func start(
            _ model: SignalReferenceModel, _ upstream: SignalModelSignal, _ inners: [SignalModelSignal],
            queueing: Bool, synchronousWindow: Bool, into subscriber: Subscriber
        ) -> Disposal {
            let state = QueuedFlattening(
                model, inners: inners, queueing: queueing, synchronousWindow: synchronousWindow, subscriber: subscriber)
            let outer = model.stage(
                (
                    { state.receive(.signal($0)) }, { state.receive(.outerFailed($0)) },
                    { state.receive(.outerCompleted) }
                )
            ) { model.start(upstream, $0) }
            if state.isDisposed { outer.dispose() } else { state.outer = outer }
            state.isStarting = false
            if state.hasEndedWhileStarting { state.dispose() }
            return state
        }

        func receive(_ event: Event) {
            guard !isDisposed else { return }
            events.append(event)
            guard !isHandling else { return }
            isHandling = true
            while !events.isEmpty, !isDisposed { handle(events.removeFirst()) }
            events = []
            isHandling = false
        }

        private func handle(_ event: Event) {
            guard !isEnded else { return }
            switch event {
            case .signal(let value):
                guard !isQueueing || !isInnerRunning else {
                    model.reach(.queuedInner)
                    return waiting.append(value)
                }
                if isInnerRunning { model.reach(.switched) }
                run(value)
            case .next(let from, let value):
                if from == generation { subscriber.put(.next(value)) }
            case .innerFailed(let from, let failure):
                if from == generation { fail(failure) }
            case .innerCompleted(let from):
                guard from == generation, let following = innerCompleted() else { return }
                run(following)
            case .outerFailed(let failure):
                fail(failure)
            case .outerCompleted:
                isOuterCompleted = true
                if !isInnerRunning { end { $0.put(.completed) } }
            }
        }

        /// Starts the inner for `value`, then disposes the inner it replaces; with the window, an
        /// inner that completed while it started is followed by the next waiting one, in a loop.
        private func run(_ value: Int) {
            var following: Int? = value
            while let value = following, !isEnded {
                following = nil
                generation += 1
                isInnerRunning = true
                let generation = generation
                if hasSynchronousWindow { (window, hasCompletedInWindow) = (generation, false) }
                let started = model.start(
                    SignalModelFunctions.pick(inners, value),
                    (
                        { [unowned self] value in
                            guard isInWindow(generation) else { return receive(.next(generation, value)) }
                            if !isEnded { subscriber.put(.next(value)) }
                        },
                        { [unowned self] failure in
                            guard isInWindow(generation) else { return receive(.innerFailed(generation, failure)) }
                            fail(failure)
                        },
                        { [unowned self] in
                            guard isInWindow(generation) else { return receive(.innerCompleted(generation)) }
                            hasCompletedInWindow = true
                        }
                    ))
                window = nil
                if isDisposed { return started.dispose() }
                let replaced = inner
                inner = started
                replaced?.dispose()
                if hasSynchronousWindow {
                    if hasCompletedInWindow { following = innerCompleted() }
                } else {
                    return
                }
            }
        }

        private func isInWindow(_ generation: Int) -> Bool { window == generation && !isDisposed }

        /// The current inner completed: the next waiting one to run, if any; otherwise the start
        /// completes if the outer has. (Without the window the finished inner is let go here;
        /// with it, it stays until the next one replaces it, or the end.)
        private func innerCompleted() -> Int? {
            isInnerRunning = false
            if !hasSynchronousWindow { inner = nil }
            if !waiting.isEmpty { return waiting.removeFirst() }
            if isOuterCompleted { end { $0.put(.completed) } }
            return nil
        }

        private func fail(_ failure: Int) { end { $0.put(.error(failure)) } }

        /// The downstream's terminal event, then the teardown — once the start has been made, if
        /// it is still being made (with the window; without it, at once).
        private func end(_ terminate: (Subscriber) -> Void) {
            guard !isEnded else { return }
            isEnded = true
            terminate(subscriber)
            if hasSynchronousWindow, isStarting { hasEndedWhileStarting = true } else { dispose() }
        }

        /// Stops handling events, then disposes the current inner, then the outer.
        override func dispose() {
            guard !isDisposed else { return }
            isDisposed = true
            let (inner, outer) = (self.inner, self.outer)
            (self.inner, self.outer) = (nil, nil)
            inner?.dispose()
            outer?.dispose()
        }
    }

    // MARK: reduceLeft(_:generator:)

    /// SwiftSignalKit's `ReduceQueueState`: one step signal at a time, values queued meanwhile.
    final class QueuedFold {
        private unowned let model: SignalReferenceModel
        private let step: SignalModelSignal
        private let subscriber: Subscriber
        let current = Meta()
        private var value: Int
        private var waiting: [Int] = []
        private var isExecuting = false, isTerminated = false

        init(_ model: SignalReferenceModel, initial: Int, step: SignalModelSignal, subscriber: Subscriber) {
            (self.model, value, self.step, self.subscriber) = (model, initial, step, subscriber)
        }

        /// `generator(accumulator, value)`: the step signal, mapped by a stage of its own.
        private func startStep(_ accumulator: Int, _ value: Int, completed: @escaping () -> Void) -> Disposal {
            let subscriber = subscriber
            return model.stage(
                (
                    { [unowned self] x in
                        let (next, passes) = SignalModelFunctions.step(accumulator, value, x)
                        self.value = next
                        if passes { subscriber.put(.next(next)) }
                    }, { subscriber.put(.error($0)) }, completed
                )
            ) { [step, model] in model.start(step, $0) }
        }

        func enqueue(_ next: Int) {
            let accumulator = value
            guard !isExecuting else {
                model.reach(.queuedStep)
                return waiting.append(next)
            }
            isExecuting = true
            current.set(startStep(accumulator, next) { [unowned self] in headCompleted() })
        }

        private func headCompleted() {
            while true {
                let hasLeft = Box(false)
                isExecuting = false
                var following: (Int, Int)?
                var isFinished = false
                if !waiting.isEmpty {
                    following = (value, waiting.removeFirst())
                    isExecuting = true
                } else {
                    isFinished = isTerminated
                }
                if isFinished {
                    subscriber.put(.next(value))
                    subscriber.put(.completed)
                } else if let (accumulator, next) = following {
                    let started = startStep(accumulator, next) { [unowned self] in
                        if hasLeft.swap(true) { headCompleted() }
                    }
                    current.set(started)
                }
                if !hasLeft.swap(true) { break }
            }
        }

        func beginCompletion() {
            isTerminated = true
            if !isExecuting {
                subscriber.put(.next(value))
                subscriber.put(.completed)
            }
        }
    }
}
