internal import Dispatch

#if canImport(ObjectiveC)
internal import ObjectiveC  // autoreleasepool, as SwiftSignalKit drains one per task
#endif

/// The work list a ``ThreadPool``'s threads share: the lanes with tasks waiting, in the order they
/// became ready (the semaphore counts them), and the lanes running. A lane runs on one thread at a
/// time and goes back to the end of the list after each task, so busy lanes take turns. Tasks are
/// taken out under the lock and run, and released, after unlocking.
final class ThreadPoolScheduler: Sendable {
    private struct Lane {
        /// Keeps the lane object, and so its identifier, unique while it is listed.
        let owner: ThreadPoolQueue
        var tasks = FIFO<ThreadPoolTask>()
    }

    private struct Schedule {
        /// Every lane with a task waiting or running: a lane is ready if it is also in `ready`,
        /// running otherwise.
        var lanes: [ObjectIdentifier: Lane] = [:]
        /// The lanes with a task waiting and no thread, oldest first.
        var ready = FIFO<ObjectIdentifier>()

        /// Adds `task`; returns whether its lane became ready (so a thread must be woken).
        mutating func add(_ task: ThreadPoolTask, to owner: ThreadPoolQueue) -> Bool {
            let id = ObjectIdentifier(owner)
            let becameReady = lanes[id] == nil
            lanes[id, default: Lane(owner: owner)].tasks.push(task)
            if becameReady { ready.push(id) }
            return becameReady
        }

        /// Takes the oldest ready lane's next task; the lane is running until `finish`. Called
        /// only after a `wait` on the semaphore, which guarantees a ready lane.
        mutating func take() -> (ObjectIdentifier, ThreadPoolTask) {
            guard let id = ready.pop(), let task = lanes[id]?.tasks.pop() else {
                fatalError("ThreadPool woke a thread without a ready lane")  // a bug of ours: say so
            }
            return (id, task)
        }

        /// Ends the running task of lane `id`; returns whether the lane is ready again, and the
        /// lane it let go of if it has no more tasks (for the caller to release: it holds the lane
        /// object).
        mutating func finish(_ id: ObjectIdentifier) -> (isReady: Bool, finished: Lane?) {
            guard lanes[id]?.tasks.isEmpty == false else { return (false, lanes.removeValue(forKey: id)) }
            ready.push(id)
            return (true, nil)
        }
    }

    private let schedule = Locked(Schedule())
    private let readyLanes = DispatchSemaphore(value: 0)

    /// Adds `task` to the end of `lane`, waking a thread if the lane was idle.
    func add(_ task: ThreadPoolTask, to lane: ThreadPoolQueue) {
        if schedule.withLock({ $0.add(task, to: lane) }) { readyLanes.signal() }
    }

    /// A pool thread's whole life: run ready lanes' tasks, one at a time, forever.
    func work() -> Never {
        while true {
            readyLanes.wait()
            let lane = runNextTask()
            let (isReady, finished) = schedule.withLock { $0.finish(lane) }
            if isReady { readyLanes.signal() }
            _ = finished  // released here
        }
    }

    /// Takes and runs the next task; the task (and what its action captured) is released when this
    /// returns.
    private func runNextTask() -> ObjectIdentifier {
        let (lane, task) = schedule.withLock { $0.take() }
        #if canImport(ObjectiveC)
        autoreleasepool { task.execute() }
        #else
        task.execute()
        #endif
        return lane
    }
}

/// A first-in, first-out queue in amortised O(1): pushed onto one array, popped from the reversed
/// other.
private struct FIFO<Element> {
    private var pushed: [Element] = []
    private var popping: [Element] = []

    var isEmpty: Bool { pushed.isEmpty && popping.isEmpty }

    mutating func push(_ element: Element) { pushed.append(element) }

    mutating func pop() -> Element? {
        if popping.isEmpty {
            popping = pushed.reversed()
            pushed.removeAll(keepingCapacity: true)
        }
        return popping.popLast()
    }
}
