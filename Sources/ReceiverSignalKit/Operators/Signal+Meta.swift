// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (SwiftSignalKit's own names, kept so that its client code compiles.)
internal import Dispatch  // DispatchTime, for debug_measureTimeToFirstEvent

// Signals of signals, as in SwiftSignalKit's Signal_Meta.swift: `switchToLatest`, `queue` and
// `throttled` flatten them; `mapToSignal`, `mapToQueue`, `mapToThrottled` and
// `mapToSignalPromotingError` map each value to a signal first; plus `then`, `deferred`,
// `ignoreValues` and `debug_measureTimeToFirstEvent`. The flattening operators share one engine,
// in Flattening.swift.

/// Flattens a signal of signals by always following the newest inner signal.
///
/// Each start starts the outer signal; every inner signal it sends is started at once and becomes
/// the current one: the new inner is started **before** the one it replaces is disposed (so a
/// shared upstream is not torn down and rebuilt), and from then on nothing of the replaced inner
/// reaches the handlers — not what it sends while it is disposed, nor what another thread delivers
/// late. An error of the outer or of the current inner is passed on and ends the start. The start
/// completes once the outer has completed and no inner runs (at once if none does). Disposing it
/// disposes the current inner, then the outer.
///
/// ```swift
/// let results = queries |> map { query in search(query) } |> switchToLatest
/// // typing "a", then "ab": the "a" search is disposed once the "ab" search has started
/// ```
///
/// Whatever a replaced inner still sends, its completion included, is ignored, so a completion can
/// never overtake the current inner's values (SwiftSignalKit forwards it).
///
/// - Parameter signal: The outer signal, whose values are signals.
/// - Returns: The values of the current inner signal.
@inlinable public func switchToLatest<T, E>(_ signal: Signal<Signal<T, E>, E>) -> Signal<T, E> {
    Flattening<T, E>.signal(.switching, of: signal) { $0 }
}

/// Flattens a signal of signals by running the inner signals one at a time, in the order they
/// arrive; the ones that arrive while another runs wait in a FIFO.
///
/// An inner error is passed on and drops the inners still waiting. The start completes once the
/// outer has completed and every inner has run. Disposing it drops the waiting inners. Inners that
/// complete synchronously are run one after the other in a loop, never recursively, so any number
/// of them is fine.
///
/// ```swift
/// let uploads = files |> map { file in upload(file) } |> queue
/// // one upload at a time, in order
/// ```
///
/// - Parameter signal: The outer signal, whose values are signals.
/// - Returns: The values of every inner signal, one inner after the other.
@inlinable public func queue<T, E>(_ signal: Signal<Signal<T, E>, E>) -> Signal<T, E> {
    Flattening<T, E>.signal(.queueing, of: signal) { $0 }
}

/// Flattens a signal of signals like ``queue(_:)``, but keeps only the **newest** waiting inner:
/// one arriving while another runs replaces any inner already waiting. The running inner is never
/// interrupted.
///
/// ```swift
/// let saves = edits |> map { draft in save(draft) } |> throttled
/// // while a save runs, only the latest draft waits to be saved next
/// ```
///
/// - Parameter signal: The outer signal, whose values are signals.
/// - Returns: The values of the inner signals that ran, one inner after the other.
@inlinable public func throttled<T, E>(_ signal: Signal<Signal<T, E>, E>) -> Signal<T, E> {
    Flattening<T, E>.signal(.throttling, of: signal) { $0 }
}

/// Maps each value to a signal and follows the newest one: `map(f) |> switchToLatest`,
/// without the intermediate signal.
///
/// ```swift
/// let avatar = userId.get() |> mapToSignal { id in fetchAvatar(id) }
/// // a new id disposes the fetch for the previous one, after the new fetch started
/// ```
///
/// `f` runs on the thread that delivers the outer value. Everything else is as in
/// ``switchToLatest(_:)``.
///
/// - Parameter f: Makes the signal to follow for a value.
/// - Returns: A function from a signal to the values of the signal made for its latest value.
@inlinable public func mapToSignal<T, R, E>(_ f: @escaping (T) -> Signal<R, E>) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in Flattening<R, E>.signal(.switching, of: signal, f) }
}

/// ``mapToSignal(_:)`` from a signal that cannot fail to signals that can: the result fails when
/// the current inner signal fails.
///
/// ```swift
/// let profile: Signal<Profile, LoadError> = accountId.get() |> mapToSignalPromotingError { id in load(id) }
/// ```
///
/// - Parameter f: Makes the signal to follow for a value.
/// - Returns: A function from a signal that cannot fail to the values of the signal made for its
///   latest value.
@inlinable public func mapToSignalPromotingError<T, R, E>(_ f: @escaping (T) -> Signal<R, E>) -> (Signal<T, NoError>) ->
    Signal<R, E>
{
    { signal in
        Flattening<R, E>.signal(.switching) { sender in
            signal.start(
                next: { sender.send(.signal(f($0))) },
                completed: { sender.send(.outerCompleted) }
            )
        }
    }
}

/// Maps each value to a signal and runs those signals one at a time, in order:
/// `map(f) |> queue`.
///
/// ```swift
/// let sent = messages |> mapToQueue { message in send(message) }
/// ```
///
/// - Parameter f: Makes the signal to run for a value; it runs on the thread that
///   delivers the value.
/// - Returns: A function from a signal to the values of the signals made for its values, one
///   after the other.
@inlinable public func mapToQueue<T, R, E>(_ f: @escaping (T) -> Signal<R, E>) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in Flattening<R, E>.signal(.queueing, of: signal, f) }
}

