import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// Which tests run real Dispatch, and why. `deliverOn` on a serial queue takes the serial lane,
// and a `TestScheduler` queue is serial: the serial lane's tests run on virtual time, where "the
// queue is busy" is "the scheduler has not advanced". Real Dispatch stays for what only it has:
// threads racing the queue (`eventsFromManyThreadsAndTheQueueKeepEachThreadsOrder`), the serial
// lane's own dispatch path, the queues that take the general lane (wrapped, concurrent), and the
// thread pool (no virtual form). The main queue's tests are in Dispatch/MainQueueTests.swift, on
// the scheduler's main queue.
@Suite(.detectingLeaks) struct SignalDispatchTests {
    private static let pool = ThreadPool(threadCount: 3, threadPriority: 0.5)
    private static let singleThread = ThreadPool(threadCount: 1, threadPriority: 0.5)

    /// A signal whose generator records where it ran, then sends 1, 2, 3 and completes.
    private func counting(_ generated: History<String>, on queue: Queue) -> Signal<Int, NoError> {
        Signal { subscriber in
            generated.record("generator on queue \(queue.isCurrent())")
            for value in 1...3 { subscriber.putNext(value) }
            subscriber.putCompletion()
            return EmptyDisposable
        }
    }

    /// Starts `signal`, recording each event with whether it ran on `queue`; `done` is signalled
    /// on completion.
    @discardableResult
    private func record(
        _ signal: Signal<Int, NoError>, on queue: Queue, into events: History<String>, done: DispatchSemaphore? = nil
    ) -> any Disposable {
        signal.start(
            next: { events.record("\($0) \(queue.isCurrent())") },
            completed: {
                events.record("completed \(queue.isCurrent())")
                done?.signal()
            }
        )
    }

    // MARK: deliverOn(Queue): the serial lane, on virtual time

