// Recovering from errors and running a signal again, as in SwiftSignalKit's Signal_Catch.swift:
// `catch`, `restart`, `recurse`, `retry` (two forms), `restartIfError`, `restartOrMapError`.
//
// The restarting operators run their source through `Restarts` (Signal/Restarts.swift): a loop, not
// recursion, so that a source that ends synchronously cannot overflow the stack.

/// Replaces an error with the signal `f` makes for it.
///
/// Values and completion pass through. On an error, `f(error)` is called and the alternative it
/// returns is started **before** the failed start is disposed; from then on the alternative's
/// events are passed on, its error included. Disposing a start disposes both.
///
/// ```swift
/// let avatar = fetchAvatar(id) |> `catch` { _ in Signal<Image, NoError>.single(.placeholder) }
/// ```
///
/// - Parameter f: Makes the alternative for an error.
/// - Returns: A function from a signal to the same signal, recovering from its error.
@inlinable public func `catch`<T, E, R>(_ f: @escaping (E) -> Signal<T, R>) -> (Signal<T, E>) -> Signal<T, R> {
    { signal in
        // No `Subscriber` of its own: the first signal's values go straight on, and the rest
        // through the StartPair (see StartPair.swift).
        Signal(start: { next, error, completed in
            let pair = StartPair<T, R>(next: next, error: error, completed: completed)
            let sender = StartPair<T, R>.Sender(pair)  // the handlers hold this, not `pair`
            pair.setFirst(
                signal.start(
                    next: next,
                    error: { error in
                        sender.pair.setSecond(
                            f(error).start(
                                next: { sender.pair.putNext($0) }, error: { sender.pair.putError($0) },
                                completed: { sender.pair.putCompletion() }))
                    },
                    completed: { sender.pair.putCompletion() }
                ))
            return pair
        })
    }
}

/// Starts `signal` again each time it completes, for as long as the start lives: the result never
/// completes on its own. Values pass through; an error is passed on and ends the start.
///
/// ```swift
/// let polled = restart(fetchStatus() |> delay(5, queue: .mainQueue()))   // fetches every 5 s
/// ```
///
/// A source that completes synchronously is started again in a loop, not by recursion, so it
/// cannot overflow the stack: the next start is made once the completed start's `start` has
/// returned, not from inside it.
///
/// - Parameter signal: The signal to run again and again.
/// - Returns: A signal that runs `signal` again whenever it completes.
@inlinable public func restart<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> {
    Signal { subscriber in
        Restarts.start(serving: subscriber) { restarts in
            signal.start(
                next: { subscriber.putNext($0) }, error: { subscriber.putError($0) }, completed: { restarts.request() })
        }
    }
}

/// The same as ``restart(_:)``: starts the signal again each time it completes. `latestValue` is
/// not used (as in SwiftSignalKit).
///
/// ```swift
/// let polled = fetchStatus() |> recurse(nil)
/// ```
///
/// - Parameter latestValue: Ignored.
/// - Returns: A function from a signal to a signal that runs it again whenever it completes.
@inlinable public func recurse<T, E>(_ latestValue: T?) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in restart(signal) }
}

/// Starts the signal again after each error, waiting longer each time, and never fails.
///
/// The first start is made on the calling thread. After the n-th error it waits
/// `min(maxDelay, n × delayIncrement)` seconds (the wait never shrinks back), then starts again on
/// `queue` (always asynchronously). The result completes when a start completes. Disposing it
/// cancels the retries.
///
/// ```swift
/// let config = fetchConfig() |> retry(1.0, maxDelay: 30.0, onQueue: Queue.concurrentDefaultQueue())
/// // waits 1 s, 2 s, 3 s, ... 30 s, 30 s between attempts
/// ```
///
/// A `delayIncrement` or `maxDelay` that is not a number (`.nan`) stops the program with a message
/// that names it; waits of 0 or less start again as soon as `queue` can.
///
/// - Parameters:
///   - delayIncrement: Seconds added to the wait after each error.
///   - maxDelay: The longest wait, in seconds.
///   - queue: Where the retries start.
/// - Returns: A function from a signal to one that retries it until it completes.
@inlinable public func retry<T, E>(_ delayIncrement: Double, maxDelay: Double, onQueue queue: Queue) -> (
    _ signal: Signal<T, E>
) -> Signal<T, NoError> {
    requireRetryWaits("retry(_:maxDelay:onQueue:)", delayIncrement, maxDelay)
    return { signal in
        Signal { subscriber in
            let delay = Locked(0.0)
            return Restarts.start(serving: subscriber) { restarts in
                signal.start(
                    next: { subscriber.putNext($0) },
                    error: { _ in
                        let wait = delay.withLock { delay in
                            delay = min(maxDelay, delay + delayIncrement)
                            return delay
                        }
                        restarts.request(after: wait, on: queue)
                    },
                    completed: { subscriber.putCompletion() }
                )
            }
        }
    }
}

