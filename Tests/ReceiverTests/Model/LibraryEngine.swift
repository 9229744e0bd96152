// The library behind the model-based test's harness: each program's pairs made with
// `Receiver.make(with:)`, its receivers derived with the library's operators, public API only.
//
// In the test target the library is the module `Receiver`; the fuzz target compiles its sources
// into the same module as this file, so there is nothing to import.
#if canImport(Receiver)
import Receiver
#endif

final class LibraryEngine: ModelEngine {
    private let transmitters: [Receiver<Int>.Transmitter]
    private let receivers: [Receiver<Int>]

    init(_ program: ModelProgram) {
        let pairs = program.pairs.map { strategy in
            let strategy: Receiver<Int>.Strategy =
                switch strategy {
                case .hot: .hot
                case .warm(let count): .warm(upTo: count)
                case .cold: .cold
                }
            return Receiver<Int>.make(with: strategy)
        }
        transmitters = pairs.map(\.0)
        receivers = program.receivers.map { spec in
            spec.operators.reduce(pairs[spec.pair].1) { receiver, op in
                switch op {
                case .map(let k): receiver.map { ModelOperator.map(k, $0) }
                case .filter(let k): receiver.filter { ModelOperator.filter(k, $0) }
                case .withPrevious: receiver.withPrevious().map(ModelOperator.previous)
                case .skip(let count): receiver.skip(count: count)
                case .take(let count): receiver.take(count: count)
                case .skipRepeats: receiver.skipRepeats()
                case .skipNil(let k): receiver.map { ModelOperator.optional(k, $0) }.skipNil()
                }
            }
        }
    }

    func broadcast(pair: Int, value: Int) { transmitters[pair].broadcast(value) }

    func listen(receiver: Int, handler: @escaping (Int) -> Void) -> any Disposable {
        receivers[receiver].listen(to: handler)
    }

    func dispose(_ subscription: any Disposable) { subscription.dispose() }
}