    @Test func deliverOnStartsOnTheCallingThreadAndDeliversInOrderOnTheQueue() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (generated, events) = (History<String>(), History<String>())
        record(counting(generated, on: queue) |> deliverOn(queue), on: queue, into: events)
        #expect(generated.recorded == ["generator on queue false"])
        #expect(events.recorded.isEmpty)  // dispatched: the queue has not run yet
        scheduler.advance()
        #expect(events.recorded == ["1 true", "2 true", "3 true", "completed true"])
    }

    /// Each event keeps its tick and its place, whatever queue sent it: tick 0 from the starting
    /// thread, the rest from another queue.
    @Test func deliverOnKeepsEachEventsTimeAndOrder() {
        let scheduler = TestScheduler()
        let (queue, other) = (scheduler.queue(name: "queue"), scheduler.queue(name: "other"))
        expectMarbles(marbles("a-[bc]--d|", on: other) |> deliverOn(queue), "a-[bc]--d|", on: scheduler)
    }

    @Test func deliverOnKeepsOrderAcrossManyValues() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (input, output) = Signal<Int, NoError>.pipe()
        let recording = scheduler.record(output |> deliverOn(queue))
        for value in 0..<500 { input.putNext(value) }
        input.putCompletion()
        scheduler.advance()
        #expect(recording.events == (0..<500).map { .next(0, $0) } + [.completed(0)])
    }

    @Test func deliverOnDeliversInlineWhenAlreadyOnTheQueue() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let events = History<String>()
        queue.sync {
            record(counting(History(), on: queue) |> deliverOn(queue), on: queue, into: events)
            events.record("start returned")
        }
        #expect(events.recorded == ["1 true", "2 true", "3 true", "completed true", "start returned"])
    }

    @Test func disposingDropsEventsAlreadyDispatched() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let events = History<String>()
        record(counting(History(), on: queue) |> deliverOn(queue), on: queue, into: events).dispose()
        scheduler.advance()
        #expect(events.recorded.isEmpty)
    }

    /// An event produced on the queue waits behind the start's earlier events still waiting
    /// there, instead of running inline ahead of them (SwiftSignalKit gives 2, 0, 1; the migration
    /// guide's row "`deliverOn(queue)`: an event that happens on `queue` while earlier events of
    /// the same start still wait for `queue`"): the block dispatched first runs first, and sets 2
    /// while 0 and 1 wait.
    @Test func anEventProducedOnTheQueueWaitsBehindTheStartsEarlierEvents() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let promise = ValuePromise(0)
        queue.justDispatch { promise.set(2) }
        let recording = scheduler.record(promise.get() |> deliverOn(queue))
        promise.set(1)
        scheduler.advance()
        #expect(recording.events == [.next(0, 0), .next(0, 1), .next(0, 2)])
        recording.dispose()
    }

    /// The terminal event keeps its place too: a completion put on the queue comes after the
    /// values that wait there.
    @Test func aCompletionProducedOnTheQueueWaitsBehindTheStartsValues() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (input, output) = Signal<Int, NoError>.pipe()
        queue.justDispatch { input.putCompletion() }
        let recording = scheduler.record(output |> deliverOn(queue))
        input.putNext(1)
        input.putNext(2)
        scheduler.advance()
        #expect(recording.events == [.next(0, 1), .next(0, 2), .completed(0)])
    }

    /// An event that a handler sends on the queue while its own event is delivered comes right
    /// after it; one that a handler sends while another event still waits comes after that one:
    /// the order they happened in.
    @Test func anEventProducedByAHandlerComesAfterWhatHappenedBeforeIt() {
        let bag = DisposeBag()  // a handler below holds its own source: the bag ends the cycle with the test
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (input, output) = Signal<Int, NoError>.pipe()
        let seen = History<String>()
        (output |> deliverOn(queue)).start(next: { value in
            seen.record("\(value)")
            if value == 1 || value == 10 { input.putNext(value + 1) }  // on the queue
        }).disposed(by: bag)
        queue.sync {
            input.putNext(1)  // at once: nothing waits
            seen.record("put returned")
        }
        #expect(seen.recorded == ["1", "2", "put returned"])

        input.putNext(10)  // waits for the queue
        input.putNext(20)  // waits behind it
        scheduler.advance()  // 10's handler puts 11 while 20 waits: 11 comes after 20
        #expect(seen.recorded == ["1", "2", "put returned", "10", "20", "11"])
    }

    /// Each event that happens off the queue is a block of its own, dispatched as it happens, as in
    /// SwiftSignalKit: work dispatched to the queue between two events runs between them — also
    /// when the queue finds all three events waiting at once.
    @Test func workDispatchedBetweenTwoEventsRunsBetweenThem() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (input, output) = Signal<Int, NoError>.pipe()
        let seen = History<String>()
        (output |> deliverOn(queue)).start(next: { seen.record("\($0)") })
        input.putNext(1)
        queue.justDispatch { seen.record("x") }
        input.putNext(2)
        queue.justDispatch { seen.record("y") }
        input.putNext(3)
        scheduler.advance()
        #expect(seen.recorded == ["1", "x", "2", "y", "3"])
    }

    /// The same on a queue wrapping a serial `DispatchQueue`: never current, so it takes the
    /// general lane and every event is dispatched (real Dispatch: the queue is held by a block
    /// waiting on a semaphore).
    @Test func workDispatchedBetweenTwoEventsRunsBetweenThemOnAWrappedQueue() {
        let queue = Queue(queue: DispatchQueue(label: "q"))
        let (input, output) = Signal<Int, NoError>.pipe()
        let (seen, gate) = (History<String>(), DispatchSemaphore(value: 0))
        (output |> deliverOn(queue)).start(next: { seen.record("\($0)") })
        queue.justDispatch { gate.wait() }
        input.putNext(1)
        queue.justDispatch { seen.record("x") }
        input.putNext(2)
        queue.justDispatch { seen.record("y") }
        input.putNext(3)
        gate.signal()
        queue.sync {}
        #expect(seen.recorded == ["1", "x", "2", "y", "3"])
    }

    /// An event a handler sends on the queue comes after every event still waiting — here three,
    /// which the queue found waiting at once — and their blocks then find nothing to do: the next
    /// event is delivered once, by its own block, and one sent on the queue when nothing waits is
    /// delivered at once.
    @Test func anEventProducedByAHandlerComesAfterEveryEventWaitingThenTheNextArrivesOnce() {
        let bag = DisposeBag()  // a handler below holds its own source: the bag ends the cycle with the test
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (input, output) = Signal<Int, NoError>.pipe()
        let seen = History<Int>()
        (output |> deliverOn(queue)).start(next: { value in
            seen.record(value)
            if value == 10 { input.putNext(11) }  // on the queue, while 20 and 30 wait
        }).disposed(by: bag)
        for value in [10, 20, 30] { input.putNext(value) }
        scheduler.advance()
        #expect(seen.recorded == [10, 20, 30, 11])
        input.putNext(40)
        scheduler.advance()
        #expect(seen.recorded == [10, 20, 30, 11, 40])
        queue.sync {
            input.putNext(50)
            seen.record(-1)
        }
        #expect(seen.recorded == [10, 20, 30, 11, 40, 50, -1])
    }

    /// Each event on its way holds the start until its block has run — also once the start is
    /// disposed, or the upstream has completed and let go of it — and no longer: then nothing holds
    /// the queue (the start's lane did). The events still waiting at disposal are dropped.
    @Test(arguments: [true, false])
    func aStartHoldsItsQueueUntilItsBlocksHaveRun(disposing: Bool) {
        let scheduler = TestScheduler()
        weak var weakQueue: Queue?
        let seen = History<String>()
        do {
            let queue = scheduler.queue()
            weakQueue = queue
            let (input, output) = Signal<Int, NoError>.pipe()
            let disposable = (output |> deliverOn(queue)).start(
                next: { seen.record("\($0)") }, completed: { seen.record("completed") })
            input.putNext(1)
            input.putNext(2)
            if disposing { disposable.dispose() } else { input.putCompletion() }
        }
        #expect(weakQueue != nil)  // the blocks on their way hold it
        scheduler.advance()
        #expect(weakQueue == nil)
        #expect(seen.recorded == (disposing ? [] : ["1", "2", "completed"]))
    }

    /// The same on a queue wrapping a `DispatchQueue` (the general lane, on real Dispatch).
    @Test(arguments: [true, false])
    func aStartHoldsItsWrappedQueueUntilItsBlocksHaveRun(disposing: Bool) {
        weak var weakQueue: Queue?
        let (seen, gate) = (History<String>(), DispatchSemaphore(value: 0))
        let dispatchQueue = DispatchQueue(label: "q")
        do {
            let queue = Queue(queue: dispatchQueue)
            weakQueue = queue
            let (input, output) = Signal<Int, NoError>.pipe()
            let disposable = (output |> deliverOn(queue)).start(
                next: { seen.record("\($0)") }, completed: { seen.record("completed") })
            queue.justDispatch { gate.wait() }
            input.putNext(1)
            input.putNext(2)
            if disposing { disposable.dispose() } else { input.putCompletion() }
        }
        #expect(weakQueue != nil)  // the blocks on their way hold it
        gate.signal()
        dispatchQueue.sync {}  // after the start's blocks
        #expect(weakQueue == nil)
        #expect(seen.recorded == (disposing ? [] : ["1", "2", "completed"]))
    }

    /// `combineLatest(queue:)` delivers each input with `deliverOn(queue)`, so it keeps each
    /// input's order: the value set on the queue is delivered at once after the two still waiting
    /// (before the other input's first value arrives, so only the last makes a tuple). Before, it
    /// ran ahead of them, and the last tuple was stale: "0 a", "1 a".
    @Test func combineLatestOnAQueueKeepsEachInputsOrder() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (promise, other) = (ValuePromise(0), ValuePromise("a"))
        queue.justDispatch { promise.set(2) }  // on the queue, while 0 and 1 wait there
        let seen = History<String>()
        let disposable = combineLatest(queue: queue, promise.get(), other.get()).start(next: { value in
            seen.record("\(value.0) \(value.1)")
        })
        promise.set(1)
        scheduler.advance()
        #expect(seen.recorded == ["2 a"])
        disposable.dispose()
    }

    // MARK: deliverOn(Queue) on real Dispatch

    /// Events from many threads and from the queue itself, interleaved: each thread's events reach
    /// the handler in the order that thread put them, and every event arrives once.
    @Test func eventsFromManyThreadsAndTheQueueKeepEachThreadsOrder() {
        let queue = Queue(name: "q")
        let (input, output) = Signal<Int, NoError>.pipe()
        let seen = History<Int>()
        (output |> deliverOn(queue)).start(next: seen.record)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 {
                let value = thread * 1000 + index
                if thread == 0 { queue.sync { input.putNext(value) } } else { input.putNext(value) }
            }
        }
        queue.sync {}
        let recorded = seen.recorded
        #expect(recorded.count == 2000)
        for thread in 0..<4 {
            #expect(recorded.filter { $0 / 1000 == thread } == Array((thread * 1000)..<(thread * 1000 + 500)))
        }
    }

    /// On a concurrent queue the blocks run at once on several threads, yet one thread delivers at
    /// a time, in the order the events happened: a block that finds another thread delivering
    /// leaves its event to that thread.
    @Test func deliverOnAConcurrentQueueStillDeliversOneAtATimeInOrder() {
        let (input, output) = Signal<Int, NoError>.pipe()
        let seen = History<Int>()
        let running = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        let done = DispatchSemaphore(value: 0)
        (output |> deliverOn(Queue.concurrentDefaultQueue())).start(
            next: { value in
                if running.modify({ $0 + 1 }) > 1 { overlapped.swap(true) }
                seen.record(value)
                running.modify { $0 - 1 }
            },
            completed: { done.signal() })
        for value in 0..<3000 { input.putNext(value) }
        input.putCompletion()
        expectSignal(done)
        #expect(seen.recorded == Array(0..<3000))
        #expect(!overlapped.with { $0 })
    }

    /// On a concurrent queue the blocks of the events that wait while a handler runs run at once,
    /// on other threads (here the first value's handler waits for work dispatched after every
    /// event): each leaves its event to the thread delivering, which delivers them in order when
    /// the handler returns, never two at a time.
    @Test func onAConcurrentQueueBlocksThatRunDuringAHandlerLeaveTheirEventsToItsThread() {
        let queue = Queue.concurrentDefaultQueue()
        let (input, output) = Signal<Int, NoError>.pipe()
        let (seen, released, done) = (History<Int>(), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let running = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        (output |> deliverOn(queue)).start(
            next: { value in
                if running.modify({ $0 + 1 }) > 1 { overlapped.swap(true) }
                if value == 0 { expectSignal(released) }
                seen.record(value)
                running.modify { $0 - 1 }
            },
            completed: { done.signal() })
        for value in 0..<100 { input.putNext(value) }
        input.putCompletion()
        queue.justDispatch { released.signal() }  // after the events' blocks, on another thread
        expectSignal(done)
        #expect(seen.recorded == Array(0..<100))
        #expect(!overlapped.with { $0 })
    }

    // MARK: deliverOn(ThreadPool)

    @Test func deliverOnAThreadPoolDeliversInOrderOnPoolThreads() {
        let pool = Self.pool
        let (input, output) = Signal<Int, NoError>.pipe()
        let seen = History<Int>()
        let onPool = Atomic(value: true)
        let running = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        let done = DispatchSemaphore(value: 0)
        (output |> deliverOn(pool)).start(
            next: { value in
                if running.modify({ $0 + 1 }) > 1 { overlapped.swap(true) }
                if !pool.isCurrentThreadInPool() { onPool.swap(false) }
                seen.record(value)
                running.modify { $0 - 1 }
            },
            completed: { done.signal() }
        )
        for value in 0..<3000 { input.putNext(value) }
        input.putCompletion()
        expectSignal(done)
        #expect(seen.recorded.elementsEqual(0..<3000), "out of order")
        #expect(onPool.with { $0 })
        #expect(!overlapped.with { $0 })
    }

    /// A pool lane always queues: an event produced on a pool thread goes behind the start's
    /// earlier events, as on a queue.
    @Test func deliverOnAThreadPoolKeepsAnEventProducedOnThePoolBehindEarlierOnes() {
        let pool = Self.singleThread
        let (promise, gate, done) = (ValuePromise(0), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        pool.addTask(
            ThreadPoolTask { _ in
                gate.wait()
                promise.set(2)  // on the pool's one thread, while 0 and 1 wait on the lane
            })
        let seen = History<Int>()
        let disposable = (promise.get() |> deliverOn(pool)).start(next: { value in
            seen.record(value)
            if value == 2 { done.signal() }
        })
        promise.set(1)
        gate.signal()
        expectSignal(done)
        #expect(seen.recorded == [0, 1, 2])
        disposable.dispose()
    }

    @Test func deliverOnAThreadPoolDropsEventsAfterDisposal() {
        let pool = Self.singleThread
        let gate = DispatchSemaphore(value: 0)
        pool.addTask(ThreadPoolTask { _ in gate.wait() })  // holds the pool's one thread
        let events = History<String>()
        let disposable = record(
            counting(History(), on: .mainQueue()) |> deliverOn(pool), on: .mainQueue(), into: events)
        disposable.dispose()
        gate.signal()
        let done = DispatchSemaphore(value: 0)
        pool.addTask(ThreadPoolTask { _ in done.signal() })  // runs after the lane's tasks
        expectSignal(done)
        #expect(events.recorded.isEmpty)
    }

    // MARK: runOn(Queue)

    @Test func runOnStartsTheUpstreamOnTheQueueLater() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (generated, events) = (History<String>(), History<String>())
        record(counting(generated, on: queue) |> runOn(queue), on: queue, into: events)
        #expect(generated.recorded.isEmpty)  // the queue has not run: the start has not happened
        scheduler.advance()
        #expect(generated.recorded == ["generator on queue true"])
        #expect(events.recorded == ["1 true", "2 true", "3 true", "completed true"])
    }

    @Test func runOnStartsInlineWhenAlreadyOnTheQueue() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let events = History<String>()
        queue.sync {
            record(counting(History(), on: queue) |> runOn(queue), on: queue, into: events)
            events.record("start returned")
        }
        #expect(events.recorded == ["1 true", "2 true", "3 true", "completed true", "start returned"])
    }

    @Test func runOnDoesNotMoveTheEvents() {
        let scheduler = TestScheduler()
        let (queue, other) = (scheduler.queue(name: "queue"), scheduler.queue(name: "other"))
        let events = History<String>()
        let upstream = Signal<Int, NoError> { subscriber in
            other.justDispatch {
                subscriber.putNext(1)
                subscriber.putCompletion()
            }
            return EmptyDisposable
        }
        record(upstream |> runOn(queue), on: other, into: events)
        scheduler.advance()
        #expect(events.recorded == ["1 true", "completed true"])  // on `other`, where they were sent
    }

    @Test func disposingBeforeTheStartReachedTheQueuePreventsIt() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (generated, events) = (History<String>(), History<String>())
        record(counting(generated, on: queue) |> runOn(queue), on: queue, into: events).dispose()
        scheduler.advance()
        #expect(generated.recorded.isEmpty)
        #expect(events.recorded.isEmpty)
    }

    @Test func disposingAfterTheStartDisposesTheUpstream() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let upstream = CountingDisposable()
        let started = (Signal<Int, NoError> { _ in upstream } |> runOn(queue)).start()
        scheduler.advance()
        #expect(upstream.count == 0)
        started.dispose()
        #expect(upstream.count == 1)
    }

    // Under TSan: SwiftSignalKit's "disposed before start" flag is a plain variable written by
    // `dispose()` on one thread and read by the start on the queue.
    @Test func startingAndDisposingFromManyThreadsEitherStartsAndDisposesOrDoesNothing() {
        let queue = Queue()
        let generators = Atomic(value: 0)
        let upstream = CountingDisposable()
        let signal =
            Signal<Int, NoError> { _ in
                generators.modify { $0 + 1 }
                return upstream
            } |> runOn(queue)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<100 { signal.start().dispose() }
        }
        queue.queue.sync {}
        #expect(upstream.count == generators.with { $0 })
    }

    // MARK: runOn(ThreadPool)

    @Test func runOnAThreadPoolStartsTheUpstreamOnAPoolThread() {
        let pool = Self.pool
        let generated = History<Bool>()
        let done = DispatchSemaphore(value: 0)
        let upstream = Signal<Int, NoError> { subscriber in
            generated.record(pool.isCurrentThreadInPool())
            subscriber.putCompletion()
            return EmptyDisposable
        }
        (upstream |> runOn(pool)).start(completed: { done.signal() })
        expectSignal(done)
        #expect(generated.recorded == [true])
    }

    @Test func disposingBeforeThePoolRanTheStartPreventsIt() {
        let pool = Self.singleThread
        let gate = DispatchSemaphore(value: 0)
        pool.addTask(ThreadPoolTask { _ in gate.wait() })
        let generated = History<Bool>()
        let signal = Signal<Int, NoError> { _ in
            generated.record(true)
            return EmptyDisposable
        }
        (signal |> runOn(pool)).start().dispose()
        gate.signal()
        let done = DispatchSemaphore(value: 0)
        pool.addTask(ThreadPoolTask { _ in done.signal() })  // one thread: runs after the start's task
        expectSignal(done)
        #expect(generated.recorded.isEmpty)
    }

    @Test func disposingAfterThePoolRanTheStartDisposesTheUpstream() {
        let upstream = CountingDisposable()
        let started = DispatchSemaphore(value: 0)
        let signal = Signal<Int, NoError> { _ in
            started.signal()
            return upstream
        }
        let disposable = (signal |> runOn(Self.singleThread)).start()
        expectSignal(started)
        let done = DispatchSemaphore(value: 0)
        Self.singleThread.addTask(ThreadPoolTask { _ in done.signal() })  // after the start's task
        expectSignal(done)
        disposable.dispose()
        #expect(upstream.count == 1)
    }
}
