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
    /// Disposing the start disposes its listener.
    @inlinable public var signal: Signal<Wave, NoError> {
        Signal { subscriber in self.listen { subscriber.putNext($0) } }
    }
}
