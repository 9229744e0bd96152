/// A cold producer of values that ends with at most one error or completion — SwiftSignalKit's
/// `Signal`, built on ``Receiver``.
///
/// The generator runs once per ``start(next:error:completed:)``, at `start`: each start is its own
/// run with its own ``Subscriber`` (the ReactiveSwift `SignalProducer` model).
///
/// ```swift
/// let signal = Signal<String, NoError> { subscriber in
///     subscriber.putNext("a")
///     subscriber.putCompletion()
///     return EmptyDisposable
/// }
/// let disposable = signal.start(next: { print($0) }, completed: { print("done") })
/// // prints "a", then "done"
/// ```
///
/// Transform signals with the free functions and the pipe:
/// `promise.get() |> map { $0 * 2 } |> distinctUntilChanged`.
///
/// > Note: Handlers are ordinary closures, not `@Sendable`: they run on whichever thread the
/// > generator puts from. Calls to one start's handlers never overlap.
public final class Signal<T, E> {
    /// Starts one run with the given handlers and returns what stops it.
    @usableFromInline typealias Start = (((T) -> Void)?, ((E) -> Void)?, (() -> Void)?) -> any Disposable

    // Immutable and only ever called, so sharing it is safe; `nonisolated(unsafe)` only because
    // generators and handlers are ordinary, non-`@Sendable` closures (as `Receiver.attach`).
    @usableFromInline nonisolated(unsafe) let run: Start

    /// A signal whose runs need no subscriber of their own, because something else already
    /// serializes them (`receiver.signal` listens straight to its pair) or because they deliver
    /// everything before they return (`single`, `fail`, `complete`: see ``InstantSubscription``).
    @inlinable init(start run: @escaping Start) { self.run = run }

    /// Makes a signal whose every start runs `generator`.
    ///
    /// ```swift
    /// let ticks = Signal<Int, NoError> { subscriber in
    ///     let timer = Ticker { subscriber.putNext($0) }
    ///     return ActionDisposable { timer.stop() }
    /// }
    /// ```
    ///
    /// - Parameter generator: Called once per start with that start's subscriber; returns what
    ///   stops the work (disposed when the subscriber terminates or the start is disposed).
    @inlinable public init(_ generator: @escaping (Subscriber<T, E>) -> any Disposable) {
        run = { next, error, completed in
            // The start holds the subscriber only while the generator runs: from then on, the
            // source does, or nothing (SwiftSignalKit's lifetime). The core is the handle.
            let subscriber = Subscriber(next: next, error: error, completed: completed)
            let core = subscriber.core
            let (disposable, paused) = SubscriptionsBeingMade.making(core) { generator(subscriber) }
            core.assign(disposable)
            if let paused { Restarts.resume(paused) }  // loops that paused because this start ended
            return core
        }
    }

    /// Runs the generator, delivering what it puts to the handlers.
    ///
    /// ```swift
    /// let disposable = signal.start(next: { print($0) }, error: { print("failed", $0) })
    /// disposable.dispose()   // stops the run; no handler is called after this returns
    /// ```
    ///
    /// - Parameters:
    ///   - next: Called with each value.
    ///   - error: Called with the error that terminates the run, if any.
    ///   - completed: Called if the run completes.
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - fileID: The caller's file, filled in by Swift; leave it out.
    ///   - line: The caller's line, filled in by Swift; leave it out.
    /// - Returns: What stops the run: disposing it stops the handlers and disposes what the
    ///   generator returned. Dropping it without `dispose()` does not stop the run.
    @discardableResult
    @inlinable public func start(
        next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
    ) -> any Disposable {
        #if RECEIVER_DIAGNOSTICS  // debug builds: the actor check and leak detection (Signal+Diagnostics.swift)
        let (next, error, completed) = Self.diagnosed(next, error, completed, isolation, "start", fileID, line)
        #endif
        return run(next, error, completed)
    }

    /// Starts the signal, exactly as ``start(next:error:completed:)``. SwiftSignalKit apps use
    /// the name to mark subscriptions that are deliberately not tied to an owner.
    ///
    /// ```swift
    /// signal.startStandalone(next: { print($0) })
    /// ```
    ///
    /// - Parameters:
    ///   - next: Called with each value.
    ///   - error: Called with the error that terminates the run, if any.
    ///   - completed: Called if the run completes.
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - fileID: The caller's file, filled in by Swift; leave it out.
    ///   - line: The caller's line, filled in by Swift; leave it out.
    /// - Returns: What stops the run.
    @discardableResult
    @inlinable public func startStandalone(
        next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
    ) -> any Disposable {
        #if RECEIVER_DIAGNOSTICS  // debug builds: the actor check and leak detection (Signal+Diagnostics.swift)
        let (next, error, completed) = Self.diagnosed(
            next, error, completed, isolation, "startStandalone", fileID, line)
        #endif
        return run(next, error, completed)
    }

