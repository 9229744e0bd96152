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
// What no read can do: see a value stored after the `willSet` that scheduled it. Observation's
// public API reports nothing after the store (its `didSet` tracking is SPI), so a model that
// stores a while after `withMutation`'s `willSet`, with its getter free to read meanwhile, may be
// read in that moment: the read returns the old value and installs its tracking after the
// `willSet` has fired, and nothing reads again until the next change. Any number of reads can
// fall in that moment (the changing thread may be held there for as long as the system likes),
// and reading on until the value changes would never end for a change to an equal value, or a
// property that did not change in the end. So the promise is for models whose getter, once the
// `willSet` has been reported, returns the new value or waits for it: a model changed on the
// feed's actor (the read is a later job there), and a model whose lock, which its getter takes,
// is held around `withMutation` and the store (the read waits for the store). The docs say so.
//
// `dispose()` keeps "nothing after it returns": a delivery runs with `deliveringThread` set and
// `delivery` entered, and a `dispose()` from another thread waits for it to end (from the
// delivering thread itself, inside the delivery, it cannot and need not: nothing is delivered
// after the delivery under way). A read under way needs no wait: it delivers only if `deliver` is
// still there when it is done.
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
// during `make` or `start`. `withObservationTracking` serves every OS that has Observation. Nor
// would it read the last value of more models: it, too, learns of a change from `willSet` alone,
// and then reads its closure on that closure's actor.

internal import Dispatch
internal import Observation

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

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

/// Set on the main queue once, so that `DispatchQueue.getSpecific(key:)` tells whether code runs
/// there: in its blocks and on the main thread outside them, not in a `sync` onto another queue.
private let mainQueueKey: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
}()
