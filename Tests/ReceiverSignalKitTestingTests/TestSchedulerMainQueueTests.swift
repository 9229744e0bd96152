import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

// The main queue on virtual time: `withMainQueue` (both forms), the trait, and where the scope
// ends. The scope needs a debug build of the library (a release build stops instead: that is
// checked by `.ci/testing-release-check.sh`), so the suite is compiled in debug builds only.
// Threads that are not in a scope are started with Dispatch and waited for with a semaphore.
#if DEBUG
@Suite(.detectingLeaks) struct TestSchedulerMainQueueTests {
    // MARK: Where the scope reaches

    @Test func insideTheScopeTheMainQueueIsTheSchedulersAndOutsideItTheRealOne() {
        let scheduler = TestScheduler()
        let real = Queue.mainQueue()
        #expect(real.queue.label == DispatchQueue.main.label)
        let inside = scheduler.withMainQueue { Queue.mainQueue() }
        #expect(inside === scheduler.mainQueue)
        #expect(inside.queue.label != DispatchQueue.main.label)  // a dispatch queue of its own
        #expect(Queue.mainQueue() === real)  // after the scope
        #expect(scheduler.mainQueue === scheduler.mainQueue)  // one per scheduler
    }

    @Test func anotherThreadNotInTheScopeSeesTheRealMainQueue() {
        let scheduler = TestScheduler()
        let seen = History<Bool>()
        let done = DispatchSemaphore(value: 0)
        scheduler.withMainQueue {
            DispatchQueue.global().async {
                seen.record(Queue.mainQueue() === scheduler.mainQueue)
                done.signal()
            }
            expectSignal(done)
            seen.record(Queue.mainQueue() === scheduler.mainQueue)
        }
        #expect(seen.recorded == [false, true])
    }

