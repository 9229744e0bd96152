// An event log for a chain: `signal |> traceEvents("label")` prints each start, value, error,
// completion and disposal that passes that point. (The core has the same for receivers.)

/// The same signal, with a line for each event of each start: `start`, each `next`, the `error`
/// or `completed` that ends it, and `dispose` when it is torn down — the label, the event, the
/// time, and the queue or thread it happened on.
///
/// ```swift
/// let disposable = (search.results |> traceEvents("results") |> deliverOnMainQueue).start(next: show)
/// // results: start at 12:04:31.250 on the main queue
/// // results: next(["cat"]) at 12:04:31.480 on queue "search"
/// // results: completed at 12:04:31.480 on queue "search"
/// // results: dispose at 12:04:31.480 on queue "search"
/// ```
///
/// Put it where you want to see the events: before `deliverOnMainQueue` it shows the thread they
/// come from, after it the main queue. Each line is written on the thread of its event, before the
/// event goes on. `dispose` comes once per start: when it is disposed, or right after its error or
/// completion (a start that ends is torn down), as RxSwift's `debug()` shows it. The place is the
/// dispatch queue running that code — `the main queue`, `queue "search"` — or, where no queue has
/// a label, the system's number of the thread. The time is the time of day, or what `clock` reads:
/// pass `{ scheduler.now }` to see virtual time in a test.
///
/// A debugging aid, in release builds too: nothing is logged, and nothing costs anything, where it
/// is not used.
///
/// - Parameters:
///   - label: The first word of each line, to tell logs apart.
///   - clock: Reads the time to show, in seconds (`2.250s`); the time of day when `nil`.
///   - write: Where the lines go; `print` by default. Called on the thread of each event.
/// - Returns: A function from a signal to the same signal, which logs what passes.
public func traceEvents<T, E>(
    _ label: String, clock: (() -> Double)? = nil, to write: @escaping (String) -> Void = { print($0) }
) -> (Signal<T, E>) -> Signal<T, E> {
    let log = EventLog(label: label, clock: clock, write: write)
    return { signal in
        Signal { subscriber in
            log.record("start")
            let upstream = signal.run(
                { value in
                    log.record("next(\(value))")
                    subscriber.putNext(value)
                },
                { error in
                    log.record("error(\(error))")
                    subscriber.putError(error)
                },
                {
                    log.record("completed")
                    subscriber.putCompletion()
                })
            // The subscriber disposes this once: on the start's disposal or after its end.
            return ActionDisposable {
                log.record("dispose")
                upstream.dispose()
            }
        }
    }
}
