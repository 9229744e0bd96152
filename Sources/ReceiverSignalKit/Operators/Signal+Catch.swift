// Recovering from errors and running a signal again, as in SwiftSignalKit's Signal_Catch.swift:
// `catch`, `restart`, `recurse`, `retry` (two forms), `restartIfError`, `restartOrMapError`.
//
// Each start of the restarting operators runs its source through `Restarts`, a loop that starts
// the source again when a handler asks for it. A source that ends synchronously asks while the
// loop is still inside its `start`: the loop notes the request and starts again once `start` has
// returned, so ten thousand synchronous restarts take ten thousand turns of a loop, not ten
// thousand stack frames (SwiftSignalKit recurses, and overflows the stack).
//
// The loop runs inside the generator of the start it serves, so it must stop as soon as that start
// ends — terminated, or disposed downstream — even though the generator has not returned what
// stops it yet. So `Restarts` hands itself to its subscriber before its first turn: whatever ends
// the start disposes the loop, and the loop stops at its next turn. And a start around it that
// ends while its generator still runs (a `take(3)` downstream, after the third value) cannot reach
// it before that generator returns — which a source that restarts synchronously would never let
// happen — so while it is being made the loop pauses once one of the starts being made around it
// has ended, and resumes, unless that start's end disposed it, once that start's generator has
// returned (see StartsBeingMade.swift).
//
// A loop that restarts synchronously and that nothing around it ends — `restartIfError(.fail(1))
// |> timeout(…)`, whose timer would start only after the upstream's `start` returns — would spin
// forever. After `Restarts.synchronousLimit` starts in a row without returning, it stops the
// program with a message instead; SwiftSignalKit, which recurses, overflows the stack far sooner.
// Not `feedbackLoop`'s: its `once` decides when it ends (draining a long queue synchronously, say).

/// Starts a source again each time one of its handlers calls ``request()``, in a loop on the
/// thread that asked (never recursively), until ``dispose()``.
///
/// The step that starts the source is released on `dispose()`, which breaks the cycle between this
/// object and the handlers the step makes (they capture it to call `request()`).
@usableFromInline final class Restarts: Disposable {
    /// Starts the source once, with handlers that may call `request()` on the object passed in;
    /// returns what stops that start, or `nil` when there is nothing to start.
    @usableFromInline typealias Step = (Restarts) -> (any Disposable)?

    /// How many starts one loop makes in a row, each asked for by the one before from inside its
    /// `start`, before it stops the program: ten times the synchronous restarts that overflow
    /// SwiftSignalKit's stack, so no loop that works there reaches it.
    static let synchronousLimit = 100_000

    private struct State {
        var step: Step?  // nil once disposed
        var current: (any Disposable)?
        var isRunning = false  // a thread is in the loop
        var isRequested = false  // a start was requested while it was (or while it was paused)
        var nextPaused: Restarts?  // the next loop paused on the same start being made
    }

    private let state: Locked<State>
    /// Whether the loop stops the program after `synchronousLimit` starts in a row.
    private let isLimited: Bool

    private init(step: @escaping Step, isLimited: Bool) {
        (state, self.isLimited) = (Locked(State(step: step)), isLimited)
    }

    /// Makes the loop, hands it to `subscriber` as what stops its start, and makes the first
    /// start, on this thread. `isLimited`: it stops the program after `synchronousLimit` starts in
    /// a row (not for `feedbackLoop`, whose `once` ends it).
    ///
    /// Handed over before the loop's first turn rather than when the generator returns it: if the
    /// start ends while the loop runs (its subscriber terminates, or the downstream disposes it),
    /// the loop is disposed then, and stops at its next turn instead of running on unseen.
    @usableFromInline static func start<T, E>(
        serving subscriber: Subscriber<T, E>, isLimited: Bool = true, _ step: @escaping Step
    ) -> Restarts {
        let restarts = Restarts(step: step, isLimited: isLimited)
        subscriber.core.assign(restarts)
        restarts.request(around: StartsBeingMade.innermost)
        return restarts
    }

    /// Starts the source again, after the start that asked has returned. New starts are made
    /// before the previous one is disposed. Does nothing after `dispose()`.
    @usableFromInline func request() { request(around: nil) }

