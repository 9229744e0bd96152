// The one engine behind every `combineLatest` overload (Signal+Combine.swift, generated): one
// `CombineLatestCore` per subscription keeps each input's latest value in typed storage (a tuple
// of optionals, or `CombineLatestArray`), so no value is boxed into `Any` and cast back. Its
// inputs' events go through a ``Serializer``: one thread at a time stores and combines, so the
// tuples go out in one order, and no lock is held while a value is stored or released.
//
//   each input's handlers ──▶ CombineLatestCore ──▶ subscriber ──▶ CombineLatestDisposable
//   CombineLatestDisposable ──▶ the inputs' subscriptions ──▶ their handlers
//
// The cycle is cut when the subscription ends: its end disposes the inputs' subscriptions, whose
// handlers are the only holders of the core.

/// Stores `value` as an input's latest and returns whether it is the input's first value; the
/// value it replaces is released here (the core calls this with no lock held).
///
/// The generated overloads pass it to each input as `{ combineLatestStore(&$0.1, $1) }`.
@inlinable func combineLatestStore<T>(_ slot: inout T?, _ value: T) -> Bool {
    defer { slot = value }
    return slot == nil
}

/// The array form's storage: the latest value of each input, in input order.
///
/// Until every input has a value they wait in `partial`; from then on in `latest`, the very array
/// each update sends. So an update stores its value in place and sends the array as it is, with
/// no copy, when the array sent before has been let go of (it is copied on write otherwise).
@usableFromInline struct CombineLatestArray<T> {
    @usableFromInline var partial: [T?]  // emptied once every input has a value
    @usableFromInline var latest: [T] = []  // empty until then
    @usableFromInline var missing: Int  // inputs without a value yet

    @inlinable init(count: Int) {
        partial = Array(repeating: nil, count: count)
        missing = count
    }

    /// Stores `value` as input `index`'s latest; returns whether it is the input's first.
    @inlinable mutating func store(_ value: T, at index: Int) -> Bool {
        guard missing > 0 else {
            latest[index] = value
            return false
        }
        let isFirst = combineLatestStore(&partial[index], value)
        if isFirst { missing -= 1 }
        if missing == 0 {
            latest = partial.map { $0! }
            partial = []
        }
        return isFirst
    }
}

/// One start's combining state: the latest values, in typed storage, and the queue of events
/// waiting for the thread that combines.
@usableFromInline final class CombineLatestCore<Values, R, E> {
    /// An event that arrived while another one was being applied.
    @usableFromInline enum Entry {
        /// A value: stores it (returning whether it is its input's first), as the input's
        /// `store` closure does.
        case value((inout Values) -> Bool)
        case error(E)
        case completion
    }

    @usableFromInline let subscriber: Subscriber<R, E>
    @usableFromInline let combine: (Values) -> R

    // Touched only by the thread that combines, which the serializer hands over under the lock,
    // so they need no lock of their own and no exclusivity checks.
    @exclusivity(unchecked) @usableFromInline var values: Values
    @exclusivity(unchecked) @usableFromInline var missing: Int  // inputs without a value yet
    @exclusivity(unchecked) @usableFromInline var running: Int  // inputs not completed yet

    /// Who combines, and the events waiting for it; under the core's stripe of the lock table.
    @exclusivity(unchecked) @usableFromInline var serializer = Serializer<Entry>()

    @inlinable init(
        subscriber: Subscriber<R, E>, values: Values, missing: Int, running: Int,
        combine: @escaping (Values) -> R
    ) {
        (self.subscriber, self.values, self.missing, self.running, self.combine) =
            (subscriber, values, missing, running, combine)
    }

    /// Stores a value of one input with its `store` closure, then combines, or leaves it in the
    /// queue for the thread that is combining.
    @inlinable func put<T>(_ value: T, by store: @escaping (inout Values, T) -> Bool) {
        // The queued closure is only made when the value has to wait.
        guard admit({ .value { store(&$0, value) } }) else { return }
        stored(isFirst: store(&values, value))
        drain()
    }

    @inlinable func putError(_ error: E) {
        guard admit({ .error(error) }) else { return }
        apply(.error(error))
        drain()
    }

    @inlinable func putCompletion() {
        guard admit({ .completion }) else { return }
        apply(.completion)
        drain()
    }

    /// Makes the calling thread the one that combines and returns `true`, or, if another is
    /// combining, queues the event for it and returns `false`.
    @inlinable @inline(__always) func admit(_ entry: () -> Entry) -> Bool {
        StripedLock(for: self).withLock { serializer.admit(entry()) }
    }

    /// Applies the queued events in order, until none is left; then stops combining.
    @inlinable func drain() {
        while let entry = StripedLock(for: self).withLock({ serializer.next() }) { apply(entry) }
    }

    /// Each input sends at most one terminal event (its subscriber stops after it), so counting
    /// completions is enough. The first error terminates the subscriber, which disposes every
    /// input; an event already queued then reaches a subscriber that ignores it.
    @inlinable func apply(_ entry: Entry) {
        switch entry {
        case .value(let store):
            stored(isFirst: store(&values))
        case .error(let error):
            subscriber.putError(error)
        case .completion:
            running -= 1
            if running == 0 { subscriber.putCompletion() }
        }
    }

    /// Once every input has a value, sends their combination.
    @inlinable @inline(__always) func stored(isFirst: Bool) {
        if isFirst { missing -= 1 }
        if missing == 0 { subscriber.putNext(combine(values)) }
    }
}

extension CombineLatestCore {
    /// Starts `signal` as one of this start's inputs, its events sent into the core.
    ///
    /// - Parameters:
    ///   - signal: The input.
    ///   - store: Stores a value of this input in its place in `Values`; returns whether it is the
    ///     input's first (``combineLatestStore(_:_:)`` does both).
    /// - Returns: The input's start.
    @inlinable func start<T>(_ signal: Signal<T, E>, store: @escaping (inout Values, T) -> Bool) -> any Disposable {
        // Only `next` needs `store`, so it is the one handler that allocates a context; a closure
        // capturing only the core uses it as its context.
        signal.start(
            next: { self.put($0, by: store) },
            error: { self.putError($0) },
            completed: { self.putCompletion() }
        )
    }
}

extension Signal {
    /// The signal wrapped in `deliverOn(queue)` if there is a queue (done once per
    /// `combineLatest`, not on every start).
    @inlinable func delivered(on queue: Queue?) -> Signal {
        queue.map { self |> deliverOn($0) } ?? self
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
///   - count: How many inputs there are.
///   - values: The storage each start begins with: every input's place empty, or, with `seeded`,
///     holding its initial value.
///   - seeded: Whether `values` holds a value for every input. If so, their combination is put
///     at once, before any input is started.
///   - start: Starts every input, in order, synchronously, with ``CombineLatestCore/start(_:store:)``;
///     returns their starts.
///   - combine: Makes the result from the values, once every input has one.
/// - Returns: The combined signal.
@inlinable func makeCombineLatest<Values, R, E>(
    count: Int, values: Values, seeded: Bool = false,
    start: @escaping (CombineLatestCore<Values, R, E>) -> [any Disposable],
    combine: @escaping (Values) -> R
) -> Signal<R, E> {
    Signal { subscriber in
        if seeded { subscriber.putNext(combine(values)) }
        let core = CombineLatestCore(
            subscriber: subscriber, values: values, missing: seeded ? 0 : count, running: count, combine: combine)
        return CombineLatestDisposable(start(core))
    }
}
