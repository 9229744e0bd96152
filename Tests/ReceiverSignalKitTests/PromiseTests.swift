import Dispatch
import ReceiverSignalKit
import Testing

@Suite struct PromiseTests {
    @Test func readBeforeAndAfterSet() {
        let promise = Promise<Int>()
        var early: [Int] = []
        promise.get().start(next: { early.append($0) })
        #expect(early == [])
        #expect(current(promise.get()) == nil)
        promise.set(.single(1))
        #expect(current(promise.get()) == 1)
        var late: [Int] = []
        promise.get().start(next: { late.append($0) })
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
        let promise = Promise(1)
        var received: [Int] = []
        (promise.get() |> map { $0 * 2 } |> distinctUntilChanged).start(next: { received.append($0) })
        promise.set(.single(1))
        promise.set(.single(3))
        #expect(received == [2, 6])  // repeats are dropped per start, also across a set
    }

    @Test func initWithAValue() {
        #expect(current(Promise(5).get()) == 5)
        #expect(current(Promise<Int?>(nil).get()) == .some(nil))  // nested optionals keep their nil
        #expect(current(Promise<Int?>().get()) == nil)
    }

    @Test func setDisposesThePreviousSignal() {
        let promise = Promise<Int>()
        let (first, second) = (CountingDisposable(), CountingDisposable())
        promise.set(Signal { _ in first })
        promise.set(Signal { _ in second })
        #expect([first.count, second.count] == [1, 0])
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
        let promise = Promise(1)
        let (input, output) = Signal<Int, NoError>.pipe()
        promise.set(output)
        var seenInside: [Int?] = []
        promise.get().start(next: { value in
            seenInside.append(current(promise.get()))
            if value == 2 { promise.set(.single(3)) }  // delivery is queued, the value is current at once
            seenInside.append(current(promise.get()))
        })
        input.putNext(2)
        #expect(seenInside == [2, 3, 3, 3])
    }

    @Test func theReadIdiomWorksFromAnyThread() {
        let promise = Promise(7)
        let reads = History<Int?>()
        DispatchQueue.concurrentPerform(iterations: 16) { _ in reads.record(current(promise.get())) }
        #expect(reads.recorded == Array(repeating: 7, count: 16))
    }

    @Test func manyThreadsPuttingWhileSubscribersComeAndGo() {
        let promise = Promise<Int>()
        let (input, output) = Signal<Int, NoError>.pipe()
        promise.set(output)
        let everything = History<Int>()
        promise.get().start(next: everything.record)
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
}
