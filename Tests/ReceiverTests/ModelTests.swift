import Foundation
import Receiver
import ReceiverSignalKitTesting
import TestSupport
import Testing

/// The core's model-based test (the strategies, the threading contract and the operators): random
/// programs of broadcasts, listens and disposals — also from inside handlers and replays, on pairs
/// of every strategy and receivers derived with random operator chains — run on the reference
/// model (Model/ReferenceModel.swift) and on the library; the delivery logs must be identical. A
/// mismatch is shrunk and printed with both logs and its seed.
///
/// CI runs a fixed set of seeds. More: `RECEIVER_MODEL_PROGRAMS=1000000 swift test -c release
/// --filter ModelTests` (and `RECEIVER_MODEL_SEED=n` to start at seed n, e.g. to reproduce one).
@Suite(.detectingLeaks) struct ModelTests {
    static let environment = ProcessInfo.processInfo.environment
    /// The test runs on one thread: under the thread sanitizer, CI runs fewer programs.
    static let programs =
        environment["RECEIVER_MODEL_PROGRAMS"].flatMap { Int($0) } ?? (underThreadSanitizer ? 300 : 10_000)
    static let firstSeed = environment["RECEIVER_MODEL_SEED"].flatMap { UInt64($0) } ?? 0

    @Test func theLibraryDeliversAsTheModelSays() {
        let start = ContinuousClock.now
        for seed in Self.firstSeed..<(Self.firstSeed + UInt64(Self.programs)) {
            if let mismatch = ModelCheck.check(seed: seed, with: LibraryEngine.self) {
                Issue.record(
                    """
                    seed \(seed) (RECEIVER_MODEL_SEED=\(seed) RECEIVER_MODEL_PROGRAMS=1 swift test --filter ModelTests), shrunk:
                    \(mismatch)
                    """)
                return
            }
        }
        if Self.programs > 10_000 {
            print("ModelTests: \(Self.programs) programs from seed \(Self.firstSeed) in \(ContinuousClock.now - start)")
        }
    }

