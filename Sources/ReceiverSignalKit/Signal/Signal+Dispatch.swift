/// Delivers every event of each start on `queue`, in the order they happened: at once when the
/// event happens on `queue` already, otherwise dispatched to it. The upstream is started on the
/// calling thread.
///
/// ```swift
/// search(query) |> deliverOn(Queue.mainQueue())
/// ```
///
/// Disposing the start disposes the upstream start; an event dispatched but not yet run is then
/// dropped, because the start's subscriber has stopped.
///
/// - Parameter queue: Where the handlers run. Events keep their order on a serial queue.
/// - Returns: A function from a signal to the same signal delivered on `queue`.
public func deliverOn<T, E>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            signal.start(
                next: { value in queue.async { subscriber.putNext(value) } },
                error: { error in queue.async { subscriber.putError(error) } },
                completed: { queue.async { subscriber.putCompletion() } }
            )
        }
    }
}

/// Delivers every event on the main queue: `signal |> deliverOn(Queue.mainQueue())`. An event
/// produced on the main thread is delivered at once. Use it without parentheses.
///
/// ```swift
/// profile.get() |> deliverOnMainQueue
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The same signal, delivered on the main queue.
public func deliverOnMainQueue<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    signal |> deliverOn(Queue.mainQueue())
}
