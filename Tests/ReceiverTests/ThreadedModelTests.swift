import Foundation
import Receiver
import ReceiverSignalKitTesting
import TestSupport
import Testing

/// The threaded half of the core's model-based test: threads broadcast, start and dispose
/// listeners at random on one pair, while listeners react from inside their handlers (broadcast,
/// start and dispose other listeners). There is no single expected log, so it checks the threading
/// contract's invariants (Threading and Re-entrancy) on what each listener saw:
/// - every listener present throughout sees the same sequence (derived ones: its image);
/// - each thread's broadcasts arrive in its order, a wave broadcast from a handler after its trigger;
/// - calls to one listener never overlap;
/// - after `dispose()` returned, no call on the disposing thread, at most one on another, and no
///   wave broadcast after it;
/// - a listener joining mid-stream gets its replay, then a gap-free, duplicate-free run of the
///   order everyone sees (so all it gets is one contiguous run of it).
///
/// Handlers record into unsynchronised storage on purpose: `swift test --sanitize=thread` reports
/// a race if delivery to one listener is ever not serialised.
@Suite(.detectingLeaks) struct ThreadedModelTests {
    static let threads = 4
    static let operations = 300
    static let rounds =
        ProcessInfo.processInfo.environment["RECEIVER_THREADED_ROUNDS"].flatMap { Int($0) }
        ?? (underThreadSanitizer ? 3 : 6)

    @Test(arguments: [Receiver<Int>.Strategy.hot, .warm(upTo: 0), .warm(upTo: 1), .warm(upTo: 3), .cold])
    func invariantsHoldUnderThreads(strategy: Receiver<Int>.Strategy) {
        for round in 0..<Self.rounds {
            let failures = Round(strategy: strategy, seed: UInt64(round)).run()
            guard failures.isEmpty else {
                Issue.record("\(strategy), round \(round):\n\(failures.prefix(10).joined(separator: "\n"))")
                return
            }
        }
    }
}

/// A wave: from a thread, `thread * stride + index`; from a handler reacting to wave `w`, `reaction + w`.
private let stride = 1_000_000, reaction = 100_000_000

/// What one listener received, and when it was started and disposed.
private final class Track: @unchecked Sendable {
    // Touched only by the handler: the pair serialises calls to one listener (what is tested).
    var waves: [Int] = []
    private var inFlight = 0
    var overlaps = 0
    // Set by the thread that listens and disposes, read after the round.
    var thread: Int?  // the thread that started and disposes it; nil when started in a handler
    var ownBroadcastsAtListen = 0, ownBroadcastsAtDispose: Int?
    var stillListeningAtEnd = false  // disposed only after the round, once the order was read
    // After dispose() returned: which thread disposed, and calls seen since.
    private let lock = NSLock()
    private var disposer: pthread_t?
    private(set) var callsOnDisposerAfterDispose = 0, callsElsewhereAfterDispose = 0

    func record(_ wave: Int) {
        inFlight += 1
        if inFlight > 1 { overlaps += 1 }
        waves.append(wave)
        lock.withLock {
            guard let disposer else { return }
            if pthread_equal(disposer, pthread_self()) != 0 {
                callsOnDisposerAfterDispose += 1
            } else {
                callsElsewhereAfterDispose += 1
            }
        }
        inFlight -= 1
    }

    func dispose(_ disposable: any Disposable) {
        disposable.dispose()
        lock.withLock { disposer = pthread_self() }
    }
}

/// One round: a pair, listeners present throughout, threads, then the checks.
private final class Round: @unchecked Sendable {
    let strategy: Receiver<Int>.Strategy
    let seed: UInt64
    let transmitter: Receiver<Int>.Transmitter
    let receiver: Receiver<Int>
    let throughout = [Track(), Track()]
    let mapped = Track(), taken = Track(), reactor = Track()
    let skipped = [Track(), Track()]  // two listeners of one derived receiver: state of their own each
    static let taking = 50
    // The reactor's own state: touched only inside its handler.
    private var nested: [(Track, any Disposable)] = []
    private var allNested: [Track] = []
    private var reactions: [Int] = []
    /// A thread's joiners, touched only by that thread, then read after the round.
    private final class Joiners {
        var all: [Track] = []
        var leftovers: [(Track, any Disposable)] = []  // still listening when the thread finished
    }
    private let joiners = (0..<ThreadedModelTests.threads).map { _ in Joiners() }

    init(strategy: Receiver<Int>.Strategy, seed: UInt64) {
        (self.strategy, self.seed) = (strategy, seed)
        (transmitter, receiver) = Receiver<Int>.make(with: strategy)
    }

    func run() -> [String] {
        let skipping = receiver.skip(count: 1)
        let disposables =
            throughout.map { track in receiver.listen { track.record($0) } }
            + [
                receiver.map { $0 * 2 }.listen { [mapped] in mapped.record($0) },
                receiver.take(count: Self.taking).listen { [taken] in taken.record($0) },
                receiver.listen { [unowned self] in react(to: $0) },
            ]
            + skipped.map { track in skipping.listen { track.record($0) } }
        let group = DispatchGroup()
        for thread in 0..<ThreadedModelTests.threads {
            group.enter()
            Thread { [self] in
                work(on: thread)
                group.leave()
            }.start()
        }
        guard group.wait(timeout: .now() + 60) == .success else {
            _ = Unmanaged.passRetained(self)  // the stuck threads and handlers still use it
            return ["timed out after 60 s: a deadlock?"]
        }
        let order = throughout[0].waves
        for (track, disposable) in joiners.flatMap(\.leftovers) + nested {
            track.stillListeningAtEnd = true
            track.dispose(disposable)
        }
        for disposable in disposables { disposable.dispose() }
        return check(order)
    }