/// Maps each value to a signal and runs those signals one at a time, keeping only the newest
/// waiting one: `map(f) |> throttled`.
///
/// ```swift
/// let saved = drafts |> mapToThrottled { draft in save(draft) }
/// ```
///
/// - Parameter f: Makes the signal to run for a value; it runs on the thread that
///   delivers the value.
/// - Returns: A function from a signal to the values of the signals that ran.
@inlinable public func mapToThrottled<T, R, E>(_ f: @escaping (T) -> Signal<R, E>) -> (Signal<T, E>) -> Signal<R, E> {
    { signal in Flattening<R, E>.signal(.throttling, of: signal, f) }
}

extension Flattening {
    /// The flattening operators' one body: each start runs `outer` and hands the engine the signal
    /// `f` makes of each of its values, then the outer's end.
    @inlinable static func signal<T>(_ mode: Mode, of outer: Signal<T, E>, _ f: @escaping (T) -> Signal<R, E>)
        -> Signal<R, E>
    {
        signal(mode) { sender in
            outer.start(
                next: { sender.send(.signal(f($0))) },
                error: { sender.send(.outerFailed($0)) },
                completed: { sender.send(.outerCompleted) }
            )
        }
    }
}

/// Sends everything this signal sends, then, once it completes, everything `nextSignal` sends.
///
/// `nextSignal` is started when this signal completes, and its completion completes the result.
/// An error of this signal is passed on and `nextSignal` is never started. Disposing a start
/// disposes both.
///
/// ```swift
/// let values = Signal<Int, NoError>.single(1) |> then(.single(2))   // sends 1, 2, then completes
/// ```
///
/// - Parameter nextSignal: What to run after this signal completes.
/// - Returns: A function from a signal to that signal followed by `nextSignal`.
@inlinable public func then<T, E>(_ nextSignal: Signal<T, E>) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        // No `Subscriber` of its own: the first signal's values go straight on, and the rest
        // through the StartPair (see StartPair.swift).
        Signal(start: { next, error, completed in
            let pair = StartPair<T, E>(next: next, error: error, completed: completed)
            let sender = StartPair<T, E>.Sender(pair)  // the handlers hold this, not `pair`
            pair.setFirst(
                signal.start(
                    next: next,
                    error: { sender.pair.putError($0) },
                    completed: {
                        sender.pair.setSecond(
                            nextSignal.start(
                                next: { sender.pair.putNext($0) }, error: { sender.pair.putError($0) },
                                completed: { sender.pair.putCompletion() }))
                    }
                ))
            return pair
        })
    }
}

/// A signal that calls `generator` at each start, on the starting thread, and runs the signal it
/// returns.
///
/// ```swift
/// let now = deferred { Signal<Date, NoError>.single(Date()) }   // the date of each start
/// ```
///
/// - Parameter generator: Makes the signal to run, once per start.
/// - Returns: A signal that sends what each generated signal sends.
@inlinable public func deferred<T, E>(_ generator: @escaping () -> Signal<T, E>) -> Signal<T, E> {
    // The generated signal's start is this start: nothing to relay, so nothing to allocate.
    Signal(start: { next, error, completed in generator().start(next: next, error: error, completed: completed) })
}

/// Drops every value and passes on only the error or the completion. Use it without parentheses.
///
/// ```swift
/// let done: Signal<Never, NoError> = save(draft) |> ignoreValues
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: A signal that sends no value and ends as `signal` ends.
@inlinable public func ignoreValues<T, E>(_ signal: Signal<T, E>) -> Signal<Never, E> {
    Signal(start: { _, error, completed in signal.start(error: error, completed: completed) })
}

/// Passes everything through, and prints how long the first value took to arrive after its start:
/// `measureTimeToFirstEvent(<label>: <milliseconds> ms`.
///
/// It prints once per returned signal: the "first" flag is shared by every start of it, so only
/// the first value of all its starts is measured. Active in every build, as in SwiftSignalKit.
///
/// ```swift
/// history |> debug_measureTimeToFirstEvent(label: "history")
/// // prints e.g. "measureTimeToFirstEvent(history: 12.5 ms"
/// ```
///
/// The time is measured on the monotonic clock (`DispatchTime`), which does not jump as the wall
/// clock can, and the shared flag is thread-safe.
///
/// - Parameter label: Printed with the time, to tell measurements apart.
/// - Returns: A function from a signal to the same signal, measured.
@inlinable public func debug_measureTimeToFirstEvent<T, E>(label: String) -> (Signal<T, E>) -> Signal<T, E> {
    { signal in
        let isFirst = Locked(true)
        return Signal(start: { next, error, completed in
            let started = TimeToFirstEvent.now()
            return signal.start(
                next: { value in
                    if isFirst.withLock({ isFirst in
                        defer { isFirst = false }
                        return isFirst
                    }) {
                        TimeToFirstEvent.report(label: label, since: started)
                    }
                    next?(value)
                },
                error: error,
                completed: completed
            )
        })
    }
}

/// The clock and the printing of `debug_measureTimeToFirstEvent`, kept out of its inlinable body
/// so that Dispatch stays an internal import.
@usableFromInline enum TimeToFirstEvent {
    @usableFromInline static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    @usableFromInline static func report(label: String, since started: UInt64) {
        let milliseconds = Double(now() - started) / 1_000_000
        print("measureTimeToFirstEvent(\(label): \(milliseconds) ms")
    }
}
