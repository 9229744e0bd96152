// `pipe(with:)`, which the project adds to SwiftSignalKit's API: built from core pairs (one for the
// values, one replaying the terminal event) behind one input subscriber, so that a pipe keeps
// exactly what the core's strategies keep (hot, warm, cold) and adds no delivery code of its own.

extension Signal {
    /// Makes a subscriber and a signal connected to it: what is put into the subscriber reaches
    /// every started signal — RxSwift's subjects, ReactiveSwift's `pipe`.
    ///
    /// A new start first receives what the strategy keeps (`.hot`: nothing, `.warm(upTo: n)`:
    /// the last `n` values, `.cold`: every value), then every value put after it started. An
    /// error or completion ends every current start, and a start after it receives the kept values
    /// and then that terminal event at once.
    ///
    /// ```swift
    /// let (input, output) = Signal<Int, NoError>.pipe(with: .warm(upTo: 1))
    /// input.putNext(1)
    /// input.putNext(2)
    /// output.start(next: { print($0) })   // prints 2
    /// input.putNext(3)                    // prints 3
    /// input.putCompletion()
    /// output.start(next: { print($0) }, completed: { print("done") })   // prints 3, done
    /// ```
    ///
    /// - Parameter strategy: What to keep for starts after a value was put; `.hot` by default.
    /// - Returns: The input subscriber and the output signal.
    /// - Precondition: A `.warm(upTo:)` count is 0 or more.
    public static func pipe(with strategy: Receiver<T>.Strategy = .hot) -> (Subscriber<T, E>, Signal<T, E>) {
        // Values go through a pair with the chosen strategy; the terminal event through a
        // `.warm(upTo: 1)` pair, which replays it to every later start. The input subscriber
        // is what orders them: it calls one handler at a time, and a value's broadcast has
        // reached every started signal before the terminal event is broadcast.
        let (values, valueReceiver) = Receiver<T>.make(with: strategy)
        let (ending, endingReceiver) = Receiver<Subscriber<T, E>.Event>.make(with: .warm(upTo: 1))
        let input = Subscriber<T, E>(
            next: { values.broadcast($0) },
            error: { ending.broadcast(.error($0)) },
            completed: { ending.broadcast(.completion) }
        )
        let output = Signal { subscriber in
            let listeners = DisposableSet()
            listeners.add(valueReceiver.listen { subscriber.putNext($0) })
            listeners.add(endingReceiver.listen { subscriber.put($0) })
            return listeners
        }
        return (input, output)
    }
}