    private func react(to wave: Int) {
        reactor.record(wave)
        guard wave < reaction else { return }
        switch wave % 10 {
        case 3:
            reactions.append(wave)
            transmitter.broadcast(reaction + wave)
        case 5 where nested.count < 3:
            let track = Track()
            allNested.append(track)
            nested.append((track, receiver.listen { track.record($0) }))
        case 7 where !nested.isEmpty:
            let (track, disposable) = nested.removeFirst()
            track.dispose(disposable)
        default: break
        }
    }

    private func work(on thread: Int) {
        var choices = SeededChoices(seed: seed &* 31 &+ UInt64(thread))
        var sent = 0
        var active: [(Track, any Disposable)] = []
        for _ in 0..<ThreadedModelTests.operations {
            switch choices.next(20) {
            case 0..<14:
                transmitter.broadcast(thread * stride + sent)
                sent += 1
            case 14..<17 where active.count < 3:
                let track = Track()
                (track.thread, track.ownBroadcastsAtListen) = (thread, sent)
                joiners[thread].all.append(track)
                active.append((track, receiver.listen { track.record($0) }))
            case 17..<19 where !active.isEmpty:
                let (track, disposable) = active.remove(at: choices.next(active.count))
                track.ownBroadcastsAtDispose = sent
                track.dispose(disposable)
            default:
                // Start and stop at once: SwiftSignalKit's "read the current value" idiom.
                let track = Track()
                (track.thread, track.ownBroadcastsAtListen, track.ownBroadcastsAtDispose) = (thread, sent, sent)
                joiners[thread].all.append(track)
                track.dispose(receiver.listen { track.record($0) })
            }
        }
        joiners[thread].leftovers = active
    }

    // MARK: Checks

    private func check(_ order: [Int]) -> [String] {
        var failures: [String] = []
        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
            if !condition { failures.append(message()) }
        }
        let sent = (0..<ThreadedModelTests.threads).map { thread in
            order.filter { $0 < reaction && $0 / stride == thread }.count
        }
        expect(
            order.count == sent.reduce(0, +) + reactions.count,
            "the order has \(order.count) waves; \(sent) from threads and \(reactions.count) reactions were broadcast")
        expect(Set(order).count == order.count, "a wave arrives twice in the order everyone sees")
        let position = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        for thread in sent.indices {
            let own = order.filter { $0 < reaction && $0 / stride == thread }
            expect(
                own == (0..<own.count).map { thread * stride + $0 }, "thread \(thread)'s broadcasts arrive out of order"
            )
        }
        for trigger in reactions {
            expect(
                (position[trigger] ?? .max) < (position[reaction + trigger] ?? -1),
                "a reaction to \(trigger) arrives before it")
        }
        expect(throughout.allSatisfy { $0.waves == order }, "listeners present throughout see different sequences")
        expect(reactor.waves == order, "the reacting listener sees a different sequence")
        expect(mapped.waves == order.map { $0 * 2 }, "a mapped listener sees something else than the order, mapped")
        expect(
            taken.waves == Array(order.prefix(Self.taking)), "take(count:) passes something else than the first waves")
        expect(
            skipped.allSatisfy { $0.waves == Array(order.dropFirst()) },
            "skip(count: 1) passes something else than all but the first wave")

        let every = throughout + skipped + [mapped, taken, reactor] + joiners.flatMap(\.all) + allNested
        expect(every.allSatisfy { $0.overlaps == 0 }, "calls to one listener overlapped")
        expect(
            every.allSatisfy { $0.callsOnDisposerAfterDispose == 0 },
            "a handler was called on the disposing thread after dispose() returned")
        expect(
            every.allSatisfy { $0.callsElsewhereAfterDispose <= 1 },
            "a handler was called more than once after dispose() returned")

        for track in joiners.flatMap(\.all) + allNested {
            let waves = track.waves
            if let first = waves.first {
                guard let start = position[first], start + waves.count <= order.count,
                    Array(order[start..<(start + waves.count)]) == waves
                else {
                    failures.append(
                        "a joiner's waves are not one run of the order (a gap, a duplicate, or a wave out of place): \(waves.prefix(20))"
                    )
                    continue
                }
                if strategy == .cold { expect(start == 0, "a cold joiner missed the first waves") }
                if track.stillListeningAtEnd {
                    expect(start + waves.count == order.count, "a joiner still listening stopped receiving")
                }
            }
            guard let thread = track.thread else { continue }
            // Before and after in the order of the calls on its own thread. A disposed joiner may
            // miss waves broadcast before its dispose() but not delivered yet: dropped for it.
            let own = waves.filter { $0 < reaction && $0 / stride == thread }.map { $0 % stride }
            let limit = track.ownBroadcastsAtDispose ?? .max
            expect(own.allSatisfy { $0 < limit }, "a joiner got a wave its thread broadcast after dispose() returned")
            if strategy == .hot || strategy == .warm(upTo: 0) {
                let listened = track.ownBroadcastsAtListen
                expect(
                    own.first.map { $0 == listened } ?? true,
                    "a hot joiner got a wave its thread broadcast before it listened, or missed the first one after")
                if track.stillListeningAtEnd, listened < sent[thread] {
                    expect(
                        own.first == listened,
                        "a hot joiner still listening missed its thread's first broadcast after it listened")
                }
            }
        }
        return failures
    }
}
