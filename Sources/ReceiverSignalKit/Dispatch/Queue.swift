public import Dispatch

/// A serial or concurrent `DispatchQueue` that knows whether the calling code is running on it —
/// SwiftSignalKit's `Queue`.
///
/// ```swift
/// let queue = Queue(name: "search")
/// queue.async { print(queue.isCurrent()) }   // prints true, on the queue
/// queue.async {
///     queue.async { print("inline") }        // already on the queue: runs at once, inline
/// }
/// ```
///
/// Closures given to `async`, `sync`, `justDispatch` and `after` are ordinary closures, as in
/// SwiftSignalKit, not `@Sendable`: they run on the queue, and the caller answers for what they
/// touch there (the same contract as a handler: see the threading article).
///
/// In tests, a queue made by `TestScheduler` (the ReceiverSignalKitTesting module) is a `Queue`
/// whose work runs on virtual time, when the test advances the scheduler: pass one to the code
/// under test instead of a real queue, and its delays, timeouts and timers take no real time.
public final class Queue: Sendable {
    /// The wrapped dispatch queue.
    ///
    /// ```swift
    /// Queue(name: "work").queue.label   // "work"
    /// ```
    public let queue: DispatchQueue
    // How `isCurrent()` recognises this queue. Plain fields rather than an enum with the marker in
    // its payloads: reading one of those copies the payload, a retain and a release per call.
    /// What this queue carries under `Queue.key`; `nil` for a queue made with `init(queue:)` and
    /// for the global queues, which are never current (as in SwiftSignalKit).
    private let marker: Marker?
    /// For a queue made by `init(name:qos:)`, finds `marker` with one C call; for the main queue,
    /// finds whether `mainKey` is there. `nil` where that C call is not available.
    private let probe: DispatchSpecificProbe?
    /// For a queue made by `TestScheduler` (module ReceiverSignalKitTesting), what runs its work on
    /// virtual time; `nil` for every other queue, which is the only cost of virtual time to them:
    /// this word, and one test of it where an operation would otherwise go to Dispatch. (Declared
    /// before `isMain`, so that it adds 8 bytes to the object, not 8 and the padding after a Bool.)
    @usableFromInline package let virtual: VirtualQueue?
    private let isMain: Bool
    /// Whether this queue runs one piece of work at a time and is current only there: a queue made
    /// by ``init(name:qos:)`` (serial), the main queue, and a virtual one (`TestScheduler`'s queues
    /// are serial). Whatever runs where `isCurrent()` is true then runs in turn with this queue's
    /// blocks, so `deliverOn` keeps its queue-side state without a lock. `false` for the queues of
    /// ``init(queue:)`` (which may be concurrent) and the global ones.
    @usableFromInline package let isSerial: Bool

    /// What a queue carries under `Queue.key`, so that `isCurrent()` recognises it.
    private final class Marker: Sendable {}
    private static let key = DispatchSpecificKey<Marker>()
    /// Carried by the main queue alone (see `isCurrent()`).
    private static let mainKey = DispatchSpecificKey<Marker>()

    // The main queue gets a marker too: where the main queue is not
    // drained by the main thread — on Linux after `dispatchMain()`, which is how `swift test`
    // runs — `Thread.isMainThread` is false inside its blocks, and without the marker
    // `isCurrent()` would say false there, so `sync` from a main-queue block would deadlock.
    private static let main = Queue(main: .main)
    private static let concurrentDefault = Queue(wrapping: .global(qos: .default))
    private static let concurrentBackground = Queue(wrapping: .global(qos: .background))

    private init(
        wrapping queue: DispatchQueue, marker: Marker? = nil, probe: DispatchSpecificProbe? = nil, isMain: Bool = false,
        virtual: VirtualQueue? = nil
    ) {
        (self.queue, self.marker, self.probe, self.isMain, self.virtual) = (queue, marker, probe, isMain, virtual)
        isSerial = marker != nil || virtual != nil
    }

    /// A queue whose work runs on virtual time, through `virtual`. Its `queue` is a serial dispatch
    /// queue of its own that none of its operations use (work given to it directly runs in real
    /// time); it carries no marker, so `isCurrent()` asks `virtual`.
    package convenience init(virtual: VirtualQueue, name: String) {
        self.init(wrapping: DispatchQueue(label: name), virtual: virtual)
    }

    private convenience init(main queue: DispatchQueue) {
        let marker = Marker()
        queue.setSpecific(key: Self.key, value: marker)
        queue.setSpecific(key: Self.mainKey, value: marker)
        self.init(wrapping: queue, marker: marker, probe: DispatchSpecificProbe(lookingFor: Self.mainKey), isMain: true)
    }

    /// The main queue. Its `isCurrent()` is true on the main thread, and inside the main queue's
    /// blocks wherever they run.
    ///
    /// ```swift
    /// Queue.mainQueue().async { updateUI() }   // inline when already on the main thread
    /// ```
    ///
    /// In a test, inside `TestScheduler.withMainQueue` (module ReceiverSignalKitTesting) and in the
    /// work that scheduler runs, it is the scheduler's virtual main queue instead (debug builds).
    ///
    /// - Returns: The one shared wrapper of `DispatchQueue.main`.
    public class func mainQueue() -> Queue {
        #if RECEIVER_DIAGNOSTICS
        if let standIn = mainQueueStandIn { return standIn }
        #endif
        return main
    }

    /// The shared wrapper of the global concurrent queue with the default quality of service.
    ///
    /// ```swift
    /// Queue.concurrentDefaultQueue().async { work() }
    /// ```
    ///
    /// - Returns: A queue whose `isCurrent()` is always false.
    public class func concurrentDefaultQueue() -> Queue { concurrentDefault }

