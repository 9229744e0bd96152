internal import Dispatch

/// A one-shot or repeating timer whose completion runs on a ``Queue`` — SwiftSignalKit's `Timer`,
/// a `DispatchSourceTimer`.
///
/// ```swift
/// let timer = ReceiverSignalKit.Timer(timeout: 0.5, repeat: false, completion: {
///     hideToast()
/// }, queue: Queue.mainQueue())
/// timer.start()        // hideToast() runs on the main queue half a second from now
/// timer.invalidate()   // ... unless it is invalidated first
/// ```
///
/// > Important: The name clashes with Foundation's `Timer`. In a file that imports Foundation as
/// > well, write `ReceiverSignalKit.Timer` (Telegram writes `SwiftSignalKit.Timer` for the same
/// > reason).
///
/// The timer holds its completion, and the dispatch source holds the timer only weakly: keep the
/// timer while it should run. Releasing it invalidates it. `start()` and `invalidate()` may be
/// called from any thread. On a queue made by `TestScheduler` (ReceiverSignalKitTesting) it fires
/// on the scheduler's virtual time instead, with the same rules.
///
/// When a one-shot timer's completion calls `start()` again, the new run is kept: a one-shot run
/// only ends itself (SwiftSignalKit's silently cancels that restart).
///
/// The timeout: a one-shot timer with a timeout of 0 or less fires at once (on its queue, as soon
/// as it can), as in SwiftSignalKit, and one of `.infinity` never fires. A repeating timer needs
/// a timeout greater than 0, and no timer takes `.nan`: either stops the program when the timer is
/// made, with a message that names the timeout.
public final class Timer: Sendable {
    private let timeout: Double
    private let `repeat`: Bool
    private let queue: Queue
    // Called only on `queue`; `nonisolated(unsafe)` because it is an
    // ordinary closure (the caller answers for what it touches there, as for `Queue.async`).
    private nonisolated(unsafe) let completion: (Timer) -> Void
    /// The running source and the number of its run, so that a one-shot run ends only itself; on a
    /// virtual-time queue, instead of a source, the clock's entry for the next firing (0 if none),
    /// and a number that `invalidate()` changes too. (A tuple, as a struct here would be copied
    /// through its value witness when the timer is made.)
    private let run = Locked<(source: (any DispatchSourceTimer)?, number: Int, scheduled: UInt64)>((nil, 0, 0))

    // swift-format-ignore: ValidateDocumentationComments
    // (It reads the backticks of `repeat` as part of the parameter's name.)
    /// Makes a stopped timer whose completion takes no argument.
    ///
    /// ```swift
    /// let poll = ReceiverSignalKit.Timer(timeout: 30, repeat: true, completion: {
    ///     refresh()
    /// }, queue: Queue.mainQueue())
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds from `start()` to the first firing, and between firings if repeating:
    ///     greater than 0 for a repeating timer; 0 or less makes a one-shot timer fire at once;
    ///     never `.nan` (misuse stops the program, naming the value).
    ///   - repeat: Whether it fires every `timeout` seconds until invalidated, or once.
    ///   - completion: Runs on `queue` each time the timer fires.
    ///   - queue: Where `completion` runs.
    public convenience init(timeout: Double, `repeat`: Bool, completion: @escaping () -> Void, queue: Queue) {
        self.init(timeout: timeout, repeat: `repeat`, completion: { (_: Timer) in completion() }, queue: queue)
    }

    // swift-format-ignore: ValidateDocumentationComments
    // (It reads the backticks of `repeat` as part of the parameter's name.)
    /// Makes a stopped timer whose completion receives the timer (to invalidate it, say).
    ///
    /// ```swift
    /// var attempts = 0
    /// let retry = ReceiverSignalKit.Timer(timeout: 1, repeat: true, completion: { timer in
    ///     attempts += 1
    ///     if attempts == 3 { timer.invalidate() }
    /// }, queue: queue)
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds from `start()` to the first firing, and between firings if repeating:
    ///     greater than 0 for a repeating timer; 0 or less makes a one-shot timer fire at once;
    ///     never `.nan` (misuse stops the program, naming the value).
    ///   - repeat: Whether it fires every `timeout` seconds until invalidated, or once.
    ///   - completion: Runs on `queue` each time the timer fires, with the timer.
    ///   - queue: Where `completion` runs.
    public init(timeout: Double, `repeat`: Bool, completion: @escaping (Timer) -> Void, queue: Queue) {
        // `fatalError`, not `precondition`: an optimised build drops a precondition's message.
        if timeout.isNaN {
            fatalError("Timer(timeout:repeat:completion:queue:) needs a timeout that is a number, got \(timeout)")
        }
        if `repeat` && timeout <= 0 {
            fatalError(
                "Timer(timeout:repeat:completion:queue:) needs a timeout greater than 0 for a repeating timer, got \(timeout)"
            )
        }
        (self.timeout, self.repeat, self.completion, self.queue) = (timeout, `repeat`, completion, queue)
    }

