/// The input of one running signal: its generator puts values and one terminal event into it.
///
/// ```swift
/// let signal = Signal<Int, NoError> { subscriber in
///     subscriber.putNext(1)
///     subscriber.putNext(2)
///     subscriber.putCompletion()
///     return EmptyDisposable
/// }
/// signal.start(next: { print($0) }, completed: { print("done") })   // prints 1, 2, done
/// ```
///
/// The first `putError` or `putCompletion` terminates the subscriber: it lets go of the other
/// handlers, calls the terminal one and lets go of it, disposes what the generator returned, and
/// releases what ``keepAlive(_:)`` kept. Nothing put afterwards is delivered. Disposing the start
/// (the disposable `start` returns) does the same without calling a handler: what the generator
/// returned is disposed, then the handlers are released, then what was kept alive — also while
/// the source still holds this subscriber, so a handler's captures (a screen, a view model) never
/// outlive the subscription. A subscriber its source lets go of releases what it kept alive, then
/// its handlers, as SwiftSignalKit's does.
///
/// Calls to the handlers never overlap and see the events in one order: a `put…` made while a
/// handler runs — from inside it, or from another thread — is queued and delivered by the thread
/// already delivering, right after, never nested. After the start's `dispose()` returns, no
/// handler is called again. (SwiftSignalKit nests re-entrant puts, may run one handler on several
/// threads at once, and can call a handler while the start is being disposed.)
///
/// > Note: `put…` may be called from any thread. Handlers run on the thread that puts (or on the
/// > thread already delivering to this subscriber, which also delivers what others put meanwhile).
public final class Subscriber<T, E>: CustomStringConvertible {
    /// An event, as it waits in the queue of a subscriber that is delivering.
    @usableFromInline enum Event {
        case next(T)
        case error(E)
        case completion
    }

    /// The start this subscriber feeds: its handlers, its queue, and what it disposes and keeps
    /// alive. It is also the disposable `start` returns, so it does not hold this subscriber.
    @inlinable var core: SubscriberCore<T, E> { unsafeDowncast(start, to: SubscriberCore<T, E>.self) }

    /// The core, by its non-generic class, so that `deinit` (which runs unspecialised) can ask
    /// `isKnownUniquelyReferenced` without looking up the generic core's type metadata. Never
    /// reassigned: a `var` only for that question, hence `nonisolated(unsafe)` (a `Sendable` class
    /// may not have a checked mutable property), and `@exclusivity(unchecked)`: only `deinit`
    /// accesses it mutably, when nothing else can, so the run-time exclusivity check it would make
    /// there (about 40 instructions a start) checks nothing.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var start: AnySubscriberCore

    /// Makes a subscriber that calls the given handlers.
    ///
    /// ```swift
    /// let subscriber = Subscriber<Int, NoError>(next: { print($0) })
    /// subscriber.putNext(1)   // prints 1
    /// ```
    ///
    /// - Parameters:
    ///   - next: Called with each value until the subscriber terminates.
    ///   - error: Called with the error if it terminates with one.
    ///   - completed: Called if it terminates by completing.
    @inlinable public init(next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil) {
        start = SubscriberCore(next: next, error: error, completed: completed)
    }

    deinit {
        // When this holds the core's last reference, its handle is gone as well. (Asked first:
        // calling a method on `start` holds a second reference while its arguments are evaluated.)
        let isHandleGone = isKnownUniquelyReferenced(&start)
        start.subscriberReleased(isHandleGone: isHandleGone)
    }

    /// What the subscriber holds, as SwiftSignalKit prints it: each handler and the generator's
    /// disposable as `hasValue` or `nil`, and whether it has terminated.
    ///
    /// ```swift
    /// print(Subscriber<Int, NoError>(next: { _ in }))
    /// // Subscriber { next: hasValue, error: nil, completed: nil, disposable: nil, terminated: false }
    /// ```
    public var description: String { core.subscriberDescription }

    /// Delivers `value` to the `next` handler, unless the subscriber has terminated.
    ///
    /// ```swift
    /// subscriber.putNext(42)
    /// ```
    ///
    /// - Parameter value: The value to deliver.
    @inlinable public func putNext(_ value: T) { core.put(.next(value)) }

    /// Terminates the subscriber with `error`: the other handlers are released, the `error`
    /// handler is called, then the generator's disposable is disposed. Does nothing if it has
    /// terminated already (but releases what was kept alive since).
    ///
    /// ```swift
    /// subscriber.putError(.notFound)
    /// ```
    ///
    /// - Parameter error: The error to deliver.
    @inlinable public func putError(_ error: E) { core.put(.error(error)) }