    /// The shared wrapper of the global concurrent queue with the background quality of service.
    ///
    /// ```swift
    /// Queue.concurrentBackgroundQueue().async { cleanUp() }
    /// ```
    ///
    /// - Returns: A queue whose `isCurrent()` is always false.
    public class func concurrentBackgroundQueue() -> Queue { concurrentBackground }

    /// Wraps an existing dispatch queue. Such a queue carries no marker, so its `isCurrent()` is
    /// always false and `async` always dispatches (as in SwiftSignalKit). So `sync` from one of
    /// that queue's own blocks is Dispatch's `sync` onto the current queue, which Dispatch stops
    /// (as it does in SwiftSignalKit); the queues made by ``init(name:qos:)`` run it inline.
    ///
    /// ```swift
    /// let queue = Queue(queue: DispatchQueue(label: "io"))
    /// ```
    ///
    /// - Parameter queue: The queue to wrap.
    public convenience init(queue: DispatchQueue) {
        self.init(wrapping: queue)
    }

    /// Makes a new serial queue.
    ///
    /// ```swift
    /// let queue = Queue(name: "org.example.search", qos: .userInitiated)
    /// ```
    ///
    /// - Parameters:
    ///   - name: The dispatch queue's label.
    ///   - qos: Its quality of service.
    public convenience init(name: String? = nil, qos: DispatchQoS = .default) {
        let (queue, marker) = (DispatchQueue(label: name ?? "", qos: qos), Marker())
        queue.setSpecific(key: Self.key, value: marker)
        // A new queue runs nothing yet, so `sync` runs at once, on this thread.
        let probe = queue.sync { DispatchSpecificProbe(recognising: Self.key) }
        self.init(wrapping: queue, marker: marker, probe: probe)
    }

    /// Whether the calling code runs on this queue (for the main queue: also anywhere on the main
    /// thread).
    ///
    /// ```swift
    /// assert(Queue.mainQueue().isCurrent())
    /// ```
    ///
    /// As in SwiftSignalKit, "on this queue" means that this queue's marker is the innermost one
    /// libdispatch finds from the running block's queue through its target queues; a queue made
    /// with `init(queue:)` carries none, so it is never current.
    ///
    /// - Returns: `true` on this queue.
    public func isCurrent() -> Bool {
        if isMain {
            if isMainThread() { return true }
            // Outside the main queue's blocks (and those of the queues that target it), its marker
            // is not there to look for.
            if let probe, probe.isAbsent() { return false }
        } else if let probe {
            return probe.isFound()
        }
        // Only queues that carry no marker get here: those of `init(queue:)`, the global ones, and
        // virtual ones, so a named or the main queue pays nothing for the virtual case.
        guard let marker else { return virtual?.isCurrent() ?? false }
        return DispatchQueue.getSpecific(key: Self.key) === marker
    }

    /// Runs `f` on this queue: at once, inline, if already on it; otherwise asynchronously.
    ///
    /// ```swift
    /// queue.async { cache.store(result) }
    /// ```
    ///
    /// - Parameter f: The work.
    public func async(_ f: @escaping () -> Void) {
        if isCurrent() { f() } else { justDispatch(f) }
    }

    /// Runs `f` on this queue and waits for it: inline if already on it.
    ///
    /// ```swift
    /// var snapshot: [Int] = []
    /// queue.sync { snapshot = items }
    /// ```
    ///
    /// - Parameter f: The work.
    public func sync(_ f: () -> Void) {
        if isCurrent() {
            f()
        } else if let virtual {
            virtual.runNow(f)
        } else {
            queue.sync(execute: f)
        }
    }

    /// Runs `f` on this queue asynchronously, even if already on it.
    ///
    /// ```swift
    /// queue.justDispatch { print("later") }
    /// ```
    ///
    /// - Parameter f: The work.
    public func justDispatch(_ f: @escaping () -> Void) {
        if let virtual {
            virtual.schedule(after: 0, f)
            return
        }
        let work = Unchecked(f)
        queue.async { work.value() }
    }

    /// Runs `f` on this queue asynchronously with quality of service `qos`, enforced.
    ///
    /// ```swift
    /// queue.justDispatchWithQoS(qos: .userInteractive) { render() }
    /// ```
    ///
    /// - Parameters:
    ///   - qos: The quality of service for this work item.
    ///   - f: The work.
    public func justDispatchWithQoS(qos: DispatchQoS, _ f: @escaping () -> Void) {
        if let virtual {
            virtual.schedule(after: 0, f)
            return
        }
        let work = Unchecked(f)
        queue.async(qos: qos, flags: .enforceQoS) { work.value() }
    }

    /// Runs `f` on this queue after `delay` seconds.
    ///
    /// ```swift
    /// queue.after(0.5) { hideToast() }
    /// ```
    ///
    /// A `delay` of 0 or less runs `f` as soon as the queue can; `.infinity` never runs it (and
    /// keeps it). A `delay` that is not a number (`.nan`, which Dispatch would treat as "never")
    /// stops the program with a message that says so.
    ///
    /// - Parameters:
    ///   - delay: Seconds from now.
    ///   - f: The work.
    public func after(_ delay: Double, _ f: @escaping () -> Void) {
        if delay.isNaN { stopOnInvalidDuration("Queue.after(_:_:) needs a delay in seconds", got: delay) }
        if let virtual {
            virtual.schedule(after: delay, f)
            return
        }
        let work = Unchecked(f)
        queue.asyncAfter(deadline: .now() + delay) { work.value() }
    }
}

/// Carries a value that is not `Sendable` to the thread that will use it. Used where
/// SwiftSignalKit's API takes ordinary closures and values and hands them to Dispatch: the
/// caller answers for what they touch, as SwiftSignalKit's callers do.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
