import Foundation
import ReceiverSignalKit
import TestSupport
import Testing

/// The adapter's model-based test: random single-threaded programs — driven generators,
/// `single`/`complete`/`fail`/`never`, promises, value promises and pipes; `map`, `filter`,
/// `distinctUntilChanged`, `take`, `then`, `catch`, `mapError`, `ignoreValues`, `mapToSignal`,
/// `switchToLatest`, `queue`, `combineLatest`, both `reduceLeft`s and the side effects; puts,
/// sets, starts and disposals, also from inside handlers and side effects, and `MetaDisposable`/
/// `DisposableSet` ownership — run on the reference model (Model/SignalReferenceModel.swift) and on
/// the library; the logs must be identical. A difference is shrunk and printed with both logs and
/// its seed.
///
/// Two levels of detail: 1, the handlers' events (and the side effects' calls and the actions'
/// returns) in order; 2, also each generator start's `gN.subscribe#k` and `gN.dispose#k`.
///
/// The model is the target, and the migration guide
/// (Sources/ReceiverSignalKit/ReceiverSignalKit.docc/SwiftSignalKitMigrationGuide.md) is its
/// reference: SwiftSignalKit's behaviour and order of disposals (the guide's "Quirks we keep" and
/// "When things are released, as in SwiftSignalKit"), except where the guide's "Behaviour that
/// differs, and why" lists a difference (queued, never nested; nothing after `dispose()`; each
/// disposable disposed once; a flattening start's switch queued while it handles an event). A
/// change to the model's behaviour goes with a change to the guide. The hand-written examples at
/// the end pin single cases of both, each named for what it shows: "Matched" (SwiftSignalKit's
/// log; "quirks we keep" and "release order" name the guide's two sections above) or "Differs"
/// (ours, with the guide's row).
///
/// CI runs a fixed set of seeds. More: `RECEIVER_SIGNAL_MODEL_PROGRAMS=200000 swift test -c release
/// --filter SignalModelTests` (`RECEIVER_SIGNAL_MODEL_SEED=n` starts at seed n, e.g. to reproduce
/// one).
// Not `.detectingLeaks`: the random programs leave starts live on purpose (the model, not the
// test, decides what is disposed), and the engine holds every driven generator's subscriber.
@Suite struct SignalModelTests {
    static let environment = ProcessInfo.processInfo.environment
    /// The test runs on one thread: under the thread sanitizer, CI runs fewer programs.
    static let programs =
        environment["RECEIVER_SIGNAL_MODEL_PROGRAMS"].flatMap { Int($0) } ?? (underThreadSanitizer ? 1_000 : 10_000)
    static let firstSeed = environment["RECEIVER_SIGNAL_MODEL_SEED"].flatMap { UInt64($0) } ?? 0

    @Test(arguments: [1, 2]) func theLibraryBehavesAsTheModelSays(level: Int) {
        let start = ContinuousClock.now
        for seed in Self.firstSeed..<(Self.firstSeed + UInt64(Self.programs)) {
            let program = SignalModelCheck.program(seed: seed)
            switch SignalModelCheck.check(program, with: SignalLibraryEngine.self, level: level) {
            case .agrees:
                continue
            case .differs(let mismatch):
                let shrunk = SignalModelCheck.shrink(mismatch, with: SignalLibraryEngine.self)
                Issue.record(
                    """
                    level \(level), seed \(seed) (RECEIVER_SIGNAL_MODEL_SEED=\(seed) RECEIVER_SIGNAL_MODEL_PROGRAMS=1 \
                    swift test --filter SignalModelTests), shrunk:
                    \(shrunk)
                    """)
                return
            }
        }
        if Self.programs > 10_000 {
            print(
                "SignalModelTests level \(level): \(Self.programs) programs from seed \(Self.firstSeed) in "
                    + "\(ContinuousClock.now - start)")
        }
    }

