// Runs a `ModelProgram` against an engine — the reference model or the library — and records the
// delivery log; compares the two, and shrinks a program on which they differ.
//
// Plain Swift with no test framework, so the fuzz target (Tests/Fuzz) compiles it too.

#if canImport(TestSupport)
import TestSupport  // ModelChoices; the fuzz target compiles its file into this module instead
#endif

/// What the harness needs from an engine: pairs of `Int` waves and the receivers derived from them,
/// built from a program's `pairs` and `receivers`.
protocol ModelEngine: AnyObject {
    associatedtype Subscription
    init(_ program: ModelProgram)
    func broadcast(pair: Int, value: Int)
    func listen(receiver: Int, handler: @escaping (Int) -> Void) -> Subscription
    func dispose(_ subscription: Subscription)
}

/// One line of a delivery log.
enum ModelEvent: Equatable, CustomStringConvertible {
    /// Listener `listener`'s handler was called with `wave`.
    case received(listener: Int, wave: Int)
    case broadcastReturned(pair: Int, value: Int)
    case listenReturned(listener: Int)
    case disposeReturned(listener: Int)
    /// The log grew past `ModelRun.maxEvents`: the engine delivers without end; nothing more is done.
    case overflow

    var description: String {
        switch self {
        case .received(let listener, let wave): "L\(listener) <- \(wave)"
        case .broadcastReturned(let pair, let value): "p\(pair).broadcast(\(value)) returned"
        case .listenReturned(let listener): "listen L\(listener) returned"
        case .disposeReturned(let listener): "dispose L\(listener) returned"
        case .overflow: "(log overflow: stopped)"
        }
    }
}

/// One run of a program. Not thread-safe: the model-based test is sequential.
final class ModelRun<Engine: ModelEngine> {
    static var maxEvents: Int { 20_000 }

    let program: ModelProgram
    private(set) var log: [ModelEvent] = []
    private var engine: Engine?
    private var subscriptions: [Engine.Subscription?]
    private var calls: [Int]

    /// Runs `program` to the end and keeps its log.
    init(_ program: ModelProgram) {
        self.program = program
        subscriptions = Array(repeating: nil, count: program.listeners.count)
        calls = Array(repeating: 0, count: program.listeners.count)
        engine = Engine(program)
        for step in program.steps { perform(step) }
        // Let go of the engine's pairs, and with them the handlers, which hold this run unowned.
        subscriptions = []
        engine = nil
    }

    private func perform(_ action: ModelAction) {
        guard let engine, log.count < Self.maxEvents else {
            if log.last != .overflow { log.append(.overflow) }
            return
        }
        switch action {
        case .broadcast(let pair, let value):
            engine.broadcast(pair: pair, value: value)
            log.append(.broadcastReturned(pair: pair, value: value))
        case .listen(let listener):
            let subscription = engine.listen(receiver: program.listeners[listener].receiver) { [unowned self] wave in
                received(wave, by: listener)
            }
            subscriptions[listener] = subscription
            log.append(.listenReturned(listener: listener))
        case .dispose(let listener):
            if let subscription = subscriptions[listener] { engine.dispose(subscription) }
            log.append(.disposeReturned(listener: listener))
        }
    }

    private func received(_ wave: Int, by listener: Int) {
        log.append(.received(listener: listener, wave: wave))
        let call = calls[listener]
        calls[listener] += 1
        for reaction in program.listeners[listener].reactions where reaction.call == call {
            perform(reaction.action)
        }
    }
}

// MARK: Comparing and shrinking

/// A program on which the model and the library disagree, with both logs.
struct ModelMismatch: CustomStringConvertible {
    let program: ModelProgram
    let expected: [ModelEvent]
    let actual: [ModelEvent]

    var description: String {
        let common = min(expected.count, actual.count)
        let firstDifference = (0..<common).first { expected[$0] != actual[$0] } ?? common
        func numbered(_ log: [ModelEvent]) -> String {
            log.enumerated().map { index, event in
                (index == firstDifference ? "  > " : "    ") + "\(index): \(event)"
            }.joined(separator: "\n")
        }
        return """
            program:
            \(program)
            model (the threading contract and the operators):
            \(numbered(expected))
            library:
            \(numbered(actual))
            first difference at line \(firstDifference)
            """
    }
}

enum ModelCheck {
    /// Runs `program` on the model and on `Library`; the mismatch if their logs differ.
    static func compare<Library: ModelEngine>(_ program: ModelProgram, with library: Library.Type) -> ModelMismatch? {
        let expected = ModelRun<ReferenceModel>(program).log
        let actual = ModelRun<Library>(program).log
        return expected == actual ? nil : ModelMismatch(program: program, expected: expected, actual: actual)
    }

    /// The mismatch for the program `seed` generates, shrunk; nil if model and library agree.
    static func check<Library: ModelEngine>(seed: UInt64, with library: Library.Type) -> ModelMismatch? {
        var choices = SeededChoices(seed: seed)
        let program = ModelProgram.generate(&choices)
        return compare(program, with: library).map { shrink($0, with: library) }
    }

    /// Greedily simplifies the program while the two logs still differ.
    static func shrink<Library: ModelEngine>(_ mismatch: ModelMismatch, with library: Library.Type) -> ModelMismatch {
        var best = mismatch
        var improved = true
        while improved {
            improved = false
            for candidate in simpler(best.program) {
                if let smaller = compare(candidate, with: library) {
                    best = smaller
                    improved = true
                    break
                }
            }
        }
        return best
    }

    /// Every program one simplification away from `program`, biggest cuts first.
    static func simpler(_ program: ModelProgram) -> [ModelProgram] {
        var candidates: [ModelProgram] = []
        func with(_ change: (inout ModelProgram) -> Void) {
            var copy = program
            change(&copy)
            if copy != program { candidates.append(copy) }
        }
        for index in program.steps.indices.reversed() {
            with { $0.steps.remove(at: index) }
        }
        for listener in program.listeners.indices {
            for index in program.listeners[listener].reactions.indices.reversed() {
                with { $0.listeners[listener].reactions.remove(at: index) }
            }
        }
        for receiver in program.receivers.indices {
            for index in program.receivers[receiver].operators.indices {
                with { $0.receivers[receiver].operators.remove(at: index) }
            }
            // A listener on a derived receiver moves to its pair's plain receiver.
            with {
                for listener in $0.listeners.indices where $0.listeners[listener].receiver == receiver {
                    $0.listeners[listener].receiver = program.receivers[receiver].pair
                }
            }
        }
        for pair in program.pairs.indices {
            switch program.pairs[pair] {
            case .hot: break
            case .cold:
                with { $0.pairs[pair] = .hot }
                with { $0.pairs[pair] = .warm(1) }
            case .warm(let count):
                with { $0.pairs[pair] = .hot }
                if count > 1 { with { $0.pairs[pair] = .warm(count - 1) } }
            }
        }
        func simpler(_ action: ModelAction) -> ModelAction {
            if case .broadcast(let pair, let value) = action, value > 0 {
                return .broadcast(pair: pair, value: value - 1)
            }
            return action
        }
        for index in program.steps.indices {
            with { $0.steps[index] = simpler($0.steps[index]) }
        }
        for listener in program.listeners.indices {
            for index in program.listeners[listener].reactions.indices {
                with {
                    $0.listeners[listener].reactions[index].action = simpler(
                        $0.listeners[listener].reactions[index].action)
                }
                with {
                    $0.listeners[listener].reactions[index].call = max(
                        0, $0.listeners[listener].reactions[index].call - 1)
                }
            }
        }
        return candidates
    }
}
