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
/// what the generator returned is disposed, and nothing put afterwards is delivered.
///
/// Built on a `.hot` pair of the core: every `put…` broadcasts an event, and one listener calls the
/// handlers. So, as for any listener, calls to the handlers never overlap, they see the events in
/// one order, a `put…` from inside a handler is queued (never recursive), and after the
/// subscription's `dispose()` returns no handler is called again.
///
/// > Note: `put…` may be called from any thread. Handlers run on the thread that puts (or on the
/// > thread already delivering to this subscriber, which also delivers what others put meanwhile).
public final class Subscriber<T, E> {
    /// What travels through the subscriber's pair.
    @usableFromInline enum Event {
        case next(T)
        case error(E)
        case completion
    }

    @usableFromInline let transmitter: Receiver<Event>.Transmitter
    /// What `start` returns: stops the handlers, then disposes the generator's disposable.
    @usableFromInline let subscription: Subscription

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
        let (transmitter, receiver) = Receiver<Event>.make()
        let resources = DisposableSet()
        // The first terminal event disposes the listener (added to `resources` first) from inside
        // its own handler, so nothing put after it — queued or concurrent — is ever delivered.
        let listening = receiver.listen { event in
            switch event {
            case .next(let value):
                next?(value)
                return
            case .error(let failure):
                error?(failure)
            case .completion:
                completed?()
            }
            resources.dispose()  // the listener itself, then the generator's disposable
        }
        resources.add(listening)
        self.transmitter = transmitter
        subscription = Subscription(listening: listening, resources: resources)
    }

    /// Delivers `value` to the `next` handler, unless the subscriber has terminated.
    ///
    /// ```swift
    /// subscriber.putNext(42)
    /// ```
    ///
    /// - Parameter value: The value to deliver.
    @inlinable public func putNext(_ value: T) { transmitter.broadcast(.next(value)) }

    /// Terminates the subscriber with `error`: the `error` handler is called, then the
    /// generator's disposable is disposed. Does nothing if it has terminated already.
    ///
    /// ```swift
    /// subscriber.putError(.notFound)
    /// ```
    ///
    /// - Parameter error: The error to deliver.
    @inlinable public func putError(_ error: E) { transmitter.broadcast(.error(error)) }

    /// Terminates the subscriber: the `completed` handler is called, then the generator's
    /// disposable is disposed. Does nothing if it has terminated already.
    ///
    /// ```swift
    /// subscriber.putCompletion()
    /// ```
    @inlinable public func putCompletion() { transmitter.broadcast(.completion) }

    /// Puts any event (used to forward a pipe's terminal event).
    @inlinable func put(_ event: Event) { transmitter.broadcast(event) }

    /// Hands over what the generator returned: disposed on termination or on the subscription's
    /// `dispose()`, and at once if either happened already (the generator may complete before it
    /// returns).
    @usableFromInline func assign(_ disposable: any Disposable) { subscription.resources.add(disposable) }

    /// The disposable `start` returns.
    @usableFromInline final class Subscription: Disposable {
        let listening: any Disposable
        let resources: DisposableSet

        @usableFromInline init(listening: any Disposable, resources: DisposableSet) {
            (self.listening, self.resources) = (listening, resources)
        }

        // The listener first, directly: whoever calls this knows, when it returns, that no
        // handler runs again (even if another thread is disposing `resources` at the same time).
        @usableFromInline func dispose() {
            listening.dispose()
            resources.dispose()
        }
    }
}

extension Subscriber: Sendable where T: Sendable, E: Sendable {}
extension Subscriber.Event: Sendable where T: Sendable, E: Sendable {}
