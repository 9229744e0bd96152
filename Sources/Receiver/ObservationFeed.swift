// The engine of `Receiver.make(with:observing:isolation:)`: reads a closure under Observation's
// tracking, delivers what it returns, and reads it again after each change.
//
// Observation calls `onChange` in the property's `willSet`, before the new value is stored, and
// once per tracking. So a change never reads the closure on the spot: it schedules a new read, in a
// task that runs the closure on its actor (`isolation`), which re-tracks whatever that read touched.
// On an actor (the main actor, for a view model) that read is a job of its own, so it runs after
// the job that made the change has finished: the change is stored, and every change made in that
// same job is read at once (they coalesce). One read at a time: a change during a read marks it
// dirty, and the read schedules the next when it is done, so the last change is always read.
//
// Without an actor (reads on the global executor), the model may change on another thread while
// a read runs. Observation installs a read's tracking after the read returns, so a change between
// a property's read and that moment would never be read; such a feed reads twice, tracking both:
// the second read sees that change, and a change during the second fires the
// first tracking. A change may then be read, and delivered, twice.
//
// Where Swift gives no actor, `#isolation` is `nil`: in nonisolated code, but also in a `lazy`
// property's initializer, even in a main-actor class, whose closure still reads main-actor state.
// Made there on the main queue, reading later from the global executor would race the model's
// changes on main (a read may run before a change is stored, and that change is never read). So
// with no actor given, a feed made on the main queue reads on the main actor, where it was made.
//
// Not Observation's `Observations` sequence, which does the same where it exists (macOS 26, iOS 26,
// and Linux): it needs a `@Sendable` closure and a `Sendable` value (a non-`Sendable` model could
// not be read), and it is iterated asynchronously, so the first value could not be delivered
// during `make` or `start`. `withObservationTracking` serves every OS that has Observation.

internal import Dispatch
internal import Observation

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
final class ObservationFeed<Value>: Disposable, Sendable {
    private enum Phase {
        /// Tracking is installed; nothing to do until it fires.
        case idle
        /// A task will read the closure.
        case scheduled
        /// A read is running; `dirty` once a change came during it.
        case reading(dirty: Bool)
    }

    /// The actor the closure runs on; `nil` for the global concurrent executor.
    private let isolation: (any Actor)?
    /// Only touched under `ReceiverLock(for: self)`. `read` and `deliver` are `nil` once disposed.
    nonisolated(unsafe) private var read: (() -> Value)?
    nonisolated(unsafe) private var deliver: ((Value) -> Void)?
    nonisolated(unsafe) private var phase = Phase.idle

    /// `isolation` is the caller's; with none, the main actor if this runs on the main queue.
    init(isolation: (any Actor)?, read: @escaping () -> Value, deliver: @escaping (Value) -> Void) {
        (self.read, self.deliver) = (read, deliver)
        self.isolation = isolation ?? (DispatchQueue.getSpecific(key: mainQueueKey) != nil ? MainActor.shared : nil)
    }

    /// The first read, on the caller's thread, which must be on `isolation`.
    func start() {
        isolation?.preconditionIsolated(
            "an observing closure is first read where it was made: call this on \(String(describing: isolation))")
        track()
    }

    /// Reads the closure under tracking and delivers its value; then schedules the next read if a
    /// change came meanwhile.
    private func track() {
        let taken = ReceiverLock(for: self).withLock { () -> (() -> Value, (Value) -> Void)? in
            guard let read, let deliver else { return nil }
            phase = .reading(dirty: false)
            return (read, deliver)
        }
        guard let (read, deliver) = taken else { return }
        var value = withObservationTracking(read, onChange: { [self] in changed() })
        if isolation == nil {  // the change another thread made before that tracking was installed
            value = withObservationTracking(read, onChange: { [self] in changed() })
        }
        if ReceiverLock(for: self).withLock({ self.deliver != nil }) { deliver(value) }
        let again = ReceiverLock(for: self).withLock { () -> Bool in
            guard self.read != nil, case .reading(let dirty) = phase else { return false }
            phase = dirty ? .scheduled : .idle
            return dirty
        }
        if again { schedule() }
    }

    /// Runs `track()` on `isolation`: a hop, so it runs after the job that is changing a property.
    private func track(on isolation: isolated (any Actor)?) { track() }

    /// Called in a tracked property's `willSet`, on the thread that changes it.
    private func changed() {
        let scheduling = ReceiverLock(for: self).withLock { () -> Bool in
            guard read != nil else { return false }
            guard case .idle = phase else {
                // A read is running (it reads again when it is done), or one is due (it will track).
                if case .reading = phase { phase = .reading(dirty: true) }
                return false
            }
            phase = .scheduled
            return true
        }
        if scheduling { schedule() }
    }

    private func schedule() {
        Task { [self] in await track(on: isolation) }
    }

    /// Stops reading and releases the closure and `deliver` (after unlocking: their captures'
    /// `deinit`s are user code). A read under way on another thread may still deliver.
    func dispose() {
        let taken = ReceiverLock(for: self).withLock { () -> ((() -> Value)?, ((Value) -> Void)?) in
            defer { (read, deliver) = (nil, nil) }
            return (read, deliver)
        }
        _ = taken
    }
}

/// Set on the main queue once, so that `DispatchQueue.getSpecific(key:)` tells whether code runs
/// there: in its blocks and on the main thread outside them, not in a `sync` onto another queue.
private let mainQueueKey: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
}()
