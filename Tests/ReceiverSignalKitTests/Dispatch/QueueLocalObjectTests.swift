import Dispatch
import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct QueueLocalObjectTests {
    /// An object that reports where it was made and where it was released.
    private final class Probe: @unchecked Sendable {
        let number: Int
        private let deinitialised: () -> Void

        init(_ number: Int, deinitialised: @escaping () -> Void = {}) {
            (self.number, self.deinitialised) = (number, deinitialised)
        }

        deinit { deinitialised() }
    }

    private func drain(_ queue: Queue) {
        queue.queue.sync {}
    }

    @Test func theObjectIsMadeOnTheQueue() {
        let queue = Queue()
        let madeOnQueue = History<Bool>()
        let object = QueueLocalObject(queue: queue) {
            madeOnQueue.record(queue.isCurrent())
            return Probe(1)
        }
        drain(queue)
        #expect(object.queue === queue)
        #expect(madeOnQueue.recorded == [true])
    }

    @Test func theObjectIsMadeAtOnceWhenAlreadyOnTheQueue() {
        let queue = Queue()
        var number: Int?
        queue.sync {
            let object = QueueLocalObject(queue: queue) { Probe(7) }
            number = object.unsafeGet()?.number
        }
        #expect(number == 7)
    }

    @Test func theObjectIsReleasedOnTheQueue() {
        let queue = Queue()
        let releasedOnQueue = History<Bool>()
        do {
            let object = QueueLocalObject(queue: queue) {
                Probe(1) { releasedOnQueue.record(queue.isCurrent()) }
            }
            object.with { _ in }
        }
        drain(queue)
        #expect(releasedOnQueue.recorded == [true])
    }

    @Test func withRunsOnTheQueueInOrderAndInlineWhenOnIt() {
        let queue = Queue()
        let object = QueueLocalObject(queue: queue) { Probe(3) }
        let events = History<String>()
        object.with { events.record("first \($0.number) \(queue.isCurrent())") }
        object.with { probe in
            object.with { _ in events.record("inline") }
            events.record("second \(probe.number)")
        }
        drain(queue)
        #expect(events.recorded == ["first 3 true", "inline", "second 3"])
    }

    @Test func syncWithReturnsWhatItsClosureReturns() {
        let queue = Queue()
        let object = QueueLocalObject(queue: queue) { Probe(5) }
        let result: Int = object.syncWith { $0.number * 2 }
        #expect(result == 10)
        #expect(object.syncWith { _ in queue.isCurrent() })
    }

    @Test func syncWithRunsInlineWhenAlreadyOnTheQueue() async {
        // Dispatch's own `sync` on the current serial queue crashes or deadlocks: so must a regression.
        await #expect(processExitsWith: .success) {
            Watchdog.start(seconds: 10)
            let queue = Queue()
            let object = QueueLocalObject(queue: queue) { Probe(4) }
            var result: Int?
            queue.sync { result = object.syncWith { $0.number } }
            guard result == 4 else { exit(1) }
        }
    }

    @Test func signalWithStartsOnTheQueueWithTheObject() {
        let queue = Queue()
        let object = QueueLocalObject(queue: queue) { Probe(8) }
        let signal: Signal<String, NoError> = object.signalWith { probe, subscriber in
            subscriber.putNext("\(probe.number) \(queue.isCurrent())")
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let events = History<String>()
        let done = DispatchSemaphore(value: 0)
        signal.start(
            next: events.record,
            completed: {
                events.record("completed")
                done.signal()
            })
        expectSignal(done)
        #expect(events.recorded == ["8 true", "completed"])
    }

    @Test func signalWithSendsNothingOnceTheObjectIsGone() {
        let queue = Queue()
        var object: QueueLocalObject<Probe>? = QueueLocalObject(queue: queue) { Probe(8) }
        let signal: Signal<Int, NoError> = object!.signalWith { probe, subscriber in
            subscriber.putNext(probe.number)
            return EmptyDisposable
        }
        object = nil
        let events = History<Int>()
        signal.start(next: events.record)
        drain(queue)
        #expect(events.recorded.isEmpty)
    }

    @Test func unsafeGetReadsTheObjectOnTheQueue() {
        let queue = Queue()
        let object = QueueLocalObject(queue: queue) { Probe(6) }
        var number: Int?
        queue.sync { number = object.unsafeGet()?.number }
        #expect(number == 6)
    }
}

/// Ends the process with status 2 after `seconds`: an exit test that deadlocks fails instead of
/// hanging the suite.
private enum Watchdog {
    static func start(seconds: UInt32) {
        Thread {
            sleep(seconds)
            exit(2)
        }.start()
    }
}