    /// The work the scheduler runs sees its main queue, also when the advance is made outside the
    /// scope, on a thread that never was in it; so does a `sync` onto one of its queues.
    @Test func theSchedulersWorkSeesItsMainQueueWhicheverThreadAdvances() {
        let scheduler = TestScheduler()
        let seen = History<String>()
        scheduler.withMainQueue {
            scheduler.queue(name: "network").after(1) {
                seen.record("network's work: \(Queue.mainQueue() === scheduler.mainQueue)")
            }
        }
        let advanced = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            seen.record("advancing thread: \(Queue.mainQueue() === scheduler.mainQueue)")
            scheduler.advance(by: 1)
            advanced.signal()
        }
        expectSignal(advanced)
        scheduler.mainQueue.sync { seen.record("sync: \(Queue.mainQueue() === scheduler.mainQueue)") }
        #expect(seen.recorded == ["advancing thread: false", "network's work: true", "sync: true"])
    }

    /// A scheduler whose main queue nobody asked for leaves `Queue.mainQueue()` alone in its work.
    @Test func aSchedulerWhoseMainQueueIsNeverUsedChangesNothing() {
        let scheduler = TestScheduler()
        let seen = History<Bool>()
        scheduler.queue().after(1) { seen.record(Queue.mainQueue().queue.label == DispatchQueue.main.label) }
        scheduler.advance(by: 1)
        #expect(seen.recorded == [true])
    }

    @Test func scopesNestAndTheInnermostWins() {
        let (outer, inner) = (TestScheduler(), TestScheduler())
        let seen = outer.withMainQueue {
            let nested = inner.withMainQueue {
                [Queue.mainQueue() === inner.mainQueue, TestScheduler.current === inner]
            }
            return nested + [Queue.mainQueue() === outer.mainQueue, TestScheduler.current === outer]
        }
        #expect(seen == [true, true, true, true])
    }

    @Test func theScopeReturnsWhatTheBodyReturnsAndRethrows() {
        let scheduler = TestScheduler()
        #expect(scheduler.withMainQueue { 42 } == 42)
        #expect(throws: TestError(code: 3)) {
            try scheduler.withMainQueue { throw TestError(code: 3) }
        }
        #expect(Queue.mainQueue().queue.label == DispatchQueue.main.label)  // a throw ends the scope too
    }

    // MARK: The main queue's operations on virtual time

    /// `after`, `async` (inline inside the main queue's work, next advance outside it),
    /// `justDispatch` (always later) and `isCurrent()` (true inside its work only).
    @Test func theMainQueuesOperationsRunOnVirtualTime() {
        let scheduler = TestScheduler()
        let seen = History<String>()
        scheduler.withMainQueue {
            let main = Queue.mainQueue()
            seen.record("in the scope: current \(main.isCurrent())")
            main.after(1.5) {
                seen.record("after at \(scheduler.now): current \(Queue.mainQueue().isCurrent())")
                Queue.mainQueue().justDispatch { seen.record("justDispatch at \(scheduler.now)") }
                Queue.mainQueue().async { seen.record("async, inline") }
                seen.record("after ends")
            }
            main.async { seen.record("async at \(scheduler.now)") }
            #expect(seen.recorded == ["in the scope: current false"])
            scheduler.advance(by: 2)
        }
        #expect(
            seen.recorded == [
                "in the scope: current false", "async at 0.0", "after at 1.5: current true", "async, inline",
                "after ends", "justDispatch at 1.5",
            ])
    }

    /// Every API that takes the main queue, named in place: `deliverOnMainQueue` from another
    /// virtual queue, `delay`, `timeout`, a repeating `Timer` and `retry`'s back-off.
    @Test func everyTimedAPIOnTheMainQueueRunsAtExactTimes() {
        let scheduler = TestScheduler()
        scheduler.withMainQueue {
            let network = scheduler.queue(name: "network")
            let onMain = History<Bool>()
            let delivered = scheduler.record(
                Signal<Int, NoError>.single(1) |> delay(1, queue: network) |> deliverOnMainQueue
                    |> afterNext { _ in onMain.record(Queue.mainQueue().isCurrent()) })
            let delayed = scheduler.record(Signal<Int, NoError>.single(2) |> delay(0.5, queue: Queue.mainQueue()))
            let timedOut = scheduler.record(
                Signal<Int, NoError>.never() |> timeout(3, queue: Queue.mainQueue(), alternate: .single(0)))
            let ticks = History<Double>()
            let timer = Timer(
                timeout: 2, repeat: true, completion: { ticks.record(scheduler.now) }, queue: Queue.mainQueue())
            timer.start()
            let attempts = History<Double>()
            let flaky = Signal<String, TestError> { subscriber in
                attempts.record(scheduler.now)
                if attempts.recorded.count < 3 {
                    subscriber.putError(TestError(code: 1))
                } else {
                    subscriber.putNext("ok")
                }
                return EmptyDisposable
            }
            let retried = scheduler.record(flaky |> retry(1, maxDelay: 5, onQueue: Queue.mainQueue()))

            scheduler.advance(by: 6.5)
            timer.invalidate()
            #expect(delivered.events == [.next(1, 1), .completed(1)])
            #expect(onMain.recorded == [true])
            #expect(delayed.events == [.next(0.5, 2), .completed(0.5)])
            #expect(timedOut.events == [.next(3, 0), .completed(3)])
            #expect(ticks.recorded == [2, 4, 6])
            #expect(attempts.recorded == [0, 1, 3])  // waits 1, then 2
            #expect(retried.events == [.next(3, "ok")])
            retried.dispose()
        }
    }

    // MARK: Tests in parallel

    /// Twelve scopes open at once, each with its own scheduler and timing: all twelve are inside
    /// their scope before any advances (a barrier the test controls), and each sees only its own
    /// main queue, also after resuming from a suspension, possibly on another thread.
    @Test func twelveScopesAtOnceEachSeeOnlyTheirOwnScheduler() async {
        let (opened, advanced) = (Barrier(count: 12), Barrier(count: 12))
        typealias Seen = (index: Int, events: [RecordedEvent<Int, NoError>], ownScheduler: [Bool])
        let seen = await withTaskGroup(of: Seen.self) { group in
            for index in 0..<12 {
                group.addTask {
                    let scheduler = TestScheduler()
                    let seconds = Double(index + 1) / 4
                    return await scheduler.withMainQueue {
                        var own = [Queue.mainQueue() === scheduler.mainQueue]
                        let recording = scheduler.record(
                            Signal<Int, NoError>.single(index) |> delay(seconds, queue: Queue.mainQueue())
                                |> deliverOnMainQueue)
                        await opened.arrive()
                        own.append(Queue.mainQueue() === scheduler.mainQueue)
                        scheduler.advance(by: seconds)
                        await advanced.arrive()
                        own.append(TestScheduler.current === scheduler)
                        return (index, recording.events, own)
                    }
                }
            }
            return await group.reduce(into: [Seen]()) { $0.append($1) }.sorted { $0.index < $1.index }
        }
        #expect(seen.map(\.index) == Array(0..<12))
        for (index, events, ownScheduler) in seen {
            let seconds = Double(index + 1) / 4
            #expect(events == [.next(seconds, index), .completed(seconds)])
            #expect(ownScheduler == [true, true, true])
        }
    }

    /// The trait: each case gets a scheduler of its own, in `TestScheduler.current`, and Swift
    /// Testing runs the cases in parallel.
    @Test(.mainQueueOnVirtualTime, arguments: 0..<12)
    func eachCaseOfATestWithTheTraitHasItsOwnScheduler(_ index: Int) {
        let scheduler = TestScheduler.current
        #expect(Queue.mainQueue() === scheduler.mainQueue)
        let seconds = Double(index + 1) / 8
        let recording = scheduler.record(Signal<Int, NoError>.single(index) |> delay(seconds, queue: Queue.mainQueue()))
        scheduler.advance(by: 2)
        #expect(recording.events == [.next(seconds, index), .completed(seconds)])
        #expect(scheduler.now == 2)
    }

    // MARK: The async form

    /// The scope follows the body across suspensions and into the tasks it creates, not into a
    /// detached task; it returns what the body returns.
    @Test func theAsyncFormFollowsTheBodyAndItsTasks() async {
        let scheduler = TestScheduler()
        let seen = await scheduler.withMainQueue {
            var seen = [Queue.mainQueue() === scheduler.mainQueue]
            await Task.yield()
            seen.append(Queue.mainQueue() === scheduler.mainQueue)
            seen.append(await Task { Queue.mainQueue() === scheduler.mainQueue }.value)
            seen.append(await Task.detached { Queue.mainQueue() === scheduler.mainQueue }.value)
            let recording = scheduler.record(Signal<Int, NoError>.single(5) |> delay(1, queue: Queue.mainQueue()))
            scheduler.advance(by: 1)
            seen.append(recording.events == [.next(1, 5), .completed(1)])
            return seen
        }
        #expect(seen == [true, true, true, false, true])
        #expect(Queue.mainQueue().queue.label == DispatchQueue.main.label)
    }

    @Test func theAsyncFormRethrows() async {
        let scheduler = TestScheduler()
        await #expect(throws: TestError(code: 4)) {
            try await scheduler.withMainQueue {
                await Task.yield()
                throw TestError(code: 4)
            }
        }
    }

    @MainActor @Test func theAsyncFormRunsOnTheCallersActor() async {
        let scheduler = TestScheduler()
        let onMainActor = await scheduler.withMainQueue {
            await Task.yield()
            MainActor.assertIsolated()
            return Queue.mainQueue() === scheduler.mainQueue
        }
        #expect(onMainActor)
    }

    // MARK: Misuse and the actor checker

    @Test func currentOutsideAnyScopeStopsWithAMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = TestScheduler.current
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("TestScheduler.current: no TestScheduler.withMainQueue scope is running here"))
    }

    /// The virtual main queue's work is main-actor code only where the advance runs on the main
    /// actor: a handler given to `start` on the main actor and delivered by `deliverOnMainQueue` is
    /// silent when a `@MainActor` test advances, and reported when another thread does.
    @Test func theMainQueuesWorkIsTheMainActorWhereTheTestAdvancesFromIt() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let scheduler = TestScheduler()
            await startAndAdvanceOnTheMainActor(scheduler)
            let started = await startOnTheMainActor(scheduler)
            scheduler.advance()  // on this exit test's thread, off the main actor
            started.dispose()
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        let reports = message.split(separator: "\n").filter { $0.hasPrefix("Receiver actor check:") }
        #expect(reports.count == 1, "\(message)")
        #expect(reports.first?.contains("TestSchedulerMainQueueTests.swift:\(reportedLine) ") == true, "\(message)")
    }
}

/// A main-actor start delivered on the scheduler's main queue, advanced on the main actor.
@MainActor private func startAndAdvanceOnTheMainActor(_ scheduler: TestScheduler) {
    scheduler.withMainQueue {
        (Signal<Int, NoError>.single(1) |> deliverOnMainQueue).start(next: { _ in })
        scheduler.advance()
    }
}

/// The same start, left for the caller to advance.
@MainActor private func startOnTheMainActor(_ scheduler: TestScheduler) -> any Disposable {
    scheduler.withMainQueue {
        (Signal<Int, NoError>.single(2) |> deliverOnMainQueue).start(next: { _ in })
    }
}
private let reportedLine = #line - 3

/// Lets `count` tasks through once all of them have arrived: a handshake, not a wait in time.
private actor Barrier {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { self.count = count }

    func arrive() async {
        if waiting.count + 1 == count {
            waiting.forEach { $0.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

#endif
