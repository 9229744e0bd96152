// Runs a `SignalModelProgram` against an engine — the reference model or the library — and
// records its log; compares two logs at a level of detail, and shrinks a program on which they
// differ.
//
// Plain Swift with no test framework, so the fuzz target (Tests/Fuzz) compiles it too.

#if canImport(TestSupport)
import TestSupport  // ModelChoices; the fuzz target compiles its file into this module instead
#endif

/// What an engine reports to the run while it works: the run logs it and runs the reactions.
protocol SignalModelContext: AnyObject {
    /// A start of generator `generator` began; returns its number (1-based), for `gN.subscribe#k`.
    func generatorStarted(_ generator: Int) -> Int
    /// The disposable of that start was disposed (`gN.dispose#k`): once per `dispose()` call.
    func generatorDisposed(_ generator: Int, start: Int)
    /// Side effect `fx`'s function was called (with the value, for `beforeNext`/`afterNext`).
    func sideEffect(_ fx: Int, _ kind: SignalModelSideEffect, _ value: Int?)
    /// The reference model went through one of the cases the test must reach (not logged).
    func reached(_ feature: SignalModelFeature)
}

/// What the harness must reach for the test to prove much (`programsDoWhatTheHarnessNeeds`);
/// reported by the reference model.
enum SignalModelFeature: Hashable, CaseIterable {
    /// A put into a subscriber whose handler is running: queued.
    case queuedPut
    /// A value set or put into a promise or pipe while it delivers (queued), or while a start
    /// that joins it receives its kept value (held for that start).
    case queuedBroadcast
    /// A start of a promise or pipe joined while it delivers, or while another start of it
    /// receives its kept value.
    case joinedDuringDelivery
    /// A start disposed while one of its handlers runs (from its own handler, say).
    case disposedWhileDelivering
    /// A subscriber that terminated while its generator ran (disposed as soon as it returns).
    case terminatedWhileStarting
    /// `switchToLatest`/`mapToSignal` replaced a running inner.
    case switched
    /// `queue` held an inner back while another ran.
    case queuedInner
    /// `take(0)` started.
    case takeZero
    /// `then` started its next signal; `catch` its alternative.
    case thenStarted
    case caught
    /// `combineLatest` sent a combination.
    case combined
    /// `reduceLeft(_:generator:)` held a value back while a step ran.
    case queuedStep
    /// A promise's new source replaced a running one.
    case promiseReplaced
    /// A `MetaDisposable` or `DisposableSet` disposed a start.
    case containerDisposed
    /// A `DisposableSet` disposed several starts (in the order they were added).
    case setDisposedSeveral
    /// A side effect's function ran an action.
    case effectReacted
}

/// What the harness needs from an engine. Handles are what `start` returns.
protocol SignalModelEngine: AnyObject {
    associatedtype Handle
    init(_ program: SignalModelProgram, options: SignalModelOptions, context: any SignalModelContext)
    func start(
        _ signal: SignalModelSignal, next: @escaping (Int) -> Void, error: @escaping (Int) -> Void,
        completed: @escaping () -> Void
    ) -> Handle
    func dispose(_ handle: Handle)
    /// Puts `event` into the `start`-th start of `generator`, if there was one.
    func put(generator: Int, start: Int, _ event: SignalModelPut)
    func setPromise(_ promise: Int, _ signal: SignalModelSignal)
    func setValue(_ promise: Int, _ value: Int)
    func putPipe(_ pipe: Int, _ value: Int)
    func setMeta(_ meta: Int, _ handle: Handle?)
    func disposeMeta(_ meta: Int)
    func addToSet(_ set: Int, _ handle: Handle)
    func removeFromSet(_ set: Int, _ handle: Handle)
    func disposeSet(_ set: Int)
}

/// How the reference model runs `switchToLatest`, `mapToSignal` and `queue`.
enum SignalModelFlattening: Equatable {
    /// The library's (the target), as the migration guide states it: every event of a flattening
    /// start — the outer's values and end, each inner's events — goes through one FIFO, handled
    /// one at a time, so an outer value that arrives while the start is handling an event (from
    /// inside the downstream's handler, say) switches once that event has been handled. Except
    /// that what an inner sends while the start is starting it is handled at once (its value
    /// before its disposal, SwiftSignalKit's order), and its completion starts the next waiting
    /// inner once its start has returned; a finished inner is disposed when the next one has
    /// started; a start that ends while it is being made is torn down when it returns.
    case library
    /// SwiftSignalKit's: an outer value switches at once, even from inside a handler of the
    /// downstream (only deliveries to the downstream are queued behind it). The library differs
    /// here on purpose, and lists it; kept to measure how often programs tell the two apart.
    case swiftSignalKit
    /// The library's earlier design, before the synchronous start window:
    /// everything through the FIFO, an inner's synchronous events included, so they arrive after
    /// that inner's own disposal.
    case beforeStartWindow
}