    /// Terminates the subscriber: the other handlers are released, the `completed` handler is
    /// called, then the generator's disposable is disposed. Does nothing if it has terminated
    /// already (but releases what was kept alive since).
    ///
    /// ```swift
    /// subscriber.putCompletion()
    /// ```
    @inlinable public func putCompletion() { core.put(.completion) }

    /// Keeps `object` alive until the subscriber terminates, its start is disposed, or the
    /// subscriber itself is released — whichever comes first. Kept after termination, it is held
    /// until the next `putError`/`putCompletion`, the start's disposal or the subscriber's release.
    ///
    /// ```swift
    /// let session = URLSession(configuration: .default)
    /// subscriber.keepAlive(session)
    /// ```
    ///
    /// - Parameter object: What to keep.
    @inlinable public func keepAlive(_ object: AnyObject) { core.keepAlive(object) }

    /// Puts `event`, for the adapter's own relays.
    @inlinable func put(_ event: Event) { core.put(event) }
}

extension Subscriber: Sendable where T: Sendable, E: Sendable {}
extension Subscriber.Event: Sendable where T: Sendable, E: Sendable {}

/// One start of a generator: the handlers, a queue of the events put while one is delivered, what
/// the generator returned and what is kept alive — and the disposable `start` returns.
///
/// It serialises like a pair of the core with a single listener (one delivering thread, events
/// queued FIFO behind it, nothing after disposal), and adds what a subscription needs and a pair
/// does not have: handlers released one by one as the start ends, a terminal event, and an end
/// that disposes. A start whose events all arrive with nothing in flight (a request answered
/// once) allocates no queue. (`single`, `fail` and `complete`, which deliver everything before
/// their start returns, have no core: see ``InstantStart``.)
///
/// It does not hold its ``Subscriber``: the source does. So a source that lets go of its
/// subscriber lets go of the handlers and of what was kept alive (SwiftSignalKit's lifetime), and
/// a handler that captures its own disposable is a cycle only until the start ends.
///
/// Each operation locks the start's `StripedLock`, runs one transition (SubscriberState.swift:
/// it changes the fields and returns what to do), unlocks, and then does it — calls the handler,
/// disposes, releases — in SwiftSignalKit's order. `dispose()`, the subscriber's `deinit` and the
/// descriptions run unspecialised; they lock without a closure and move values out rather than
/// call generic helpers such as `take()`, which would look up the handlers' type metadata on every
/// call. `@unchecked Sendable`: the state is only reached under that lock.
@usableFromInline
final class SubscriberCore<T, E>: AnySubscriberCore, Disposable, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    // Its state, changed only by the transitions (SubscriberState.swift), under the lock.
    @exclusivity(unchecked) @usableFromInline var phase: SubscriberPhase
    /// A thread is delivering: a `put` is queued for it, and only it takes from the queue.
    @exclusivity(unchecked) @usableFromInline var isDelivering: Bool
    @exclusivity(unchecked) @usableFromInline var next: ((T) -> Void)?
    @exclusivity(unchecked) @usableFromInline var error: ((E) -> Void)?
    @exclusivity(unchecked) @usableFromInline var completed: (() -> Void)?
    /// What the generator returned: disposed when the start ends. `nil` until the generator
    /// returns, and once the start's end has taken it.
    @exclusivity(unchecked) @usableFromInline var disposable: (any Disposable)?
    /// Events put while one was being delivered, oldest first.
    @exclusivity(unchecked) @usableFromInline var queue: DrainQueue<Event>
    @exclusivity(unchecked) @usableFromInline var keptAlive: [AnyObject]

    // (No default values: a stored property's default is a call an inlined initialiser does not
    // see through.)
    @inlinable init(next: ((T) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?) {
        (phase, isDelivering, self.next, self.error, self.completed) = (.running, false, next, error, completed)
        (disposable, queue, keptAlive) = (nil, DrainQueue(), [])
    }

    /// Delivers `event` now, or queues it for the thread already delivering; that thread (this one,
    /// if it was idle) then delivers the queue in order.
    ///
    /// (It works on the event and the handler as separate locals rather than on a struct of them:
    /// such a struct, optional while the loop runs, was copied and destroyed through its generic
    /// value witnesses even when specialised, about 150 instructions per event.)
    @inlinable func put(_ event: Event) {
        let lock = lock  // found once: each `lock` hashes the address again
        lock.lock()
        switch admit(event) {
        case .deliver: break
        case .queued: return lock.unlock()
        case .refused(var release):
            lock.unlock()
            release = []  // what was kept alive since termination, after unlocking
            _ = release
            return
        }
        var event = event
        var dropped = DrainQueue<Event>()  // what a disposal mid-delivery left queued
        while case .next(let value) = event {
            var handler = next
            lock.unlock()
            handler?(value)
            // The handler and the value (maybe the last references) go before locking again.
            handler = nil
            _ = consume value
            _ = consume event
            lock.lock()
            guard let queued = advance(dropping: &dropped) else { return lock.unlock() }
            event = queued
        }
        finish(event, lock)
    }

    /// Delivers the terminal `event`, entered holding the lock: releases the other handlers, calls
    /// its own and releases it; then disposes what the generator returned (unless a disposal took
    /// it) and releases what was kept alive.
    @inlinable func finish(_ event: Event, _ lock: StripedLock) {
        // Used in place, not copied into locals: a copy would retain each handler once more.
        var release = beginTermination()
        lock.unlock()
        release.next = nil
        switch event {
        case .error(let failure):
            release.completed = nil
            release.error?(failure)
            release.error = nil
        case .completion, .next:  // (never a value: `put` delivers those)
            release.error = nil
            release.completed?()
            release.completed = nil
        }
        lock.lock()
        var drained = DrainQueue<Event>()
        let disposable = endTermination(releasing: &drained)
        lock.unlock()
        disposable?.dispose()
        release.keptAlive = []
        drained = DrainQueue()
        _ = (release, drained)
    }

    /// Hands over what the generator returned: disposed when the start ends, and at once if it
    /// has ended already.
    @inlinable func assign(_ disposable: any Disposable) {
        let lock = lock
        lock.lock()
        let isHeld = hold(disposable)
        lock.unlock()
        if !isHeld { disposable.dispose() }
    }

    @inlinable func keepAlive(_ object: AnyObject) {
        let lock = lock
        lock.lock()
        addKeptAlive(object)
        lock.unlock()
    }

    @usableFromInline override var hasEnded: Bool {
        let lock = lock
        lock.lock()
        defer { lock.unlock() }
        return phase != .running
    }

    /// The subscriber was released by its source: what it kept alive goes, then its handlers —
    /// after what the generator returned, when nothing else holds that (the start's handle is gone
    /// too, so `dispose()` can never be called): SwiftSignalKit's order.
    @usableFromInline override func subscriberReleased(isHandleGone: Bool) {
        let lock = lock
        lock.lock()
        var release = subscriberWasReleased(isHandleGone: isHandleGone)
        lock.unlock()
        release.disposable = nil
        release.keptAlive = []
        release.next = nil
        release.error = nil
        release.completed = nil
        _ = release
    }

    /// Stops the start: no handler is called after this returns (on this thread), then what the
    /// generator returned is disposed, then the handlers are released, then what was kept alive —
    /// each after unlocking, in SwiftSignalKit's order.
    @usableFromInline func dispose() {
        let lock = lock
        lock.lock()
        guard case .dispose(let disposable) = beginDisposal() else { return lock.unlock() }
        if let disposable {  // (with none, as after a terminal event, one section does it all)
            lock.unlock()
            disposable.dispose()
            lock.lock()
        }
        var release = endDisposal()
        lock.unlock()
        release.next = nil
        release.error = nil
        release.completed = nil
        release.keptAlive = []
        _ = release
    }

    /// As SwiftSignalKit's start handle prints itself: `disposable` is `hasValue` until the start is
    /// disposed.
    @usableFromInline var description: String {
        let lock = lock
        lock.lock()
        let isDisposed = isDisposed
        lock.unlock()
        return "SubscriberDisposable { disposable: \(isDisposed ? "nil" : "hasValue") }"
    }

    @usableFromInline var subscriberDescription: String {
        let lock = lock
        lock.lock()
        // The generator's disposable is the subscriber's until it terminates (the handle may still
        // hold it for `dispose()`, as SwiftSignalKit's handle does). While `dispose()` disposes it
        // (disposed, not yet terminated), that call has taken it out, but the subscriber still
        // shows it, as SwiftSignalKit's does.
        let held = [
            next != nil, error != nil, completed != nil,
            phase == .disposing || (phase == .running && disposable != nil),
        ].map { $0 ? "hasValue" : "nil" }
        let isTerminated = isTerminated
        lock.unlock()
        return
            "Subscriber { next: \(held[0]), error: \(held[1]), completed: \(held[2]), disposable: \(held[3]), terminated: \(isTerminated) }"
    }
}

extension RangeReplaceableCollection {
    /// Moves the contents out, leaving the collection empty.
    @inlinable mutating func take() -> Self {
        defer { self = Self() }
        return self
    }
}
