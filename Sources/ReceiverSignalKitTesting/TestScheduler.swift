// Virtual time in one file: the public scheduler, the timeline its queues share, and the two
// per-thread facts a serial queue needs (which queue's work runs here, which thread runs each
// queue). The queues are ReceiverSignalKit's own `Queue` over a `VirtualQueue`, so the library
// runs the same code on virtual time as on Dispatch; only this file knows what time it is. The
// timeline is one array sorted by due time under one lock: a test schedules little work, and a
// sorted array makes "ties run in the order scheduled" plain to see.
public import ReceiverSignalKit

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Virtual time for tests: queues whose work runs when you advance the scheduler, at exactly the
/// virtual time it is due, without waiting.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let queue = scheduler.queue()
/// let recording = scheduler.record(Signal<Int, NoError>.single(1) |> delay(2, queue: queue))
///
/// scheduler.advance(by: 1.9)
/// recording.events        // []
/// scheduler.advance(by: 0.1)
/// recording.events        // [.next(2, 1), .completed(2)]
/// ```
///
/// Every API of ReceiverSignalKit that takes a `Queue` runs on a queue made by ``queue(name:)``
/// as it does on a real one, only on virtual time: `Timer`, `Queue.after`, `delay`,
/// `suspendAwareDelay`, `timeout`, `retry(_:maxDelay:onQueue:)`, `deliverOn`, `runOn`,
/// `combineLatest(queue:)`, `QueueLocalObject`. So the code under test takes its queue as a
/// parameter, and the test passes a virtual one; code that names `Queue.mainQueue()` in place runs
/// on the scheduler's ``mainQueue`` inside ``withMainQueue(_:)``, unchanged.
///
/// **Time** is in seconds, like every duration of SwiftSignalKit, and starts at 0. It counts whole
/// nanoseconds, as Dispatch does: a delay or an advance is rounded to the nearest nanosecond, so
/// `0.1 + 0.2` seconds is `0.3` here, and an event's time compares equal to the literal you write.
///
/// **Order.** ``advance(by:)``, ``advance(to:)`` and ``run(limit:)`` run the work that falls due, in
/// the order of its due time; work due at the same time runs in the order it was scheduled. While
/// a piece of work runs, ``now`` is its due time, and work it schedules runs in the same advance if
/// it falls due before the advance ends. Work scheduled with no delay (`async` from outside the
/// queue, `justDispatch`, a `deliverOn` hop) is due at once: it runs at the next advance, even
/// `advance(by: 0)`.
///
/// > Note: **Threads.** Work runs on the thread that advances the scheduler, with its queue
/// > current there (`queue.isCurrent()` is true inside it, and `async` from it runs inline, as on
/// > a real `Queue`). Scheduling work is thread-safe: a real queue mixed into the same chain may
/// > hop onto a virtual one from its own thread. That work is due at the virtual time of then: an
/// > advance running at that moment runs it if it falls within the advance, else the next does.
/// > (So a test that mixes in a real queue waits for that queue's block before it advances.)
/// > Advancing is not: advance from one thread at a time, and not from inside the scheduler's own
/// > work (a debug build stops with a message if you do).
///
/// Releasing the scheduler releases the work it still holds; its queues then run nothing more.
/// Work scheduled on a virtual queue that is released still runs when it falls due, as Dispatch
/// runs the blocks of a released queue.
public final class TestScheduler: Sendable {
    let timeline = Timeline()

    /// Makes a scheduler whose time is 0 and which holds no work.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.now   // 0
    /// ```
    public init() {}

    /// The virtual time, in seconds: the due time of the work running now, or the time the last
    /// advance reached.
    ///
    /// ```swift
    /// scheduler.advance(by: 1.5)
    /// scheduler.now   // 1.5
    /// ```
    public var now: Double { timeline.now }

    /// A serial queue whose work runs on this scheduler's virtual time.
    ///
    /// ```swift
    /// let queue = scheduler.queue(name: "search")
    /// queue.after(1) { print("one virtual second") }
    /// scheduler.advance(by: 1)   // prints "one virtual second"
    /// ```
    ///
    /// Its `async`, `sync`, `justDispatch`, `justDispatchWithQoS`, `after` and `isCurrent()` work as
    /// on a real `Queue` made by `Queue(name:)`, on virtual time. `sync` from outside runs its
    /// closure on the calling thread, as the queue's work, and, as on a real serial queue, never
    /// beside the queue's other work: called from another thread while the scheduler runs the
    /// queue's work, it waits until that work is done, and the scheduler waits for it before it
    /// runs more of the queue's work. From inside the queue's own work it runs inline.
    /// Its `queue` property is a dispatch queue of its own that none of this uses: work given to that
    /// dispatch queue directly runs in real time.
    ///
    /// - Parameter name: The label of the queue's `queue`, for debugging.
    /// - Returns: A new queue; as many as you like share the one timeline.
    public func queue(name: String = "TestScheduler") -> Queue {
        Queue(virtual: VirtualQueue(clock: timeline), name: name)
    }