    @Test func programsDoWhatTheHarnessNeeds() {
        // The generator must reach the interesting cases, or the test proves little.
        var (nested, replayActions, derived, disposals) = (0, 0, 0, 0)
        for seed in UInt64(0)..<500 {
            var choices = SeededChoices(seed: seed)
            let program = ModelProgram.generate(&choices)
            let log = ModelRun<ReferenceModel>(program).log
            derived += program.receivers.contains { !$0.operators.isEmpty } ? 1 : 0
            disposals += program.steps.contains { if case .dispose = $0 { true } else { false } } ? 1 : 0
            nested += program.listeners.contains { !$0.reactions.isEmpty } ? 1 : 0
            // An action done by a handler during a replay: something returns between a listener's
            // first wave and the return of its `listen`.
            var replaying: Set<Int> = [], returned: Set<Int> = [], duringReplay = false
            for event in log {
                switch event {
                case .received(let listener, _) where !returned.contains(listener): replaying.insert(listener)
                case .listenReturned(let listener):
                    returned.insert(listener)
                    replaying.remove(listener)
                    duringReplay = duringReplay || !replaying.isEmpty
                case .broadcastReturned, .disposeReturned: duringReplay = duringReplay || !replaying.isEmpty
                default: break
                }
            }
            replayActions += duringReplay ? 1 : 0
        }
        #expect(
            derived > 250 && disposals > 100 && nested > 250 && replayActions > 25,
            "derived \(derived), disposals \(disposals), nested \(nested), actions during a replay \(replayActions) of 500"
        )
    }

    // MARK: The model against the articles' own examples (the model is checked too, not just trusted)

    private func received(_ program: ModelProgram) -> [[Int]] {
        let log = ModelRun<ReferenceModel>(program).log
        return program.listeners.indices.map { listener in
            log.compactMap { if case .received(listener, let wave) = $0 { wave } else { nil } }
        }
    }

    private func program(_ strategy: ModelStrategy, _ listeners: [ModelListenerSpec], _ steps: [ModelAction])
        -> ModelProgram
    {
        ModelProgram(
            pairs: [strategy], receivers: [ModelReceiverSpec(pair: 0, operators: [])], listeners: listeners,
            steps: steps)
    }

    private let plain = ModelListenerSpec(receiver: 0, reactions: [])

    @Test func modelFollowsTheStrategyExamples() {
        #expect(
            received(
                program(
                    .cold, [plain],
                    [
                        .broadcast(pair: 0, value: 1), .broadcast(pair: 0, value: 2), .broadcast(pair: 0, value: 3),
                        .listen(listener: 0), .broadcast(pair: 0, value: 4),
                    ])) == [[1, 2, 3, 4]])
        #expect(
            received(
                program(
                    .warm(2), [plain, plain],
                    [
                        .broadcast(pair: 0, value: 1), .broadcast(pair: 0, value: 2), .broadcast(pair: 0, value: 3),
                        .listen(listener: 0), .broadcast(pair: 0, value: 4), .listen(listener: 1),
                        .broadcast(pair: 0, value: 5),
                    ])) == [[2, 3, 4, 5], [3, 4, 5]])
        #expect(
            received(
                program(
                    .hot, [plain], [.broadcast(pair: 0, value: 1), .listen(listener: 0), .broadcast(pair: 0, value: 3)])
            ) == [[3]])
    }

    @Test func modelQueuesReentrantBroadcasts() {
        let a = ModelListenerSpec(
            receiver: 0, reactions: [ModelReaction(call: 0, action: .broadcast(pair: 0, value: 2))])
        let log = ModelRun<ReferenceModel>(
            program(.hot, [a, plain], [.listen(listener: 0), .listen(listener: 1), .broadcast(pair: 0, value: 1)])
        ).log
        #expect(
            log.suffix(6) == [
                .received(listener: 0, wave: 1), .broadcastReturned(pair: 0, value: 2), .received(listener: 1, wave: 1),
                .received(listener: 0, wave: 2), .received(listener: 1, wave: 2), .broadcastReturned(pair: 0, value: 1),
            ])
    }

    @Test func modelJoinsDuringDeliveryByCallOrder() {
        func joiner(_ actions: [ModelAction], _ strategy: ModelStrategy) -> [Int] {
            let a = ModelListenerSpec(receiver: 0, reactions: actions.map { ModelReaction(call: 0, action: $0) })
            return received(
                program(
                    strategy, [a, plain],
                    [.listen(listener: 0), .broadcast(pair: 0, value: 1), .broadcast(pair: 0, value: 3)]))[1]
        }
        #expect(joiner([.broadcast(pair: 0, value: 2), .listen(listener: 1)], .hot) == [3])
        #expect(joiner([.listen(listener: 1), .broadcast(pair: 0, value: 2)], .hot) == [2, 3])
        #expect(joiner([.listen(listener: 1), .broadcast(pair: 0, value: 2)], .cold) == [1, 2, 3])
    }

    @Test func modelDropsWavesForADisposedListener() {
        // A disposes B while wave 1 is on its way to B: B gets nothing.
        let a = ModelListenerSpec(receiver: 0, reactions: [ModelReaction(call: 0, action: .dispose(listener: 1))])
        #expect(
            received(
                program(.hot, [a, plain], [.listen(listener: 0), .listen(listener: 1), .broadcast(pair: 0, value: 1)]))
                == [[1], []])
    }

    @Test func modelRunsOperatorsPerListener() {
        var program = program(
            .warm(2), [ModelListenerSpec(receiver: 1, reactions: []), ModelListenerSpec(receiver: 1, reactions: [])],
            [
                .listen(listener: 0), .broadcast(pair: 0, value: 1), .broadcast(pair: 0, value: 2),
                .listen(listener: 1),
                .broadcast(pair: 0, value: 3),
            ])
        program.receivers.append(ModelReceiverSpec(pair: 0, operators: [.skip(1), .take(1)]))
        #expect(received(program) == [[2], [2]])
    }
}
