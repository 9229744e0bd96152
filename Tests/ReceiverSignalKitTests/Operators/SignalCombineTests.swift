import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A controllable input named `name`: what is put into the returned subscriber reaches every
/// start of the returned signal, and each start and disposal is written to `log`.
private func input(_ name: String, log: History<String>) -> (Subscriber<Int, TestError>, Signal<Int, TestError>) {
    let (subscriber, pipe) = Signal<Int, TestError>.pipe()
    let signal = Signal<Int, TestError> { downstream in
        log.record("start \(name)")
        let forwarding = pipe.start(
            next: downstream.putNext, error: downstream.putError, completed: downstream.putCompletion)
        return ActionDisposable {
            log.record("dispose \(name)")
            forwarding.dispose()
        }
    }
    return (subscriber, signal)
}

private func pair(_ value: (Int, Int)) -> [Int] { [value.0, value.1] }

@Suite(.detectingLeaks) struct SignalCombineTests {
    @Test func subscribesToEveryInputInOrderSynchronouslyAtStart() {
        let log = History<String>()
        let (_, a) = input("a", log: log), (_, b) = input("b", log: log), (_, c) = input("c", log: log)
        let signal = combineLatest(a, b, c)
        #expect(log.recorded == [])
        let disposable = signal.start()
        #expect(log.recorded == ["start a", "start b", "start c"])
        disposable.dispose()
    }

