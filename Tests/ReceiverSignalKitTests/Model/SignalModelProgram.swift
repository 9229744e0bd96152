// A program for the adapter's model-based test: driven generators, promises, value
// promises, pipes and disposable containers; signals built from them with SwiftSignalKit's
// operators; starts whose handlers (and the operators' side-effect functions) react to the events
// they receive; and the top-level steps.
//
// Plain Swift with no test framework, so the fuzz target (Tests/Fuzz) compiles it too. Its names
// start with `SignalModel` so that they never meet the core's model (Tests/ReceiverTests/Model)
// in that one module.

#if canImport(TestSupport)
import TestSupport  // ModelChoices; the fuzz target compiles its file into this module instead
#endif

/// What a driven generator's start is given: by the generator itself while it runs, or later by
/// a `put` action.
enum SignalModelPut: Equatable, Sendable {
    case next(Int)
    case error(Int)
    case completed
}

/// Where a side effect's function runs (SwiftSignalKit's Signal_SideEffects.swift).
enum SignalModelSideEffect: Equatable, CaseIterable, Sendable {
    case beforeNext
    case afterNext
    case beforeStarted
    case beforeCompleted
    case afterCompleted
    case afterDisposed
}

/// A `Signal<Int, Int>`: sources, and the operators applied to them. Values and errors are small
/// `Int`s; the closures the operators take are fixed functions of a constant (`SignalModelFunctions`),
/// so both runners compute the same values.
indirect enum SignalModelSignal: Equatable, Sendable {
    case single(Int)
    case complete
    case fail(Int)
    case never
    /// A start of driven generator `gN`: logs `gN.subscribe#k`, puts its spec's events at once,
    /// and returns a disposable that logs `gN.dispose#k` on every `dispose()` call.
    case generator(Int)
    /// `promise.get()` of promise number N (`|> castError(Int.self)`).
    case promise(Int)
    /// `valuePromise.get()` of value promise number N (`|> castError(Int.self)`).
    case valuePromise(Int)
    /// `pipe.signal()` of pipe number N (`|> castError(Int.self)`).
    case pipe(Int)
    case map(Int, SignalModelSignal)
    case filter(Int, SignalModelSignal)
    case distinctUntilChanged(SignalModelSignal)
    case take(Int, SignalModelSignal)
    case then(SignalModelSignal, SignalModelSignal)
    /// `catch { error in alternatives[error % count] }`.
    case `catch`(SignalModelSignal, [SignalModelSignal])
    case mapError(Int, SignalModelSignal)
    /// `ignoreValues`, then back to `Int` (`map { never in }`).
    case ignoreValues(SignalModelSignal)
    /// `mapToSignal { value in inners[value % count] }`.
    case mapToSignal(SignalModelSignal, [SignalModelSignal])
    /// `map { value in inners[value % count] } |> switchToLatest`.
    case switchToLatest(SignalModelSignal, [SignalModelSignal])
    /// `map { value in inners[value % count] } |> queue`.
    case queue(SignalModelSignal, [SignalModelSignal])
    /// `combineLatest` of 1 to 3 inputs (the tuple overloads for 2 and 3, the array one for 1),
    /// mapped to one `Int`.
    case combineLatest([SignalModelSignal])
    /// `reduceLeft(value: initial, f: +)`.
    case reduceLeft(Int, SignalModelSignal)
    /// `reduceLeft(initial, generator: { acc, value in step |> map { … } })`: each step runs `step`,
    /// whose values update the accumulator (and pass on when even).
    case reduceLeftGenerator(Int, SignalModelSignal, step: SignalModelSignal)
    /// A side effect whose function logs `fxN.<kind>` (and runs `effects[N]`'s reactions).
    case sideEffect(SignalModelSideEffect, fx: Int, SignalModelSignal)
}

/// One thing a program does: at the top level, or in a handler or side effect when it is called
/// for the given time.
enum SignalModelAction: Equatable, Sendable {
    /// Puts `event` into the `start`-th (1-based) start of generator `generator`; nothing if that
    /// start has not happened.
    case put(generator: Int, start: Int, SignalModelPut)
    /// `promise.set(signal)`.
    case setPromise(Int, SignalModelSignal)
    /// `valuePromise.set(value)`.
    case setValue(Int, Int)
    /// `pipe.putNext(value)`.
    case putPipe(Int, Int)
    /// Starts start number N with handlers that log its events; at most once per program.
    case start(Int)
    /// Disposes start N's disposable; nothing if `start` has not returned it yet.
    case dispose(Int)
    /// `meta.set(start N's disposable)` (or `set(nil)`); nothing if it has no disposable yet.
    case setMeta(Int, start: Int?)
    case disposeMeta(Int)
    case addToSet(Int, start: Int)
    case removeFromSet(Int, start: Int)
    case disposeSet(Int)
}

