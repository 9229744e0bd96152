/// A current value fed by a signal: `get()` sends the current value, then every new one.
///
/// ```swift
/// let name = Promise<String>()
/// name.get().start(next: { print($0) })   // prints nothing yet
/// name.set(.single("Ada"))                // prints "Ada"
/// name.get().start(next: { print($0) })   // prints "Ada"
/// ```
///
/// Built on a `.warm(upTo: 1)` pair of `T?`: the kept wave is the current value, `set` clears
/// it by broadcasting `nil`, and `get()` skips the `nil`s. So reading the current value is
/// synchronous, from any thread and from inside a handler:
///
/// ```swift
/// var current: String?
/// name.get().start(next: { current = $0 }).dispose()
/// ```
///
/// The current value is delivered on the calling thread before `start` returns. If other threads
/// feed the promise at the same moment, a newer value may also reach the handler, on their
/// thread, before `dispose()`: keep such a read in an ``Atomic``.
///
/// Ownership, as in SwiftSignalKit: the signal `get()` returns, and each of its subscriptions
/// until it is disposed, keep the promise alive; the signal given to `set` does not (it holds
/// only the pair). Deinitialising the promise calls ``onDeinit``, then disposes that signal.
///
/// ```
/// get() signal ──▶ Promise ──▶ pair ──▶ each subscription's handler ──▶ Promise (until disposed)
///                          └─▶ source subscription ──▶ pair
/// ```
///
/// > Note: Calls to one subscriber never overlap. A `set` (or a value of the source) made while
/// > a subscriber is being delivered to is queued and delivered after the current value, FIFO —
/// > SwiftSignalKit delivers it nested, so a later subscriber sees the new value before the old
/// > one. Calls to `set` from several threads at once race: the signal set last wins, but the
/// > one it replaces may send until it is disposed.
public final class Promise<T> {
    @usableFromInline let transmitter: Receiver<T?>.Transmitter
    @usableFromInline let receiver: Receiver<T?>
    @usableFromInline let source = MetaDisposable()
    @usableFromInline let state: Locked<State>
    /// Whether it was made with a signal to set at the first start: only then does a start look
    /// for it (under the lock).
    @usableFromInline let isInitializedOnFirstAccess: Bool

    @usableFromInline struct State {
        @usableFromInline var onDeinit: (() -> Void)?
        @usableFromInline var initializeOnFirstAccess: Signal<T, NoError>?

        @inlinable init(initializeOnFirstAccess: Signal<T, NoError>?) {
            self.initializeOnFirstAccess = initializeOnFirstAccess
        }
    }

    /// Called first when the promise is deinitialised, before its signal is disposed.
    ///
    /// ```swift
    /// promise.onDeinit = { print("promise released") }
    /// ```
    public var onDeinit: (() -> Void)? {
        get { state.withLock { $0.onDeinit } }
        set {
            var replaced = newValue
            state.withLock { Swift.swap(&$0.onDeinit, &replaced) }
        }  // the closure it replaced is released here, after unlocking
    }

    /// Makes a promise that is fed from `initializeOnFirstAccess` once someone first starts its
    /// `get()` signal, as if `set(initializeOnFirstAccess)` were called then (after that start
    /// received the current value, if any). A `set` made before that is then replaced by it.
    ///
    /// ```swift
    /// let settings = Promise(initializeOnFirstAccess: loadSettings())
    /// // loadSettings() starts here, at the first start:
    /// settings.get().start(next: apply)
    /// ```
    ///
    /// - Parameter initializeOnFirstAccess: The signal to set at the first start, or `nil`.
    @inlinable public init(initializeOnFirstAccess: Signal<T, NoError>?) {
        (transmitter, receiver) = Receiver<T?>.make(with: .warm(upTo: 1))
        state = Locked(State(initializeOnFirstAccess: initializeOnFirstAccess))
        isInitializedOnFirstAccess = initializeOnFirstAccess != nil
    }

    /// Makes a promise whose current value is `value`.
    ///
    /// ```swift
    /// let promise = Promise(1)
    /// ```
    ///
    /// - Parameter value: The current value.
    @inlinable public convenience init(_ value: T) {
        self.init()
        transmitter.broadcast(value)
    }

    /// Makes a promise without a current value.
    ///
    /// ```swift
    /// let promise = Promise<Int>()
    /// ```
    @inlinable public convenience init() {
        self.init(initializeOnFirstAccess: nil)
    }

    deinit {
        state.withLock { $0.onDeinit.take() }?()
        source.dispose()
    }

    /// Feeds the promise from `signal`: clears the current value (without telling anyone),
    /// starts `signal`, and then disposes the signal set before. Each value `signal` sends becomes
    /// the current value and goes to every subscriber; its completion keeps the last value.
    ///
    /// ```swift
    /// promise.set(.single(2))
    /// promise.set(.never())   // no current value until the new signal sends one
    /// ```
    ///
    /// The new signal starts before the old one is disposed, as in SwiftSignalKit, so a
    /// shared upstream that both use is not torn down and started again.
    ///
    /// - Parameter signal: The new source of values.
    @inlinable public func set(_ signal: Signal<T, NoError>) {
        transmitter.broadcast(nil)
        let transmitter = transmitter
        // Bound before it is handed over: passed straight into `set`'s `consuming` parameter,
        // the start made the optimiser keep one more allocation per `set` (W20: 1 → 2).
        let start = signal.start(next: { transmitter.broadcast($0) })
        source.set(start)
    }

    /// A signal of the current value (if there is one, sent at start on the starting thread),
    /// then of every new value. It never completes. The signal and each started subscription
    /// keep the promise alive.
    ///
    /// ```swift
    /// promise.get() |> map { $0 * 2 }
    /// ```
    ///
    /// - Returns: The signal of the promise's values.
    @inlinable public func get() -> Signal<T, NoError> {
        Signal(start: { next, _, _ in
            let listening = self.receiver.listen { value in
                withExtendedLifetime(self) { if let value { next?(value) } }
            }
            if self.isInitializedOnFirstAccess, let initial = self.state.withLock({ $0.initializeOnFirstAccess.take() })
            {
                self.set(initial)
            }
            return listening
        })
    }
}

extension Promise: Sendable where T: Sendable {}
