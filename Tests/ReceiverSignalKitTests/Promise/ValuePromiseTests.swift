import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct ValuePromiseTests {
    @Test func setStoresAndSends() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = ValuePromise<Int>()
        var received: [Int] = []
        promise.get().start(next: { received.append($0) }).disposed(by: bag)
        #expect(current(promise.get()) == nil)
        promise.set(1)
        promise.set(1)
        promise.set(2)
        #expect(received == [1, 1, 2])
        #expect(current(promise.get()) == 2)
        #expect(!promise.ignoreRepeated)
    }

    @Test func theReadIdiomWorksFromInsideAHandler() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = ValuePromise(1)
        var seenInside: [Int?] = []
        promise.get().start(next: { value in
            if value == 1 { promise.set(2) }  // delivery is queued, the value is current at once
            seenInside.append(current(promise.get()))
        }).disposed(by: bag)
        #expect(seenInside == [2, 2])
    }

    @Test func ignoreRepeatedWhileSubscribersComeAndGo() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = ValuePromise(0, ignoreRepeated: true)
        var first: [Int] = []
        let firstDisposable = promise.get().start(next: { first.append($0) })
        promise.set(0)
        promise.set(1)
        promise.set(1)
        var second: [Int] = []
        let secondDisposable = promise.get().start(next: { second.append($0) })
        promise.set(1)
        promise.set(2)
        firstDisposable.dispose()
        promise.set(2)
        promise.set(3)
        var third: [Int] = []
        promise.get().start(next: { third.append($0) }).disposed(by: bag)
        secondDisposable.dispose()
        promise.set(3)
        promise.set(1)
        #expect(first == [0, 1, 2])
        #expect(second == [1, 2, 3])
        #expect(third == [3, 1])
        #expect(current(promise.get()) == 1)
    }

    @Test func ignoreRepeatedStaysConsistentUnderConcurrentSets() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = ValuePromise(0, ignoreRepeated: true)
        let everything = History<Int>()
        promise.get().start(next: everything.record).disposed(by: bag)
        let histories = briefStarts(of: { promise.get() }) { thread in
            for index in 0..<500 { promise.set((index * (thread + 1)) % 3) }
        }
        #expect(histories.count == 200)
        let order = everything.recorded
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 != $1 })  // nothing sent twice in a row
        #expect(current(promise.get()) == order.last)  // what is stored is what subscribers last saw
        for history in histories {
            #expect(zip(history, history.dropFirst()).allSatisfy { $0 != $1 })
            #expect(order.containsRun(history))
        }
    }

    #if DEBUG
    @Test(arguments: [false, true])
    func valuesAreSentInTheOrderTheyWereStored(ignoreRepeated: Bool) {
        // One thread's `set(1)` stops after storing 1 and before sending it (a debug-only pause
        // point); meanwhile this thread sets 2. Whoever sends, 1 must go out before 2: otherwise
        // subscribers end at 1 while the promise holds 2, a new start replays 1, and with
        // `ignoreRepeated` every later `set(2)` is dropped as a repeat.
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = ValuePromise(0, ignoreRepeated: ignoreRepeated)
        let seen = History<Int>()
        promise.get().start(next: seen.record).disposed(by: bag)
        let (reached, resume, finished) = (
            DispatchSemaphore(value: 0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)
        )
        PromiseSetPause.once(promise) {
            reached.signal()
            resume.wait()
        }
        Thread {
            promise.set(1)
            finished.signal()
        }.start()
        reached.wait()  // 1 is stored, not sent
        promise.set(2)
        resume.signal()
        finished.wait()
        #expect(seen.recorded == [0, 1, 2])
        var late: [Int] = []
        promise.get().start(next: { late.append($0) }).dispose()
        #expect(late == [2])
        promise.set(2)
        #expect(seen.recorded == (ignoreRepeated ? [0, 1, 2] : [0, 1, 2, 2]))
        promise.set(3)
        #expect(seen.recorded.last == 3)
    }
    #endif

    @Test func aSetFromAHandlerSendsWhatAnotherThreadStoredBeforeIt() {
        // While a handler runs, another thread sets 2 (queued for the thread that sends); then
        // the handler sets 3. Both go out in the order they were stored, and a start made in the
        // handler right after reads 3, the current value, not 1.
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        let promise = ValuePromise(0)
        var events: [String] = []
        var readInside: [Int?] = []
        promise.get().start(next: { value in
            events.append("a \(value)")
            guard value == 1 else { return }
            let stored = DispatchSemaphore(value: 0)
            Thread {
                promise.set(2)  // returns at once: this thread is sending
                stored.signal()
            }.start()
            stored.wait()
            promise.set(3)
            readInside.append(current(promise.get()))
        }).disposed(by: bag)
        let other = History<Int>()
        promise.get().start(next: other.record).disposed(by: bag)
        promise.set(1)
        #expect(events == ["a 0", "a 1", "a 2", "a 3"])
        #expect(other.recorded == [0, 1, 2, 3])
        #expect(readInside == [3])
        #expect(current(promise.get()) == 3)
    }

    @Test func aReentrantSetIsQueuedNotNested() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        // A deliberate difference (the migration guide's row on a re-entrant `ValuePromise.set`):
        // SwiftSignalKit gives a 1, a 2, b 2, b 1.
        let promise = ValuePromise<Int>()
        var events: [String] = []
        promise.get().start(next: { value in
            events.append("a \(value)")
            if value == 1 { promise.set(2) }
        }).disposed(by: bag)
        promise.get().start(next: { events.append("b \($0)") }).disposed(by: bag)
        promise.set(1)
        #expect(events == ["a 1", "b 1", "a 2", "b 2"])
    }

    @Test func ignoreRepeatedDropsValuesEqualToTheCurrentOne() {
        let bag = DisposeBag()  // a live get() start keeps its promise: the bag ends it with the test
        // As in SwiftSignalKit.
        let promise = ValuePromise<Int>(ignoreRepeated: true)
        var received: [Int] = []
        promise.get().start(next: { received.append($0) }).disposed(by: bag)
        for value in [1, 1, 2, 2, 1, 1] { promise.set(value) }
        #expect(received == [1, 2, 1])
        #expect(promise.ignoreRepeated)
    }

    @Test(arguments: [false, true])
    func theSignalAndEachLiveSubscriptionKeepThePromiseAlive(ignoreRepeated: Bool) {
        weak var watcher: ValuePromise<Int>?
        var signal: Signal<Int, NoError>?
        do {
            let promise = ValuePromise(1, ignoreRepeated: ignoreRepeated)
            watcher = promise
            signal = promise.get()
        }
        #expect(watcher != nil)
        var received: [Int] = []
        let subscription = signal?.start(next: { received.append($0) })
        signal = nil
        #expect(watcher != nil)
        watcher?.set(2)
        #expect(received == [1, 2])
        subscription?.dispose()
        #expect(watcher == nil)
    }

    @Test func aReplacedValueIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let promise = ValuePromise<Reentering>()
            promise.set(Reentering { _ = current(promise.get()) })
            promise.set(Reentering {})  // releases the first value, whose deinit reads the promise
        }
    }
}

/// Runs `onDeinit` when released: to call back into what released it. Equal only to itself.
private final class Reentering: Equatable, Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
    static func == (lhs: Reentering, rhs: Reentering) -> Bool { lhs === rhs }
}
