// Time-based operators as free functions for the pipe, as in SwiftSignalKit. Their timers are
// ReceiverSignalKit's `Timer`s on the given queue.

/// Delays each start of the upstream by `timeout` seconds — the **subscription** is delayed, not
/// each value. On `queue`, a one-shot timer starts; when it fires, the upstream is started on
/// `queue`, and its events then pass through as it sends them. An error is delayed too, because
/// the start is.
///
/// ```swift
/// showSpinner |> delay(0.3, queue: Queue.mainQueue())   // the spinner appears 0.3 s after start
/// ```
///
/// Disposing a start before the timer fired invalidates the timer, and the upstream is never
/// started; disposing it after disposes the upstream.
///
/// A `timeout` of 0 or less starts the upstream as soon as `queue` runs the timer. A `timeout`
/// that is not a number (`.nan`) stops the program with a message that says so.
///
/// - Parameters:
///   - timeout: Seconds to wait before starting the upstream.
///   - queue: Where the timer runs and the upstream is started.
/// - Returns: A function from a signal to the same signal, started later.
@inlinable
public func delay<T, E>(_ timeout: Double, queue: Queue) -> (_ signal: Signal<T, E>) -> Signal<T, E> {
    if timeout.isNaN { stopOnInvalidDuration("delay(_:queue:) needs a timeout in seconds", got: timeout) }
    return { signal in
        Signal { subscriber in
            let pending = DeferredSubscription()
            queue.async {
                let timer = Timer(
                    timeout: timeout, repeat: false,
                    completion: {
                        pending.start { signal.startForwarding(to: subscriber) }
                    }, queue: queue)
                if pending.replaceTimer(with: timer) { timer.start() }
            }
            return pending
        }
    }
}

/// Like ``delay(_:queue:)``, but measured in wall-clock time, so time the device spends asleep
/// counts towards `timeout` (a dispatch timer's clock stops while the device sleeps).
///
/// ```swift
/// lockScreen |> suspendAwareDelay(5 * 60, queue: Queue.mainQueue())   // 5 minutes, asleep or not
/// ```
///
/// If `timeout` is at most 1.1 × `granularity`, one timer waits `timeout`. Otherwise a timer
/// checks the wall clock every `granularity` seconds, and once less than 1.1 × `granularity` is
/// left, a last timer waits out the rest (at once if none is left).
///
/// A `timeout` that is not a number, or a `granularity` that is not above 0, stops the program
/// with a message that names it (SwiftSignalKit's repeating timer crashes inside Dispatch on a
/// negative one, and on 0 fires without pause until the deadline).
///
/// - Parameters:
///   - timeout: Seconds of wall-clock time to wait before starting the upstream.
///   - granularity: Seconds between checks of the wall clock.
///   - queue: Where the timers run and the upstream is started.
/// - Returns: A function from a signal to the same signal, started later.
@inlinable
public func suspendAwareDelay<T, E>(_ timeout: Double, granularity: Double = 4.0, queue: Queue) -> (
    _ signal: Signal<T, E>
) -> Signal<T, E> {
    if timeout.isNaN {
        stopOnInvalidDuration("suspendAwareDelay(_:granularity:queue:) needs a timeout in seconds", got: timeout)
    }
    if !(granularity > 0) {
        stopOnInvalidDuration(
            "suspendAwareDelay(_:granularity:queue:) needs a granularity above 0 seconds", got: granularity)
    }
    return { signal in
        Signal { subscriber in
            let pending = DeferredSubscription()
            queue.async {
                let deadline = wallClockSeconds(on: queue) + timeout
                let waitForDeadline = {
                    let timer = Timer(
                        timeout: max(0, deadline - wallClockSeconds(on: queue)), repeat: false,
                        completion: {
                            pending.start { signal.startForwarding(to: subscriber) }
                        }, queue: queue)
                    if pending.replaceTimer(with: timer) { timer.start() }  // invalidates the checking timer
                }
                guard timeout > granularity * 1.1 else { return waitForDeadline() }
                let checks = Timer(
                    timeout: granularity, repeat: true,
                    completion: {
                        if deadline - granularity * 1.1 <= wallClockSeconds(on: queue) { waitForDeadline() }
                    }, queue: queue)
                if pending.replaceTimer(with: checks) { checks.start() }
            }
            return pending
        }
    }
}

/// Starts `alternate` instead if the upstream sends nothing within `timeout` seconds.
///
/// ```swift
/// fetchAvatar(user) |> timeout(5, queue: Queue.mainQueue(), alternate: .single(placeholder))
/// ```
///
/// Each start starts the upstream, then a one-shot timer on `queue`. **Any** upstream event — a
/// value, an error or the completion — invalidates the timer, so `timeout` bounds the time to the
/// first event only. If the timer fires first, `alternate` is started on `queue`, then the
/// upstream is disposed, and the alternate's events are passed on.
///
/// As in SwiftSignalKit, a value the upstream sends synchronously while it is being started comes
/// before the timer starts, so it does not cancel it. A `timeout` that is not a number stops the
/// program with a message that says so.
///
/// - Parameters:
///   - timeout: Seconds to wait for the upstream's first event.
///   - queue: Where the timer runs and the alternate is started.
///   - alternate: What to start if the upstream is too slow.
/// - Returns: A function from a signal to the signal with a time limit.
@inlinable
public func timeout<T, E>(_ timeout: Double, queue: Queue, alternate: Signal<T, E>) -> (Signal<T, E>) -> Signal<T, E> {
    if timeout.isNaN { stopOnInvalidDuration("timeout(_:queue:alternate:) needs a timeout in seconds", got: timeout) }
    return { signal in
        Signal { subscriber in
            let current = MetaDisposable()
            let timer = Timer(
                timeout: timeout, repeat: false,
                completion: {
                    current.set(alternate.startForwarding(to: subscriber))  // disposes the upstream after
                }, queue: queue)
            current.set(
                signal.start(
                    next: { value in
                        timer.invalidate()
                        subscriber.putNext(value)
                    },
                    error: { error in
                        timer.invalidate()
                        subscriber.putError(error)
                    },
                    completed: {
                        timer.invalidate()
                        subscriber.putCompletion()
                    }
                ))
            timer.start()
            return ActionDisposable {
                timer.invalidate()
                current.dispose()
            }
        }
    }
}

/// Stops the program with `problem` and the value it got: a duration that is not a number of
/// seconds would make a timer that never fires, silently. `fatalError`, not `precondition`, whose
/// message optimised builds drop: this misuse reaches shipped apps.
@usableFromInline func stopOnInvalidDuration(_ problem: String, got value: Double) -> Never {
    fatalError("\(problem), got \(value)")
}

/// The wall clock's seconds, which keep running while the device sleeps; for a virtual-time
/// `queue`, its virtual time, which is all the time there is for its timers.
@usableFromInline func wallClockSeconds(on queue: Queue) -> Double {
    queue.virtual?.now ?? Platform.wallClockSeconds()
}