/// The reference model's switches (the library ignores them). Each names what it changes; the
/// default is the target: SwiftSignalKit's behaviour, and the migration guide's listed
/// differences.
struct SignalModelOptions: Equatable {
    /// How `switchToLatest`, `mapToSignal` and `queue` order a synchronous inner's value, its
    /// disposal and the next inner's start, and when they switch: SwiftSignalKit's order where it
    /// can be had without nesting deliveries (the migration guide's "When things are released, as
    /// in SwiftSignalKit"), the listed difference where not (its row "`switchToLatest`,
    /// `mapToSignal` (and `queue`, …): when the switch happens").
    var flattening = SignalModelFlattening.library

    /// Nothing after a start is disposed or has ended (no handler, no side effect, no `then`), and
    /// `afterCompleted`'s function after the upstream's disposal, both as in SwiftSignalKit: `true`
    /// gives every operator's start a subscriber of its own, as SwiftSignalKit does — so a stage
    /// whose start was disposed or ended passes nothing on, and a stage's end disposes its
    /// upstream before the stage's own code goes on. `false`: the operators that only reshape
    /// events (`map`, `filter`, `distinctUntilChanged`, `mapError`, `ignoreValues`,
    /// `reduceLeft(value:f:)`, the `before…`/`after…` side effects, `castError`, the promises'
    /// `get()`, the map after `combineLatest`) have none: they call the downstream handlers
    /// themselves, inside the upstream's delivery — the library's earlier design.
    var stagesHaveSubscribers = true

    /// The target (the default).
    static let target = SignalModelOptions()

    /// The library's earlier design (both switches above): a model that differs from the target on
    /// purpose, for testing the harness.
    static let earlierDesign = SignalModelOptions(flattening: .beforeStartWindow, stagesHaveSubscribers: false)
}

/// One line of a log.
enum SignalModelEvent: Equatable, CustomStringConvertible {
    case next(start: Int, Int)
    case error(start: Int, Int)
    case completed(start: Int)
    /// A side effect's function was called.
    case effect(fx: Int, SignalModelSideEffect, Int?)
    /// Level 2: a start of a driven generator began, or its disposable was disposed.
    case subscribe(generator: Int, start: Int)
    case dispose(generator: Int, start: Int)
    /// A top-level or reaction action returned.
    case returned(SignalModelAction)
    /// The log grew past `SignalModelRun.maxEvents`: nothing more is done.
    case overflow

    /// The least detailed level whose logs show it: 1 handler events (and side effects and
    /// actions), 2 also the generators' subscribe and dispose.
    var level: Int {
        switch self {
        case .subscribe, .dispose: 2
        default: 1
        }
    }

    var description: String {
        switch self {
        case .next(let start, let value): "s\(start) next \(value)"
        case .error(let start, let error): "s\(start) error \(error)"
        case .completed(let start): "s\(start) completed"
        case .effect(let fx, let kind, let value): "fx\(fx).\(kind)" + (value.map { " \($0)" } ?? "")
        case .subscribe(let generator, let start): "g\(generator).subscribe#\(start)"
        case .dispose(let generator, let start): "g\(generator).dispose#\(start)"
        case .returned(let action): "\(action) returned"
        case .overflow: "(log overflow: stopped)"
        }
    }
}

/// One run of a program. Not thread-safe: the model-based test is sequential.
final class SignalModelRun<Engine: SignalModelEngine>: SignalModelContext {
    static var maxEvents: Int { 4_000 }

    let program: SignalModelProgram
    private(set) var log: [SignalModelEvent] = []
    private var engine: Engine?
    private var handles: [Engine.Handle?]
    private var isStarted: [Bool]
    private var calls: [Int]
    private var effectCalls: [Int]
    private var generatorStarts: [Int]
    /// Set when the steps are done: what the engine does as it is released is not logged.
    private var isFinished = false
    /// What the reference model reached.
    private(set) var features: Set<SignalModelFeature> = []

