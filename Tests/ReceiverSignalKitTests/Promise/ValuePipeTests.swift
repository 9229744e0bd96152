import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct ValuePipeTests {
    @Test func sendsOnlyWhatIsPutAfterTheStart() {
        let pipe = ValuePipe<Int>()
        pipe.putNext(1)
        var first: [Int] = []
        pipe.signal().start(next: { first.append($0) })
        pipe.putNext(2)
        var second: [Int] = []
        let secondSubscription = pipe.signal().start(next: { second.append($0) })
        pipe.putNext(3)
        secondSubscription.dispose()
        pipe.putNext(4)
        #expect(first == [2, 3, 4])
        #expect(second == [3])
    }

    @Test func neverCompletes() {
        var pipe: ValuePipe<Int>? = ValuePipe()
        var completed = false
        pipe?.signal().start(completed: { completed = true })
        pipe?.putNext(1)
        pipe = nil
        #expect(!completed)
    }

    @Test func theSignalHoldsThePipeWeakly() {
        var pipe: ValuePipe<Int>? = ValuePipe()
        weak let watcher = pipe
        let signal = pipe!.signal()
        pipe = nil
        #expect(watcher == nil)
        var received: [Int] = []
        let subscription = signal.start(next: { received.append($0) })  // the pipe is gone: nothing
        subscription.dispose()
        #expect(received == [])
    }

    @Test func aSubscriptionDoesNotKeepThePipeAlive() {
        var pipe: ValuePipe<Witness>? = ValuePipe()
        weak let watcher = pipe
        var received = 0
        let subscription = pipe!.signal().start(next: { _ in received += 1 })
        pipe?.putNext(Witness())
        pipe = nil
        #expect(watcher == nil)
        #expect(received == 1)
        subscription.dispose()
    }

    @Test func aReentrantPutNextIsQueuedNotNested() {
        let bag = DisposeBag()  // a handler below holds its own source: the bag ends the cycle with the test
        // A deliberate difference (the migration guide's row on a re-entrant `putNext`): SwiftSignalKit
        // gives begin 1, begin 2, end 2, end 1.
        let pipe = ValuePipe<Int>()
        var events: [String] = []
        pipe.signal().start(next: { value in
            events.append("begin \(value)")
            if value == 1 { pipe.putNext(2) }
            events.append("end \(value)")
        }).disposed(by: bag)
        pipe.putNext(1)
        #expect(events == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    @Test func threadsPuttingWhileSubscribersComeAndGo() {
        let pipe = ValuePipe<Int>()
        let everything = History<Int>()
        let subscription = pipe.signal().start(next: everything.record)
        let histories = briefStarts(of: { pipe.signal() }) { thread in
            for index in 0..<250 { pipe.putNext(thread * 1000 + index) }
        }
        subscription.dispose()
        let order = everything.recorded
        #expect(order.sorted() == (0..<4).flatMap { thread in (0..<250).map { thread * 1000 + $0 } })
        for history in histories {
            #expect(order.containsRun(history))
        }
    }

    @Test func isSendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(ValuePipe<Int>())
    }
}
