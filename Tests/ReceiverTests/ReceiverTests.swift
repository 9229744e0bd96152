import Receiver
import ReceiverSignalKitTesting
import Testing

/// The core's contract on one thread (Choosing a Strategy; the threading contract, Threading and
/// Re-entrancy article, Sources/Receiver/Receiver.docc/ThreadingAndReentrancy.md): strategies,
/// order, re-entrancy, joining during delivery, disposal and lifetime. The multi-threaded half of
/// the contract is in `ReceiverConcurrencyTests`.
@Suite(.detectingLeaks) struct ReceiverTests {
    // MARK: Strategies (Choosing a Strategy, "Timelines": its examples, exactly)

    @Test func coldReplaysEveryWave() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        var a: [Int] = []
        for wave in 1...3 { transmitter.broadcast(wave) }
        receiver.listen { a.append($0) }
        transmitter.broadcast(4)
        #expect(a == [1, 2, 3, 4])
    }

    @Test func warmReplaysTheLastWaves() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
        var a: [Int] = []
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        receiver.listen { a.append($0) }
        transmitter.broadcast(3)
        #expect(a == [2, 3])
    }

    @Test func hotReplaysNothing() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var a: [Int] = []
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        receiver.listen { a.append($0) }
        transmitter.broadcast(3)
        #expect(a == [3])
    }

    @Test func replayGoesOnlyToTheNewListener() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 2))
        var (a, b): ([Int], [Int]) = ([], [])
        for wave in 1...3 { transmitter.broadcast(wave) }
        receiver.listen { a.append($0) }
        transmitter.broadcast(4)
        receiver.listen { b.append($0) }
        transmitter.broadcast(5)
        #expect(a == [2, 3, 4, 5])
        #expect(b == [3, 4, 5])
    }

    @Test(arguments: [0, 1, 3, 10])
    func warmKeepsTheLastNOldestFirst(count: Int) {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: count))
        for wave in 1...7 { transmitter.broadcast(wave) }
        var replay: [Int] = []
        receiver.listen { replay.append($0) }
        #expect(replay == Array((1...7).suffix(count)))
    }

    @Test func warmUpToZeroBehavesLikeHot() {
        var histories: [[Int]] = []
        for strategy in [Receiver<Int>.Strategy.hot, .warm(upTo: 0)] {
            let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
            var a: [Int] = []
            transmitter.broadcast(1)
            receiver.listen { a.append($0) }
            transmitter.broadcast(2)
            histories.append(a)
        }
        #expect(histories == [[2], [2]])
    }

    @Test func receiver005sListenCanBeNamedAsAFunction() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        transmitter.broadcast(1)
        let listen: (@escaping (Int) -> Void) -> any Disposable = receiver.listen(to:)
        var received: [Int] = []
        let disposable = listen { received.append($0) }
        transmitter.broadcast(2)
        disposable.dispose()
        transmitter.broadcast(3)
        #expect(received == [1, 2])
    }

    @Test func strategiesAreEquatable() {
        #expect(Receiver<Int>.Strategy.warm(upTo: 3) == .warm(upTo: 3))
        #expect(Receiver<Int>.Strategy.warm(upTo: 3) != .warm(upTo: 4))
        #expect(Receiver<Int>.Strategy.hot != .cold)
        #expect(Receiver<Int>.Strategy.hot == Receiver<Int>.Strategy.hot)
    }

    @Test func negativeWarmCountStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Receiver<Int>.make(with: .warm(upTo: -1))
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Receiver.Strategy.warm(upTo:) needs a count of 0 or more, got -1"))
    }

    // MARK: Memory (Choosing a Strategy, "Memory": hot keeps nothing, warm at most n, cold everything)

    @Test(arguments: [(Receiver<Tracked>.Strategy.hot, 0), (.warm(upTo: 0), 0), (.warm(upTo: 5), 5), (.cold, 1_000)])
    func keepsWhatTheStrategySays(strategy: Receiver<Tracked>.Strategy, kept: Int) {
        let tag = "keeps-\(strategy)"
        let (transmitter, receiver) = Receiver<Tracked>.make(with: strategy)
        var sum = 0
        receiver.listen { sum += $0.value }
        for wave in 1...1_000 { transmitter.broadcast(Tracked(wave, tag: tag)) }
        #expect(sum == 500_500)
        #expect(Tracked.count(tag) == kept)
        _ = (transmitter, receiver)
    }

    // MARK: Order and re-entrancy (Threading and Re-entrancy: "Serialized delivery", "Re-entrant broadcast")

    @Test(arguments: allStrategies)
    func listenersAreCalledInTheOrderTheyJoinedEvenAfterOthersLeave(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        var calls: [String] = []
        let a = receiver.listen { calls.append("A\($0)") }
        receiver.listen { calls.append("B\($0)") }
        receiver.listen { calls.append("C\($0)") }
        transmitter.broadcast(1)
        a.dispose()
        receiver.listen { calls.append("D\($0)") }
        transmitter.broadcast(2)
        let replayed = strategy == .hot ? [] : ["D1"]
        #expect(calls == ["A1", "B1", "C1"] + replayed + ["B2", "C2", "D2"])
    }

    @Test(arguments: allStrategies)
    func aBroadcastFromAHandlerIsQueuedUntilTheCurrentWaveReachedEveryone(strategy: Receiver<Int>.Strategy) {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        var calls: [String] = []
        receiver.listen { wave in
            calls.append("A\(wave)")
            if wave == 1 { transmitter.broadcast(2) }
        }.disposed(by: bag)
        receiver.listen { calls.append("B\($0)") }.disposed(by: bag)
        transmitter.broadcast(1)
        #expect(calls == ["A1", "B1", "A2", "B2"])
    }

    @Test func aLongChainOfRebroadcastsDoesNotRecurse() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make()
        var received = 0
        receiver.listen { wave in
            received += 1
            if wave < 100_000 { transmitter.broadcast(wave + 1) }
        }.disposed(by: bag)
        transmitter.broadcast(1)
        #expect(received == 100_000)
    }

    @Test func broadcastDeliversBeforeItReturnsWhenNothingIsInProgress() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var last = 0
        receiver.listen { last = $0 }
        for wave in 1...5 {
            transmitter.broadcast(wave)
            #expect(last == wave)
        }
    }

    // MARK: Joining during delivery (before and after are decided by call order)

    @Test func hotListenerJoiningAfterAQueuedBroadcastMissesIt() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make()
        var b: [Int] = []
        receiver.listen { wave in
            guard wave == 1 else { return }
            transmitter.broadcast(2)
            receiver.listen { b.append($0) }
        }.disposed(by: bag)
        transmitter.broadcast(1)
        transmitter.broadcast(3)
        #expect(b == [3])
    }

    @Test func hotListenerJoiningBeforeAQueuedBroadcastReceivesIt() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make()
        var b: [Int] = []
        receiver.listen { wave in
            guard wave == 1 else { return }
            receiver.listen { b.append($0) }
            transmitter.broadcast(2)
        }.disposed(by: bag)
        transmitter.broadcast(1)
        transmitter.broadcast(3)
        #expect(b == [2, 3])
    }

    @Test func coldListenerJoiningInAHandlerGetsTheCurrentWaveOnceThenEverything() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        var b: [Int] = []
        receiver.listen { wave in
            if wave == 1 { receiver.listen { b.append($0) } }
        }.disposed(by: bag)
        receiver.listen { _ in }.disposed(by: bag)  // a later listener, so wave 1 is still being delivered
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        #expect(b == [1, 2])
    }

    @Test func warmListenerJoiningWithWavesQueuedGetsThemOnceThroughTheReplay() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 3))
        var b: [Int] = []
        receiver.listen { wave in
            guard wave == 1 else { return }
            transmitter.broadcast(2)
            transmitter.broadcast(3)
            receiver.listen { b.append($0) }  // 2 and 3 are queued: kept, so replayed, not live
            transmitter.broadcast(4)
        }.disposed(by: bag)
        transmitter.broadcast(1)
        #expect(b == [1, 2, 3, 4])
    }

    @Test(arguments: allStrategies)
    func replayHappensBeforeListenReturnsAlsoInsideAHandler(strategy: Receiver<Int>.Strategy) {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        var inner: [Int] = []
        var seenWhenListenReturned: [Int] = []
        receiver.listen { wave in
            guard wave == 3 else { return }
            receiver.listen { inner.append($0) }
            seenWhenListenReturned = inner
        }.disposed(by: bag)
        transmitter.broadcast(3)
        let expected: [Int] =
            switch strategy {
            case .hot: []
            case .warm: [2, 3]
            case .cold: [1, 2, 3]
            }
        #expect(seenWhenListenReturned == expected)
        #expect(inner == expected)
    }

    @Test func aHandlerThatBroadcastsDuringItsOwnReplayGetsThatWaveAfterTheReplay() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        var a: [Int] = []
        receiver.listen { wave in
            a.append(wave)
            if wave == 1 { transmitter.broadcast(10) }
        }.disposed(by: bag)
        #expect(a == [1, 2, 10])
    }

    // MARK: Disposal (Threading and Re-entrancy, "Disposal")

    @Test(arguments: allStrategies)
    func disposeStopsTheHandlerAndIsIdempotent(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        var a: [Int] = []
        let disposable = receiver.listen { a.append($0) }
        transmitter.broadcast(1)
        disposable.dispose()
        disposable.dispose()
        transmitter.broadcast(2)
        #expect(a == [1])
    }

    @Test func aListenerCanDisposeItselfFromItsHandler() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var a: [Int] = []
        var disposable: (any Disposable)?
        disposable = receiver.listen { wave in
            a.append(wave)
            disposable?.dispose()
        }
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        #expect(a == [1])
    }

    @Test func disposingALaterListenerMidWaveDropsTheRestOfThatWaveForIt() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var calls: [String] = []
        var b: (any Disposable)?
        receiver.listen { wave in
            calls.append("A\(wave)")
            b?.dispose()
        }
        b = receiver.listen { calls.append("B\($0)") }
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        #expect(calls == ["A1", "A2"])
    }

    @Test func disposingDropsQueuedWavesForThatListener() {
        let bag = DisposeBag()  // a handler below holds its own pair: the bag ends the cycle with the test
        let (transmitter, receiver) = Receiver<Int>.make()
        var calls: [String] = []
        var b: (any Disposable)?
        receiver.listen { wave in
            calls.append("A\(wave)")
            guard wave == 1 else { return }
            transmitter.broadcast(2)
            transmitter.broadcast(3)
        }.disposed(by: bag)
        b = receiver.listen { wave in
            calls.append("B\(wave)")
            if wave == 2 { b?.dispose() }
        }
        transmitter.broadcast(1)
        #expect(calls == ["A1", "B1", "A2", "B2", "A3"])
    }

    @Test func manyListenersComeAndGoInAnyOrder() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var calls: [Int] = []
        var disposables = (0..<10_000).map { index in receiver.listen { _ in calls.append(index) } }
        var generator = SplitMix(seed: 7)
        var alive = Set(0..<10_000)
        for _ in 0..<7_000 {
            let index = alive.randomElement(using: &generator)!
            alive.remove(index)
            disposables[index].dispose()
        }
        transmitter.broadcast(1)
        #expect(calls == alive.sorted())
        disposables.append(receiver.listen { _ in calls.append(-1) })
        calls = []
        transmitter.broadcast(2)
        #expect(calls == alive.sorted() + [-1])
    }

    @Test func disposingManyListenersMidWaveKeepsTheRestInOrder() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var calls: [Int] = []
        var disposables: [any Disposable] = []
        // Listener 500 disposes every even listener, before and after itself: enough to compact.
        for index in 0..<1_000 {
            disposables.append(
                receiver.listen { _ in
                    calls.append(index)
                    if index == 500 { for even in stride(from: 0, to: 1_000, by: 2) { disposables[even].dispose() } }
                })
        }
        transmitter.broadcast(1)
        let odd = Array(stride(from: 501, to: 1_000, by: 2))
        #expect(calls == Array(0...500) + odd)
        calls = []
        transmitter.broadcast(2)
        #expect(calls == Array(stride(from: 1, to: 1_000, by: 2)))
    }

    // MARK: Lifetime (Threading and Re-entrancy, "Ownership")

    @Test func droppingTheDisposableDoesNotStopTheListener() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var a: [Int] = []
        do { _ = receiver.listen { a.append($0) } }
        transmitter.broadcast(1)
        #expect(a == [1])
    }

    @Test func disposeReleasesTheHandlerAtOnce() {
        let (transmitter, receiver) = Receiver<Int>.make()
        weak var weakWitness: Witness?
        let disposable: any Disposable
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = receiver.listen { _ in _ = witness }
        }
        #expect(weakWitness != nil)
        disposable.dispose()
        #expect(weakWitness == nil)
        _ = transmitter
    }

    @Test func aHandlerDisposedDuringItsOwnCallIsReleasedWhenTheCallReturns() {
        let (transmitter, receiver) = Receiver<Int>.make()
        weak var weakWitness: Witness?
        var disposable: (any Disposable)?
        var calls: [Int] = []
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = receiver.listen { wave in
                _ = witness
                calls.append(wave)
                disposable?.dispose()
            }
        }
        receiver.listen { calls.append($0 * 10) }
        transmitter.broadcast(1)
        // The delivery has moved on: the handler is gone though its disposable is still held.
        #expect(weakWitness == nil)
        #expect(disposable != nil)
        transmitter.broadcast(2)
        #expect(calls == [1, 10, 20])
    }

    /// While its handler runs, a listener disposes itself and listens again, and enough others
    /// join (some leaving at once) that the list sweeps its disposed listeners during the call: the
    /// disposed listener whose handler is out stays until the call returns, so every other handler
    /// stays with its listener and the delivery goes on where it was.
    @Test func aHandlerThatDisposesItsListenerAndListensAgainDuringASweepLeavesTheOthersInPlace() {
        let (transmitter, receiver) = Receiver<Int>.make()
        weak var weakWitness: Witness?
        var calls: [String] = []
        var a: (any Disposable)?
        var joined: [any Disposable] = []
        receiver.listen { calls.append("X\($0)") }
        do {
            let witness = Witness()
            weakWitness = witness
            a = receiver.listen { wave in
                _ = witness
                calls.append("A\(wave)")
                a?.dispose()
                joined.append(receiver.listen { calls.append("A'\($0)") })
                for index in 0..<64 {
                    let listener = receiver.listen { calls.append("C\(index):\($0)") }
                    if index.isMultiple(of: 2) { listener.dispose() } else { joined.append(listener) }
                }
            }
        }
        receiver.listen { calls.append("B\($0)") }
        transmitter.broadcast(1)
        #expect(calls == ["X1", "A1", "B1"])
        #expect(weakWitness == nil)
        calls = []
        transmitter.broadcast(2)
        #expect(calls == ["X2", "B2", "A'2"] + stride(from: 1, to: 64, by: 2).map { "C\($0):2" })
        joined.forEach { $0.dispose() }
    }

    @Test func droppingThePairReleasesHandlersEvenWhenTheyCaptureTheirDisposable() {
        weak var weakWitness: Witness?
        var kept: (any Disposable)?
        do {
            let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
            let witness = Witness()
            weakWitness = witness
            final class Holder { var disposable: (any Disposable)? }
            let holder = Holder()
            holder.disposable = receiver.map { $0 + 1 }.listen { _ in _ = (witness, holder) }
            kept = holder.disposable
            transmitter.broadcast(1)
        }
        #expect(weakWitness == nil)
        kept?.dispose()
    }

    /// A Receiver 0.0.5 model keeps the transmitter and only a weak receiver: the transmitter must
    /// keep its receiver alive (a weak reference to it stays non-`nil`), without a cycle.
    @Test func theTransmitterKeepsItsReceiverAliveWithoutACycle() {
        final class Model {
            let transmitter: Receiver<Int>.Transmitter
            weak var receiver: Receiver<Int>?
            init() { (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1)) }
        }
        weak var weakReceiver: Receiver<Int>?
        weak var weakTransmitter: Receiver<Int>.Transmitter?
        do {
            let model = Model()
            #expect(model.receiver != nil)
            var received: [Int] = []
            model.transmitter.broadcast(1)
            model.receiver?.listen { received.append($0) }
            model.transmitter.broadcast(2)
            #expect(received == [1, 2])
            (weakReceiver, weakTransmitter) = (model.receiver, model.transmitter)
        }
        #expect(weakReceiver == nil && weakTransmitter == nil)  // both went with the model
    }

    @Test func aTransmitterKeptAloneStillDeliversToItsListeners() {
        var received: [Int] = []
        let transmitter: Receiver<Int>.Transmitter
        do {
            let (kept, receiver) = Receiver<Int>.make()
            receiver.map { $0 * 10 }.listen { received.append($0) }
            transmitter = kept
        }
        transmitter.broadcast(1)
        #expect(received == [10])
    }
}

/// A small seeded generator, so the random orders in tests are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
