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
/// releases what ``keepAlive(_:)`` kept. Nothing put afterwards is delivered. Disposing the
/// subscription (the disposable `start` returns) does the same without calling a handler: what the
/// generator
/// returned is disposed, then the handlers are released, then what was kept alive — also while
/// the source still holds this subscriber, so a handler's captures (a screen, a view model) never
/// outlive the subscription. A subscriber its source lets go of releases what it kept alive, then
/// its handlers, as SwiftSignalKit's does.
///
/// Calls to the handlers never overlap and see the events in one order: a `put…` made while a
/// handler runs — from inside it, or from another thread — is queued and delivered by the thread
/// already delivering, right after, never nested. After the subscription's `dispose()` returns, no
/// handler is called again. (SwiftSignalKit nests re-entrant puts, may run one handler on several
/// threads at once, and can call a handler while the subscription is being disposed.)
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

    /// The subscription this subscriber feeds: its handlers, its queue, and what it disposes and
    /// keeps alive. It is also the disposable `start` returns, so it does not hold this subscriber.
    @inlinable var core: SubscriberCore<T, E> { unsafeDowncast(anyCore, to: SubscriberCore<T, E>.self) }

    /// The core, by its non-generic class, so that `deinit` (which runs unspecialised) can ask
    /// `isKnownUniquelyReferenced` without looking up the generic core's type metadata. Never
    /// reassigned: a `var` only for that question, hence `nonisolated(unsafe)` (a `Sendable` class
    /// may not have a checked mutable property), and `@exclusivity(unchecked)`: only `deinit`
    /// accesses it mutably, when nothing else can.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var anyCore: AnySubscriberCore

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
        anyCore = SubscriberCore(next: next, error: error, completed: completed)
    }

    deinit {
        // When this holds the core's last reference, its handle is gone as well. (Asked first:
        // calling a method on `anyCore` holds a second reference while its arguments are evaluated.)
        let isHandleGone = isKnownUniquelyReferenced(&anyCore)
        anyCore.subscriberReleased(isHandleGone: isHandleGone)
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

    /// Keeps `object` alive until the subscriber terminates, its subscription is disposed, or the
    /// subscriber itself is released — whichever comes first. Kept after termination, it is held
    /// until the next `putError`/`putCompletion`, the disposal or the subscriber's release.
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

/// One subscription to a generator, and the disposable `start` returns: the handlers, the events put
/// while one is delivered, what the generator returned and what is kept alive.
///
/// It delivers as a pair of the core with one listener does (one thread at a time, events queued
/// FIFO behind it, nothing after disposal), and adds what a subscription needs: handlers released
/// as the subscription ends, a terminal event, and an end that disposes. It does not hold its
/// ``Subscriber`` (the source does), so a source that lets go of its subscriber lets go of the
/// handlers, and a handler that captures its own disposable is a cycle only until the subscription ends.
///
/// Each operation locks, runs one transition of its ``SubscriberState``, unlocks, and does what
/// the transition returned, in SwiftSignalKit's order. `@unchecked Sendable`: `state` is only
/// reached under the lock.
@usableFromInline
final class SubscriberCore<T, E>: AnySubscriberCore, Disposable, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline typealias State = SubscriberState<T, E>
    @usableFromInline typealias Event = State.Event

    /// Reached only under the lock.
    @exclusivity(unchecked) @usableFromInline var state: State

    @inlinable init(next: ((T) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?) {
        state = State(State.Handlers(next: next, error: error, completed: completed))
    }

    /// Delivers `event` now, or queues it for the thread already delivering; that thread (this one,
    /// if it was idle) then delivers the queue in order.
    ///
    /// (The event and the handler are separate locals rather than a struct of them: such a struct,
    /// optional while the loop runs, was copied through its generic value witnesses.)
    @inlinable func put(_ event: Event) {
        let lock = lock  // found once: each `lock` hashes the address again
        lock.lock()
        switch state.admit(event) {
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
            var handler = state.handlers.next
            lock.unlock()
            handler?(value)
            // The handler and the value (maybe the last references) go before locking again.
            handler = nil
            _ = consume value
            _ = consume event
            lock.lock()
            guard let queued = state.next(dropping: &dropped) else {
                checkInvariants()
                return lock.unlock()
            }
            event = queued
        }
        finish(event, lock)
    }

    /// Delivers the terminal `event`, entered holding the lock: releases the other handlers, calls
    /// its own and releases it; then disposes what the generator returned (unless a disposal took
    /// it) and releases what was kept alive.
    @inlinable func finish(_ event: Event, _ lock: StripedLock) {
        // Used in place, not copied into locals: a copy would retain each handler once more.
        var release = state.beginTermination()
        lock.unlock()
        release.handlers.next = nil
        switch event {
        case .error(let failure):
            release.handlers.completed = nil
            release.handlers.error?(failure)
            release.handlers.error = nil
        case .completion, .next:  // (never a value: `put` delivers those)
            release.handlers.error = nil
            release.handlers.completed?()
            release.handlers.completed = nil
        }
        lock.lock()
        var drained = DrainQueue<Event>()
        let disposable = state.endTermination(releasing: &drained)
        checkInvariants()
        lock.unlock()
        disposable?.dispose()
        release.keptAlive = []
        drained = DrainQueue()
        _ = (release, drained)
    }

    /// Hands over what the generator returned: disposed when the subscription ends, and at once if it
    /// has ended already.
    @inlinable func assign(_ disposable: any Disposable) {
        let lock = lock
        lock.lock()
        let isHeld = state.hold(disposable)
        lock.unlock()
        if !isHeld { disposable.dispose() }
    }

    @inlinable func keepAlive(_ object: AnyObject) {
        let lock = lock
        lock.lock()
        state.keepAlive(object)
        lock.unlock()
    }

    @usableFromInline override var hasEnded: Bool {
        let lock = lock
        lock.lock()
        defer { lock.unlock() }
        if case .running = state.phase { return false }
        return true
    }

    /// The subscriber was released by its source: what it kept alive goes, then its handlers —
    /// after what the generator returned, when nothing else holds that (the handle is gone
    /// too, so `dispose()` can never be called): SwiftSignalKit's order.
    @usableFromInline override func subscriberReleased(isHandleGone: Bool) {
        let lock = lock
        lock.lock()
        var release = state.subscriberReleased(isHandleGone: isHandleGone)
        lock.unlock()
        release.disposable = nil
        release.keptAlive = []
        release.handlers = State.Handlers()
        _ = release
    }

    /// Stops the subscription: no handler is called after this returns (on this thread), then what the
    /// generator returned is disposed, then the handlers are released, then what was kept alive —
    /// each after unlocking, in SwiftSignalKit's order.
    @usableFromInline func dispose() {
        let lock = lock
        lock.lock()
        guard case .dispose(let disposable) = state.beginDisposal() else { return lock.unlock() }
        if let disposable {  // (with none, as after a terminal event, one section does it all)
            lock.unlock()
            disposable.dispose()
            lock.lock()
        }
        var drained = DrainQueue<Event>()
        var release = state.endDisposal(releasing: &drained)
        lock.unlock()
        release.handlers = State.Handlers()
        release.keptAlive = []
        _ = (release, drained)
    }

    /// In debug builds of the library, stops the program if the state breaks its invariant.
    @inlinable @inline(__always) func checkInvariants() {
        #if RECEIVER_DIAGNOSTICS
        if let broken = state.brokenInvariant { preconditionFailure("SubscriberCore: \(broken)") }
        #endif
    }

    /// As SwiftSignalKit's start handle prints itself: `disposable` is `hasValue` until the start is
    /// disposed.
    @usableFromInline var description: String {
        let lock = lock
        lock.lock()
        let isDisposed = state.isDisposed
        lock.unlock()
        return "SubscriberDisposable { disposable: \(isDisposed ? "nil" : "hasValue") }"
    }

    @usableFromInline var subscriberDescription: String {
        let lock = lock
        lock.lock()
        let handlers = state.handlers
        let held = [
            handlers.next != nil, handlers.error != nil, handlers.completed != nil, state.subscriberHoldsGenerated,
        ]
        .map { $0 ? "hasValue" : "nil" }
        let isTerminated = state.isTerminated
        lock.unlock()
        return
            "Subscriber { next: \(held[0]), error: \(held[1]), completed: \(held[2]), disposable: \(held[3]), terminated: \(isTerminated) }"
    }
}