    /// Runs `program` to the end and keeps its log.
    init(_ program: SignalModelProgram, options: SignalModelOptions = .target) {
        self.program = program
        handles = Array(repeating: nil, count: program.starts.count)
        isStarted = Array(repeating: false, count: program.starts.count)
        calls = Array(repeating: 0, count: program.starts.count)
        effectCalls = Array(repeating: 0, count: program.effects.count)
        generatorStarts = Array(repeating: 0, count: program.generators.count)
        engine = Engine(program, options: options, context: self)
        for step in program.steps { perform(step) }
        isFinished = true
        handles = []
        engine = nil
    }

    private func perform(_ action: SignalModelAction) {
        guard let engine, !isFinished, log.count < Self.maxEvents else {
            if !isFinished, log.last != .overflow { log.append(.overflow) }
            return
        }
        switch action {
        case .put(let generator, let start, let event):
            engine.put(generator: generator, start: start, event)
        case .setPromise(let promise, let signal):
            engine.setPromise(promise, signal)
        case .setValue(let promise, let value):
            engine.setValue(promise, value)
        case .putPipe(let pipe, let value):
            engine.putPipe(pipe, value)
        case .start(let start):
            guard !isStarted[start] else { break }
            isStarted[start] = true
            handles[start] = engine.start(
                program.starts[start].signal,
                next: { [unowned self] in handled(start, .next(start: start, $0)) },
                error: { [unowned self] in handled(start, .error(start: start, $0)) },
                completed: { [unowned self] in handled(start, .completed(start: start)) })
        case .dispose(let start):
            if let handle = handles[start] { engine.dispose(handle) }
        case .setMeta(let meta, let start):
            if let start {
                if let handle = handles[start] { engine.setMeta(meta, handle) }
            } else {
                engine.setMeta(meta, nil)
            }
        case .disposeMeta(let meta):
            engine.disposeMeta(meta)
        case .addToSet(let set, let start):
            if let handle = handles[start] { engine.addToSet(set, handle) }
        case .removeFromSet(let set, let start):
            if let handle = handles[start] { engine.removeFromSet(set, handle) }
        case .disposeSet(let set):
            engine.disposeSet(set)
        }
        if !isFinished { log.append(.returned(action)) }
    }

    private func handled(_ start: Int, _ event: SignalModelEvent) {
        guard !isFinished else { return }
        log.append(event)
        let call = calls[start]
        calls[start] += 1
        for reaction in program.starts[start].reactions where reaction.call == call {
            perform(reaction.action)
        }
    }

    func generatorStarted(_ generator: Int) -> Int {
        generatorStarts[generator] += 1
        if !isFinished { log.append(.subscribe(generator: generator, start: generatorStarts[generator])) }
        return generatorStarts[generator]
    }

    func generatorDisposed(_ generator: Int, start: Int) {
        if !isFinished { log.append(.dispose(generator: generator, start: start)) }
    }

    func sideEffect(_ fx: Int, _ kind: SignalModelSideEffect, _ value: Int?) {
        guard !isFinished else { return }
        log.append(.effect(fx: fx, kind, value))
        let call = effectCalls[fx]
        effectCalls[fx] += 1
        for reaction in program.effects[fx] where reaction.call == call {
            features.insert(.effectReacted)
            perform(reaction.action)
        }
    }

    func reached(_ feature: SignalModelFeature) {
        if !isFinished { features.insert(feature) }
    }
}

// MARK: Comparing and shrinking

/// A program on which the model and the library disagree at `level`, with both logs.
struct SignalModelMismatch: CustomStringConvertible {
    let program: SignalModelProgram
    let level: Int
    let options: SignalModelOptions
    let expected: [SignalModelEvent]
    let actual: [SignalModelEvent]

    var firstDifference: Int {
        let common = min(expected.count, actual.count)
        return (0..<common).first { expected[$0] != actual[$0] } ?? common
    }

    var description: String {
        let first = firstDifference
        func numbered(_ log: [SignalModelEvent]) -> String {
            log.enumerated().map { index, event in
                (index == first ? "  > " : "    ") + "\(index): \(event)"
            }.joined(separator: "\n")
        }
        return """
            program:
            \(program)
            model (level \(level)\(options == .target ? "" : ", \(options)")):
            \(numbered(expected))
            library:
            \(numbered(actual))
            first difference at line \(first)
            """
    }
}

enum SignalModelCheck {
    /// The log of `program` on `Engine`, with only the events of `level` or less.
    static func log<Engine: SignalModelEngine>(
        _ program: SignalModelProgram, on engine: Engine.Type, level: Int, options: SignalModelOptions = .target
    ) -> [SignalModelEvent] {
        SignalModelRun<Engine>(program, options: options).log.filter { $0.level <= level }
    }

