// An event log for a receiver: `receiver.traceEvents("label")` prints each listen, wave and
// disposal of its listeners. (ReceiverSignalKit has the same for signals.)

extension Receiver {
    /// The same waves, with a line for each event of each listener: its `listen`, each `wave`,
    /// and its `dispose` — the label, the event, the time, and the queue or thread it happened on.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
    /// transmitter.broadcast(1)
    /// let listener = receiver.traceEvents("count").listen { _ in }
    /// // count: listen at 12:04:31.250 on the main queue
    /// // count: wave(1) at 12:04:31.250 on the main queue      (the replay)
    /// transmitter.broadcast(2)
    /// // count: wave(2) at 12:04:31.251 on the main queue
    /// listener.dispose()
    /// // count: dispose at 12:04:31.251 on the main queue
    /// ```
    ///
    /// Put it where you want to see the waves: after `map` it shows the mapped ones. Each line is
    /// written on the thread of its event, before the event goes on. The place is the dispatch
    /// queue running that code — `the main queue`, `queue "search"` — or, where no queue has a
    /// label, the system's number of the thread. The time is the time of day, or what `clock`
    /// reads: pass `{ scheduler.now }` to see virtual time in a test.
    ///
    /// A debugging aid, in release builds too: nothing is logged, and nothing costs anything, where
    /// it is not used.
    ///
    /// - Parameters:
    ///   - label: The first word of each line, to tell logs apart.
    ///   - clock: Reads the time to show, in seconds (`2.250s`); the time of day when `nil`.
    ///   - write: Where the lines go; `print` by default. Called on the thread of each event.
    /// - Returns: A receiver of the same waves that logs what happens to its listeners.
    public func traceEvents(
        _ label: String, clock: (() -> Double)? = nil, to write: @escaping (String) -> Void = { print($0) }
    ) -> Receiver<Wave> {
        let log = EventLog(label: label, clock: clock, write: write)
        return Receiver { handler in
            log.record("listen")
            let listener = self.listen { wave in
                log.record("wave(\(wave))")
                handler(wave)
            }
            return TracedListener(listener, log)
        }
    }
}

/// A listener of `traceEvents`: logs its first `dispose()`, then disposes the listener upstream.
private final class TracedListener: Disposable {
    private let upstream: any Disposable
    /// Its closures are ordinary ones, called on the disposing thread, as a handler is.
    private nonisolated(unsafe) let log: EventLog
    /// Only touched under `ReceiverLock(for: self)`.
    private nonisolated(unsafe) var disposed = false

    init(_ upstream: any Disposable, _ log: EventLog) { (self.upstream, self.log) = (upstream, log) }

    func dispose() {
        let first = ReceiverLock(for: self).withLock { () -> Bool in
            defer { disposed = true }
            return !disposed
        }
        if first { log.record("dispose") }
        upstream.dispose()
    }
}
