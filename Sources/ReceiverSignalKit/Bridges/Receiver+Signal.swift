// The core to the adapter: a receiver as a signal, one listener per start. (The other way, a signal
// into a receiver, is `pipe(with:)` in Signal+Pipe.swift: a pair fed by a subscriber.)

extension Receiver {
    /// This receiver as a signal: each start listens, sends every wave (replay included, so
    /// the start gets what the strategy keeps, on the starting thread), and never terminates.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
    /// transmitter.broadcast(1)
    /// (receiver.signal |> map { $0 * 10 }).start(next: { print($0) })   // prints 10
    /// ```
    ///
    /// Disposing the start disposes its listener. A start is one listener of this receiver,
    /// with no subscriber pair of its own: the receiver's pair already serializes its calls.
    @inlinable public var signal: Signal<Wave, NoError> {
        Signal(start: { next, _, _ in self.listen { next?($0) } })
    }
}
