// The hook through which a `Queue` runs on virtual time instead of Dispatch. Package access only:
// the one implementation is `TestScheduler`, in the ReceiverSignalKitTesting module of this
// package, and nothing here is part of ReceiverSignalKit's public API.
//
// What a real `Queue` pays for it: one stored reference, `nil` (a word), and one test of that
// reference where an operation would go to Dispatch (`async` off the queue, `sync` off the queue,
// `justDispatch`, `after`, `Timer.start` and `invalidate`, a `deliverOn` hop); `isCurrent()` of a
// named or the main queue tests nothing more (a virtual queue carries no marker, and is only
// looked for where a real queue would answer `false`).
//
//     Queue ──▶ VirtualQueue ┄┄weak┄┄▶ VirtualClock (the TestScheduler)
//                    ▲                        │
//                    └── scheduled work ◀─────┘   (each entry keeps its queue and its closure)
//
// The link holds the clock weakly, so that work waiting on the clock, whose closures may hold the
// queue, does not keep the clock alive in a cycle: release the scheduler and the work it held is
// released with it. A virtual queue whose scheduler is gone runs nothing again (nothing will
// advance its time): `async`, `after` and its timers drop their work, and only `sync` still runs
// its closure, inline.

/// Runs the work of virtual-time queues: what `TestScheduler` implements.
///
/// Scheduling may happen on any thread; the clock runs the work on the thread that advances it,
/// and marks the work's queue current on that thread while it runs.
package protocol VirtualClock: AnyObject, Sendable {
    /// The virtual time, in seconds.
    var now: Double { get }

    /// Schedules `work` to run as `queue`'s work `delay` seconds from now (at the current time for
    /// a delay of 0 or less, after what is already due then).
    ///
    /// - Returns: What identifies the work for ``cancel(_:)``; 0 if it was not scheduled (an
    ///   infinite delay: it would never run).
    func schedule(on queue: VirtualQueue, after delay: Double, _ work: @escaping () -> Void) -> UInt64

    /// Removes scheduled work that has not run; does nothing for work that ran or for 0.
    func cancel(_ id: UInt64)

    /// Runs `work` on the calling thread, as `queue`'s work (for `Queue.sync`): once no other
    /// thread runs `queue`'s work, and at once on a thread that runs it already.
    func runNow(on queue: VirtualQueue, _ work: () -> Void)

    /// Whether the calling thread is running `queue`'s work now.
    func isRunning(_ queue: VirtualQueue) -> Bool
}

/// A virtual-time queue's side of its ``Queue``: the link to the clock that runs its work, and
/// the queue's identity for the clock (not the `Queue` itself, which work may hold).
@usableFromInline package final class VirtualQueue: Sendable {
    /// Written once, in `init`; weak (see the top of this file).
    private nonisolated(unsafe) weak var clock: (any VirtualClock)?

    package init(clock: any VirtualClock) {
        self.clock = clock
    }

    /// The clock's time, or `.infinity` once the clock is gone.
    package var now: Double { clock?.now ?? .infinity }

    /// Schedules `work` on the clock `delay` seconds from now; nothing once the clock is gone.
    ///
    /// - Returns: What ``cancel(_:)`` takes; 0 if nothing was scheduled.
    @discardableResult
    @usableFromInline package func schedule(after delay: Double, _ work: @escaping () -> Void) -> UInt64 {
        clock?.schedule(on: self, after: delay, work) ?? 0
    }

    /// Cancels what ``schedule(after:_:)`` returned.
    package func cancel(_ id: UInt64) {
        guard id != 0 else { return }
        clock?.cancel(id)
    }

    /// Runs `work` now, as this queue's work (inline, without the clock once it is gone).
    package func runNow(_ work: () -> Void) {
        if let clock { clock.runNow(on: self, work) } else { work() }
    }

    /// Whether the calling thread runs this queue's work now.
    package func isCurrent() -> Bool {
        clock?.isRunning(self) ?? false
    }
}

#if RECEIVER_DIAGNOSTICS
extension Queue {
    /// What ``mainQueue()`` returns instead of the main queue, in debug builds only: a
    /// `TestScheduler`'s main queue, bound by its `withMainQueue` and around the work it runs.
    @TaskLocal package static var mainQueueStandIn: Queue?
}
#endif