    @Test func programsDoWhatTheHarnessNeeds() {
        // The generator must reach the interesting cases, or the test proves little.
        var reached: [SignalModelFeature: Int] = [:]
        var (levelTwo, handlerAfterAction) = (0, 0)
        let count = 500
        for seed in UInt64(0)..<UInt64(count) {
            let run = SignalModelRun<SignalReferenceModel>(SignalModelCheck.program(seed: seed))
            for feature in run.features { reached[feature, default: 0] += 1 }
            levelTwo += run.log.contains { $0.level == 2 } ? 1 : 0
            // A handler event after an action returned: the programs drive starts over time.
            let firstReturn = run.log.firstIndex { if case .returned = $0 { true } else { false } } ?? run.log.count
            handlerAfterAction += run.log[firstReturn...].contains { $0.isHandlerEvent } ? 1 : 0
        }
        let missing = SignalModelFeature.allCases.filter { reached[$0, default: 0] < count / 50 }
        #expect(
            missing.isEmpty && levelTwo > count / 2 && handlerAfterAction > count / 3,
            "of \(count): \(reached.sorted { "\($0.key)" < "\($1.key)" }.map { "\($0.key) \($0.value)" }), level-2 events \(levelTwo), handler events after an action \(handlerAfterAction); too few: \(missing)"
        )
    }

    @Test func shrinkingKeepsADifference() {
        // Shrinking against a model that differs on purpose (the library's earlier design as "the
        // library") ends at a small program that still differs.
        final class EarlierDesign: SignalModelEngine {
            let model: SignalReferenceModel
            init(_ program: SignalModelProgram, options: SignalModelOptions, context: any SignalModelContext) {
                model = SignalReferenceModel(program, options: .earlierDesign, context: context)
            }
            func start(
                _ signal: SignalModelSignal, next: @escaping (Int) -> Void, error: @escaping (Int) -> Void,
                completed: @escaping () -> Void
            ) -> SignalReferenceModel.Disposal { model.start(signal, next: next, error: error, completed: completed) }
            func dispose(_ handle: SignalReferenceModel.Disposal) { handle.dispose() }
            func put(generator: Int, start: Int, _ event: SignalModelPut) {
                model.put(generator: generator, start: start, event)
            }
            func setPromise(_ promise: Int, _ signal: SignalModelSignal) { model.setPromise(promise, signal) }
            func setValue(_ promise: Int, _ value: Int) { model.setValue(promise, value) }
            func putPipe(_ pipe: Int, _ value: Int) { model.putPipe(pipe, value) }
            func setMeta(_ meta: Int, _ handle: SignalReferenceModel.Disposal?) { model.setMeta(meta, handle) }
            func disposeMeta(_ meta: Int) { model.disposeMeta(meta) }
            func addToSet(_ set: Int, _ handle: SignalReferenceModel.Disposal) { model.addToSet(set, handle) }
            func removeFromSet(_ set: Int, _ handle: SignalReferenceModel.Disposal) {
                model.removeFromSet(set, handle)
            }
            func disposeSet(_ set: Int) { model.disposeSet(set) }
        }
        let found = (UInt64(0)..<2_000).lazy.compactMap { seed in
            SignalModelCheck.compare(SignalModelCheck.program(seed: seed), with: EarlierDesign.self, level: 2)
        }.first
        guard let found else { return #expect(Bool(false), "no program tells the two flattening orders apart") }
        let shrunk = SignalModelCheck.shrink(found, with: EarlierDesign.self)
        #expect(SignalModelCheck.compare(shrunk.program, with: EarlierDesign.self, level: 2) != nil)
        #expect(shrunk.expected.count <= 16 && shrunk.expected.count < found.expected.count, "\(shrunk)")
        #expect(
            SignalModelCheck.simpler(shrunk.program).allSatisfy {
                SignalModelCheck.compare($0, with: EarlierDesign.self, level: 2) == nil
            })
    }

    // MARK: The model against hand-written traces (the model is checked too, not just trusted)

    @Test(arguments: SignalKitExample.all) func modelFollowsTheExamples(_ example: SignalKitExample) {
        let log = SignalModelRun<SignalReferenceModel>(example.program).log
        #expect(log.map(\.description) == example.expected, "\(example.name)")
    }

    @Test(arguments: SignalKitExample.all) func libraryFollowsTheExamples(_ example: SignalKitExample) {
        let log = SignalModelRun<SignalLibraryEngine>(example.program).log
        #expect(log.map(\.description) == example.expected, "\(example.name)")
    }
}