    /// Moves time forward by `seconds`, running the work that falls due on the way.
    ///
    /// ```swift
    /// queue.after(1) { print("a") }
    /// queue.after(3) { print("b") }
    /// scheduler.advance(by: 2)   // prints "a"; now is 2
    /// ```
    ///
    /// - Parameter seconds: How far, 0 or more (0 runs only what is due now). A negative or
    ///   non-finite value stops the program with a message.
    public func advance(by seconds: Double = 0) {
        guard seconds.isFinite, seconds >= 0 else {
            fatalError("TestScheduler.advance(by:) needs a finite number of seconds, 0 or more, got \(seconds)")
        }
        let (target, overflow) = timeline.nanosecondsNow.addingReportingOverflow(Timeline.nanoseconds(seconds))
        timeline.advance(to: overflow ? Timeline.latest : min(target, Timeline.latest))
    }

    /// Moves time forward to `time`, running the work that falls due on the way.
    ///
    /// ```swift
    /// scheduler.advance(to: 10)
    /// scheduler.now   // 10
    /// ```
    ///
    /// - Parameter time: Seconds from the scheduler's start, at or after ``now``. An earlier or
    ///   non-finite time stops the program with a message.
    public func advance(to time: Double) {
        guard time.isFinite, time >= 0, Timeline.nanoseconds(time) >= timeline.nanosecondsNow else {
            fatalError("TestScheduler.advance(to:) needs a finite time at or after now (\(now)), got \(time)")
        }
        timeline.advance(to: min(Timeline.nanoseconds(time), Timeline.latest))
    }

    /// Runs the scheduled work until none is left, moving time to each piece's due time.
    ///
    /// ```swift
    /// queue.after(60) { print("a minute later") }
    /// scheduler.run()   // prints "a minute later"; now is 60
    /// ```
    ///
    /// **The guard.** A repeating `Timer` (or a `suspendAwareDelay` checking its clock, or a retry
    /// loop that keeps failing) always has work scheduled, so "until none is left" would never
    /// come. `run` therefore runs at most `limit` pieces of work: if work is still scheduled then,
    /// it stops there (the rest stays scheduled, `now` is the time of the last piece run), writes a
    /// line saying so to standard error, and returns `false`. Use ``advance(by:)`` for timelines
    /// with a repeating timer.
    ///
    /// - Parameter limit: The most pieces of work to run; 100 000 by default.
    /// - Returns: `true` if no work is left; `false` if it stopped at the limit.
    @discardableResult
    public func run(limit: Int = 100_000) -> Bool {
        let isEmpty = timeline.advance(to: Timeline.untilEmpty, limit: limit)
        if !isEmpty {
            let message =
                "TestScheduler.run(): ran \(limit) pieces of work and work is still scheduled (a repeating "
                + "timer?); stopped at \(now) s\n"
            _ = message.withCString { write(2, $0, strlen($0)) }  // standard error
        }
        return isEmpty
    }

    /// How a recording reads the time: weakly, so that recorded handlers waiting in the
    /// scheduler's work do not keep it alive.
    func stamp() -> @Sendable () -> Double {
        { [weak timeline] in timeline?.now ?? .nan }
    }

    #if RECEIVER_DIAGNOSTICS
    /// For this package's tests: calls `observer`, with no lock held, each time a thread finds one
    /// of this scheduler's queues running on another thread and is about to wait for it (a `sync`
    /// waiting for the work an advance runs, or an advance for a `sync`), so that a test knows
    /// that a thread waits rather than waiting in real time to see.
    package func onWait(_ observer: @escaping @Sendable () -> Void) {
        timeline.onWait(observer)
    }
    #endif
}