    deinit { invalidate() }

    /// Schedules the timer: it fires `timeout` seconds from now (and every `timeout` seconds after
    /// that if repeating). A one-shot timer ends itself after its completion ran. Starting a
    /// running timer replaces its schedule.
    ///
    /// ```swift
    /// timer.start()
    /// ```
    public func start() {
        if let virtual = queue.virtual { return start(on: virtual) }
        let source = DispatchSource.makeTimerSource(queue: queue.queue)
        let deadline = DispatchTime.now() + timeout
        if `repeat` {
            source.schedule(deadline: deadline, repeating: timeout)
        } else {
            source.schedule(deadline: deadline)
        }
        let (replaced, number) = run.withLock { run in
            defer { run = (source, run.number &+ 1, 0) }
            return (run.source, run.number &+ 1)
        }
        source.setEventHandler { [weak self] in self?.fire(number) }
        replaced?.cancel()
        source.resume()
    }

    /// Stops the timer: its completion does not run again (a run already in progress on the queue
    /// finishes). Also called when the timer is released.
    ///
    /// ```swift
    /// timer.invalidate()
    /// ```
    public func invalidate() {
        if let virtual = queue.virtual { return invalidate(on: virtual) }
        run.withLock { $0.source.take() }?.cancel()
    }

    private func fire(_ number: Int) {
        completion(self)
        guard !`repeat` else { return }
        run.withLock { run in run.number == number ? run.source.take() : nil }?.cancel()
    }

    // MARK: On a virtual-time queue

    // The same runs, on the queue's clock rather than a dispatch source: each firing is one entry
    // of the clock, and a repeating timer schedules its next firing after its completion returned
    // (at the same virtual time as a dispatch source's next deadline, as the completion takes no
    // virtual time). The clock is only called outside this timer's lock.

    private func invalidate(on virtual: VirtualQueue) {
        let scheduled = run.withLock { run in
            run.number &+= 1  // a firing already taken off the clock does nothing
            return run.scheduled.take()
        }
        virtual.cancel(scheduled)
    }

    private func start(on virtual: VirtualQueue) {
        let (number, replaced) = run.withLock { run in
            run.number &+= 1
            return (run.number, run.scheduled.take())
        }
        virtual.cancel(replaced)
        schedule(number, on: virtual)
    }

    /// Schedules run `number`'s next firing, unless that run has ended meanwhile.
    private func schedule(_ number: Int, on virtual: VirtualQueue) {
        let entry = virtual.schedule(after: timeout) { [weak self] in self?.fire(number, on: virtual) }
        let stale = run.withLock { run -> UInt64 in
            guard run.number == number else { return entry }  // invalidated or restarted meanwhile
            run.scheduled = entry
            return 0
        }
        virtual.cancel(stale)
    }

    private func fire(_ number: Int, on virtual: VirtualQueue) {
        let isLive = run.withLock { run in
            guard run.number == number else { return false }
            run.scheduled = 0  // this entry has left the clock
            return true
        }
        guard isLive else { return }
        completion(self)
        // A one-shot run is over (a restart from the completion is a new run, already scheduled).
        guard `repeat`, run.withLock({ $0.number == number }) else { return }
        schedule(number, on: virtual)
    }
}

extension UInt64 {
    /// The value, leaving 0 in its place (for an entry of a clock, where 0 means none).
    fileprivate mutating func take() -> UInt64 {
        defer { self = 0 }
        return self
    }
}
