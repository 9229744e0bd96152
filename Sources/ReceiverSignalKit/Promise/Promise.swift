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
/// > Note: Deinitialising the promise disposes the signal it was given. Calls to `set` from
/// > several threads at once race: the signal set last wins, but the one it replaces may send
/// > until it is disposed.
public final class Promise<T> {
    @usableFromInline let transmitter: Receiver<T?>.Transmitter
    @usableFromInline let receiver: Receiver<T?>
    @usableFromInline let source = MetaDisposable()

    /// Makes a promise without a current value.
    ///
    /// ```swift
    /// let promise = Promise<Int>()
    /// ```
    @inlinable public init() {
        (transmitter, receiver) = Receiver<T?>.make(with: .warm(upTo: 1))
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

    deinit { source.dispose() }

    /// Feeds the promise from `signal`: disposes the signal set before, clears the current value,
    /// then starts `signal`; each value it sends becomes the current value and goes to every
    /// subscriber.
    ///
    /// ```swift
    /// promise.set(.single(2))
    /// promise.set(.never())   // no current value until the new signal sends one
    /// ```
    ///
    /// - Parameter signal: The new source of values.
    @inlinable public func set(_ signal: Signal<T, NoError>) {
        source.set(nil)
        transmitter.broadcast(nil)
        let transmitter = transmitter
        source.set(signal.start(next: { transmitter.broadcast($0) }))
    }

    /// A signal of the current value (if there is one, sent at start on the starting thread),
    /// then of every new value. It never completes.
    ///
    /// ```swift
    /// promise.get() |> map { $0 * 2 }
    /// ```
    ///
    /// - Returns: The signal of the promise's values.
    @inlinable public func get() -> Signal<T, NoError> {
        receiver.skipNil().signal
    }
}

extension Promise: Sendable where T: Sendable {}