    /// Starts the signal and wraps the handle in a ``StrictDisposable``: in debug builds, letting
    /// it go without calling `dispose()` is an assertion failure naming `file` and `line`.
    ///
    /// ```swift
    /// let disposable = signal.startStrict(next: { print($0) })
    /// disposable.dispose()   // forgetting this asserts in debug builds
    /// ```
    ///
    /// - Parameters:
    ///   - next: Called with each value.
    ///   - error: Called with the error that terminates the run, if any.
    ///   - completed: Called if the run completes.
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - file: The file named by the leak assertion.
    ///   - line: The line named by the leak assertion.
    /// - Returns: What stops the run, checked for leaks.
    @discardableResult
    public func startStrict(
        next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil,
        isolation: (any Actor)? = #isolation, file: String = #file, line: Int = #line
    ) -> any Disposable {
        #if RECEIVER_DIAGNOSTICS  // debug builds: the actor check and leak detection (Signal+Diagnostics.swift)
        let (next, error, completed) = Self.diagnosed(next, error, completed, isolation, "startStrict", file, line)
        #endif
        return run(next, error, completed).strict(file: file, line: line)
    }

    /// SwiftSignalKit's exact signature of ``start(next:error:completed:isolation:fileID:line:)``,
    /// kept so that a reference to `signal.start(next:error:completed:)` has its type. Calls choose
    /// the form above, which knows its caller's actor and call site.
    ///
    /// ```swift
    /// let start: (((Int) -> Void)?, ((NoError) -> Void)?, (() -> Void)?) -> any Disposable =
    ///     signal.start(next:error:completed:)
    /// ```
    @_disfavoredOverload @discardableResult
    @inlinable public func start(
        next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil
    ) -> any Disposable {
        run(next, error, completed)
    }

    /// SwiftSignalKit's exact signature of
    /// ``startStandalone(next:error:completed:isolation:fileID:line:)``, kept so that a reference to
    /// `signal.startStandalone(next:error:completed:)` has its type.
    ///
    /// ```swift
    /// let start: (((Int) -> Void)?, ((NoError) -> Void)?, (() -> Void)?) -> any Disposable =
    ///     signal.startStandalone(next:error:completed:)
    /// ```
    @_disfavoredOverload @discardableResult
    @inlinable public func startStandalone(
        next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil
    ) -> any Disposable {
        run(next, error, completed)
    }

    /// SwiftSignalKit's exact signature of
    /// ``startStrict(next:error:completed:isolation:file:line:)``, kept so that a reference to
    /// `signal.startStrict(next:error:completed:file:line:)` has its type.
    ///
    /// ```swift
    /// let start: (((Int) -> Void)?, ((NoError) -> Void)?, (() -> Void)?, String, Int) -> any Disposable =
    ///     signal.startStrict(next:error:completed:file:line:)
    /// ```
    @_disfavoredOverload @discardableResult
    public func startStrict(
        next: ((T) -> Void)? = nil, error: ((E) -> Void)? = nil, completed: (() -> Void)? = nil, file: String = #file,
        line: Int = #line
    ) -> any Disposable {
        run(next, error, completed).strict(file: file, line: line)
    }

    /// A signal that sends `value`, then completes.
    ///
    /// ```swift
    /// Signal<Int, NoError>.single(1).start(next: { print($0) })   // prints 1
    /// ```
    ///
    /// - Parameter value: The one value.
    /// - Returns: A signal of `value` and a completion.
    @inlinable public static func single(_ value: T) -> Signal<T, E> {
        // Its own start (no subscriber, queue or lock), exactly as the generator that puts the
        // value and a completion would deliver them.
        Signal(start: { next, _, completed in
            InstantSubscription.run { start in
                next?(value)
                start.terminate()
                completed?()
            }
        })
    }

    /// A signal that completes without a value.
    ///
    /// ```swift
    /// Signal<Int, NoError>.complete().start(completed: { print("done") })   // prints "done"
    /// ```
    ///
    /// - Returns: A signal that only completes.
    @inlinable public static func complete() -> Signal<T, E> {
        Signal(start: { _, _, completed in
            InstantSubscription.run { start in
                start.terminate()
                completed?()
            }
        })
    }

    /// A signal that fails with `error` without a value.
    ///
    /// ```swift
    /// Signal<Int, MyError>.fail(.timeout).start(error: { print($0) })   // prints "timeout"
    /// ```
    ///
    /// - Parameter error: The error.
    /// - Returns: A signal that only fails.
    @inlinable public static func fail(_ error: E) -> Signal<T, E> {
        Signal(start: { _, failed, _ in
            InstantSubscription.run { start in
                start.terminate()
                failed?(error)
            }
        })
    }

    /// A signal that never sends anything.
    ///
    /// ```swift
    /// Signal<Int, NoError>.never().start(next: { print($0) })   // prints nothing, ever
    /// ```
    ///
    /// - Returns: A signal that neither sends nor terminates.
    @inlinable public static func never() -> Signal<T, E> {
        Signal { _ in EmptyDisposable }
    }
}

extension Signal: Sendable where T: Sendable {}

/// The error type of a signal that cannot fail, as in SwiftSignalKit: `Signal<Int, NoError>`.
public typealias NoError = Never