/// `action` runs when its handler or side effect is called for the `call`-th time (0-based).
struct SignalModelReaction: Equatable, Sendable {
    var call: Int
    var action: SignalModelAction
}

struct SignalModelStart: Equatable, Sendable {
    var signal: SignalModelSignal
    /// Counted over `next`, `error` and `completed` together.
    var reactions: [SignalModelReaction]
}

struct SignalModelValuePromise: Equatable, Sendable {
    var initial: Int?
    var ignoreRepeated: Bool
}

struct SignalModelProgram: Equatable, Sendable {
    /// What each start of `gN` puts while its generator runs.
    var generators: [[SignalModelPut]]
    /// What each start of `gN` puts into its own subscriber while its disposable is disposed (a
    /// source that still sends as it is torn down).
    var disposalPuts: [[SignalModelPut]]
    /// The initial value of each `Promise<Int>`.
    var promises: [Int?]
    var valuePromises: [SignalModelValuePromise]
    var pipes: Int
    var metas: Int
    var sets: Int
    var starts: [SignalModelStart]
    /// The reactions of side effect `fxN`, counted over every start that runs it.
    var effects: [[SignalModelReaction]]
    var steps: [SignalModelAction]
}

/// The operators' closures: part of the program, not of the semantics under test.
enum SignalModelFunctions {
    static func map(_ k: Int, _ value: Int) -> Int { (value + k) % 10 }
    static func filter(_ k: Int, _ value: Int) -> Bool { value % (k + 2) != 0 }
    static func mapError(_ k: Int, _ error: Int) -> Int { (error + k) % 10 }
    static func pick<Item>(_ items: [Item], _ value: Int) -> Item { items[value % items.count] }
    static func combine(_ values: [Int]) -> Int { values.reduce(0) { ($0 * 10 + $1) % 1000 } }
    static func reduce(_ accumulator: Int, _ value: Int) -> Int { (accumulator + value) % 100 }
    /// A reduce step's result for a value `x` of the step signal: the new accumulator, and
    /// whether it passes on (even ones do).
    static func step(_ accumulator: Int, _ value: Int, _ x: Int) -> (Int, passes: Bool) {
        let next = (accumulator + value + x) % 100
        return (next, next % 2 == 0)
    }
}

// MARK: Generating

extension SignalModelProgram {
    static let maxStarts = 10
    static let maxDepth = 3

    /// A random program. Every start is started by at most one action and each reaction fires at
    /// most once, so every program ends.
    static func generate<Choices: ModelChoices>(_ choices: inout Choices) -> SignalModelProgram {
        var program = SignalModelProgram(
            generators: [], disposalPuts: [], promises: [], valuePromises: [], pipes: 0, metas: 0, sets: 0, starts: [],
            effects: [],
            steps: [])
        for _ in 0..<(1 + choices.next(3)) {
            let puts: [SignalModelPut] =
                switch choices.next(10) {
                case 0: [.next(choices.next(8))]
                case 1: [.next(choices.next(8)), .completed]
                case 2: [.next(choices.next(8)), .next(choices.next(8))]
                case 3: [.completed]
                case 4: [.error(choices.next(4))]
                case 5: [.next(choices.next(8)), .error(choices.next(4))]
                default: []
                }
            program.generators.append(puts)
            let disposalPuts: [SignalModelPut] =
                switch choices.next(8) {
                case 0: [.next(choices.next(8))]
                case 1: [.completed]
                case 2: [.next(choices.next(8)), .error(choices.next(4))]
                default: []
                }
            program.disposalPuts.append(disposalPuts)
        }
        for _ in 0..<choices.next(3) {
            program.promises.append(choices.next(2) == 0 ? nil : choices.next(8))
        }
        for _ in 0..<choices.next(3) {
            program.valuePromises.append(
                SignalModelValuePromise(
                    initial: choices.next(3) == 0 ? nil : choices.next(4), ignoreRepeated: choices.next(2) == 0))
        }
        program.pipes = choices.next(2)
        program.metas = choices.next(3)
        program.sets = choices.next(3)
        for _ in 0..<(1 + choices.next(16)) {
            let step = program.action(&choices, inside: nil)
            program.steps.append(step)
            // As apps do: a start's disposable kept by an owner's container…
            guard case .start(let start) = step, choices.next(2) == 0 else { continue }
            if program.sets > 0, choices.next(3) > 0 {
                program.steps.append(.addToSet(choices.next(program.sets), start: start))
            } else if program.metas > 0 {
                program.steps.append(.setMeta(choices.next(program.metas), start: start))
            }
        }
        // … which the owner disposes when it goes.
        if program.sets > 0, choices.next(2) == 0 { program.steps.append(.disposeSet(choices.next(program.sets))) }
        if program.metas > 0, choices.next(3) == 0 { program.steps.append(.disposeMeta(choices.next(program.metas))) }
        return program
    }

