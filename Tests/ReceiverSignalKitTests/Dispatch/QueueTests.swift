import Dispatch
import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// Real queues, and `after` on virtual time (a `TestScheduler`) with the exact time of each block;
// the real-time smoke test of `after` is `afterOnARealQueueRunsOnItAfterWhatIsDispatchedNow`.
@Suite(.detectingLeaks) struct QueueTests {
    /// Waits until everything dispatched to `queue` so far has run.
    private func drain(_ queue: Queue) {
        queue.queue.sync {}
    }

    @Test func theSharedQueuesAreSharedAndWrapDispatchsQueues() {
        #expect(Queue.mainQueue() === Queue.mainQueue())
        #expect(Queue.concurrentDefaultQueue() === Queue.concurrentDefaultQueue())
        #expect(Queue.concurrentBackgroundQueue() === Queue.concurrentBackgroundQueue())
        #expect(Queue.mainQueue().queue.label == DispatchQueue.main.label)
        #expect(Queue.concurrentDefaultQueue().queue.label == DispatchQueue.global(qos: .default).label)
        #expect(Queue.concurrentBackgroundQueue().queue.label == DispatchQueue.global(qos: .background).label)
    }

    @Test func aNamedQueueIsSerialAndCurrentOnlyOnItself() {
        let queue = Queue(name: "named", qos: .userInitiated)
        #expect(queue.queue.label == "named")
        #expect(queue.queue.qos == .userInitiated)
        #expect(Queue().queue.label == "")
        #expect(!queue.isCurrent())
        var inside = false
        queue.queue.sync { inside = queue.isCurrent() }
        #expect(inside)
        var onOther = true
        Queue().queue.sync { onOther = queue.isCurrent() }
        #expect(!onOther)
    }

    /// Each of many named queues is current on itself only, wherever its blocks run.
    @Test func manyNamedQueuesAreEachCurrentOnlyOnThemselves() {
        let queues = (0..<64).map { Queue(name: "q\($0)") }
        let seen = History<[Int]>()
        DispatchQueue.concurrentPerform(iterations: queues.count) { index in
            queues[index].sync { seen.record(queues.indices.filter { queues[$0].isCurrent() } + [index]) }
        }
        #expect(seen.recorded.count == queues.count)
        #expect(seen.recorded.allSatisfy { $0.count == 2 && $0[0] == $0[1] })
    }

    /// As in SwiftSignalKit: inside `b.sync` called from a block of `a`, the running block is
    /// `b`'s, so `b` is current and `a` is not; a plain thread is on no queue.
    @Test func onlyTheQueueOfTheRunningBlockIsCurrent() {
        let (a, b) = (Queue(name: "a"), Queue(name: "b"))
        var seen: [String] = []
        a.sync {
            seen.append("in a: a \(a.isCurrent()), b \(b.isCurrent())")
            b.sync { seen.append("in b: a \(a.isCurrent()), b \(b.isCurrent())") }
        }
        #expect(seen == ["in a: a true, b false", "in b: a false, b true"])
        let done = DispatchSemaphore(value: 0)
        let onThread = History<Bool>()
        Thread {
            onThread.record(a.isCurrent() || b.isCurrent() || Queue.mainQueue().isCurrent())
            done.signal()
        }.start()
        expectSignal(done)
        #expect(onThread.recorded == [false])
    }

    /// A block of a dispatch queue that targets a named queue runs on that queue: it is current
    /// there (libdispatch looks through the target queues, as SwiftSignalKit's `isCurrent` does),
    /// while the wrapper of the targeting queue is never current.
    @Test func aQueueThatTargetsANamedQueueRunsOnIt() {
        let named = Queue(name: "target")
        let targeting = DispatchQueue(label: "targeting", target: named.queue)
        let wrapper = Queue(queue: targeting)
        var seen: [Bool] = []
        targeting.sync { seen = [named.isCurrent(), wrapper.isCurrent(), Queue.mainQueue().isCurrent()] }
        #expect(seen == [true, false, Thread.isMainThread])
    }