    @Test func sendsNothingUntilEveryInputHasAValueThenATupleOnEveryValue() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log)
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(signalA, signalB) |> map(pair))
        a.putNext(1)
        a.putNext(2)
        #expect(recording.events == [])
        b.putNext(10)
        a.putNext(3)
        b.putNext(20)
        b.putNext(20)
        #expect(recording.events == [.next(0, [2, 10]), .next(0, [3, 10]), .next(0, [3, 20]), .next(0, [3, 20])])
        recording.dispose()
    }

    @Test func completesOnlyWhenEveryInputHasCompleted() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log)
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(signalA, signalB) |> map(pair))
        a.putNext(1)
        b.putNext(2)
        a.putCompletion()
        b.putNext(3)
        #expect(recording.events == [.next(0, [1, 2]), .next(0, [1, 3])])
        b.putCompletion()
        #expect(recording.events == [.next(0, [1, 2]), .next(0, [1, 3]), .completed(0)])
        #expect(log.recorded == ["start a", "start b", "dispose a", "dispose b"])
    }

    @Test func anInputThatCompletesWithoutAValueMeansNoValueButCompletionStillWaitsForAll() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log)
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(signalA, signalB) |> map(pair))
        a.putCompletion()
        b.putNext(1)
        b.putNext(2)
        #expect(recording.events == [])
        b.putCompletion()
        #expect(recording.events == [.completed(0)])
    }

    @Test func theFirstErrorIsForwardedOnceAndDisposesEveryInput() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log),
            (c, signalC) = input("c", log: log)
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(signalA, signalB, signalC) |> map { [$0.0, $0.1, $0.2] })
        a.putNext(1)
        b.putNext(2)
        c.putNext(3)
        b.putError(TestError(code: 1))
        c.putError(TestError(code: 2))
        a.putNext(4)
        #expect(recording.events == [.next(0, [1, 2, 3]), .error(0, TestError(code: 1))])
        #expect(log.recorded == ["start a", "start b", "start c", "dispose a", "dispose b", "dispose c"])
    }

    @Test func anErrorWhileStartingStillStartsTheLaterInputsThenDisposesThemAll() {
        let log = History<String>()
        let (_, signalB) = input("b", log: log)
        let failing = Signal<Int, TestError> { subscriber in
            log.record("start a")
            subscriber.putError(TestError(code: 7))
            return ActionDisposable { log.record("dispose a") }
        }
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(failing, signalB) |> map(pair))
        #expect(recording.events == [.error(0, TestError(code: 7))])
        #expect(log.recorded == ["start a", "dispose a", "start b", "dispose b"])
    }

    @Test func disposingTheStartDisposesEveryInputAndStopsTheValues() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log)
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(signalA, signalB) |> map(pair))
        a.putNext(1)
        b.putNext(2)
        recording.dispose()
        a.putNext(3)
        a.putCompletion()
        b.putCompletion()
        #expect(recording.events == [.next(0, [1, 2])])
        #expect(log.recorded == ["start a", "start b", "dispose a", "dispose b"])
    }

    /// Differs from SwiftSignalKit, which nests: an input set from inside the handler is queued,
    /// and its tuple arrives after the handler returns.
    @Test func anInputSetFromInsideTheHandlerIsQueuedNotNested() {
        let first = ValuePromise(1), second = ValuePromise(10)
        let log = History<String>()
        let disposable = combineLatest(first.get(), second.get()).start(next: { a, b in
            log.record("\(a) \(b)")
            if b == 10 {
                second.set(20)
                log.record("set returned")
            }
        })
        #expect(log.recorded == ["1 10", "set returned", "1 20"])
        disposable.dispose()
    }

    /// Values that arrive while a tuple is being sent (here from inside the handler, through
    /// inputs that are not delivering) wait, and are applied in the order they arrived, each
    /// with its own tuple.
    @Test func valuesArrivingWhileATupleIsSentAreAppliedInTheirOrder() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log),
            (c, signalC) = input("c", log: log)
        let tuples = History<[Int]>()
        let disposable = combineLatest(signalA, signalB, signalC).start(next: { values in
            tuples.record([values.0, values.1, values.2])
            if values == (1, 2, 3) {
                b.putNext(20)
                c.putNext(30)
                b.putNext(21)
            }
        })
        b.putNext(2)
        c.putNext(3)
        a.putNext(1)  // the first tuple; a is delivering, b and c are not
        #expect(tuples.recorded == [[1, 2, 3], [1, 20, 3], [1, 20, 30], [1, 21, 30]])
        disposable.dispose()
    }

    @Test func eachStartHasItsOwnState() {
        let first = ValuePromise(1), second = ValuePromise(2)
        let signal = combineLatest(first.get(), second.get())
        #expect(current(signal).map(pair) == [1, 2])
        second.set(3)
        #expect(current(signal).map(pair) == [1, 3])
    }

    /// Disposing a start releases the latest values it kept, while its inputs live on.
    @Test func disposingReleasesTheLatestValues() {
        let (input, values) = Signal<Witness, NoError>.pipe()
        let other = ValuePromise(0)
        weak var watched: Witness?
        let disposable = combineLatest(values, other.get()).start()
        do {
            let witness = Witness()
            watched = witness
            input.putNext(witness)
        }
        #expect(watched != nil)
        disposable.dispose()
        #expect(watched == nil)
    }

    /// A start that is never disposed is released with its inputs: the start's state holds its
    /// subscriber, whose disposables lead back to the start's pair, and that loop must not leak.
    /// (The inputs are plain pairs: a promise's `get()` keeps its promise alive while started, as
    /// in SwiftSignalKit, so promises would outlive this scope by design.)
    @Test func aStartIsReleasedWithItsInputs() {
        weak var watched: Witness?
        do {
            let (first, firstReceiver) = Receiver<Int>.make(with: .warm(upTo: 1))
            let (second, secondReceiver) = Receiver<Int>.make(with: .warm(upTo: 1))
            first.broadcast(1)
            second.broadcast(2)
            let witness = Witness()
            watched = witness
            combineLatest(firstReceiver.signal, secondReceiver.signal).start(next: { _ in _ = witness })
            second.broadcast(3)
        }
        #expect(watched == nil)
    }

    @Test func theSeededOverloadSendsTheSeedAtStartBeforeSubscribing() {
        let log = History<String>()
        let (a, signalA) = input("a", log: log), (b, signalB) = input("b", log: log)
        let disposable = combineLatest(signalA, 0, signalB, 100).start(next: { log.record("next \($0) \($1)") })
        #expect(log.recorded == ["next 0 100", "start a", "start b"])
        a.putNext(1)
        b.putNext(200)
        #expect(log.recorded == ["next 0 100", "start a", "start b", "next 1 100", "next 1 200"])
        disposable.dispose()
    }

    @Test func theSeededOverloadCompletesWhenBothInputsHave() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(
            combineLatest(Signal<Int, TestError>.single(1), 0, Signal<Int, TestError>.complete(), 5) |> map(pair))
        #expect(recording.events == [.next(0, [0, 5]), .next(0, [1, 5]), .completed(0)])
    }

    @Test func theArrayOverloadCombinesInOrder() {
        let log = History<String>()
        let inputs = ["a", "b", "c"].map { input($0, log: log) }
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest(inputs.map(\.1)))
        inputs[2].0.putNext(3)
        inputs[0].0.putNext(1)
        #expect(recording.events == [])
        inputs[1].0.putNext(2)
        inputs[0].0.putNext(4)
        inputs[2].0.putNext(5)  // each array sent before stays as it was
        inputs.forEach { $0.0.putCompletion() }
        #expect(recording.events == [.next(0, [1, 2, 3]), .next(0, [4, 2, 3]), .next(0, [4, 2, 5]), .completed(0)])
        #expect(log.recorded == ["start a", "start b", "start c", "dispose a", "dispose b", "dispose c"])
    }

    @Test func theArrayOverloadOfNoSignalsSendsAnEmptyArrayAndCompletesAtOnce() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(combineLatest([Signal<Int, TestError>]()))
        #expect(recording.events == [.next(0, []), .completed(0)])
    }

    @Test func withAQueueTheValuesAreCombinedAndSentOnIt() {
        let queue = Queue(name: "combine")
        let done = DispatchSemaphore(value: 0)
        let seen = History<String>()
        let first = ValuePromise(1), second = ValuePromise(2)
        let disposable = combineLatest(queue: queue, first.get(), second.get()).start(next: { value in
            seen.record("\(value.0) \(value.1) \(queue.isCurrent())")
            if value.0 == 3 { done.signal() }
        })
        first.set(3)
        expectSignal(done)
        #expect(seen.recorded == ["1 2 true", "3 2 true"])
        disposable.dispose()
    }

    @Test func theTwentySixInputOverloadCombinesEveryInputInOrder() {
        let promises = (0..<26).map { ValuePromise($0) }
        let p = promises.map { $0.get() }
        let signal = combineLatest(
            p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10], p[11], p[12],
            p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20], p[21], p[22], p[23], p[24], p[25])
        let history = History<[Int]>()
        let disposable = signal.start(next: { tuple in
            history.record(Mirror(reflecting: tuple).children.map { $0.value as! Int })
        })
        promises[25].set(250)
        #expect(history.recorded == [Array(0..<26), Array(0..<25) + [250]])
        disposable.dispose()
    }

    /// Every tuple overload, 2 to 26 inputs, puts each input's value in its own place.
    @Test func everyTupleOverloadPutsEachInputInItsPlace() {
        let s = (0..<26).map { Signal<Int, NoError>.single($0) }
        func values<T>(_ signal: Signal<T, NoError>) -> [Int]? {
            current(signal).map { tuple in Mirror(reflecting: tuple).children.map { $0.value as! Int } }
        }
        #expect(values(combineLatest(s[0], s[1])) == Array(0..<2))
        #expect(values(combineLatest(s[0], s[1], s[2])) == Array(0..<3))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3])) == Array(0..<4))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3], s[4])) == Array(0..<5))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5])) == Array(0..<6))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6])) == Array(0..<7))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7])) == Array(0..<8))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8])) == Array(0..<9))
        #expect(values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9])) == Array(0..<10))
        #expect(
            values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10])) == Array(0..<11))
        #expect(
            values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11]))
                == Array(0..<12))
        #expect(
            values(combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12]))
                == Array(0..<13))
        #expect(
            values(
                combineLatest(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13]))
                == Array(0..<14))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14]))
                == Array(0..<15))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15]
                )) == Array(0..<16))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16])) == Array(0..<17))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17])) == Array(0..<18))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18])) == Array(0..<19))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19])) == Array(0..<20))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19], s[20])) == Array(0..<21))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19], s[20], s[21])) == Array(0..<22))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19], s[20], s[21], s[22])) == Array(0..<23))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19], s[20], s[21], s[22], s[23])) == Array(0..<24))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19], s[20], s[21], s[22], s[23], s[24])) == Array(0..<25))
        #expect(
            values(
                combineLatest(
                    s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11], s[12], s[13], s[14],
                    s[15], s[16], s[17], s[18], s[19], s[20], s[21], s[22], s[23], s[24], s[25])) == Array(0..<26))
    }

    @Test func anErrorTypeThatIsNotAnErrorCompiles() {
        var failures = 0
        combineLatest(Signal<Int, Void>.single(1), Signal<String, Void>.fail(())).start(error: { failures += 1 })
        let seeded = combineLatest(Signal<Int, Void>.never(), 0, Signal<Int, Void>.never(), 1)
        var seed: [Int] = []
        seeded.start(next: { seed = [$0, $1] }).dispose()
        combineLatest([Signal<Int, Void>.fail(())]).start(error: { failures += 1 })
        #expect(failures == 2)
        #expect(seed == [0, 1])
    }

    /// Three threads each set their own input 1...n: every tuple must change exactly one input,
    /// by one, from the tuple before it (SwiftSignalKit can send a stale tuple after a newer one),
    /// and the last tuple holds every final value.
    @Test func tuplesFromInputsUpdatedOnSeveralThreadsAreInOneConsistentOrder() {
        let n = 2_000
        let promises = (0..<3).map { _ in ValuePromise(0) }
        let tuples = History<[Int]>()
        let disposable = combineLatest(promises[0].get(), promises[1].get(), promises[2].get())
            .start(next: { tuples.record([$0.0, $0.1, $0.2]) })
        DispatchQueue.concurrentPerform(iterations: 3) { thread in
            for value in 1...n { promises[thread].set(value) }
        }
        let recorded = tuples.recorded
        #expect(recorded.count == 1 + 3 * n)
        #expect(recorded.first == [0, 0, 0])
        #expect(recorded.last == [n, n, n])
        let steps = zip(recorded, recorded.dropFirst()).map { before, after in zip(before, after).map { $1 - $0 } }
        #expect(steps.allSatisfy { $0.sorted() == [0, 0, 1] })
        disposable.dispose()
    }

    /// A replaced value is released outside every lock: here its `deinit` sets another input of
    /// the same start, which would deadlock if it ran under the start's lock.
    @Test func aReplacedValueMayReenterWhenReleased() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            final class Reentrant: Sendable {
                let onDeinit: @Sendable () -> Void
                init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
                deinit { onDeinit() }
            }
            let other = ValuePromise(0)
            let (input, signal) = Signal<Reentrant, NoError>.pipe()
            let seen = History<Int>()
            let disposable = combineLatest(signal, other.get()).start(next: { seen.record($0.1) })
            input.putNext(Reentrant { other.set(1) })
            input.putNext(Reentrant { other.set(2) })  // releases the first, which sets 1
            input.putNext(Reentrant {})  // releases the second, which sets 2
            disposable.dispose()
            guard seen.recorded == [0, 0, 1, 1, 2] else { exit(1) }
        }
    }
}
