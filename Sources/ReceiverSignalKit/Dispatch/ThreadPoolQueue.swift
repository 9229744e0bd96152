/// A serial lane of a ``ThreadPool``: its tasks run one after another, in the order they were
/// added, on whichever pool thread is free; tasks of different lanes run concurrently.
///
/// ```swift
/// let lane = pool.nextQueue()
/// lane.addTask(ThreadPoolTask { _ in write(first) })
/// lane.addTask(ThreadPoolTask { _ in write(second) })   // runs after the first, never alongside
/// ```
///
/// Two lanes are equal only if they are the same object.
///
/// A lane keeps its pool's work list alive: a lane works as long as it exists.
public final class ThreadPoolQueue: Equatable, Sendable {
    private let scheduler: ThreadPoolScheduler

    /// Makes a new lane of `threadPool` (the same as `threadPool.nextQueue()`).
    ///
    /// ```swift
    /// let lane = ThreadPoolQueue(threadPool: pool)
    /// ```
    ///
    /// - Parameter threadPool: The pool whose threads run the lane's tasks.
    public init(threadPool: ThreadPool) {
        scheduler = threadPool.scheduler
    }

    /// Adds `task` to the end of the lane and wakes a pool thread if the lane was idle.
    ///
    /// ```swift
    /// lane.addTask(ThreadPoolTask { _ in save(document) })
    /// ```
    ///
    /// - Parameter task: The work to run after the lane's earlier tasks.
    public func addTask(_ task: ThreadPoolTask) {
        scheduler.add(task, to: self)
    }
}

/// Whether two lanes are the same lane (identity).
///
/// ```swift
/// let lane = pool.nextQueue()
/// lane == lane               // true
/// lane == pool.nextQueue()   // false
/// ```
///
/// - Parameters:
///   - lhs: A lane.
///   - rhs: Another lane.
/// - Returns: `lhs === rhs`.
public func == (lhs: ThreadPoolQueue, rhs: ThreadPoolQueue) -> Bool {
    lhs === rhs
}