    /// Runs `program` on the model and on `Library`; the mismatch if their logs differ at `level`.
    static func compare<Library: SignalModelEngine>(
        _ program: SignalModelProgram, with library: Library.Type, level: Int, options: SignalModelOptions = .target
    ) -> SignalModelMismatch? {
        let expected = log(program, on: SignalReferenceModel.self, level: level, options: options)
        let actual = log(program, on: library, level: level)
        return expected == actual
            ? nil
            : SignalModelMismatch(program: program, level: level, options: options, expected: expected, actual: actual)
    }

    /// What comparing a program gives.
    enum Outcome {
        case agrees
        case differs(SignalModelMismatch)
    }

    /// Compares `program` at `level` with the target.
    static func check<Library: SignalModelEngine>(
        _ program: SignalModelProgram, with library: Library.Type, level: Int
    ) -> Outcome {
        compare(program, with: library, level: level).map { .differs($0) } ?? .agrees
    }

    /// The program `seed` generates.
    static func program(seed: UInt64) -> SignalModelProgram {
        // Salted, so that seed n is not the core model's program n (and each seed names the
        // program it always has).
        var choices = SeededChoices(seed: seed ^ 0x5EED_51C0_AD4B_7E11)
        return SignalModelProgram.generate(&choices)
    }

    /// Greedily simplifies the program while it still `differs` (as `check` says).
    static func shrink<Library: SignalModelEngine>(
        _ mismatch: SignalModelMismatch, with library: Library.Type
    ) -> SignalModelMismatch {
        var best = mismatch
        var improved = true
        while improved {
            improved = false
            for candidate in simpler(best.program) {
                if case .differs(let smaller) = check(candidate, with: library, level: best.level) {
                    best = smaller
                    improved = true
                    break
                }
            }
        }
        return best
    }

    /// Every program one simplification away from `program`, biggest cuts first.
    static func simpler(_ program: SignalModelProgram) -> [SignalModelProgram] {
        var candidates: [SignalModelProgram] = []
        func with(_ change: (inout SignalModelProgram) -> Void) {
            var copy = program
            change(&copy)
            if copy != program { candidates.append(copy) }
        }
        for index in program.steps.indices.reversed() {
            with { $0.steps.remove(at: index) }
        }
        for start in program.starts.indices {
            for index in program.starts[start].reactions.indices.reversed() {
                with { $0.starts[start].reactions.remove(at: index) }
            }
        }
        for fx in program.effects.indices {
            for index in program.effects[fx].indices.reversed() {
                with { $0.effects[fx].remove(at: index) }
            }
        }
        for start in program.starts.indices {
            for signal in simplerSignals(program.starts[start].signal) {
                with { $0.starts[start].signal = signal }
            }
        }
        for generator in program.generators.indices {
            for index in program.generators[generator].indices.reversed() {
                with { $0.generators[generator].remove(at: index) }
            }
            for index in program.disposalPuts[generator].indices.reversed() {
                with { $0.disposalPuts[generator].remove(at: index) }
            }
        }
        // A start that a start's handler makes, started by the step that made the first one.
        for index in program.steps.indices {
            guard case .start(let start) = program.steps[index] else { continue }
            for reaction in program.starts[start].reactions {
                if case .start(let inner) = reaction.action { with { $0.steps[index] = .start(inner) } }
            }
        }
        for promise in program.promises.indices where program.promises[promise] != nil {
            with { $0.promises[promise] = nil }
        }
        for promise in program.valuePromises.indices {
            with { $0.valuePromises[promise].initial = nil }
            with { $0.valuePromises[promise].ignoreRepeated = false }
        }
        func simplerActions(_ action: SignalModelAction) -> [SignalModelAction] {
            switch action {
            case .put(let generator, let start, let event):
                var actions: [SignalModelAction] = []
                if start > 1 { actions.append(.put(generator: generator, start: start - 1, event)) }
                if case .next(let value) = event, value > 0 {
                    actions.append(.put(generator: generator, start: start, .next(value - 1)))
                }
                if case .error(let error) = event, error > 0 {
                    actions.append(.put(generator: generator, start: start, .error(error - 1)))
                }
                return actions
            case .setPromise(let promise, let signal):
                return simplerSignals(signal).map { .setPromise(promise, $0) }
            case .setValue(let promise, let value) where value > 0: return [.setValue(promise, value - 1)]
            case .putPipe(let pipe, let value) where value > 0: return [.putPipe(pipe, value - 1)]
            default: return []
            }
        }
        for index in program.steps.indices {
            for action in simplerActions(program.steps[index]) {
                with { $0.steps[index] = action }
            }
        }
        for start in program.starts.indices {
            for index in program.starts[start].reactions.indices {
                for action in simplerActions(program.starts[start].reactions[index].action) {
                    with { $0.starts[start].reactions[index].action = action }
                }
                if program.starts[start].reactions[index].call > 0 {
                    with { $0.starts[start].reactions[index].call -= 1 }
                }
            }
        }
        for fx in program.effects.indices {
            for index in program.effects[fx].indices {
                for action in simplerActions(program.effects[fx][index].action) {
                    with { $0.effects[fx][index].action = action }
                }
                if program.effects[fx][index].call > 0 { with { $0.effects[fx][index].call -= 1 } }
            }
        }
        return candidates
    }