extension SignalModelEvent {
    fileprivate var isHandlerEvent: Bool {
        switch self {
        case .next, .error, .completed: true
        default: false
        }
    }
}

/// A hand-written program and the log it must give: SwiftSignalKit's ("Matched"), or ours where
/// the migration guide lists a difference ("Differs", with the guide's row).
struct SignalKitExample: CustomTestStringConvertible, Sendable {
    let name: String
    let program: SignalModelProgram
    let expected: [String]

    var testDescription: String { name }

    init(
        _ name: String, generators: [[SignalModelPut]] = [[]], promises: [Int?] = [],
        valuePromises: [SignalModelValuePromise] = [], effects: [[SignalModelReaction]] = [],
        starts: [SignalModelStart], steps: [SignalModelAction], disposalPuts: [[SignalModelPut]]? = nil,
        expected: [String]
    ) {
        self.name = name
        program = SignalModelProgram(
            generators: generators, disposalPuts: disposalPuts ?? generators.map { _ in [] }, promises: promises,
            valuePromises: valuePromises, pipes: 0, metas: 0, sets: 0,
            starts: starts, effects: effects, steps: steps)
        self.expected = expected
    }

    static func start(_ signal: SignalModelSignal, _ reactions: [SignalModelReaction] = []) -> SignalModelStart {
        SignalModelStart(signal: signal, reactions: reactions)
    }

    static func on(_ call: Int, _ action: SignalModelAction) -> SignalModelReaction {
        SignalModelReaction(call: call, action: action)
    }