/// Starts the signal again after the errors `retryOnError` accepts, waiting longer each time, up
/// to a number of attempts.
///
/// An error that `retryOnError` rejects is passed on at once. An accepted one is counted, with
/// the failed attempt included: when `maxRetries` is not `nil` and the count reaches it, the error
/// is passed on (so `maxRetries: 3` makes at most three attempts, and `0` or `1` fails on the first
/// error); otherwise it waits as in ``retry(_:maxDelay:onQueue:)`` and starts again on `queue`.
///
/// ```swift
/// let page = fetchPage() |> retry(retryOnError: { $0 == .timeout }, delayIncrement: 0.5,
///                                 maxDelay: 5.0, maxRetries: 3, onQueue: Queue.mainQueue())
/// ```
///
/// A `delayIncrement` or `maxDelay` that is not a number stops the program with a message that names
/// it.
///
/// - Parameters:
///   - retryOnError: Whether an error is worth another attempt.
///   - delayIncrement: Seconds added to the wait after each accepted error.
///   - maxDelay: The longest wait, in seconds.
///   - maxRetries: How many attempts at most, or `nil` for no limit.
///   - queue: Where the retries start.
/// - Returns: A function from a signal to one that retries it.
@inlinable public func retry<T, E>(
    retryOnError: @escaping (E) -> Bool, delayIncrement: Double, maxDelay: Double, maxRetries: Int?,
    onQueue queue: Queue
) -> (_ signal: Signal<T, E>) -> Signal<T, E> {
    requireRetryWaits("retry(retryOnError:delayIncrement:maxDelay:maxRetries:onQueue:)", delayIncrement, maxDelay)
    return { signal in
        Signal { subscriber in
            let attempts = Locked((delay: 0.0, failures: 0))
            return Restarts.start(serving: subscriber) { restarts in
                signal.start(
                    next: { subscriber.putNext($0) },
                    error: { error in
                        guard retryOnError(error) else { return subscriber.putError(error) }
                        let (wait, failures) = attempts.withLock { attempts in
                            attempts = (min(maxDelay, attempts.delay + delayIncrement), attempts.failures + 1)
                            return attempts
                        }
                        if let maxRetries, failures >= maxRetries { return subscriber.putError(error) }
                        restarts.request(after: wait, on: queue)
                    },
                    completed: { subscriber.putCompletion() }
                )
            }
        }
    }
}

/// Stops the program, naming the argument, if a wait of `retry` is not a number of seconds: the
/// retry would wait forever, silently.
@inlinable func requireRetryWaits(_ function: StaticString, _ delayIncrement: Double, _ maxDelay: Double) {
    if delayIncrement.isNaN {
        stopOnInvalidDuration("\(function) needs a delayIncrement in seconds", got: delayIncrement)
    }
    if maxDelay.isNaN { stopOnInvalidDuration("\(function) needs a maxDelay in seconds", got: maxDelay) }
}

/// Starts the signal again at once after each error, and never fails; completes when a start
/// completes.
///
/// ```swift
/// let socket = restartIfError(connect())
/// ```
///
/// Synchronous errors restart in a loop, not by recursion (see ``restart(_:)``).
///
/// - Parameter signal: The signal to run until it completes.
/// - Returns: A signal that runs `signal` again after every error.
@inlinable public func restartIfError<T, E>(_ signal: Signal<T, E>) -> Signal<T, NoError> {
    Signal { subscriber in
        Restarts.start(serving: subscriber) { restarts in
            signal.start(
                next: { subscriber.putNext($0) }, error: { _ in restarts.request() },
                completed: { subscriber.putCompletion() })
        }
    }
}

/// What ``restartOrMapError(condition:)`` does with an error.
///
/// ```swift
/// let decide: (FetchError) -> RestartOrMapErrorCondition<AppError> = { error in
///     error == .timeout ? .restart : .error(.fetch(error))
/// }
/// ```
public enum RestartOrMapErrorCondition<E> {
    /// Start the signal again at once.
    case restart
    /// Fail with this error.
    case error(E)
}

extension RestartOrMapErrorCondition: Sendable where E: Sendable {}

/// On each error, asks `condition` whether to start the signal again at once or to fail with a
/// mapped error. Values and completion pass through.
///
/// ```swift
/// let feed = fetchFeed() |> restartOrMapError { error in
///     error == .timeout ? .restart : .error(AppError(error))
/// }
/// ```
///
/// - Parameter condition: Decides, per error, between `.restart` and `.error(mapped)`.
/// - Returns: A function from a signal to one that restarts or fails as `condition` says.
@inlinable public func restartOrMapError<T, E, E2>(condition: @escaping (E) -> RestartOrMapErrorCondition<E2>) -> (
    Signal<T, E>
) -> Signal<T, E2> {
    { signal in
        Signal { subscriber in
            Restarts.start(serving: subscriber) { restarts in
                signal.start(
                    next: { subscriber.putNext($0) },
                    error: { error in
                        switch condition(error) {
                        case .restart: restarts.request()
                        case .error(let mapped): subscriber.putError(mapped)
                        }
                    },
                    completed: { subscriber.putCompletion() }
                )
            }
        }
    }
}
