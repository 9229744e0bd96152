// The one engine behind every `combineLatest` overload (Signal+Combine.swift, generated).
//
// Per start: one `.hot` pair, whose single listener owns the combining state. Every input event is
// broadcast into that pair, so the state is updated, and the tuple put into the downstream
// subscriber, in the pair's one serialized order: two inputs updating on two threads can never
// emit their tuples out of order, and no lock is held while the state changes, while the tuple is
// built, or while a replaced value is released (its `deinit` is user code).
//
// The state is type-erased (values as `Any`, indexed by input) so that the 25 tuple overloads,
// the seeded one and the array one share this code; each overload only supplies its sources and
// how to cast the values back into its result. Everything is `@inlinable`, so it is specialised
// for the result and error types in the user's module, like the core's delivery path.
//
// What one start keeps alive, besides the downstream subscriber and the inputs' own starts:
//
//   each input's handlers ──▶ the pair's transmitter ──▶ listener ──▶ CombineLatestState
//   CombineLatestState ──▶ subscriber ──▶ CombineLatestDisposable ──▶ the inputs' starts
//
// The loop through the subscriber is cut when the start ends: terminating or disposing the
// subscriber disposes the inputs' starts, which release their handlers, the only holders of the
// transmitter, whose end releases the listener and the state. A start never disposed is released
// the same way when its inputs end.

/// An input event, as it travels through a start's pair: a value of input `index` (0 or more),
/// or a terminal event. A plain struct, not an enum generic over `E`: the pair copies and tests
/// its waves, and a multi-payload enum holding an `Any` is copied and tested through the runtime
/// on every step (measured: an eighth of an update's cost).
@usableFromInline struct CombineLatestEvent {
    @inlinable static var error: Int { -1 }  // `value` is the error, as `Any`
    @inlinable static var completion: Int { -2 }

    @usableFromInline let index: Int
    @usableFromInline let value: Any

    @inlinable init(index: Int, value: Any) { (self.index, self.value) = (index, value) }
}

/// What stands in a start's values for an input that has not sent a value yet.
@usableFromInline struct CombineLatestNoValue {
    @inlinable init() {}
}

/// One input of a `combineLatest`, type-erased: starting it sends its events into a start's pair.
@usableFromInline struct CombineLatestSource<E> {
    @usableFromInline let start: (Receiver<CombineLatestEvent>.Transmitter, Int) -> any Disposable

    /// Erases `signal`, wrapped in `deliverOn(queue)` when there is a queue (once, here, rather
    /// than on every start).
    @inlinable init<T>(_ signal: Signal<T, E>, on queue: Queue?) {
        let signal = queue.map { signal |> deliverOn($0) } ?? signal
        // Only `next` needs the index, so it is the one handler that allocates a context; a
        // closure capturing only the transmitter uses it as its context.
        start = { pair, index in
            signal.start(
                next: { pair.broadcast(CombineLatestEvent(index: index, value: $0)) },
                error: { pair.broadcast(CombineLatestEvent(index: CombineLatestEvent.error, value: $0)) },
                completed: { pair.broadcast(CombineLatestEvent(index: CombineLatestEvent.completion, value: ())) }
            )
        }
    }
}

/// The combining state of one start; only the pair's listener touches it, so it needs no lock.
@usableFromInline final class CombineLatestState<R, E> {
    @usableFromInline let subscriber: Subscriber<R, E>
    @usableFromInline let combine: ([Any]) -> R
    // The latest value of each input, `CombineLatestNoValue()` until it sends one. Not `[Any?]`:
    // copying an `Any?` goes through the generic `Optional` witnesses, which made each copy about
    // three times as dear. Only the listener touches it, so exclusivity checks are left out.
    @exclusivity(unchecked) @usableFromInline var values: [Any]
    @usableFromInline var missing: Int  // inputs without a value yet
    @usableFromInline var running: Int  // inputs not completed yet

    @inlinable init(subscriber: Subscriber<R, E>, combine: @escaping ([Any]) -> R, values: [Any]) {
        (self.subscriber, self.combine, self.values) = (subscriber, combine, values)
        missing = values.lazy.filter { $0 is CombineLatestNoValue }.count
        running = values.count
    }

    /// Each input sends at most one terminal event (its subscriber stops after it), so counting
    /// completions is enough. The first error terminates the subscriber, which disposes every
    /// input; an event already queued in the pair then reaches a subscriber that ignores it.
    @inlinable func receive(_ event: CombineLatestEvent) {
        switch event.index {
        case 0...:
            if missing > 0, values[event.index] is CombineLatestNoValue { missing -= 1 }  // once all have one, no test
            values[event.index] = event.value
            if missing == 0 { subscriber.putNext(combine(values)) }
        case CombineLatestEvent.error:
            subscriber.putError(event.value as! E)
        default:
            running -= 1
            if running == 0 { subscriber.putCompletion() }
        }
    }
}

/// What a start's generator returns: disposes the inputs' starts, in order. Each one's
/// `dispose()` is idempotent and thread-safe, so this is too.
@usableFromInline final class CombineLatestDisposable: Disposable {
    @usableFromInline let inputs: [any Disposable]

    @inlinable init(_ inputs: [any Disposable]) { self.inputs = inputs }

    @usableFromInline func dispose() {
        for input in inputs { input.dispose() }
    }
}

/// The shared body of every `combineLatest`: emits `combine(values)` once every input has a
/// value, then on every value; completes when all inputs have; forwards the first error.
///
/// - Parameters:
///   - sources: The inputs, started in order, synchronously, at each start.
///   - seed: Initial values, one per input. With a seed, their combination is put at once,
///     before any input is started.
///   - combine: Makes the result from the values, one per input, in order.
/// - Returns: The combined signal.
@inlinable func combineLatestAny<R, E>(
    _ sources: [CombineLatestSource<E>], seed: [Any]? = nil, combine: @escaping ([Any]) -> R
) -> Signal<R, E> {
    Signal { subscriber in
        if let seed { subscriber.putNext(combine(seed)) }
        let values = seed ?? Array(repeating: CombineLatestNoValue(), count: sources.count)
        let state = CombineLatestState(subscriber: subscriber, combine: combine, values: values)
        let (pair, receiver) = Receiver<CombineLatestEvent>.make()
        // The listener is not kept: disposing the inputs releases their handlers, the only holders
        // of `pair`, and the pair's end releases the listener and the state.
        receiver.listen { state.receive($0) }
        var inputs: [any Disposable] = []
        inputs.reserveCapacity(sources.count)
        for (index, source) in sources.enumerated() {
            inputs.append(source.start(pair, index))
        }
        return CombineLatestDisposable(inputs)
    }
}
