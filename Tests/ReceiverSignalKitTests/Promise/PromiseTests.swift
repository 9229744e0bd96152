import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct PromiseTests {
    @Test func readBeforeAndAfterSet() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = Promise<Int>()
        var early: [Int] = []
        promise.get().start(next: { early.append($0) }).disposed(by: bag)
        #expect(early == [])
        #expect(current(promise.get()) == nil)
        promise.set(.single(1))
        #expect(current(promise.get()) == 1)
        var late: [Int] = []
        promise.get().start(next: { late.append($0) }).disposed(by: bag)
        let (input, output) = Signal<Int, NoError>.pipe()
        promise.set(output)
        #expect(current(promise.get()) == nil)  // set clears the current value
        input.putNext(2)
        input.putNext(3)
        #expect(early == [1, 2, 3])
        #expect(late == [1, 2, 3])
        #expect(current(promise.get()) == 3)
    }

    @Test func getComposesWithThePipe() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = Promise(1)
        var received: [Int] = []
        (promise.get() |> map { $0 * 2 } |> distinctUntilChanged).start(next: { received.append($0) }).disposed(by: bag)
        promise.set(.single(1))
        promise.set(.single(3))
        #expect(received == [2, 6])  // repeats are dropped per start, also across a set
    }

    @Test func initWithAValue() {
        #expect(current(Promise(5).get()) == 5)
        #expect(current(Promise<Int?>(nil).get()) == .some(nil))  // nested optionals keep their nil
        #expect(current(Promise<Int?>().get()) == nil)
    }

    @Test func setStartsTheNewSignalThenDisposesTheOldOne() {
        // SwiftSignalKit's order (the migration guide's "Quirks we keep"): a shared upstream is never
        // torn down and rebuilt.
        let promise = Promise<Int>()
        var events: [String] = []
        func source(_ name: String) -> Signal<Int, NoError> {
            Signal { _ in
                events.append("\(name) started")
                return ActionDisposable { events.append("\(name) disposed") }
            }
        }
        promise.set(source("first"))
        promise.set(source("second"))
        #expect(events == ["first started", "second started", "first disposed"])
    }

    @Test func setClearsTheCurrentValueWithoutNotifying() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = Promise(1)
        var received: [Int] = []
        promise.get().start(next: { received.append($0) }).disposed(by: bag)
        promise.set(.never())
        #expect(received == [1])
        #expect(current(promise.get()) == nil)
    }

    @Test func completionKeepsTheLastValue() {
        let promise = Promise<Int>()
        promise.set(
            Signal { subscriber in
                subscriber.putNext(1)
                subscriber.putNext(2)
                subscriber.putCompletion()
                return EmptyDisposable
            })
        #expect(current(promise.get()) == 2)
    }

    @Test func reentrantSetDuringSynchronousEmission() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        // The same as SwiftSignalKit: next 1, next 10, next 2, late 2.
        let promise = Promise<Int>()
        var events: [String] = []
        promise.get().start(next: { value in
            events.append("next \(value)")
            if value == 1 { promise.set(.single(10)) }
        }).disposed(by: bag)
        promise.set(
            Signal { subscriber in
                subscriber.putNext(1)
                subscriber.putNext(2)
                return EmptyDisposable
            })
        promise.get().start(next: { events.append("late \($0)") }).disposed(by: bag)
        #expect(events == ["next 1", "next 10", "next 2", "late 2"])
    }

    @Test func deinitDisposesTheSignal() {
        let source = CountingDisposable()
        do {
            let promise = Promise<Int>()
            promise.set(Signal { _ in source })
        }
        #expect(source.count == 1)
    }

    @Test func theReadIdiomWorksFromInsideAHandler() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = Promise(1)
        let (input, output) = Signal<Int, NoError>.pipe()
        promise.set(output)
        var seenInside: [Int?] = []
        promise.get().start(next: { value in
            seenInside.append(current(promise.get()))
            if value == 2 { promise.set(.single(3)) }  // delivery is queued, the value is current at once
            seenInside.append(current(promise.get()))
        }).disposed(by: bag)
        input.putNext(2)
        #expect(seenInside == [2, 3, 3, 3])
    }

    @Test func aPromiseReferencedOnlyByItsSignalKeepsWorking() {
        // As in SwiftSignalKit, get() retains the promise (the migration guide's "Quirks we keep").
        func makeSignal(_ source: Signal<Int, NoError>) -> Signal<Int, NoError> {
            let promise = Promise<Int>()
            promise.set(source)
            return promise.get()
        }
        let (input, output) = Signal<Int, NoError>.pipe()
        var received: [Int] = []
        let subscription = makeSignal(output).start(next: { received.append($0) })
        input.putNext(1)
        input.putNext(2)
        #expect(received == [1, 2])
        subscription.dispose()
    }

    @Test func theSignalAndEachLiveSubscriptionKeepThePromiseAlive() {
        // As in SwiftSignalKit: a promise stays alive while only its `get()` signal is held.
        weak var watcher: Promise<Int>?
        var signal: Signal<Int, NoError>?
        do {
            let promise = Promise(1)
            watcher = promise
            signal = promise.get()
        }
        #expect(watcher != nil)
        let subscription = signal?.start()
        signal = nil
        #expect(watcher != nil)
        subscription?.dispose()
        #expect(watcher == nil)
    }

    @Test func theSourceDoesNotKeepThePromiseAlive() {
        let source = CountingDisposable()
        let (input, output) = Signal<Int, NoError>.pipe()
        weak var watcher: Promise<Int>?
        do {
            let promise = Promise<Int>()
            watcher = promise
            promise.set(
                Signal { subscriber in
                    let forwarding = output.start(next: subscriber.putNext)
                    return ActionDisposable {
                        forwarding.dispose()
                        source.dispose()
                    }
                })
        }
        #expect(watcher == nil)
        #expect(source.count == 1)
        input.putNext(1)  // nobody is left to receive it
    }

    @Test func onDeinitRunsFirstThenTheSourceIsDisposed() {
        var events: [String] = []
        do {
            let promise = Promise<Int>()
            promise.set(Signal { _ in ActionDisposable { events.append("source disposed") } })
            promise.onDeinit = { events.append("replaced") }
            promise.onDeinit = { events.append("onDeinit") }
            #expect(promise.onDeinit != nil)
        }
        #expect(events == ["onDeinit", "source disposed"])
    }

    @Test func initializeOnFirstAccessSetsTheSignalAtTheFirstStartOnly() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        var starts = 0
        let promise = Promise(
            initializeOnFirstAccess: Signal<Int, NoError> { subscriber in
                starts += 1
                subscriber.putNext(starts * 10)
                return EmptyDisposable
            })
        #expect(starts == 0)
        var first: [Int] = []
        promise.get().start(next: { first.append($0) }).disposed(by: bag)
        #expect(starts == 1)
        #expect(first == [10])
        var second: [Int] = []
        promise.get().start(next: { second.append($0) }).disposed(by: bag)
        #expect(starts == 1)
        #expect(second == [10])
    }

    @Test func initializeOnFirstAccessReplacesAnEarlierSet() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = Promise(initializeOnFirstAccess: .single(2))
        let earlier = CountingDisposable()
        promise.set(
            Signal { subscriber in
                subscriber.putNext(1)
                return earlier
            })
        var received: [Int] = []
        promise.get().start(next: { received.append($0) }).disposed(by: bag)  // gets 1, the current value, first
        #expect(received == [1, 2])
        #expect(earlier.count == 1)
        #expect(current(promise.get()) == 2)
        #expect(current(Promise<Int>(initializeOnFirstAccess: nil).get()) == nil)
    }

    @Test func theReadIdiomWorksFromAnyThread() {
        let promise = Promise(7)
        let reads = History<Int?>()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in reads.record(current(promise.get())) }
        #expect(reads.recorded == Array(repeating: 7, count: 16))
    }

    @Test func manyThreadsPuttingWhileSubscribersComeAndGo() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = Promise<Int>()
        let (input, output) = Signal<Int, NoError>.pipe()
        promise.set(output)
        let everything = History<Int>()
        promise.get().start(next: everything.record).disposed(by: bag)
        let histories = briefStarts(of: { promise.get() }) { thread in
            for index in 0..<250 { input.putNext(thread * 1000 + index) }
        }
        #expect(histories.count == 200)
        let order = everything.recorded
        #expect(order.sorted() == (0..<4).flatMap { thread in (0..<250).map { thread * 1000 + $0 } })
        #expect(current(promise.get()) == order.last)
        // One total order: what any subscriber saw is a contiguous run of it.
        for history in histories {
            #expect(order.containsRun(history))
        }
    }

    @Test func setRacingSetDisposesEveryReplacedSourceOnce() {
        for _ in 0..<20 {
            let sources = (0..<32).map { _ in CountingDisposable() }
            let everything = History<Int>()
            do {
                let promise = Promise<Int>()
                let subscription = promise.get().start(next: everything.record)
                DispatchQueue.concurrentPerform(iterations: sources.count) { index in
                    promise.set(
                        Signal { subscriber in
                            subscriber.putNext(index)
                            return sources[index]
                        })
                }
                #expect(sources.map(\.count).sorted() == [0] + Array(repeating: 1, count: sources.count - 1))
                #expect(current(promise.get()) != nil)
                subscription.dispose()
            }
            #expect(sources.map(\.count) == Array(repeating: 1, count: sources.count))
            #expect(everything.recorded.sorted() == Array(0..<sources.count))
        }
    }

    @Test func aReplacedSourceIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let promise = Promise<Int>()
            promise.set(Signal { _ in Reentering { promise.set(.single(3)) } })
            promise.set(.single(2))  // the first source's disposable sets the promise again when released
            precondition(current(promise.get()) == 3)
        }
    }

    @Test func aReplacedOnDeinitIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let promise = Promise<Int>()
            promise.onDeinit = { [captured = Reentering { _ = promise.onDeinit }] in _ = captured }
            promise.onDeinit = nil  // releasing the replaced closure reads `onDeinit` again
        }
    }

    @Test func aReplacedValueIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let promise = Promise<Reentering>()
            promise.set(.single(Reentering { _ = current(promise.get()) }))
            promise.set(.single(Reentering {}))  // clearing the current value releases the first one
        }
    }
}

/// Runs `onDeinit` when released: to call back into what released it.
private final class Reentering: Disposable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    func dispose() {}
    deinit { onDeinit() }
}
