import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct ThreadPoolTests {
    // Pool threads never exit, so the suite shares its pools instead of making one per test.
    private static let pool = ThreadPool(threadCount: 4, threadPriority: 0.5)
    private static let singleThread = ThreadPool(threadCount: 1, threadPriority: 0.5)
    private static let otherPool = ThreadPool(threadCount: 1, threadPriority: 0.5)

    @Test func tasksOfOneLaneRunInOrderAndNeverOverlap() {
        let lane = Self.pool.nextQueue()
        let order = History<Int>()
        let running = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        let done = DispatchSemaphore(value: 0)
        for index in 0..<300 {
            lane.addTask(
                ThreadPoolTask { _ in
                    if running.modify({ $0 + 1 }) > 1 { overlapped.swap(true) }
                    order.record(index)
                    running.modify { $0 - 1 }
                    if index == 299 { done.signal() }
                })
        }
        expectSignal(done)
        #expect(order.recorded == Array(0..<300))
        #expect(!overlapped.with { $0 })
    }

    @Test func lanesFedFromManyThreadsKeepEachThreadsOrder() {
        let lanes = (0..<4).map { _ in Self.pool.nextQueue() }
        let seen = (0..<4).map { _ in History<Int>() }
        let done = DispatchGroup()
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for index in 0..<200 {
                done.enter()
                lanes[lane].addTask(
                    ThreadPoolTask { _ in
                        seen[lane].record(index)
                        done.leave()
                    })
            }
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.map(\.recorded) == Array(repeating: Array(0..<200), count: 4))
    }

    @Test func tasksAddedToThePoolRunConcurrently() {
        let second = DispatchSemaphore(value: 0)
        let firstSaw = History<Bool>()
        let done = DispatchSemaphore(value: 0)
        Self.pool.addTask(
            ThreadPoolTask { _ in
                // Only a task running alongside this one can signal.
                firstSaw.record(second.wait(timeout: .now() + 10) == .success)
                done.signal()
            })
        Self.pool.addTask(ThreadPoolTask { _ in second.signal() })
        expectSignal(done)
        #expect(firstSaw.recorded == [true])
    }

    @Test func aTaskCancelledBeforeItRunsIsSkipped() {
        let lane = Self.pool.nextQueue()
        let gate = DispatchSemaphore(value: 0)
        let ran = History<String>()
        let done = DispatchSemaphore(value: 0)
        lane.addTask(
            ThreadPoolTask { _ in
                gate.wait()
                ran.record("first")
            })
        let cancelled = ThreadPoolTask { _ in ran.record("cancelled") }
        lane.addTask(cancelled)
        lane.addTask(
            ThreadPoolTask { _ in
                ran.record("third")
                done.signal()
            })
        cancelled.cancel()
        gate.signal()
        expectSignal(done)
        #expect(ran.recorded == ["first", "third"])
    }

    @Test func aRunningTaskSeesItsCancellation() {
        let started = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        let seen = History<Bool>()
        let done = DispatchSemaphore(value: 0)
        let task = ThreadPoolTask { state in
            seen.record(state.cancelled.with { $0 })
            started.signal()
            gate.wait()
            seen.record(state.cancelled.with { $0 })
            done.signal()
        }
        Self.pool.addTask(task)
        expectSignal(started)
        task.cancel()
        gate.signal()
        expectSignal(done)
        #expect(seen.recorded == [false, true])
    }

    @Test func busyLanesTakeTurns() {
        let gate = DispatchSemaphore(value: 0)
        let order = History<String>()
        let done = DispatchSemaphore(value: 0)
        Self.singleThread.addTask(ThreadPoolTask { _ in gate.wait() })  // holds the one thread
        let (a, b) = (Self.singleThread.nextQueue(), Self.singleThread.nextQueue())
        for index in 1...3 {
            a.addTask(ThreadPoolTask { _ in order.record("a\(index)") })
            b.addTask(
                ThreadPoolTask { _ in
                    order.record("b\(index)")
                    if index == 3 { done.signal() }
                })
        }
        gate.signal()
        expectSignal(done)
        #expect(order.recorded == ["a1", "b1", "a2", "b2", "a3", "b3"])
    }

    @Test func isCurrentThreadInPoolOnlyOnThatPoolsThreads() {
        let seen = History<String>()
        let done = DispatchSemaphore(value: 0)
        #expect(!Self.pool.isCurrentThreadInPool())
        Self.pool.addTask(
            ThreadPoolTask { _ in
                seen.record("pool \(Self.pool.isCurrentThreadInPool())")
                Self.otherPool.addTask(
                    ThreadPoolTask { _ in
                        seen.record(
                            "other \(Self.pool.isCurrentThreadInPool()) \(Self.otherPool.isCurrentThreadInPool())")
                        done.signal()
                    })
            })
        expectSignal(done)
        #expect(seen.recorded == ["pool true", "other false true"])
    }

    @Test func lanesAreEqualOnlyToThemselves() {
        let lane = Self.pool.nextQueue()
        let same = lane
        #expect(lane == same)
        #expect(!(lane == Self.pool.nextQueue()))
        #expect(ThreadPoolQueue(threadPool: Self.pool) != ThreadPoolQueue(threadPool: Self.pool))
    }

    @Test func aLaneMadeWithItsInitialiserRunsOnThePool() {
        let lane = ThreadPoolQueue(threadPool: Self.pool)
        let seen = History<Bool>()
        let done = DispatchSemaphore(value: 0)
        lane.addTask(
            ThreadPoolTask { _ in
                seen.record(Self.pool.isCurrentThreadInPool())
                done.signal()
            })
        expectSignal(done)
        #expect(seen.recorded == [true])
    }

    @Test(arguments: [0, -2])
    func aPoolWithoutThreadsStopsWithAMessage(threadCount: Int) async {
        // This was an `assert`, so a release build made a pool whose tasks never ran.
        // `fatalError` prints its message in every build (`swift test -c release` checks that).
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [threadCount] in
            _ = ThreadPool(threadCount: threadCount, threadPriority: 0.5)
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(
            message.contains("ThreadPool(threadCount:threadPriority:) needs at least one thread, got \(threadCount)"))
    }
}
