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
/// The first `putError` or `putCompletion` terminates the subscriber: its handler runs, then
/// what the generator returned is disposed, then the handlers and everything kept alive are
/// released. Nothing put afterwards is delivered.
///
/// Delivery goes through a `.hot` pair of the core, made at the first `put…` (a subscription
/// that never receives an event, such as `never()`'s, costs no pair): every `put…` broadcasts an
/// event, and the pair's one listener calls the handlers. So, as for any listener, calls to the
/// handlers never overlap, they see the events in one order, a `put…` from inside a handler is
/// queued (never nested), and after the subscription's `dispose()` returns no handler is called
/// again (SwiftSignalKit nests re-entrant puts and may run one handler on several threads at once).
///
/// > Note: `put…` may be called from any thread. Handlers run on the thread that puts (or on the
/// > thread already delivering to this subscriber, which also delivers what others put meanwhile).
public final class Subscriber<T, E>: CustomStringConvertible {
    /// What travels through the subscriber's pair.
    @usableFromInline enum Event {
        case next(T)
        case error(E)
        case completion
    }

    /// The run: its locked state, and the disposable `start` returns.
    @usableFromInline let run: SubscriberRun
    /// The pair that serialises delivery, made at the first `put…`. Only touched under the run's
    /// lock.
    @usableFromInline nonisolated(unsafe) var transmitter: Receiver<Event>.Transmitter?
    /// Immutable and only called by deliveries, which the pair serialises; `nonisolated(unsafe)`
    /// because handlers are ordinary closures, not `@Sendable` (see the threading contract).
    @usableFromInline nonisolated(unsafe) let next: ((T) -> Void)?, error: ((E) -> Void)?, completed: (() -> Void)?

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
        (self.next, self.error, self.completed) = (next, error, completed)
        run = SubscriberRun()
    }

    /// A description for debugging: which handlers it has and whether it has stopped.
    ///
    /// ```swift
    /// print(Subscriber<Int, NoError>(next: { _ in }))
    /// // Subscriber<Int, Never>(next, stopped: false)
    /// ```
    public var description: String {
        let handlers = [next.map { _ in "next" }, error.map { _ in "error" }, completed.map { _ in "completed" }]
        let isStopped = run.withLock { $0.isStopped }
        return
            "Subscriber<\(T.self), \(E.self)>(\(handlers.compactMap { $0 }.joined(separator: ", ")), stopped: \(isStopped))"
    }

    /// Delivers `value` to the `next` handler, unless the subscriber has terminated.
    ///
    /// ```swift
    /// subscriber.putNext(42)
    /// ```
    ///
    /// - Parameter value: The value to deliver.
    @inlinable public func putNext(_ value: T) { put(.next(value)) }

    /// Terminates the subscriber with `error`: the `error` handler is called, then the
    /// generator's disposable is disposed. Does nothing if it has terminated already.
    ///
    /// ```swift
    /// subscriber.putError(.notFound)
    /// ```
    ///
    /// - Parameter error: The error to deliver.
    @inlinable public func putError(_ error: E) { put(.error(error)) }

    /// Terminates the subscriber: the `completed` handler is called, then the generator's
    /// disposable is disposed. Does nothing if it has terminated already.
    ///
    /// ```swift
    /// subscriber.putCompletion()
    /// ```
    @inlinable public func putCompletion() { put(.completion) }

    /// Keeps `object` alive until the subscriber terminates or its subscription is disposed.
    ///
    /// ```swift
    /// let session = URLSession(configuration: .default)
    /// subscriber.keepAlive(session)
    /// ```
    ///
    /// - Parameter object: What to keep; released at once if the subscriber has stopped already.
    @inlinable public func keepAlive(_ object: AnyObject) {
        let refused: AnyObject? = run.withLock { run in
            guard !run.isStopped else { return object }
            run.keptAlive.append(object)
            return nil
        }
        _ = refused  // released here, after unlocking
    }

    /// Broadcasts `event` into the subscriber's pair, making the pair at the first event.
    @inlinable func put(_ event: Event) {
        let (transmitter, isStopped) = run.withLock { (self.transmitter, $0.isStopped) }
        if let transmitter {
            transmitter.broadcast(event)
        } else if !isStopped, let transmitter = makePair() {
            transmitter.broadcast(event)
        }
    }

    /// Makes the pair and its listener outside the lock, then installs them, unless another
    /// thread was first (its pair is used instead) or the subscriber stopped meanwhile (`nil`).
    @inlinable func makePair() -> Receiver<Event>.Transmitter? {
        let handlers = (next, error, completed)
        let (transmitter, receiver) = Receiver<Event>.make()
        // `unowned`: the pair belongs to this subscriber, and only a `put…` on it (which holds
        // it) can deliver, so the subscriber outlives every call; a strong reference would be a
        // cycle through the pair that keeps a never-ending, forgotten run alive.
        let listening = receiver.listen { [unowned self] event in
            switch event {
            case .next(let value):
                handlers.0?(value)
                return
            case .error(let error):
                handlers.1?(error)
            case .completion:
                handlers.2?()
            }
            run.dispose()
        }
        let (installed, unused) = run.withLock { run -> (Receiver<Event>.Transmitter?, (any Disposable)?) in
            guard !run.isStopped else { return (nil, listening) }
            guard self.transmitter == nil else { return (self.transmitter, listening) }
            (self.transmitter, run.listening) = (transmitter, listening)
            return (transmitter, nil)
        }
        unused?.dispose()
        return installed
    }

    /// Hands over what the generator returned: disposed on termination or on the subscription's
    /// `dispose()`, and at once if either happened already (the generator may complete before it
    /// returns).
    @inlinable func assign(_ disposable: any Disposable) {
        let refused: (any Disposable)? = run.withLock { run in
            guard !run.isStopped else { return disposable }
            run.disposable = disposable
            return nil
        }
        refused?.dispose()
    }
}

