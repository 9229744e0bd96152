// A program for the core's model-based test: pairs, receivers derived from them with operator
// chains, listeners that react to the waves they receive, and the top-level steps.
//
// Plain Swift with no test framework, so the fuzz target (Tests/Fuzz) compiles it too.

#if canImport(TestSupport)
import TestSupport  // ModelChoices; the fuzz target compiles its file into this module instead
#endif

/// One thing a program does: at the top level, or in a handler when it receives a given call.
enum ModelAction: Equatable {
    /// Broadcasts `value` into pair number `pair`.
    case broadcast(pair: Int, value: Int)
    /// Starts listener number `listener` (on the receiver its spec names).
    case listen(listener: Int)
    /// Disposes listener number `listener`; nothing if it has not been started (or `listen` has not returned yet).
    case dispose(listener: Int)
}

/// An operator in a derived receiver's chain. Waves are `Int`s all along: operators that change
/// the type are followed by a fixed conversion back (see `ModelOperator.previous`, `.optional`).
enum ModelOperator: Equatable {
    case map(Int)
    case filter(Int)
    case withPrevious
    case skip(Int)
    case take(Int)
    case skipRepeats
    case skipNil(Int)

    // The transforms are part of the program, not of the semantics under test: both runners use them.
    static func map(_ k: Int, _ wave: Int) -> Int { (wave + k) / 2 }
    static func filter(_ k: Int, _ wave: Int) -> Bool { wave % (k + 2) != 0 }
    static func previous(_ pair: (Int?, Int)) -> Int { ((pair.0 ?? 9) * 10 + pair.1) % 100 }
    static func optional(_ k: Int, _ wave: Int) -> Int? { wave % (k + 2) == 1 ? nil : wave }
}

/// What a pair keeps for new listeners (Choosing a Strategy): the model's own copy of `Receiver.Strategy`.
enum ModelStrategy: Equatable {
    case hot
    case warm(Int)
    case cold
}

struct ModelReceiverSpec: Equatable {
    var pair: Int
    var operators: [ModelOperator]
}

/// `action` runs inside the listener's handler when it receives its `call`-th wave (0-based).
struct ModelReaction: Equatable {
    var call: Int
    var action: ModelAction
}

struct ModelListenerSpec: Equatable {
    var receiver: Int
    var reactions: [ModelReaction]
}

struct ModelProgram: Equatable {
    var pairs: [ModelStrategy]
    var receivers: [ModelReceiverSpec]
    var listeners: [ModelListenerSpec]
    var steps: [ModelAction]
}

// MARK: Generating

extension ModelProgram {
    static let maxListeners = 12

    /// A random program. Every listener is started by at most one action and each reaction fires
    /// at most once, so every program terminates.
    static func generate<Choices: ModelChoices>(_ choices: inout Choices) -> ModelProgram {
        var program = ModelProgram(pairs: [], receivers: [], listeners: [], steps: [])
        for _ in 0..<(1 + choices.next(3)) {
            let strategy: ModelStrategy =
                switch choices.next(5) {
                case 0: .hot
                case 1: .cold
                case 2: .warm(1)
                default: .warm(choices.next(4))
                }
            program.pairs.append(strategy)
        }
        for pair in program.pairs.indices {
            program.receivers.append(ModelReceiverSpec(pair: pair, operators: []))
        }
        for _ in 0..<choices.next(5) {
            var spec = ModelReceiverSpec(pair: choices.next(program.pairs.count), operators: [])
            for _ in 0..<(1 + choices.next(3)) {
                let op: ModelOperator =
                    switch choices.next(8) {
                    case 0: .map(choices.next(3))
                    case 1: .filter(choices.next(3))
                    case 2: .withPrevious
                    case 3: .skip(choices.next(3))
                    case 4: .take(choices.next(4))
                    case 5: .skipRepeats
                    case 6: .skipNil(choices.next(3))
                    default: .map(0)
                    }
                spec.operators.append(op)
            }
            program.receivers.append(spec)
        }
        for _ in 0..<(1 + choices.next(20)) {
            program.steps.append(program.action(&choices, inside: nil))
        }
        return program
    }

