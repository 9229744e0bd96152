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
/// Its fields are plain stored properties rather than a generic state struct: `dispose()`, the
/// subscriber's `deinit` and the descriptions run unspecialised (through a protocol witness or a
/// destructor), and a generic struct would make each of them look up its type metadata at run
/// time (measured: six times the instructions of a whole `never().start()` + `dispose()`). Only
/// the inlinable delivery path, specialised in the user's module, touches the generic queue.
///
/// Its lock is a `StripedLock`: every locked section only moves state in or out; what it takes out
/// (handlers, values, disposables) is called, disposed or released by the caller after unlocking.
/// `@unchecked Sendable`: the fields are only reached under that lock.
@usableFromInline
final class SubscriberCore<T, E>: AnySubscriberCore, Disposable, CustomStringConvertible, @unchecked Sendable {
    @usableFromInline typealias Event = Subscriber<T, E>.Event

    @exclusivity(unchecked) @usableFromInline var next: ((T) -> Void)?
    @exclusivity(unchecked) @usableFromInline var error: ((E) -> Void)?
    @exclusivity(unchecked) @usableFromInline var completed: (() -> Void)?
    /// What the generator returned: disposed when the start ends. `nil` until the generator
    /// returns, and once it is disposed.
    @exclusivity(unchecked) @usableFromInline var disposable: (any Disposable)?
    /// Events put while one was delivered, from `head` on; a delivered event is moved out of its
    /// slot, so clearing the drained queue releases nothing.
    @exclusivity(unchecked) @usableFromInline var queue: ContiguousArray<Event?> = []
    @exclusivity(unchecked) @usableFromInline var keptAlive: [AnyObject] = []
    // `isDelivering` (a thread is delivering: a `put…` is queued for it), `head` (where the queue
    // starts), `isTerminated` and `isDisposed` are ``AnySubscriberCore``'s.