    /// Every signal one simplification away from `signal`: an operand in its place, an inner
    /// left out, or an operand simplified.
    static func simplerSignals(_ signal: SignalModelSignal) -> [SignalModelSignal] {
        typealias S = SignalModelSignal
        func each(_ signals: [S], _ rebuild: ([S]) -> S) -> [S] {
            var result: [S] = []
            if signals.count > 1 {
                for index in signals.indices.reversed() {
                    var fewer = signals
                    fewer.remove(at: index)
                    result.append(rebuild(fewer))
                }
            }
            for index in signals.indices {
                for smaller in simplerSignals(signals[index]) {
                    var changed = signals
                    changed[index] = smaller
                    result.append(rebuild(changed))
                }
            }
            return result
        }
        func unary(_ upstream: S, _ rebuild: @escaping (S) -> S) -> [S] {
            [upstream] + simplerSignals(upstream).map(rebuild)
        }
        switch signal {
        case .never: return []
        case .single(let value): return [.never] + (value > 0 ? [.single(value - 1)] : [])
        case .fail(let error): return [.never] + (error > 0 ? [.fail(error - 1)] : [])
        case .complete, .generator, .promise, .valuePromise, .pipe: return [.never]
        case .map(let k, let upstream):
            return unary(upstream) { .map(k, $0) } + (k > 0 ? [.map(k - 1, upstream)] : [])
        case .filter(let k, let upstream): return unary(upstream) { .filter(k, $0) }
        case .distinctUntilChanged(let upstream): return unary(upstream) { .distinctUntilChanged($0) }
        case .take(let count, let upstream):
            return unary(upstream) { .take(count, $0) } + (count > 0 ? [.take(count - 1, upstream)] : [])
        case .mapError(let k, let upstream): return unary(upstream) { .mapError(k, $0) }
        case .ignoreValues(let upstream): return unary(upstream) { .ignoreValues($0) }
        case .reduceLeft(let initial, let upstream): return unary(upstream) { .reduceLeft(initial, $0) }
        case .sideEffect(let kind, let fx, let upstream): return unary(upstream) { .sideEffect(kind, fx: fx, $0) }
        case .then(let upstream, let next):
            return [upstream, next] + simplerSignals(upstream).map { .then($0, next) }
                + simplerSignals(next).map { .then(upstream, $0) }
        case .catch(let upstream, let alternatives):
            return [upstream] + alternatives + unary(upstream) { .catch($0, alternatives) }.dropFirst()
                + each(alternatives) { .catch(upstream, $0) }
        case .mapToSignal(let upstream, let inners):
            return [upstream] + inners + unary(upstream) { .mapToSignal($0, inners) }.dropFirst()
                + each(inners) { .mapToSignal(upstream, $0) }
        case .switchToLatest(let upstream, let inners):
            return [upstream, .mapToSignal(upstream, inners)] + inners
                + unary(upstream) { .switchToLatest($0, inners) }.dropFirst()
                + each(inners) { .switchToLatest(upstream, $0) }
        case .queue(let upstream, let inners):
            return [upstream] + inners + unary(upstream) { .queue($0, inners) }.dropFirst()
                + each(inners) { .queue(upstream, $0) }
        case .combineLatest(let inputs):
            return inputs + each(inputs) { .combineLatest($0) }
        case .reduceLeftGenerator(let initial, let upstream, let step):
            return [upstream, .reduceLeft(initial, upstream)]
                + simplerSignals(upstream).map { .reduceLeftGenerator(initial, $0, step: step) }
                + simplerSignals(step).map { .reduceLeftGenerator(initial, upstream, step: $0) }
        }
    }
}
