public import Foundation  // NSObject, and Thread: the pool's threads

/// A fixed set of threads that run ``ThreadPoolTask``s — SwiftSignalKit's `ThreadPool`.
///
/// ```swift
/// let pool = ThreadPool(threadCount: 2, threadPriority: 0.1)
/// pool.addTask(ThreadPoolTask { _ in compress(first) })    // these two may run at the same time
/// pool.addTask(ThreadPoolTask { _ in compress(second) })
///
/// let lane = pool.nextQueue()                              // these two run one after the other
/// lane.addTask(ThreadPoolTask { _ in append(a) })
/// lane.addTask(ThreadPoolTask { _ in append(b) })
/// ```
///
/// Free threads take ready lanes (``ThreadPoolQueue``) in the order they became ready; a lane with
/// more tasks goes to the back after each task, so busy lanes take turns.
///
/// > Important: As in SwiftSignalKit, the threads never exit: a pool lives, with its threads, until
/// > the process ends. Make pools once (a `static let`), never per use.
///
/// Differences from SwiftSignalKit: on Linux, `threadPriority` is not applied (swift-corelibs
/// Foundation's `Thread` has no priority); and the class is not marked `@objc`, which changes
/// nothing, since a subclass of `NSObject` is visible to Objective-C anyway.
public final class ThreadPool: NSObject, Sendable {
    /// The work list the threads share; lanes made from this pool add to it.
    let scheduler = ThreadPoolScheduler()
    // Never changed after `init`, and only compared by identity; `nonisolated(unsafe)` because
    // swift-corelibs Foundation's `Thread` is not `Sendable`.
    private nonisolated(unsafe) let threads: [Thread]

    /// Starts `threadCount` threads that run this pool's tasks for the rest of the process.
    ///
    /// ```swift
    /// static let imageDecoding = ThreadPool(threadCount: 2, threadPriority: 0.1)
    /// ```
    ///
    /// - Parameters:
    ///   - threadCount: How many threads; more than 0. With 0 or fewer no task could ever run, so
    ///     the program stops here with a message naming the count, in release builds too.
    ///   - threadPriority: Each thread's priority, from 0 to 1 (Apple platforms only).
    /// - Complexity: O(`threadCount`): the threads are started here.
    public init(threadCount: Int, threadPriority: Double) {
        if threadCount < 1 {
            // `fatalError`, not `precondition`: an optimised build drops a precondition's message.
            fatalError("ThreadPool(threadCount:threadPriority:) needs at least one thread, got \(threadCount)")
        }
        let scheduler = scheduler
        threads = (0..<threadCount).map { _ in Thread { scheduler.work() } }
        super.init()
        for thread in threads {
            #if canImport(ObjectiveC)
            thread.threadPriority = threadPriority
            #endif
            thread.start()
        }
    }

    /// Runs `task` on its own new lane, so it may run alongside every other task.
    ///
    /// ```swift
    /// pool.addTask(ThreadPoolTask { _ in thumbnail(photo) })
    /// ```
    ///
    /// - Parameter task: The work.
    public func addTask(_ task: ThreadPoolTask) {
        nextQueue().addTask(task)
    }

    /// Makes a new lane of this pool: a serial queue whose tasks run on the pool's threads.
    ///
    /// ```swift
    /// let lane = pool.nextQueue()
    /// ```
    ///
    /// - Returns: A new ``ThreadPoolQueue``.
    public func nextQueue() -> ThreadPoolQueue {
        ThreadPoolQueue(threadPool: self)
    }

    /// Whether the calling code runs on one of this pool's threads.
    ///
    /// ```swift
    /// pool.addTask(ThreadPoolTask { _ in assert(pool.isCurrentThreadInPool()) })
    /// ```
    ///
    /// - Returns: `true` on a thread of this pool.
    /// - Complexity: O(n) for a pool of n threads.
    public func isCurrentThreadInPool() -> Bool {
        let current = Thread.current
        return threads.contains { $0 === current }
    }
}