/// The scheduler's work and time, what its queues hold (weakly) and call.
///
/// Its state is only touched under its lock; the work runs outside it, and what leaves the state
/// (work run or cancelled) is released after unlocking.
final class Timeline: VirtualClock {
    /// The target of ``TestScheduler/run(limit:)``: past every due time, and never a time the
    /// timeline stops at (it stays at the time of the last work run).
    static let untilEmpty: Int64 = .max
    /// The latest time an advance moves to, so that no advance is taken for `untilEmpty`.
    static let latest: Int64 = untilEmpty - 1

    /// A piece of work due at `due` nanoseconds, the `id`th scheduled.
    struct Entry {
        let due: Int64
        let id: UInt64
        let queue: VirtualQueue
        let work: () -> Void
    }

    struct State {
        var now: Int64 = 0
        /// Ordered by due time, then by `id`: the order the work runs in.
        var entries: [Entry] = []
        var lastID: UInt64 = 0
        var isAdvancing = false
        /// The scheduler's main queue, once something asked for it: from then on the work runs
        /// with it as `Queue.mainQueue()`.
        var mainQueue: Queue?
    }

    private let state = Locked(State())
    /// Which thread runs each queue's work now: what makes a queue serial across threads.
    private let occupancy = Occupancy()

    var nanosecondsNow: Int64 { state.withLock { $0.now } }
    var now: Double { Double(nanosecondsNow) / 1e9 }

    /// `seconds` (finite, 0 or more) in whole nanoseconds, at most `Int64.max`.
    static func nanoseconds(_ seconds: Double) -> Int64 {
        let nanoseconds = (seconds * 1e9).rounded()
        return nanoseconds < 9.2e18 ? Int64(nanoseconds) : .max
    }

    func schedule(on queue: VirtualQueue, after delay: Double, _ work: @escaping () -> Void) -> UInt64 {
        guard delay < .infinity else { return 0 }  // would never run: not kept
        let delay = delay > 0 ? Self.nanoseconds(delay) : 0
        return state.withLock { state in
            let (due, overflow) = state.now.addingReportingOverflow(delay)
            guard !overflow else { return 0 }
            state.lastID += 1
            // After every entry due at or before `due`: ties run in the order they were scheduled.
            var (low, high) = (state.entries.startIndex, state.entries.endIndex)
            while low < high {
                let middle = (low + high) / 2
                if state.entries[middle].due <= due { low = middle + 1 } else { high = middle }
            }
            state.entries.insert(Entry(due: due, id: state.lastID, queue: queue, work: work), at: low)
            return state.lastID
        }
    }

    /// The main queue, made by `make` the first time it is asked for.
    func mainQueue(making make: () -> Queue) -> Queue {
        state.withLock { state in
            if let queue = state.mainQueue { return queue }
            let queue = make()
            state.mainQueue = queue
            return queue
        }
    }

    func cancel(_ id: UInt64) {
        let removed = state.withLock { state -> Entry? in
            guard let index = state.entries.firstIndex(where: { $0.id == id }) else { return nil }
            return state.entries.remove(at: index)
        }
        _ = removed  // released here, after unlocking
    }

    /// Waits while another thread runs `queue`'s work (the scheduler's, or another `sync`), as a
    /// real serial queue's `sync` does; runs at once on a thread that is running it already.
    func runNow(on queue: VirtualQueue, _ work: () -> Void) {
        let main = state.withLock { $0.mainQueue }
        occupancy.run(queue) { CurrentQueue.run(queue) { Self.run(work, mainQueue: main) } }
    }

    /// Runs `work` with `main`, if there is one, as `Queue.mainQueue()` (debug builds: release builds
    /// of ReceiverSignalKit have no such hook).
    private static func run(_ work: () -> Void, mainQueue main: Queue?) {
        #if RECEIVER_DIAGNOSTICS
        if let main {
            Queue.$mainQueueStandIn.withValue(main, operation: work)
            return
        }
        #endif
        work()
    }

    #if RECEIVER_DIAGNOSTICS
    func onWait(_ observer: @escaping @Sendable () -> Void) {
        occupancy.onWait(observer)
    }
    #endif

    func isRunning(_ queue: VirtualQueue) -> Bool {
        CurrentQueue.is(queue)
    }