    /// A random signal; mostly sources near the leaves. A promise's source reads no promise, so
    /// that no promise feeds itself (which would never end).
    mutating func signal<Choices: ModelChoices>(
        _ choices: inout Choices, depth: Int = 0, readingPromises: Bool = true
    ) -> SignalModelSignal {
        if depth >= Self.maxDepth || choices.next(10) < 3 + depth * 2 {
            return source(&choices, readingPromises: readingPromises)
        }
        func operand() -> SignalModelSignal { signal(&choices, depth: depth + 1, readingPromises: readingPromises) }
        func inners() -> [SignalModelSignal] {
            // Often a driven generator: an inner that is still running when the next one arrives.
            (0..<(1 + choices.next(3))).map { _ in
                choices.next(2) == 0 ? .generator(choices.next(generators.count)) : operand()
            }
        }
        switch choices.next(28) {
        case 0, 1: return .map(choices.next(4), operand())
        case 2: return .filter(choices.next(3), operand())
        case 3: return .distinctUntilChanged(operand())
        case 4, 5: return .take(choices.next(4), operand())
        case 6, 20: return .then(operand(), operand())
        case 7, 22: return .catch(operand(), inners())
        case 8: return .mapError(choices.next(4), operand())
        case 9: return .ignoreValues(operand())
        case 10, 11: return .mapToSignal(operand(), inners())
        case 12: return .switchToLatest(operand(), inners())
        case 13, 14, 21: return .queue(operand(), inners())
        case 15, 16: return .combineLatest((0..<(1 + choices.next(3))).map { _ in operand() })
        case 17: return .reduceLeft(choices.next(4), operand())
        case 18, 19, 27:
            // Mostly a driven step, so that values wait for it.
            let step = choices.next(3) == 0 ? operand() : .generator(choices.next(generators.count))
            let upstream = choices.next(2) == 0 ? operand() : .generator(choices.next(generators.count))
            return .reduceLeftGenerator(choices.next(4), upstream, step: step)
        default:
            let kind = SignalModelSideEffect.allCases[choices.next(SignalModelSideEffect.allCases.count)]
            let fx = effects.count
            effects.append([])
            if choices.next(2) == 0 {
                effects[fx].append(
                    SignalModelReaction(call: choices.next(2), action: action(&choices, inside: nil)))
            }
            return .sideEffect(kind, fx: fx, operand())
        }
    }

    private func source<Choices: ModelChoices>(_ choices: inout Choices, readingPromises: Bool)
        -> SignalModelSignal
    {
        switch choices.next(20) {
        case 0: return .single(choices.next(8))
        case 1: return .complete
        case 2: return .fail(choices.next(4))
        case 3: return .never
        case 4...6: if readingPromises, !promises.isEmpty { return .promise(choices.next(promises.count)) }
        case 7...9: if !valuePromises.isEmpty { return .valuePromise(choices.next(valuePromises.count)) }
        case 10...11: if pipes > 0 { return .pipe(choices.next(pipes)) }
        default: break
        }
        return .generator(choices.next(generators.count))
    }