    /// The main queue is not current in the blocks of other queues, nor of the global queues
    /// (off the main thread, where `swift test` runs these blocks).
    @Test func theMainQueueIsNotCurrentOnOtherQueuesBlocks() {
        let done = DispatchSemaphore(value: 0)
        let seen = History<Bool>()
        for queue in [Queue(name: "other"), Queue.concurrentDefaultQueue()] {
            queue.justDispatch {
                seen.record(Thread.isMainThread || !Queue.mainQueue().isCurrent())
                done.signal()
            }
        }
        expectSignal(done)
        expectSignal(done)
        #expect(seen.recorded == [true, true])
    }

    @Test func aNamedQueueRunsItsBlocksOneAtATimeInOrder() {
        let queue = Queue(name: "serial")
        let order = History<Int>()
        let running = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        for index in 0..<200 {
            queue.justDispatch {
                if running.modify({ $0 + 1 }) > 1 { overlapped.swap(true) }
                order.record(index)
                running.modify { $0 - 1 }
            }
        }
        drain(queue)
        #expect(order.recorded == Array(0..<200))
        #expect(!overlapped.with { $0 })
    }

    @Test func aWrappedQueueIsNeverCurrentEvenOnItself() {
        let dispatchQueue = DispatchQueue(label: "wrapped")
        let queue = Queue(queue: dispatchQueue)
        #expect(queue.queue === dispatchQueue)
        let events = History<String>()
        dispatchQueue.sync {
            events.record("current \(queue.isCurrent())")
            queue.async { events.record("async") }  // not current, so dispatched: runs after
            events.record("end of block")
        }
        dispatchQueue.sync {}
        #expect(events.recorded == ["current false", "end of block", "async"])
    }

    @Test func theGlobalQueuesAreNeverCurrent() {
        let done = DispatchSemaphore(value: 0)
        let seen = History<Bool>()
        for queue in [Queue.concurrentDefaultQueue(), Queue.concurrentBackgroundQueue()] {
            queue.justDispatch {
                seen.record(queue.isCurrent())
                done.signal()
            }
        }
        expectSignal(done)
        expectSignal(done)
        #expect(seen.recorded == [false, false])
    }

    @Test func asyncRunsInlineWhenAlreadyOnTheQueue() {
        let queue = Queue()
        let events = History<String>()
        queue.queue.sync {
            queue.async { events.record("inline") }
            events.record("after")
        }
        #expect(events.recorded == ["inline", "after"])
    }

    @Test func asyncDispatchesInOrderFromElsewhere() {
        let queue = Queue()
        let events = History<String>()
        let onQueue = History<Bool>()
        queue.async {
            onQueue.record(queue.isCurrent())
            events.record("first")
        }
        queue.async { events.record("second") }
        events.record("caller")
        drain(queue)
        #expect(events.recorded.filter { $0 != "caller" } == ["first", "second"])
        #expect(onQueue.recorded == [true])
    }

    @Test func syncRunsOnTheQueueAndWaits() {
        let queue = Queue()
        var ran = false
        var onQueue = false
        queue.sync {
            ran = true
            onQueue = queue.isCurrent()
        }
        #expect(ran && onQueue)
    }

