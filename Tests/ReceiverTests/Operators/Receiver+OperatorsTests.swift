import Receiver
import ReceiverSignalKitTesting
import Testing

/// The operators, as their docs state them: each operator's output, laziness, per-listener state,
/// kept strategy (Choosing a Strategy, "Operators keep the strategy"), disposal.
@Suite(.detectingLeaks) struct ReceiverOperatorsTests {
    /// Broadcasts `waves` into a pair, listens to `derive(receiver)` and returns what it got.
    func run<T>(_ waves: [Int], _ derive: (Receiver<Int>) -> Receiver<T>) -> [T] {
        let (transmitter, receiver) = Receiver<Int>.make()
        var received: [T] = []
        derive(receiver).listen { received.append($0) }
        for wave in waves { transmitter.broadcast(wave) }
        return received
    }

    @Test func mapTransformsEachWave() {
        #expect(run([1, 2, 3]) { $0.map { "\($0 * 10)" } } == ["10", "20", "30"])
    }

    @Test func filterKeepsTheIncludedWaves() {
        #expect(run([1, 2, 3, 4]) { $0.filter { $0.isMultiple(of: 2) } } == [2, 4])
    }

    @Test func withPreviousPairsTheFirstWaveWithNil() {
        let pairs = run([1, 2, 3]) { $0.withPrevious() }
        #expect(pairs.map(\.0) == [nil, 1, 2])
        #expect(pairs.map(\.1) == [1, 2, 3])
    }

    @Test(arguments: [0, 1, 2, 5])
    func skipDropsTheFirstWaves(count: Int) {
        #expect(run([1, 2, 3]) { $0.skip(count: count) } == Array([1, 2, 3].dropFirst(count)))
    }

    @Test(arguments: [0, 1, 2, 5])
    func takePassesTheFirstWaves(count: Int) {
        #expect(run([1, 2, 3]) { $0.take(count: count) } == Array([1, 2, 3].prefix(count)))
    }

    @Test func skipRepeatsDropsConsecutiveEqualWaves() {
        #expect(run([1, 1, 2, 2, 3, 1]) { $0.skipRepeats() } == [1, 2, 3, 1])
    }

    @Test func skipRepeatsByUsesTheGivenEquivalence() {
        #expect(run([1, 3, 2, 4, 5]) { $0.skipRepeats { $0 % 2 == $1 % 2 } } == [1, 2, 5])
    }

    @Test func skipNilDropsNilsAndUnwraps() {
        let (transmitter, receiver) = Receiver<Int?>.make()
        var received: [Int] = []
        receiver.skipNil().listen { received.append($0) }
        for wave in [1, nil, 2, nil, nil, 3] { transmitter.broadcast(wave) }
        #expect(received == [1, 2, 3])
    }

    @Test func uniqueValuesPassesEachDistinctWaveOnce() {
        #expect(run([1, 2, 1, 3, 1, 3, 2]) { $0.uniqueValues() } == [1, 2, 3])
    }

    @Test func uniqueValuesRemembersPerListener() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        let unique = receiver.uniqueValues()
        var first: [Int] = [], second: [Int] = []
        unique.listen { first.append($0) }
        for wave in [1, 2, 1] { transmitter.broadcast(wave) }
        unique.listen { second.append($0) }  // replays 1 2 1: its own memory, so 1 2
        transmitter.broadcast(3)
        #expect(first == [1, 2, 3])
        #expect(second == [1, 2, 3])
    }

    @Test func handlerIsTheListenersType() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var received: [Int] = []
        let handler: Receiver<Int>.Handler = { received.append($0) }
        receiver.listen(to: handler)
        transmitter.broadcast(7)
        #expect(received == [7])
    }

    @Test func operatorsCompose() {
        let received = run([1, 2, 2, 4, 3, 6]) { $0.map { $0 * 3 }.filter { $0.isMultiple(of: 2) }.skipRepeats() }
        #expect(received == [6, 12, 18])
    }

    // MARK: Lazy and per listener

    @Test func aDerivedReceiverDoesNothingUntilSomeoneListens() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        var transforms = 0
        let mapped = receiver.map { wave -> Int in
            transforms += 1
            return wave
        }
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        #expect(transforms == 0)
        mapped.listen { _ in }
        #expect(transforms == 2)
    }

    @Test(arguments: allStrategies)
    func derivedReceiversKeepTheUpstreamReplay(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        let mapped = receiver.map { $0 * 10 }
        for wave in 1...3 { transmitter.broadcast(wave) }
        var late: [Int] = []
        mapped.listen { late.append($0) }
        transmitter.broadcast(4)
        let expected: [Int] =
            switch strategy {
            case .hot: [40]
            case .warm: [20, 30, 40]
            case .cold: [10, 20, 30, 40]
            }
        #expect(late == expected)
    }

    @Test func eachListenerGetsItsOwnOperatorState() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
        let skipped = receiver.skip(count: 1)
        let paired = receiver.withPrevious()
        var (a, b): ([Int], [Int]) = ([], [])
        var (pairsA, pairsB): ([Int?], [Int?]) = ([], [])
        skipped.listen { a.append($0) }
        paired.listen { pairsA.append($0.0) }
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        skipped.listen { b.append($0) }  // its first wave is the replayed 2, which it skips
        paired.listen { pairsB.append($0.0) }  // starts at nil, not at A's previous
        transmitter.broadcast(3)
        #expect(a == [2, 3])
        #expect(b == [3])
        #expect(pairsA == [nil, 1, 2])
        #expect(pairsB == [nil, 2])
    }

    @Test func disposingADerivedListenerDisposesItsUpstreamListener() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var transforms = 0
        weak var weakWitness: Witness?
        let disposable: any Disposable
        do {
            let witness = Witness()
            weakWitness = witness
            disposable = receiver.map { wave -> Int in
                transforms += 1
                return wave
            }.filter { _ in witness !== Witness() }.listen { _ in }
        }
        transmitter.broadcast(1)
        disposable.dispose()
        transmitter.broadcast(2)
        #expect(transforms == 1)
        #expect(weakWitness == nil)
    }

    @Test func takeDisposesItsUpstreamListenerOnceTheCountIsReached() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var transforms = 0
        var received: [Int] = []
        receiver.map { wave -> Int in
            transforms += 1
            return wave
        }.take(count: 2).listen { received.append($0) }
        for wave in 1...5 { transmitter.broadcast(wave) }
        #expect(received == [1, 2])
        #expect(transforms == 2)
    }

    @Test func takeReachingItsCountDuringTheReplayStopsRightAfterIt() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        for wave in 1...5 { transmitter.broadcast(wave) }
        var transforms = 0
        var received: [Int] = []
        receiver.map { wave -> Int in
            transforms += 1
            return wave
        }.take(count: 2).listen { received.append($0) }
        transmitter.broadcast(6)
        #expect(received == [1, 2])
        #expect(transforms == 5)  // the replay ran inside listen; nothing live after it
    }

    // MARK: Bad input: misuse stops with a message

    @Test func negativeSkipCountStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Receiver<Int>.make().1.skip(count: -2)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Receiver.skip(count:) needs a count of 0 or more, got -2"))
    }

    @Test func negativeTakeCountStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Receiver<Int>.make().1.take(count: -3)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Receiver.take(count:) needs a count of 0 or more, got -3"))
    }
}
