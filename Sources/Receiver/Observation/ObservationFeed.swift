// The engine of `Receiver.make(with:observing:isolation:)`: reads a closure under Observation's
// tracking, delivers what it returns, and reads it again after each change.
//
// Observation reports a change in the property's `willSet`, before the store, so a change never
// reads on the spot: it schedules a read on the closure's actor, a later job that sees the stored
// value (changes made in one job are read once). One read at a time: a change during a read marks
// it dirty, and the read schedules the next, so the last change is always read — for the models
// the public doc names, whose getter cannot return the old value once `willSet` has been reported.
// `dispose()` returns only when no delivery is under way on another thread.

internal import Dispatch
internal import Observation

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Delivers what `read` returns, now and after each change to what it read. Not Observation's
/// `Observations`, which needs a `@Sendable` closure and a `Sendable` value, delivers only
/// asynchronously (so not the first value during `make`) and needs newer systems.
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
    /// The thread running `deliver` now, if one is; only touched under the lock.
    nonisolated(unsafe) private var deliveringThread: pthread_t?
    /// Entered while `deliver` runs (one delivery at a time): what `dispose()` waits on.
    private let delivery = DispatchGroup()

    /// `isolation` is the caller's; with none, the main actor if this runs on the main queue. (A
    /// `lazy` property's initializer gets no `#isolation` even in a main-actor class, and its
    /// closure reads main-actor state: reading it later off main would race the model.)
    init(isolation: (any Actor)?, read: @escaping () -> Value, deliver: @escaping (Value) -> Void) {
        (self.read, self.deliver) = (read, deliver)
        self.isolation = isolation ?? (CurrentThread.isMainQueue ? MainActor.shared : nil)
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
        // Off any actor the model may change on another thread during the read, before its
        // tracking is installed (after `read` returns): a second read, tracked too, sees that change.
        if isolation == nil {
            value = withObservationTracking(read, onChange: { [self] in changed() })
        }
        // Entering the group under the lock (an atomic count, no user code) makes "disposed" and
        // "delivering" one decision: a `dispose()` either comes first, and nothing is delivered,
        // or it sees this delivery and waits for it.
        let delivering = ReceiverLock(for: self).withLock { () -> Bool in
            guard self.deliver != nil else { return false }
            deliveringThread = pthread_self()
            delivery.enter()
            return true
        }
        if delivering {
            deliver(value)
            ReceiverLock(for: self).withLock { deliveringThread = nil }
            delivery.leave()
        }
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
    /// `deinit`s are user code). Nothing is delivered after it returns: called on another thread
    /// than a delivery under way, it waits for that delivery to end; called from inside the read
    /// or the delivery, it returns at once, and nothing more is delivered.
    func dispose() {
        let (taken, waits) = ReceiverLock(for: self).withLock {
            () -> (((() -> Value)?, ((Value) -> Void)?), Bool) in
            defer { (read, deliver) = (nil, nil) }
            let waits = deliveringThread.map { pthread_equal($0, pthread_self()) == 0 } ?? false
            return ((read, deliver), waits)
        }
        if waits { delivery.wait() }
        _ = taken
    }
}