    mutating func action<Choices: ModelChoices>(_ choices: inout Choices, inside start: Int?)
        -> SignalModelAction
    {
        // Half the time, inside a handler: something to do with the start's own sources, so that
        // re-entrant puts, sets and joins happen often.
        if let start, choices.next(2) == 0 {
            let sources = starts[start].signal.parts.filter(\.isSource)
            if !sources.isEmpty, starts.count < Self.maxStarts, choices.next(3) == 0 {
                // A new start of the same source: it joins while that source delivers.
                let id = starts.count
                let source = sources[choices.next(sources.count)]
                starts.append(SignalModelStart(signal: choices.next(2) == 0 ? source : .map(1, source), reactions: []))
                return .start(id)
            }
            if !sources.isEmpty {
                switch sources[choices.next(sources.count)] {
                case .generator(let generator):
                    let event: SignalModelPut = choices.next(5) == 0 ? .completed : .next(choices.next(8))
                    return .put(generator: generator, start: choices.next(4) == 0 ? 2 : 1, event)
                case .valuePromise(let promise):
                    return .setValue(promise, choices.next(4))
                case .pipe(let pipe):
                    return .putPipe(pipe, choices.next(8))
                case .promise(let promise):
                    return .setPromise(promise, .single(choices.next(8)))
                default:
                    break
                }
            }
        }
        let kind = choices.next(25)
        switch kind {
        case 0..<5:
            let event: SignalModelPut =
                switch choices.next(6) {
                case 0: .error(choices.next(4))
                case 1: .completed
                default: .next(choices.next(8))
                }
            return .put(generator: choices.next(generators.count), start: choices.next(4) == 0 ? 2 : 1, event)
        case 5 where !promises.isEmpty:
            let value: SignalModelSignal =
                choices.next(2) == 0 ? .single(choices.next(8)) : signal(&choices, depth: 2, readingPromises: false)
            return .setPromise(choices.next(promises.count), value)
        case 6...8 where !valuePromises.isEmpty:
            return .setValue(choices.next(valuePromises.count), choices.next(4))
        case 9...10 where pipes > 0:
            return .putPipe(choices.next(pipes), choices.next(8))
        case 11..<16 where starts.count < Self.maxStarts:
            return .start(newStart(&choices))
        case 16...17 where !starts.isEmpty:
            // Often the start itself, else any start declared so far.
            if let start, choices.next(2) == 0 { return .dispose(start) }
            return .dispose(choices.next(starts.count))
        case 18...19 where metas > 0:
            let meta = choices.next(metas)
            if choices.next(4) == 0 { return .disposeMeta(meta) }
            return .setMeta(meta, start: starts.isEmpty || choices.next(5) == 0 ? nil : choices.next(starts.count))
        case 20...22 where sets > 0 && !starts.isEmpty:
            return .addToSet(choices.next(sets), start: choices.next(starts.count))
        case 23 where sets > 0:
            if starts.isEmpty || choices.next(2) == 0 { return .disposeSet(choices.next(sets)) }
            return .removeFromSet(choices.next(sets), start: choices.next(starts.count))
        default:
            break
        }
        return .put(generator: choices.next(generators.count), start: 1, .next(choices.next(8)))
    }

    private mutating func newStart<Choices: ModelChoices>(_ choices: inout Choices) -> Int {
        let id = starts.count
        starts.append(SignalModelStart(signal: .never, reactions: []))
        starts[id].signal = signal(&choices)
        var reactions: [SignalModelReaction] = []
        for _ in 0..<choices.next(4) {
            // Mostly early calls: many starts receive only a few events; and often several
            // actions on one call (puts into the outer and the inner of a flattening, say).
            let call = choices.next(3) == 0 ? choices.next(4) : choices.next(3) == 0 ? 1 : 0
            reactions.append(SignalModelReaction(call: call, action: action(&choices, inside: id)))
        }
        starts[id].reactions = reactions
        return id
    }
}

// MARK: Printing (Swift-like, to read a shrunk program)

extension SignalModelPut: CustomStringConvertible {
    var description: String {
        switch self {
        case .next(let value): "putNext(\(value))"
        case .error(let error): "putError(\(error))"
        case .completed: "putCompletion()"
        }
    }
}

