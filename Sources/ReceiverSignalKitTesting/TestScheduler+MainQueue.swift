// The main queue on virtual time, with nothing injected: `withMainQueue` binds ReceiverSignalKit's
// task-local stand-in for `Queue.mainQueue()` to the scheduler's `mainQueue`, and the timeline binds
// it again around each piece of work it runs, whichever thread advances. Release builds of the
// library read no stand-in, so there the scope stops rather than run the real main queue.
public import ReceiverSignalKit

extension TestScheduler {
    /// A virtual serial queue of this scheduler that stands for the main queue: inside
    /// ``withMainQueue(_:)`` it is what `Queue.mainQueue()` returns.
    ///
    /// ```swift
    /// scheduler.withMainQueue {
    ///     Queue.mainQueue() === scheduler.mainQueue   // true
    /// }
    /// ```
    ///
    /// It is made as ``queue(name:)`` makes a queue, once, the first time it is asked for; from then
    /// on `Queue.mainQueue()` is this queue in all the work the scheduler runs, whichever thread
    /// advances it. (A scheduler whose main queue is never used changes nothing.) Pass it to code
    /// that takes its queue as a parameter, as any virtual queue.
    public var mainQueue: Queue {
        timeline.mainQueue(making: { queue(name: "TestScheduler.mainQueue") })
    }

    /// Runs `body` with ``mainQueue`` as the main queue: in `body`, and in the work this scheduler
    /// runs, `Queue.mainQueue()` returns ``mainQueue``, so code that names the main queue in place
    /// runs on virtual time, unchanged.
    ///
    /// ```swift
    /// let scheduler = TestScheduler()
    /// scheduler.withMainQueue {
    ///     let recording = scheduler.record(Signal<Int, NoError>.single(1) |> deliverOnMainQueue)
    ///     Queue.mainQueue().after(2) { print("two virtual seconds") }
    ///     scheduler.advance(by: 2)         // prints "two virtual seconds"
    ///     recording.events                 // [.next(0, 1), .completed(0)]
    /// }
    /// ```
    ///
    /// So `|> deliverOnMainQueue`, `Queue.mainQueue().after`, `async`, `justDispatch` and
    /// `isCurrent()` (true inside the main queue's work only), and a `Timer`, `delay`, `timeout` or
    /// `retry`'s back-off on `Queue.mainQueue()` run when the test advances, at exact times.
    /// Outside the scope nothing changes, and scopes of tests running in parallel each see their own
    /// scheduler: the binding is a task-local value, so it holds on this thread, and in the tasks
    /// `body` creates (not detached ones).
    ///
    /// What it cannot reach: `DispatchQueue.main` used directly; a `Queue` asked for outside the
    /// scope and kept (a `static let`, a chain built before the scope); code running on a real
    /// queue or thread; `Queue.mainQueue().queue`, a dispatch queue of its own here, not
    /// `DispatchQueue.main`. The main queue's work runs on the advancing thread, which is the main
    /// actor only if the test advances from it (a `@MainActor` test). See
    /// <doc:TestingWithVirtualTime#The-main-queue>.
    ///
    /// It needs a debug build of ReceiverSignalKit (`RECEIVER_DIAGNOSTICS`, which Package.swift
    /// defines for debug builds): in a release build `Queue.mainQueue()` checks nothing, so the
    /// scope would silently be the real main queue, and it stops the program with a message instead.
    ///
    /// - Parameter body: The code to run; scopes nest, the innermost wins.
    /// - Returns: What `body` returns.
    public func withMainQueue<T>(_ body: () throws -> T) rethrows -> T {
        #if RECEIVER_DIAGNOSTICS
        return try Queue.$mainQueueStandIn.withValue(mainQueue) {
            try Self.$scoped.withValue(self, operation: body)
        }
        #else
        Self.stopInReleaseBuilds("withMainQueue(_:)")
        #endif
    }

    /// Runs `body` with ``mainQueue`` as the main queue: the `async` form of
    /// ``withMainQueue(_:)``. The scope follows `body` across its suspensions, and into the tasks it
    /// creates.
    ///
    /// ```swift
    /// let name = await scheduler.withMainQueue {
    ///     let model = ProfileModel()             // starts a chain with `|> deliverOnMainQueue`
    ///     scheduler.advance(by: 1)
    ///     return await model.name.get()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - body: The code to run.
    /// - Returns: What `body` returns.
    public func withMainQueue<T>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        #if RECEIVER_DIAGNOSTICS
        return try await Queue.$mainQueueStandIn.withValue(mainQueue) {
            try await Self.$scoped.withValue(self, operation: body, isolation: isolation)
        }
        #else
        Self.stopInReleaseBuilds("withMainQueue(_:)")
        #endif
    }

    /// The scheduler of the innermost ``withMainQueue(_:)`` running here: in a test with the
    /// `.mainQueueOnVirtualTime` trait, the test's own.
    ///
    /// ```swift
    /// @Test(.mainQueueOnVirtualTime) func theToastHidesAfterTwoSeconds() {
    ///     let scheduler = TestScheduler.current
    ///     ...
    /// }
    /// ```
    ///
    /// Outside any such scope (or in a release build), it stops the program with a message.
    public static var current: TestScheduler {
        #if RECEIVER_DIAGNOSTICS
        guard let scheduler = scoped else {
            fatalError(
                "TestScheduler.current: no TestScheduler.withMainQueue scope is running here; ask for it inside "
                    + "withMainQueue { … } or in a test with the .mainQueueOnVirtualTime trait")
        }
        return scheduler
        #else
        stopInReleaseBuilds("current")
        #endif
    }

    #if RECEIVER_DIAGNOSTICS
    /// The scheduler ``current`` returns, bound by `withMainQueue`.
    @TaskLocal static var scoped: TestScheduler?
    #else
    static func stopInReleaseBuilds(_ name: String) -> Never {
        fatalError(
            "TestScheduler.\(name): Queue.mainQueue() cannot stand for a TestScheduler's main queue in a release "
                + "build of ReceiverSignalKit (built without RECEIVER_DIAGNOSTICS, it checks nothing and is always "
                + "the real main queue). Run the tests in a debug build (swift test without -c release; Xcode's "
                + "Debug configuration), or pass scheduler.mainQueue to the code under test.")
    }
    #endif
}
