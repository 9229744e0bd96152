/// Delivers every event of each start on `queue`, in the order they happened. An event that
/// happens on `queue` is delivered at once — after the start's earlier events still waiting for
/// `queue`, which are delivered first; an event that happens elsewhere is dispatched to `queue`.
/// The upstream is started on the calling thread.
///
/// ```swift
/// search(query) |> deliverOn(Queue.mainQueue())
/// ```
///
/// Disposing the start disposes the upstream start; an event dispatched but not yet delivered is
/// then dropped, because the start's subscriber has stopped.
///
/// Difference from SwiftSignalKit, which delivers an event that happens on `queue` at once, ahead
/// of the start's events still waiting for `queue`: there an older value can overtake a newer one
/// and stay the last. Here the waiting ones are delivered first, at once, so the event is still
/// delivered before the call that produced it returns, and in order.
///
/// - Parameter queue: Where the handlers run. Events keep their order on any queue: on a concurrent
///   one too, one thread delivers a start's events at a time.
/// - Returns: A function from a signal to the same signal delivered on `queue`.
@inlinable
public func deliverOn<T, E>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            guard queue.isSerial else {
                let lane = DeliveryLane(queue, subscriber)
                return signal.start(
                    next: { lane.send(.next($0)) }, error: { lane.send(.error($0)) },
                    completed: { lane.send(.completion) })
            }
            let lane = SerialDeliveryLane(queue, subscriber)
            return signal.start(
                next: { lane.send(.next($0)) }, error: { lane.send(.error($0)) }, completed: { lane.send(.completion) })
        }
    }
}

/// Delivers every event on the main queue: `signal |> deliverOn(Queue.mainQueue())`. An event
/// produced on the main thread is delivered at once (after the start's earlier events still
/// waiting for the main queue). Use it without parentheses.
///
/// ```swift
/// profile.get() |> deliverOnMainQueue
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The same signal, delivered on the main queue.
@inlinable
public func deliverOnMainQueue<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    signal |> deliverOn(Queue.mainQueue())
}

/// Delivers every event of each start on its own lane of `threadPool`: each event becomes a
/// ``ThreadPoolTask`` on one ``ThreadPoolQueue`` per start, so a start's events arrive in order,
/// one at a time, on pool threads. The upstream is started on the calling thread.
///
/// ```swift
/// photos |> deliverOn(decodingPool) |> map(decode)
/// ```
///
/// - Parameter threadPool: Whose threads run the handlers.
/// - Returns: A function from a signal to the same signal delivered on `threadPool`.
@inlinable
public func deliverOn<T, E>(_ threadPool: ThreadPool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            let lane = threadPool.nextQueue()
            return signal.start(
                next: { value in lane.addTask(ThreadPoolTask { _ in subscriber.putNext(value) }) },
                error: { error in lane.addTask(ThreadPoolTask { _ in subscriber.putError(error) }) },
                completed: { lane.addTask(ThreadPoolTask { _ in subscriber.putCompletion() }) }
            )
        }
    }
}

/// Starts each run of the upstream on `queue`: at once if already on `queue`, otherwise
/// asynchronously. Events are not moved: they arrive on whatever thread the upstream sends them.
///
/// ```swift
/// database.read(key) |> runOn(databaseQueue) |> deliverOnMainQueue
/// ```
///
/// Disposing a start before it reached `queue` prevents it: the upstream is never started. (In
/// SwiftSignalKit the flag that says so is an unsynchronised variable, a data race; here it is
/// guarded by a lock.)
///
/// - Parameter queue: Where the upstream's generator runs.
/// - Returns: A function from a signal to the same signal started on `queue`.
@inlinable
public func runOn<T, E>(_ queue: Queue) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            guard !queue.isCurrent() else { return signal.startForwarding(to: subscriber) }
            let pending = DeferredSubscription()
            queue.justDispatch { pending.start { signal.startForwarding(to: subscriber) } }
            return pending
        }
    }
}

/// Starts each run of the upstream as a task on `threadPool`. Events are not moved: they arrive on
/// whatever thread the upstream sends them.
///
/// ```swift
/// decodeLargeImage(data) |> runOn(imagePool)
/// ```
///
/// Disposing a start before its task ran prevents it: the upstream is never started.
///
/// - Parameter threadPool: Whose thread runs the upstream's generator.
/// - Returns: A function from a signal to the same signal started on `threadPool`.
@inlinable
public func runOn<T, E>(_ threadPool: ThreadPool) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        Signal { subscriber in
            let pending = DeferredSubscription()
            threadPool.addTask(ThreadPoolTask { _ in pending.start { signal.startForwarding(to: subscriber) } })
            return pending
        }
    }
}

extension Signal {
    /// Starts this signal, putting each of its events into `subscriber`.
    @inlinable func startForwarding(to subscriber: Subscriber<T, E>) -> any Disposable {
        start(
            next: { subscriber.putNext($0) },
            error: { subscriber.putError($0) },
            completed: { subscriber.putCompletion() }
        )
    }
}