    private mutating func action<Choices: ModelChoices>(_ choices: inout Choices, inside listener: Int?) -> ModelAction
    {
        let kind = choices.next(10)
        if kind >= 4, kind < 8, listeners.count < Self.maxListeners {
            return .listen(listener: newListener(&choices))
        }
        if kind >= 8, !listeners.isEmpty {
            // Often the listener itself, else any listener declared so far.
            if let listener, choices.next(3) == 0 { return .dispose(listener: listener) }
            return .dispose(listener: choices.next(listeners.count))
        }
        return .broadcast(pair: choices.next(pairs.count), value: choices.next(8))
    }

    private mutating func newListener<Choices: ModelChoices>(_ choices: inout Choices) -> Int {
        let id = listeners.count
        listeners.append(ModelListenerSpec(receiver: choices.next(receivers.count), reactions: []))
        var reactions: [ModelReaction] = []
        for _ in 0..<choices.next(4) {
            // Mostly early calls: many listeners receive only a few waves.
            let call = choices.next(3) == 0 ? choices.next(5) : choices.next(2)
            reactions.append(ModelReaction(call: call, action: action(&choices, inside: id)))
        }
        listeners[id].reactions = reactions
        return id
    }
}

// MARK: Printing

extension ModelProgram: CustomStringConvertible {
    var description: String {
        // Only what the steps reach: the listeners they (and those listeners) start, their
        // receivers, and the pairs those use or that are broadcast into.
        var started: [Int] = [], pending = steps
        while let action = pending.popLast() {
            guard case .listen(let listener) = action, !started.contains(listener) else { continue }
            started.append(listener)
            pending += listeners[listener].reactions.map(\.action)
        }
        started.sort()
        let actions = steps + started.flatMap { listeners[$0].reactions.map(\.action) }
        let usedReceivers = Set(started.map { listeners[$0].receiver })
        let usedPairs = Set(
            usedReceivers.map { receivers[$0].pair }
                + actions.compactMap { if case .broadcast(let pair, _) = $0 { pair } else { nil } })
        var lines: [String] = []
        for (index, strategy) in pairs.enumerated() where usedPairs.contains(index) {
            let name =
                switch strategy {
                case .hot: "hot"
                case .cold: "cold"
                case .warm(let count): "warm(upTo: \(count))"
                }
            lines.append("p\(index) = make(with: .\(name))")
        }
        for (index, spec) in receivers.enumerated() where !spec.operators.isEmpty && usedReceivers.contains(index) {
            lines.append("r\(index) = p\(spec.pair)" + spec.operators.map { ".\($0)" }.joined())
        }
        for index in started {
            let spec = listeners[index]
            let source =
                receivers[spec.receiver].operators.isEmpty ? "p\(receivers[spec.receiver].pair)" : "r\(spec.receiver)"
            lines.append(
                "L\(index) listens to \(source)"
                    + spec.reactions.map { "; on its call #\($0.call): \($0.action)" }.joined())
        }
        lines.append("steps: " + steps.map(\.description).joined(separator: "; "))
        return lines.joined(separator: "\n")
    }
}

extension ModelAction: CustomStringConvertible {
    var description: String {
        switch self {
        case .broadcast(let pair, let value): "p\(pair).broadcast(\(value))"
        case .listen(let listener): "listen L\(listener)"
        case .dispose(let listener): "dispose L\(listener)"
        }
    }
}

extension ModelOperator: CustomStringConvertible {
    var description: String {
        switch self {
        case .map(let k): "map { ($0 + \(k)) / 2 }"
        case .filter(let k): "filter { $0 % \(k + 2) != 0 }"
        case .withPrevious: "withPrevious().map { (($0 ?? 9) * 10 + $1) % 100 }"
        case .skip(let count): "skip(count: \(count))"
        case .take(let count): "take(count: \(count))"
        case .skipRepeats: "skipRepeats()"
        case .skipNil(let k): "map { $0 % \(k + 2) == 1 ? nil : $0 }.skipNil()"
        }
    }
}
