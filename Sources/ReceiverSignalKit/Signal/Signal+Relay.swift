// How most pipe operators start their upstream, and why such a stage costs one closure per start.
//
// An operator that only reshapes what passes through a start — transforms, drops or adds events,
// but never ends the start on its own and does nothing when it is disposed — needs no subscriber
// of its own. A start of the derived signal starts the upstream signal with handlers adapted from
// the downstream's and returns the upstream start's disposable. The upstream start already
// guarantees what a subscriber would: calls to one start's handlers never overlap, nothing
// follows its terminal event, and after its `dispose()` returns no handler is called again. So
// the stage allocates only the closures it adapts (and the state it keeps), and a value crosses
// it with one closure call: `promise.get() |> map … |> map …` stays cheap to start and to keep.
//
// Per-start state lives in the adapted handlers and needs no lock, for the same reason: the
// handlers of one start never run at the same time.
//
// Operators that end a start themselves (`take`, `take(until:)`, `materialize`) or act when it is
// torn down (`afterDisposed`, `withState`, the queued `reduceLeft`) are built with
// `Signal { subscriber in … }` instead, and pay for a subscriber of their own.

extension Signal {
    /// The three handlers of one start, as an operator hands them to its upstream.
    @usableFromInline typealias Handlers = (next: (T) -> Void, error: (E) -> Void, completed: () -> Void)

    /// A signal whose every start starts this one with the handlers that `adapt` makes from the
    /// downstream's. `adapt` runs once per start, before the upstream starts, so the handlers it
    /// returns may own that start's state.
    ///
    /// A missing downstream handler becomes a no-op first, so an operator's closures run for
    /// every event even when nobody handles the result, as in SwiftSignalKit, where every stage
    /// handles every event.
    @inlinable func relay<R, F>(
        _ adapt: @escaping (_ next: @escaping (R) -> Void, _ error: @escaping (F) -> Void, _ completed: @escaping () -> Void) -> Handlers
    ) -> Signal<R, F> {
        Signal<R, F>(start: { next, error, completed in
            let upstream = adapt(next ?? { _ in }, error ?? { _ in }, completed ?? {})
            return self.run(upstream.next, upstream.error, upstream.completed)
        })
    }

    /// Like ``relay(_:)`` for an operator that only adapts values: the downstream's error and
    /// completion handlers go to the upstream as they are.
    @inlinable func relay<R>(next adapt: @escaping (_ next: @escaping (R) -> Void) -> (T) -> Void) -> Signal<R, E> {
        Signal<R, E>(start: { next, error, completed in
            self.run(adapt(next ?? { _ in }), error, completed)
        })
    }
}