extension Subscriber: Sendable where T: Sendable, E: Sendable {}
extension Subscriber.Event: Sendable where T: Sendable, E: Sendable {}

/// What one run of a subscriber holds, behind its own lock, and the disposable `start` returns:
/// `dispose()` stops the run. One object, not generic, so that a subscription that never receives
/// an event costs one allocation, and stopping it looks up no type metadata.
///
/// It holds neither the subscriber nor its handlers nor its pair: handlers often reach this
/// disposable (stored in an operator's state, say), and would otherwise form a cycle that outlives
/// every source. (SwiftSignalKit's disposable holds its subscriber weakly for the same reason.)
///
/// Its lock is a `StripedLock`: a mutex of its own would be 40 of its 104 bytes. Every locked
/// section here and in `Subscriber` only moves state in or out. `@unchecked Sendable`: `state` is
/// only reached under that lock.
@usableFromInline final class SubscriberRun: Disposable, @unchecked Sendable {
    @usableFromInline struct State {
        /// The listener of the subscriber's pair, once it has one.
        @usableFromInline var listening: (any Disposable)?
        /// What the generator returned, disposed on termination or disposal.
        @usableFromInline var disposable: (any Disposable)?
        @usableFromInline var keptAlive: [AnyObject] = []
        /// Terminated, or disposed: nothing is delivered any more.
        @usableFromInline var isStopped = false

        @inlinable init() {}

        /// Stops the run and takes out what it held, for the caller to dispose and release after
        /// unlocking; `nil` if it had stopped already.
        @inlinable mutating func stop() -> State? {
            guard !isStopped else { return nil }
            var taken = State()
            swap(&self, &taken)
            isStopped = true
            return taken
        }
    }

    @exclusivity(unchecked) @usableFromInline var state = State()

    @inlinable init() {}

    /// Runs `body` with the state, under the run's lock.
    @inlinable func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try StripedLock(for: self).withLock { try body(&state) }
    }

    /// Stops the run: no handler is called after this returns (on this thread), then what the
    /// generator returned is disposed, then what the run held is released — all after unlocking.
    @usableFromInline func dispose() {
        let taken = withLock { $0.stop() }
        taken?.listening?.dispose()
        taken?.disposable?.dispose()
    }
}