    /// `request()`, for a loop being made inside the starts from `around` outwards (the loop's
    /// own first): it pauses once one of them has ended.
    private func request(around: UnsafeMutableRawPointer?) {
        let isLooping = state.withLock { state in
            guard state.step != nil else { return false }
            guard !state.isRunning else {
                state.isRequested = true
                return false
            }
            state.isRunning = true
            return true
        }
        if isLooping { loop(around: around) }
    }

    /// Resumes the loops paused on a start being made, now that its generator has returned: each
    /// that is still alive and still owes a start makes it, inside the starts around that one.
    @usableFromInline static func resume(_ paused: Restarts) {
        var next: Restarts? = paused
        while let restarts = next {
            let isLooping = restarts.state.withLock { state in
                next = state.nextPaused.take()
                guard state.step != nil, state.isRequested, !state.isRunning else { return false }
                state.isRunning = true
                return true
            }
            if isLooping { restarts.loop(around: StartsBeingMade.innermost) }
        }
    }

    /// Starts the source for as long as starts are requested while it runs. This thread is the
    /// one running the loop.
    private func loop(around: UnsafeMutableRawPointer?) {
        var again = true
        var turns = 0
        let limit = isLimited ? Self.synchronousLimit : .max
        while again,
            let step = state.withLock({ state in
                state.isRequested = false
                return state.step
            })
        {
            turns += 1
            if turns > limit { Self.stopSpinning() }
            let started = step(self)
            let replaced: (any Disposable)?
            (replaced, again) = state.withLock { state in
                guard state.step != nil else { return (started, false) }  // disposed meanwhile
                defer { state.current = started }
                state.isRunning = state.isRequested
                return (state.current, state.isRequested)
            }
            replaced?.dispose()
            if again, let ended = StartsBeingMade.innermostEnded(from: around) {
                // Paused: the start owed stays requested, for `resume` or for a later request.
                let paused = ended.pointee.paused.take()
                state.withLock { state in
                    state.isRunning = false
                    state.nextPaused = paused
                }
                ended.pointee.paused = self
                again = false
            }
        }
    }

    /// Stops the program: the loop has restarted its source `synchronousLimit` times in a row.
    private static func stopSpinning() -> Never {
        fatalError(
            "A restart loop (restart, recurse, restartIfError or restartOrMapError) started its source "
                + "\(synchronousLimit) times in a row, each start asked for by the one before from inside its start, "
                + "and nothing around it can stop it: an operator after it that waits for another input or a timer "
                + "(combineLatest, timeout) only starts once the loop returns. Make the source asynchronous (deliverOn), "
                + "or end the loop right after it (take, take(until:))"
        )
    }

    /// Starts the source again after `delay` seconds, on `queue` (always asynchronously).
    @usableFromInline func request(after delay: Double, on queue: Queue) {
        queue.after(delay) { self.request() }
    }

    /// Disposes the current start and stops restarting.
    @usableFromInline func dispose() {
        let (current, step) = state.withLock { state in (state.current.take(), state.step.take()) }
        current?.dispose()
        _ = step  // released here, after unlocking
    }
}

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
            let starts = StartPair<T, R>(next: next, error: error, completed: completed)
            let sender = StartPair<T, R>.Sender(starts)  // the handlers hold this, not `starts`
            starts.setFirst(
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
            return starts
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
/// Difference from SwiftSignalKit: a source that completes synchronously is started again in a
/// loop instead of by recursion, so it cannot overflow the stack. So the next start is made once
/// the completed start's `start` has returned, not from inside it; which also fixes a stall:
/// SwiftSignalKit stores the outer (completed) start last, which disposes the inner one that is
/// still running, and nothing restarts it.
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
    if delayIncrement.isNaN { stopForSeconds("\(function) needs a delayIncrement in seconds", got: delayIncrement) }
    if maxDelay.isNaN { stopForSeconds("\(function) needs a maxDelay in seconds", got: maxDelay) }
}

/// Starts the signal again at once after each error, and never fails; completes when a start
/// completes.
///
/// ```swift
/// let socket = restartIfError(connect())
/// ```
///
/// Difference from SwiftSignalKit: synchronous errors restart in a loop, not by recursion (see
/// ``restart(_:)``).
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
