import Foundation
import Receiver
import ReceiverSignalKitTesting
import Testing

/// The threading contract (Threading and Re-entrancy) with real threads. Handlers here record into
/// plain, unsynchronised arrays on purpose: delivery is serialized by the pair, so
/// `swift test --sanitize=thread` reports a race if it ever is not.
@Suite(.detectingLeaks) struct ReceiverConcurrencyTests {
    static let workers = 4
    static let wavesPerWorker = 2_000

    @Test(arguments: allStrategies)
    func concurrentBroadcastsReachEveryListenerOnceInOneOrder(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        final class Log {
            var waves: [Int] = []
            var inFlight = 0
            var overlaps = 0
        }
        let logs = [Log(), Log(), Log()]
        for log in logs {
            receiver.listen { wave in
                log.inFlight += 1
                if log.inFlight > 1 { log.overlaps += 1 }
                log.waves.append(wave)
                log.inFlight -= 1
            }
        }
        concurrently(Self.workers) { worker in
            for index in 0..<Self.wavesPerWorker { transmitter.broadcast(worker * 1_000_000 + index) }
        }
        let order = logs[0].waves
        #expect(order.count == Self.workers * Self.wavesPerWorker)
        #expect(Set(order).count == order.count)
        #expect(logs.allSatisfy { $0.waves == order }, "every listener sees the one order")
        #expect(logs.map(\.overlaps) == [0, 0, 0])
        for worker in 0..<Self.workers {
            let fromWorker = order.filter { $0 / 1_000_000 == worker }
            #expect(
                fromWorker.elementsEqual((0..<Self.wavesPerWorker).map { worker * 1_000_000 + $0 }), "FIFO per thread")
        }
    }

    @Test(arguments: allStrategies)
    func listenersJoiningDuringDeliveryGetNoGapAndNoDuplicate(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        final class Log { var waves: [Int] = [] }
        let all = Log()
        receiver.listen { all.waves.append($0) }
        let joiners = History<[Int]>()
        concurrently(4) { worker in
            if worker < 2 {
                for index in 0..<Self.wavesPerWorker { transmitter.broadcast(worker * 1_000_000 + index) }
            } else {
                for _ in 0..<200 {
                    let seen = History<Int>()
                    let disposable = receiver.listen { seen.record($0) }
                    disposable.dispose()
                    joiners.record(seen.recorded)
                }
            }
        }
        let position = Dictionary(uniqueKeysWithValues: all.waves.enumerated().map { ($1, $0) })
        // Each joiner saw a contiguous run of the one order (no gap, no duplicate, nothing out of
        // order); for cold, one that starts at the first wave.
        let broken = joiners.recorded.filter { seen in
            guard let first = seen.first, let start = position[first] else { return !seen.isEmpty }
            return all.waves[start...].prefix(seen.count).elementsEqual(seen) == false
                || (strategy == .cold && start != 0)
        }
        #expect(joiners.recorded.count == 400)
        #expect(broken.count == 0, "e.g. \(broken.first?.prefix(20) ?? [])")
    }

    @Test func replayIsDeliveredBeforeListenReturnsWhileAnotherThreadDelivers() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        let broadcastsReturned = History<Int>()
        let shortfalls = History<Int>()
        concurrently(2) { worker in
            if worker == 0 {
                for wave in 0..<Self.wavesPerWorker {
                    transmitter.broadcast(wave)
                    broadcastsReturned.record(wave)
                }
            } else {
                for _ in 0..<300 {
                    let before = broadcastsReturned.recorded.count
                    let seen = History<Int>()
                    let disposable = receiver.listen { seen.record($0) }
                    let atReturn = seen.recorded
                    disposable.dispose()
                    if atReturn.count < before || atReturn != Array(0..<atReturn.count) {
                        shortfalls.record(before - atReturn.count)
                    }
                }
            }
        }
        #expect(shortfalls.recorded == [])
    }

    @Test func atMostOneCallIsStillRunningWhenDisposeReturns() {
        let (transmitter, receiver) = Receiver<Int>.make()
        let lateCalls = History<Int>()
        let stop = History<Bool>()
        concurrently(2) { worker in
            if worker == 0 {
                var wave = 0
                while stop.recorded.isEmpty {
                    transmitter.broadcast(wave)
                    wave += 1
                }
            } else {
                for round in 0..<2_000 {
                    let disposeReturned = History<Bool>()
                    let disposable = receiver.listen { _ in
                        if !disposeReturned.recorded.isEmpty { lateCalls.record(round) }
                    }
                    disposable.dispose()
                    disposeReturned.record(true)
                }
                stop.record(true)
            }
        }
        // Each round may see the one call that had already started; never two.
        let perRound = Dictionary(grouping: lateCalls.recorded, by: { $0 }).mapValues(\.count)
        #expect(perRound.values.allSatisfy { $0 <= 1 })
    }

    @Test func listenAndDisposeChurnDoesNotDisturbOtherListeners() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 3))
        final class Log {
            var sum = 0
            var count = 0
        }
        let steady = Log()
        receiver.listen {
            steady.sum += $0
            steady.count += 1
        }
        concurrently(4) { worker in
            if worker < 2 {
                for _ in 0..<Self.wavesPerWorker { transmitter.broadcast(1) }
            } else {
                for _ in 0..<1_000 {
                    let disposables = (0..<5).map { _ in receiver.listen { _ in } }
                    for disposable in disposables.reversed() { disposable.dispose() }
                }
            }
        }
        #expect(steady.count == 2 * Self.wavesPerWorker)
        #expect(steady.sum == 2 * Self.wavesPerWorker)
    }

    @Test func listenersComingAndGoingWhileAHandlerRunsLeaveEveryHandlerWithItsListener() {
        let (transmitter, receiver) = Receiver<Int>.make()
        let inCall = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        let calls = History<String>()
        weak var weakWitness: Witness?
        var a: (any Disposable)?
        do {
            let witness = Witness()
            weakWitness = witness
            a = receiver.listen { wave in
                _ = witness
                calls.record("A\(wave)")
                if wave == 1 {
                    inCall.signal()
                    resume.wait()
                }
            }
        }
        receiver.listen { calls.record("B\($0)") }
        let delivering = DispatchGroup()
        delivering.enter()
        Thread {
            transmitter.broadcast(1)
            delivering.leave()
        }.start()
        inCall.wait()
        // A's call is under way on the other thread: dispose A, then make the list sweep its
        // disposed listeners (each add at full capacity does) while churning through more.
        a?.dispose()
        var joined: [any Disposable] = []
        for index in 0..<100 {
            joined.append(receiver.listen { calls.record("C\(index):\($0)") })
            if index.isMultiple(of: 2) { joined[index].dispose() }
        }
        resume.signal()
        delivering.wait()
        #expect(weakWitness == nil)
        transmitter.broadcast(2)
        let odd = stride(from: 1, to: 100, by: 2).map { "C\($0):2" }
        #expect(calls.recorded == ["A1", "B1", "B2"] + odd)
        joined.forEach { $0.dispose() }
    }

    @Test func disposingFromManyThreadsAtOnceReleasesTheHandlerOnce() {
        let (transmitter, receiver) = Receiver<Tracked>.make()
        for _ in 0..<200 {
            let captured = Tracked(0, tag: "dispose-race")
            let disposable = receiver.listen { _ in _ = captured }
            concurrently(4) { _ in disposable.dispose() }
        }
        transmitter.broadcast(Tracked(1, tag: "dispose-race-wave"))
        #expect(Tracked.count("dispose-race") == 0)
    }
}

/// Runs `body` on `count` threads of its own at once, and returns when all are done. Real
/// threads, not a pool: a worker may wait for another, which a pool could run after it.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread {
            body(index)
            group.leave()
        }.start()
    }
    group.wait()
}