    @Test func syncRunsInlineWhenAlreadyOnTheQueue() async {
        // Dispatch's own `sync` on the current serial queue deadlocks: so must a regression.
        await #expect(processExitsWith: .success) {
            Watchdog.start(seconds: 10)
            let queue = Queue()
            var events: [String] = []
            queue.sync {
                queue.sync { events.append("inner") }
                events.append("outer")
            }
            guard events == ["inner", "outer"] else { exit(1) }
        }
    }

    @Test func justDispatchIsAsynchronousEvenOnTheQueue() {
        let queue = Queue()
        let events = History<String>()
        queue.queue.sync {
            queue.justDispatch { events.record("dispatched \(queue.isCurrent())") }
            events.record("after")
        }
        drain(queue)
        #expect(events.recorded == ["after", "dispatched true"])
    }

    @Test func justDispatchWithQoSIsAsynchronousOnTheQueue() {
        let queue = Queue()
        let events = History<String>()
        queue.queue.sync {
            queue.justDispatchWithQoS(qos: .userInteractive) { events.record("dispatched \(queue.isCurrent())") }
            events.record("after")
        }
        drain(queue)
        #expect(events.recorded == ["after", "dispatched true"])
    }

    @Test func afterRunsOnTheQueueAtItsTimeLaterThanWhatIsDispatchedNow() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let events = History<String>()
        queue.after(0.2) { events.record("\(scheduler.now) \(queue.isCurrent())") }
        queue.after(0.01) { events.record("\(scheduler.now)") }
        queue.justDispatch { events.record("now") }
        scheduler.advance(by: 0.199)
        #expect(events.recorded == ["now", "0.01"])
        scheduler.advance(by: 0.001)
        #expect(events.recorded == ["now", "0.01", "0.2 true"])
    }

    /// Real time: the real `Queue`'s `after` (Dispatch's `asyncAfter`) runs on the queue, after
    /// what was dispatched before it.
    @Test func afterOnARealQueueRunsOnItAfterWhatIsDispatchedNow() {
        let queue = Queue()
        let events = History<String>()
        let done = DispatchSemaphore(value: 0)
        queue.justDispatch { events.record("now") }  // first: so the order cannot depend on timing
        queue.after(0.002) {
            events.record("after \(queue.isCurrent())")
            done.signal()
        }
        expectSignal(done)
        #expect(events.recorded == ["now", "after true"])
    }

    // What `swift test` on Linux does with the main queue (measured with Swift 6.3.1): the test
    // process has called `dispatchMain()`, so the main thread is gone and DispatchQueue.main is
    // drained by a worker thread, where `Thread.isMainThread` is false (even in a @MainActor
    // test). The main queue is serviced, so it can be tested with semaphores.
    @Test func theMainQueueIsCurrentInsideItsBlocksWhereverTheyRun() {
        let done = DispatchSemaphore(value: 0)
        let seen = History<Bool>()
        DispatchQueue.main.async {
            seen.record(Queue.mainQueue().isCurrent())
            done.signal()
        }
        expectSignal(done)
        #expect(seen.recorded == [true])
        #expect(Thread.isMainThread || !Queue.mainQueue().isCurrent())
    }

    @Test func theMainQueueRunsAsyncInlineAndSyncWithoutDeadlockInsideItsBlocks() async {
        await #expect(processExitsWith: .success) {
            Watchdog.start(seconds: 10)
            let done = DispatchSemaphore(value: 0)
            var events: [String] = []
            Queue.mainQueue().justDispatch {
                Queue.mainQueue().async { events.append("async inline") }
                Queue.mainQueue().sync { events.append("sync inline") }
                events.append("end of block")
                done.signal()
            }
            done.wait()
            guard events == ["async inline", "sync inline", "end of block"] else { exit(1) }
        }
    }

    // MARK: Bad input: misuse stops with a message

    /// Dispatch would treat a NaN delay as "never", silently.
    @Test func afterWithANaNDelayStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Queue().after(.nan) {}
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("Queue.after(_:_:) needs a delay in seconds, got nan"))
    }

    @Test func afterWithANegativeDelayRunsAsSoonAsItCan() {
        let queue = Queue()
        let events = History<String>()
        let done = DispatchSemaphore(value: 0)
        queue.after(-5) {
            events.record("after \(queue.isCurrent())")
            done.signal()
        }
        expectSignal(done)
        #expect(events.recorded == ["after true"])
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