    /// Runs the work due at or before `target` nanoseconds (at most `limit` pieces), then sets the
    /// time to `target` unless it stopped at the limit.
    ///
    /// - Returns: Whether no work is left.
    @discardableResult
    func advance(to target: Int64, limit: Int = .max) -> Bool {
        let wasAdvancing = state.withLock { state in
            defer { state.isAdvancing = true }
            return state.isAdvancing
        }
        assert(
            !wasAdvancing,
            "TestScheduler: advanced from two threads at once, or from its own work; advance from one thread")
        defer { state.withLock { $0.isAdvancing = false } }
        var ran = 0
        while true {
            let next = state.withLock { state -> (entry: Entry, main: Queue?)? in
                guard ran < limit, let first = state.entries.first, first.due <= target else {
                    if ran < limit, target != Self.untilEmpty { state.now = max(state.now, target) }
                    return nil
                }
                state.now = first.due
                return (state.entries.removeFirst(), state.mainQueue)
            }
            guard let next else { break }
            ran += 1
            let queue = next.entry.queue
            occupancy.run(queue) { CurrentQueue.run(queue) { Self.run(next.entry.work, mainQueue: next.main) } }
        }
        return state.withLock { $0.entries.isEmpty }
    }
}

/// Which virtual queue's work the calling thread runs now: a thread-specific slot holding that
/// queue's address (not retained: the work running holds its queue).
enum CurrentQueue {
    private static let slot: pthread_key_t = {
        var slot = pthread_key_t()
        let status = pthread_key_create(&slot, nil)
        if status != 0 { fatalError("TestScheduler: pthread_key_create failed with \(status)") }
        return slot
    }()

    /// Runs `work` with `queue` current on this thread, then restores what was current before.
    static func run(_ queue: VirtualQueue, _ work: () -> Void) {
        let slot = slot
        let previous = pthread_getspecific(slot)
        pthread_setspecific(slot, Unmanaged.passUnretained(queue).toOpaque())
        defer { pthread_setspecific(slot, previous) }
        work()
    }

    static func `is`(_ queue: VirtualQueue) -> Bool {
        pthread_getspecific(slot) == Unmanaged.passUnretained(queue).toOpaque()
    }
}

/// Which thread runs each virtual queue's work now, so that a queue's work never overlaps itself:
/// work the scheduler runs waits for a `sync` on another thread, and a `sync` waits for the work
/// running there, as on a serial dispatch queue. A thread that already runs the queue's work runs
/// more of it at once (a `sync` onto it from inside it, through another queue's `sync`), where
/// Dispatch would deadlock.
///
/// A mutex and a condition of its own: the waiting happens with no lock held.
final class Occupancy: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let released = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    /// Only touched under `mutex`: the thread running each queue's work, and how deeply.
    private var owners: [ObjectIdentifier: (thread: pthread_t, depth: Int)] = [:]
    #if RECEIVER_DIAGNOSTICS
    /// Only touched under `mutex`: what a thread calls, unlocked, when it finds a queue's work
    /// running on another thread and is about to wait (see `TestScheduler.onWait`).
    private var onWait: (@Sendable () -> Void)?
    #endif

    init() {
        mutex.initialize(to: pthread_mutex_t())
        released.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(released, nil)
    }

    deinit {
        pthread_cond_destroy(released)
        pthread_mutex_destroy(mutex)
        released.deallocate()
        mutex.deallocate()
    }

    /// Runs `work` as `queue`'s, once no other thread runs that queue's work. The caller holds
    /// `queue` meanwhile, so its identifier stays its own.
    func run(_ queue: VirtualQueue, _ work: () -> Void) {
        let (key, me) = (ObjectIdentifier(queue), pthread_self())
        pthread_mutex_lock(mutex)
        #if RECEIVER_DIAGNOSTICS
        var observer = onWait
        #endif
        while let owner = owners[key], pthread_equal(owner.thread, me) == 0 {
            #if RECEIVER_DIAGNOSTICS
            if let observed = observer {
                observer = nil
                pthread_mutex_unlock(mutex)
                observed()
                pthread_mutex_lock(mutex)
                continue  // the owner may have left meanwhile
            }
            #endif
            pthread_cond_wait(released, mutex)
        }
        owners[key] = (me, (owners[key]?.depth ?? 0) + 1)
        pthread_mutex_unlock(mutex)
        defer {
            pthread_mutex_lock(mutex)
            if let owner = owners[key], owner.depth > 1 {
                owners[key] = (owner.thread, owner.depth - 1)
            } else {
                owners[key] = nil
                pthread_cond_broadcast(released)
            }
            pthread_mutex_unlock(mutex)
        }
        work()
    }

    #if RECEIVER_DIAGNOSTICS
    func onWait(_ observer: @escaping @Sendable () -> Void) {
        pthread_mutex_lock(mutex)
        onWait = observer
        pthread_mutex_unlock(mutex)
    }
    #endif
}