    @inlinable init(next: ((T) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?) {
        (self.next, self.error, self.completed) = (next, error, completed)
    }

    /// Delivers `event` now, or queues it for the thread already delivering; that thread (this one,
    /// if it was idle) then delivers the queue in order.
    ///
    /// The locked sections only move handlers and events in and out; each call, and each release
    /// of what a section took out, happens after unlocking. (It works on the event and the
    /// handlers as separate locals rather than on a struct of them: such a struct, optional while
    /// the loop runs, was copied and destroyed through its generic value witnesses even when
    /// specialised, about 150 instructions per event.)
    @inlinable func put(_ event: Event) {
        var late: [AnyObject] = []  // kept alive since termination: a late terminal call releases it
        let lock = lock  // found once: each `lock` hashes the address again
        lock.lock()
        guard admit(event, late: &late) else { return lock.unlock() }
        var event = event
        var dropped = ContiguousArray<Event?>()  // what a disposal mid-delivery left queued
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

    /// Accepts a `put`, under the lock: returns whether this thread is now delivering it, or
    /// `false` when the event is queued behind a delivery in progress or dropped (the subscriber
    /// has terminated).
    @inlinable func admit(_ event: Event, late: inout [AnyObject]) -> Bool {
        var isTerminal: Bool {
            if case .next = event { return false }
            return true
        }
        guard !isTerminated, !isDisposed else {
            if isTerminal, !isDisposed { swap(&late, &keptAlive) }  // as in SwiftSignalKit
            return false
        }
        isTerminated = isTerminal
        guard !isDelivering else {
            queue.append(event)
            return false
        }
        isDelivering = true
        return true
    }

    /// After a value's delivery, under the lock: the next queued event, or `nil` once there is none
    /// (or the start was disposed: then the queue is moved to `dropped`), when the delivering thread
    /// stops. Only a delivering thread has a queue, so only it ever empties one.
    @inlinable func advance(dropping dropped: inout ContiguousArray<Event?>) -> Event? {
        guard !isDisposed, Int(head) < queue.count, let event = queue[Int(head)].take() else {
            swap(&dropped, &queue)
            (isDelivering, head) = (false, 0)
            return nil
        }
        head += 1
        if Int(head) == queue.count {  // drained: only moved-out slots are left
            queue.removeAll(keepingCapacity: head <= 16)
            head = 0
        }
        return event
    }

    /// Delivers the terminal `event`, entered holding the lock: takes every handler and what is
    /// kept alive out, unlocks, releases the other handlers, calls its own and releases it; then
    /// disposes what the generator returned (unless the handler disposed the start, which disposed
    /// it) and releases what was kept alive. Nothing was queued behind a terminal event, so the
    /// section that takes the generator's disposable also ends the delivery.
    @inlinable func finish(_ event: Event, _ lock: StripedLock) {
        // Copied out, then cleared, rather than `take()`n: the generic `Optional.take()` returns a
        // handler at its unsubstituted abstraction, which costs two reabstraction thunks (two
        // allocations) per handler. Clearing a field releases nothing: the copy holds it.
        var next = next, error = error, completed = completed
        (self.next, self.error, self.completed) = (nil, nil, nil)
        var keptAlive = keptAlive.take()
        lock.unlock()
        next = nil
        switch event {
        case .error(let failure):
            completed = nil
            error?(failure)
            error = nil
        case .completion, .next:  // (never a value: `put` delivers those)
            error = nil
            completed?()
            completed = nil
        }
        lock.lock()
        let disposable = self.disposable.take()
        var queue = queue.take()  // drained: only moved-out slots
        (isDelivering, head) = (false, 0)
        lock.unlock()
        disposable?.dispose()
        keptAlive = []
        queue = []
        _ = (next, error, completed, keptAlive, queue)
    }

    /// Hands over what the generator returned: disposed when the start ends, and at once if it
    /// has ended already (the generator may terminate before it returns).
    @inlinable func assign(_ disposable: any Disposable) {
        let isRefused = lock.withLock {
            guard !isTerminated, !isDisposed else { return true }
            self.disposable = disposable
            return false
        }
        if isRefused { disposable.dispose() }
    }

    @inlinable func keepAlive(_ object: AnyObject) {
        lock.withLock { keptAlive.append(object) }
    }

    /// The subscriber was released by its source: what it kept alive goes, then its handlers —
    /// after what the generator returned, when nothing else holds that (the start's handle is gone
    /// too, so `dispose()` can never be called): SwiftSignalKit's order. Otherwise what the
    /// generator returned stays, for the start's `dispose()`.
    ///
    /// (This and `dispose()` run unspecialised: they lock without a closure and copy out instead
    /// of calling generic helpers such as `take()`, which would look up the handlers' type
    /// metadata on every call. Setting a field to `nil` under the lock releases nothing: the copy
    /// holds it until after unlocking.)
    @usableFromInline override func subscriberReleased(isHandleGone: Bool) {
        let lock = lock  // found once: each `lock` hashes the address again
        lock.lock()
        // While `dispose()` runs (a source may let go of its subscriber as its disposable is
        // disposed), it releases all of this itself when that returns, as SwiftSignalKit's handle
        // holds its subscriber meanwhile.
        guard !isDisposed || isTerminated else { return lock.unlock() }
        var disposable = isHandleGone ? self.disposable : nil
        var keptAlive = self.keptAlive, next = self.next, error = self.error, completed = self.completed
        (self.keptAlive, self.next, self.error, self.completed) = ([], nil, nil, nil)
        if isHandleGone { self.disposable = nil }
        lock.unlock()
        disposable = nil
        keptAlive = []
        next = nil
        error = nil
        completed = nil
        _ = (disposable, keptAlive, next, error, completed)
    }

    /// Stops the start: no handler is called after this returns (on this thread), then what the
    /// generator returned is disposed, then the handlers are released, then what was kept alive —
    /// each after unlocking, in SwiftSignalKit's order.
    ///
    /// As in SwiftSignalKit, the subscriber holds its handlers and what it keeps alive until the
    /// generator's disposable has been disposed, and is marked terminated only then: what that
    /// disposal does to the subscriber (a `keepAlive`, a look at `description`, which still shows
    /// the disposable) sees it as it was, and is let go of with the rest. Only delivery stops first.
    ///
    /// The generator's disposable is taken out in the section that marks the start disposed: from
    /// then on this call alone has it, so a terminal event whose handler is still running when
    /// this begins finds none left to dispose, and it is disposed exactly once, never by two
    /// threads at once.
    @usableFromInline func dispose() {
        let lock = lock  // found once: each `lock` hashes the address again
        lock.lock()
        guard !isDisposed else { return lock.unlock() }
        isDisposed = true  // nothing is delivered from now on (a delivering thread drops its queue)
        let disposable = self.disposable
        self.disposable = nil
        if disposable != nil {  // (with none, as after a terminal event, one section does it all)
            lock.unlock()
            disposable?.dispose()
            lock.lock()
        }
        var keptAlive = self.keptAlive, next = self.next, error = self.error, completed = self.completed
        (self.keptAlive, self.next, self.error, self.completed) = ([], nil, nil, nil)
        isTerminated = true
        lock.unlock()
        next = nil
        error = nil
        completed = nil
        keptAlive = []
        _ = (keptAlive, next, error, completed)
    }

    /// As SwiftSignalKit's start handle prints itself: `disposable` is `hasValue` until the start is
    /// disposed.
    @usableFromInline var description: String {
        lock.lock()
        let isDisposed = isDisposed
        lock.unlock()
        return "SubscriberDisposable { disposable: \(isDisposed ? "nil" : "hasValue") }"
    }

    @usableFromInline var subscriberDescription: String {
        lock.lock()
        // The generator's disposable is the subscriber's until it terminates (the handle may still
        // hold it for `dispose()`, as SwiftSignalKit's handle does). While `dispose()` disposes it
        // (disposed, not yet terminated), that call has taken it out, but the subscriber still
        // shows it, as SwiftSignalKit's does.
        let held = [next != nil, error != nil, completed != nil, !isTerminated && (disposable != nil || isDisposed)].map
        {
            $0 ? "hasValue" : "nil"
        }
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
