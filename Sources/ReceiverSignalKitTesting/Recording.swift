// A recording is the start's disposable and holds the start, while the start's handlers hold only
// the list of events: so a test disposes what it recorded like any start, and neither the
// recording nor the scheduler is kept alive by work still waiting on virtual time.
public import ReceiverSignalKit

/// The events a started signal (or a listened-to `Receiver`) delivered, each with the virtual time
/// it arrived at: what ``TestScheduler/record(_:)-(Signal<Value,Failure>)`` returns.
///
/// ```swift
/// let recording = scheduler.record(search("swift"))
/// scheduler.advance(by: 0.3)
/// #expect(recording.events == [.next(0.3, ["Swift"]), .completed(0.3)])
/// recording.dispose()
/// ```
///
/// It is the start's `Disposable`: disposing it disposes the start (events after that are not
/// recorded). Events may arrive on any thread; each is stamped with the scheduler's time when it
/// arrives (`.nan` if the scheduler is gone by then).
///
/// The recording holds the start, and the start's handlers hold only the list of events, not the
/// recording or the scheduler: releasing a recording that is not disposed leaves the start running.
public final class Recording<Value, Failure>: Disposable {
    private let list: Locked<[RecordedEvent<Value, Failure>]>
    /// The start, until disposed.
    private let start: Locked<(any Disposable)?>

    init(_ list: Locked<[RecordedEvent<Value, Failure>]>, start: any Disposable) {
        (self.list, self.start) = (list, Locked(start))
    }

    /// The events recorded so far, oldest first.
    ///
    /// ```swift
    /// recording.events   // [.next(0, 1), .next(2, 2)]
    /// ```
    public var events: [RecordedEvent<Value, Failure>] { list.withLock { $0 } }

    /// Disposes the recorded start; later events are not recorded. Only the first call does
    /// something.
    ///
    /// ```swift
    /// recording.dispose()
    /// ```
    public func dispose() {
        start.withLock { $0.take() }?.dispose()
    }
}

extension TestScheduler {
    /// Starts `signal` and records its events, each with the virtual time it arrived at.
    ///
    /// ```swift
    /// let recording = scheduler.record(Signal<Int, NoError>.single(1) |> delay(2, queue: queue))
    /// scheduler.advance(by: 2)
    /// recording.events   // [.next(2, 1), .completed(2)]
    /// ```
    ///
    /// - Parameter signal: The signal to start, now.
    /// - Returns: The recording, which is the start's `Disposable`.
    public func record<Value, Failure>(_ signal: Signal<Value, Failure>) -> Recording<Value, Failure> {
        let (list, stamp) = (Locked<[RecordedEvent<Value, Failure>]>([]), stamp())
        let disposable = signal.start(
            next: { value in
                let event = RecordedEvent<Value, Failure>.next(stamp(), value)
                list.withLock { $0.append(event) }
            },
            error: { error in
                let event = RecordedEvent<Value, Failure>.error(stamp(), error)
                list.withLock { $0.append(event) }
            },
            completed: {
                let event = RecordedEvent<Value, Failure>.completed(stamp())
                list.withLock { $0.append(event) }
            })
        return Recording(list, start: disposable)
    }

    /// Listens to `receiver` and records its waves as values, each with the virtual time it arrived
    /// at (a receiver never ends, so there is no error or completion).
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int>.make()
    /// let recording = scheduler.record(receiver)
    /// queue.after(1) { transmitter.broadcast(7) }
    /// scheduler.advance(by: 1)
    /// recording.events   // [.next(1, 7)]
    /// ```
    ///
    /// - Parameter receiver: The receiver to listen to, now (a warm or cold one replays what it
    ///   keeps, at the current time).
    /// - Returns: The recording, which is the listener's `Disposable`.
    public func record<Wave>(_ receiver: Receiver<Wave>) -> Recording<Wave, Never> {
        let (list, stamp) = (Locked<[RecordedEvent<Wave, Never>]>([]), stamp())
        let listener = receiver.listen { wave in
            let event = RecordedEvent<Wave, Never>.next(stamp(), wave)
            list.withLock { $0.append(event) }
        }
        return Recording(list, start: listener)
    }
}
