/// A hot broadcast of values with no current value, no replay and no end — SwiftSignalKit's
/// `ValuePipe`.
///
/// ```swift
/// let taps = ValuePipe<Int>()
/// taps.putNext(1)                          // nobody listens: lost
/// taps.signal().start(next: { print($0) })
/// taps.putNext(2)                          // prints 2
/// ```
///
/// Built on a `.hot` pair. The signal holds the pipe weakly, as in SwiftSignalKit: starting it
/// after the pipe is gone sends nothing, and a subscription does not keep the pipe alive (once
/// the pipe is gone it receives nothing more, and never completes).
///
/// > Note: A `putNext` made while a subscriber is being delivered to (from its handler, or from
/// > another thread) is queued and delivered after the current value, FIFO (`begin 1, end 1,
/// > begin 2, end 2`, where SwiftSignalKit nests it), so every subscriber sees the values in the
/// > order they were put.
public final class ValuePipe<T> {
    @usableFromInline let transmitter: Receiver<T>.Transmitter
    @usableFromInline let receiver: Receiver<T>

    /// Makes a pipe.
    ///
    /// ```swift
    /// let events = ValuePipe<String>()
    /// ```
    @inlinable public init() {
        (transmitter, receiver) = Receiver<T>.make()
    }

    /// A signal of every value put after it started. It never completes.
    ///
    /// ```swift
    /// let disposable = pipe.signal().start(next: { print($0) })
    /// ```
    ///
    /// - Returns: A signal that holds the pipe weakly: started after the pipe is gone, it sends
    ///   nothing.
    @inlinable public func signal() -> Signal<T, NoError> {
        Signal(start: { [weak self] next, _, _ in
            guard let self else { return EmptyDisposable }
            return self.receiver.listen { next?($0) }
        })
    }

    /// Sends `next` to every started signal, on this thread (or on the thread already delivering).
    ///
    /// ```swift
    /// pipe.putNext("tap")
    /// ```
    ///
    /// - Parameter next: The value.
    @inlinable public func putNext(_ next: T) {
        transmitter.broadcast(next)
    }
}

extension ValuePipe: Sendable where T: Sendable {}