extension SignalModelSignal: CustomStringConvertible {
    var description: String {
        func list(_ signals: [SignalModelSignal]) -> String {
            "[" + signals.map(\.description).joined(separator: ", ") + "]"
        }
        switch self {
        case .single(let value): return ".single(\(value))"
        case .complete: return ".complete()"
        case .fail(let error): return ".fail(\(error))"
        case .never: return ".never()"
        case .generator(let generator): return "g\(generator)"
        case .promise(let promise): return "p\(promise).get()"
        case .valuePromise(let promise): return "v\(promise).get()"
        case .pipe(let pipe): return "pipe\(pipe).signal()"
        case .map(let k, let upstream): return "\(upstream) |> map { ($0 + \(k)) % 10 }"
        case .filter(let k, let upstream): return "\(upstream) |> filter { $0 % \(k + 2) != 0 }"
        case .distinctUntilChanged(let upstream): return "\(upstream) |> distinctUntilChanged"
        case .take(let count, let upstream): return "\(upstream) |> take(\(count))"
        case .then(let upstream, let next): return "\(upstream) |> then(\(next))"
        case .catch(let upstream, let alternatives):
            return "\(upstream) |> `catch` { \(list(alternatives))[$0 % \(alternatives.count)] }"
        case .mapError(let k, let upstream): return "\(upstream) |> mapError { ($0 + \(k)) % 10 }"
        case .ignoreValues(let upstream): return "\(upstream) |> ignoreValues"
        case .mapToSignal(let upstream, let inners):
            return "\(upstream) |> mapToSignal { \(list(inners))[$0 % \(inners.count)] }"
        case .switchToLatest(let upstream, let inners):
            return "\(upstream) |> map { \(list(inners))[$0 % \(inners.count)] } |> switchToLatest"
        case .queue(let upstream, let inners):
            return "\(upstream) |> map { \(list(inners))[$0 % \(inners.count)] } |> queue"
        case .combineLatest(let inputs):
            let arguments = inputs.count == 1 ? list(inputs) : inputs.map(\.description).joined(separator: ", ")
            return "combineLatest(\(arguments)) |> map { digits of \(inputs.count == 1 ? "$0" : "the tuple") }"
        case .reduceLeft(let initial, let upstream):
            return "\(upstream) |> reduceLeft(value: \(initial)) { ($0 + $1) % 100 }"
        case .reduceLeftGenerator(let initial, let upstream, let step):
            return
                "\(upstream) |> reduceLeft(\(initial)) { acc, v in \(step) |> map { x in (n = (acc + v + x) % 100, n even ? .Some(n) : .None) } }"
        case .sideEffect(let kind, let fx, let upstream):
            let argument = kind == .beforeNext || kind == .afterNext ? "fx\(fx)($0)" : "fx\(fx)()"
            return "\(upstream) |> \(kind) { \(argument) }"
        }
    }
}

extension SignalModelAction: CustomStringConvertible {
    var description: String {
        switch self {
        case .put(let generator, let start, let event): "g\(generator)#\(start).\(event)"
        case .setPromise(let promise, let signal): "p\(promise).set(\(signal))"
        case .setValue(let promise, let value): "v\(promise).set(\(value))"
        case .putPipe(let pipe, let value): "pipe\(pipe).putNext(\(value))"
        case .start(let start): "start s\(start)"
        case .dispose(let start): "s\(start).dispose()"
        case .setMeta(let meta, let start): "m\(meta).set(\(start.map { "s\($0)" } ?? "nil"))"
        case .disposeMeta(let meta): "m\(meta).dispose()"
        case .addToSet(let set, let start): "d\(set).add(s\(start))"
        case .removeFromSet(let set, let start): "d\(set).remove(s\(start))"
        case .disposeSet(let set): "d\(set).dispose()"
        }
    }
}

extension SignalModelSignal {
    /// A generator, promise, value promise or pipe.
    var isSource: Bool {
        switch self {
        case .generator, .promise, .valuePromise, .pipe: true
        default: false
        }
    }

    /// This signal and every signal in it.
    var parts: [SignalModelSignal] {
        let operands: [SignalModelSignal] =
            switch self {
            case .single, .complete, .fail, .never, .generator, .promise, .valuePromise, .pipe: []
            case .map(_, let upstream), .filter(_, let upstream), .distinctUntilChanged(let upstream),
                .take(_, let upstream), .mapError(_, let upstream), .ignoreValues(let upstream),
                .reduceLeft(_, let upstream), .sideEffect(_, _, let upstream):
                [upstream]
            case .then(let upstream, let next): [upstream, next]
            case .catch(let upstream, let others), .mapToSignal(let upstream, let others),
                .switchToLatest(let upstream, let others), .queue(let upstream, let others):
                [upstream] + others
            case .combineLatest(let inputs): inputs
            case .reduceLeftGenerator(_, let upstream, let step): [upstream, step]
            }
        return [self] + operands.flatMap(\.parts)
    }
}