    static let all: [SignalKitExample] = [
        SignalKitExample(
            "Differs (guide, a re-entrant ValuePromise.set): queued, a 1, b 1, a 2, b 2",
            valuePromises: [SignalModelValuePromise(initial: nil, ignoreRepeated: false)],
            starts: [start(.valuePromise(0), [on(0, .setValue(0, 2))]), start(.valuePromise(0))],
            steps: [.start(0), .start(1), .setValue(0, 1)],
            expected: [
                "start s0 returned", "start s1 returned", "s0 next 1", "v0.set(2) returned", "s1 next 1", "s0 next 2",
                "s1 next 2", "v0.set(1) returned",
            ]),
        SignalKitExample(
            "Matched: ValuePromise ignoreRepeated, 1 1 2 2 1 1 gives 1 2 1",
            valuePromises: [SignalModelValuePromise(initial: nil, ignoreRepeated: true)],
            starts: [start(.valuePromise(0))],
            steps: [.start(0)] + [1, 1, 2, 2, 1, 1].map { .setValue(0, $0) },
            expected: [
                "start s0 returned", "s0 next 1", "v0.set(1) returned", "v0.set(1) returned", "s0 next 2",
                "v0.set(2) returned", "v0.set(2) returned", "s0 next 1", "v0.set(1) returned", "v0.set(1) returned",
            ]),
        SignalKitExample(
            "Differs (guide, a re-entrant putNext): queued, begin 1, end 1, begin 2, end 2",
            starts: [start(.generator(0), [on(0, .put(generator: 0, start: 1, .next(2)))])],
            steps: [.start(0), .put(generator: 0, start: 1, .next(1))],
            expected: [
                "g0.subscribe#1", "start s0 returned", "s0 next 1", "g0#1.putNext(2) returned", "s0 next 2",
                "g0#1.putNext(1) returned",
            ]),
        SignalKitExample(
            "Matched (quirks we keep): take(0) subscribes, and completes only when the upstream completes",
            starts: [start(.take(0, .generator(0)))],
            steps: [.start(0), .put(generator: 0, start: 1, .next(1)), .put(generator: 0, start: 1, .completed)],
            expected: [
                "g0.subscribe#1", "start s0 returned", "g0#1.putNext(1) returned", "s0 completed", "g0.dispose#1",
                "g0#1.putCompletion() returned",
            ]),
        SignalKitExample(
            "Matched (quirks we keep): Promise.set starts the new source, then disposes the old one",
            generators: [[], []], promises: [nil],
            starts: [],
            steps: [.setPromise(0, .generator(0)), .setPromise(0, .generator(1))],
            expected: [
                "g0.subscribe#1", "p0.set(g0) returned", "g1.subscribe#1", "g0.dispose#1", "p0.set(g1) returned",
            ]),
        SignalKitExample(
            "Matched: a generator that completes before it returns is disposed right after it returns",
            generators: [[.next(1), .completed]],
            starts: [start(.generator(0))],
            steps: [.start(0)],
            expected: ["g0.subscribe#1", "s0 next 1", "s0 completed", "g0.dispose#1", "start s0 returned"]),
        SignalKitExample(
            "Matched (release order): afterCompleted's function after the upstream's disposal",
            effects: [[]],
            starts: [start(.sideEffect(.afterCompleted, fx: 0, .generator(0)))],
            steps: [.start(0), .put(generator: 0, start: 1, .next(1)), .put(generator: 0, start: 1, .completed)],
            expected: [
                "g0.subscribe#1", "start s0 returned", "s0 next 1", "g0#1.putNext(1) returned", "s0 completed",
                "g0.dispose#1", "fx0.afterCompleted", "g0#1.putCompletion() returned",
            ]),
        SignalKitExample(
            "Matched (release order): synchronous inners of queue: each value before its inner's disposal",
            // o = g0 sends a, s2, s3; a = g1 completes later; s2, s3 are synchronous.
            generators: [[.next(0), .next(1), .next(2)], [], [.next(2), .completed], [.next(3), .completed]],
            starts: [start(.queue(.generator(0), [.generator(1), .generator(2), .generator(3)]))],
            steps: [.start(0), .put(generator: 1, start: 1, .completed), .put(generator: 0, start: 1, .completed)],
            expected: [
                "g0.subscribe#1", "g1.subscribe#1", "start s0 returned", "g2.subscribe#1", "s0 next 2", "g2.dispose#1",
                "g1.dispose#1", "g3.subscribe#1", "s0 next 3", "g3.dispose#1", "g1#1.putCompletion() returned",
                "s0 completed", "g0.dispose#1", "g0#1.putCompletion() returned",
            ]),
        SignalKitExample(
            "Matched (release order): synchronous inners of switchToLatest: s1's value, s1 disposed, then s2",
            generators: [[.next(0), .next(1)], [.next(1), .completed], [.next(2), .completed]],
            starts: [start(.switchToLatest(.generator(0), [.generator(1), .generator(2)]))],
            steps: [.start(0)],
            expected: [
                "g0.subscribe#1", "g1.subscribe#1", "s0 next 1", "g1.dispose#1", "g2.subscribe#1", "s0 next 2",
                "g2.dispose#1", "start s0 returned",
            ]),
        SignalKitExample(
            "Matched (release order): take(1) ends a switchToLatest whose inner still starts: outer, then inner",
            generators: [[], [.next(1)]],
            starts: [start(.take(1, .switchToLatest(.generator(0), [.generator(1)])))],
            steps: [.start(0), .put(generator: 0, start: 1, .next(0))],
            expected: [
                "g0.subscribe#1", "start s0 returned", "g1.subscribe#1", "s0 next 1", "s0 completed", "g0.dispose#1",
                "g1.dispose#1", "g0#1.putNext(0) returned",
            ]),
        SignalKitExample(
            "Matched (release order): a synchronous failure of the outer: error, outer disposed, then the inner",
            generators: [[.next(3), .error(1)], []],
            starts: [start(.mapToSignal(.generator(0), [.generator(1)]))],
            steps: [.start(0)],
            expected: [
                "g0.subscribe#1", "g1.subscribe#1", "s0 error 1", "g0.dispose#1", "g1.dispose#1", "start s0 returned",
            ]),
        SignalKitExample(
            "Differs (guide, an outer value after the result has failed): no inner is started",
            generators: [[.next(2), .next(1)]],
            starts: [start(.mapToSignal(.generator(0), [.never, .generator(0), .fail(5)]))],
            steps: [.start(0)],
            expected: ["g0.subscribe#1", "s0 error 5", "g0.dispose#1", "start s0 returned"]),
        SignalKitExample(
            "Matched: nothing after the start is disposed from the handler of reduceLeft's value",
            starts: [start(.map(0, .reduceLeft(1, .generator(0))), [on(0, .dispose(0))])],
            steps: [.start(0), .put(generator: 0, start: 1, .completed)],
            expected: [
                "g0.subscribe#1", "start s0 returned", "s0 next 1", "g0.dispose#1", "s0.dispose() returned",
                "g0#1.putCompletion() returned",
            ]),
        SignalKitExample(
            "Matched: beforeCompleted's function does not run after take(1) has ended the start",
            effects: [[]],
            starts: [start(.take(1, .sideEffect(.beforeCompleted, fx: 0, .reduceLeft(1, .generator(0)))))],
            steps: [.start(0), .put(generator: 0, start: 1, .completed)],
            expected: [
                "g0.subscribe#1", "start s0 returned", "s0 next 1", "s0 completed", "g0.dispose#1",
                "g0#1.putCompletion() returned",
            ]),
        SignalKitExample(
            "Matched: then does not start its next signal after the start is disposed",
            generators: [[], []],
            starts: [start(.then(.reduceLeft(1, .generator(0)), .generator(1)), [on(0, .dispose(0))])],
            steps: [.start(0), .put(generator: 0, start: 1, .completed)],
            expected: [
                "g0.subscribe#1", "start s0 returned", "s0 next 1", "g0.dispose#1", "s0.dispose() returned",
                "g0#1.putCompletion() returned",
            ]),
        SignalKitExample(
            "Differs (guide, a generator's disposable): p.set(gen |> take(1)) disposes the generator once",
            promises: [nil],
            starts: [],
            steps: [.setPromise(0, .take(1, .generator(0))), .put(generator: 0, start: 1, .next(1))],
            expected: [
                "g0.subscribe#1", "p0.set(g0 |> take(1)) returned", "g0.dispose#1", "g0#1.putNext(1) returned",
            ]),
        SignalKitExample(
            "Matched (quirks we keep): catch starts the alternative before the failed source is disposed",
            generators: [[], []],
            starts: [start(.catch(.generator(0), [.generator(1)]))],
            steps: [.start(0), .put(generator: 0, start: 1, .error(0))],
            expected: [
                "g0.subscribe#1", "start s0 returned", "g1.subscribe#1", "g0.dispose#1", "g0#1.putError(0) returned",
            ]),
        SignalKitExample(
            "Differs (guide, disposal order of a start): what the source sends while it is disposed reaches no handler",
            generators: [[]],
            starts: [start(.generator(0))],
            steps: [.start(0), .dispose(0)],
            disposalPuts: [[.next(5), .completed]],
            expected: ["g0.subscribe#1", "start s0 returned", "g0.dispose#1", "s0.dispose() returned"]),
        SignalKitExample(
            "Differs (guide, a handler after dispose()): none, not even for what the disposal sends",
            // afterDisposed's function puts 5 into the generator it follows, while it is disposed.
            effects: [[on(0, .put(generator: 0, start: 1, .next(5)))]],
            starts: [start(.sideEffect(.afterDisposed, fx: 0, .generator(0)))],
            steps: [.start(0), .dispose(0)],
            expected: [
                "g0.subscribe#1", "start s0 returned", "g0.dispose#1", "fx0.afterDisposed",
                "g0#1.putNext(5) returned", "s0.dispose() returned",
            ]),
    ]
}