extension SignalModelProgram: CustomStringConvertible {
    /// What the steps can reach: the starts they (and those starts' handlers, and the side
    /// effects of their signals) start, and the signals and actions involved.
    private var reachable: (starts: [Int], signals: [SignalModelSignal], actions: [SignalModelAction]) {
        var starts: Set<Int> = [], effects: Set<Int> = [], actions: [SignalModelAction] = []
        var signals: [SignalModelSignal] = []
        var pending = steps
        func reach(_ signal: SignalModelSignal) {
            for part in signal.parts {
                signals.append(part)
                if case .sideEffect(_, let fx, _) = part, effects.insert(fx).inserted {
                    pending += self.effects[fx].map(\.action)
                }
            }
        }
        while let action = pending.popLast() {
            actions.append(action)
            switch action {
            case .start(let start) where starts.insert(start).inserted:
                reach(self.starts[start].signal)
                pending += self.starts[start].reactions.map(\.action)
            case .setPromise(_, let signal):
                reach(signal)
            default:
                break
            }
        }
        return (starts.sorted(), signals, actions)
    }

    var description: String {
        let (started, signals, actions) = reachable
        func uses(_ matches: (SignalModelSignal) -> Bool, _ acts: (SignalModelAction) -> Bool) -> Bool {
            signals.contains(where: matches) || actions.contains(where: acts)
        }
        var lines: [String] = []
        for (index, puts) in generators.enumerated()
        where uses({ $0 == .generator(index) }, { if case .put(index, _, _) = $0 { true } else { false } }) {
            lines.append(
                "g\(index) = Signal { s in log(\"g\(index).subscribe#k\"); "
                    + puts.map { "s.\($0); " }.joined() + "return Disposable { log(\"g\(index).dispose#k\")"
                    + disposalPuts[index].map { "; s.\($0)" }.joined() + " } }")
        }
        for (index, initial) in promises.enumerated()
        where uses({ $0 == .promise(index) }, { if case .setPromise(index, _) = $0 { true } else { false } }) {
            lines.append("p\(index) = Promise<Int>(\(initial.map(String.init) ?? ""))")
        }
        for (index, promise) in valuePromises.enumerated()
        where uses({ $0 == .valuePromise(index) }, { if case .setValue(index, _) = $0 { true } else { false } }) {
            let initial = promise.initial.map { "\($0), " } ?? ""
            lines.append("v\(index) = ValuePromise<Int>(\(initial)ignoreRepeated: \(promise.ignoreRepeated))")
        }
        for index in 0..<pipes
        where uses({ $0 == .pipe(index) }, { if case .putPipe(index, _) = $0 { true } else { false } }) {
            lines.append("pipe\(index) = ValuePipe<Int>()")
        }
        for index in 0..<metas where actions.contains(where: { $0.meta == index }) {
            lines.append("m\(index) = MetaDisposable()")
        }
        for index in 0..<sets where actions.contains(where: { $0.set == index }) {
            lines.append("d\(index) = DisposableSet()")
        }
        for (index, reactions) in effects.enumerated() where !reactions.isEmpty {
            guard signals.contains(where: { if case .sideEffect(_, index, _) = $0 { true } else { false } }) else {
                continue
            }
            lines.append(
                "fx\(index): " + reactions.map { "on its call #\($0.call): \($0.action)" }.joined(separator: "; "))
        }
        for index in started {
            let start = starts[index]
            lines.append(
                "s\(index) = (\(start.signal)).start(next/error/completed: log)"
                    + start.reactions.map { "; on its call #\($0.call): \($0.action)" }.joined())
        }
        lines.append("steps: " + steps.map(\.description).joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}

extension SignalModelAction {
    fileprivate var meta: Int? {
        switch self {
        case .setMeta(let meta, _), .disposeMeta(let meta): meta
        default: nil
        }
    }

    fileprivate var set: Int? {
        switch self {
        case .addToSet(let set, _), .removeFromSet(let set, _), .disposeSet(let set): set
        default: nil
        }
    }
}
