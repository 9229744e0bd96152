// SwiftSignalKit's Signal_Loop.swift: `feedbackLoop` and its state.

/// What ``feedbackLoop(once:reduce:)`` passes to `once`: SwiftSignalKit always passes `.initial`.
///
/// ```swift
/// let once: (SignalFeedbackLoopState<Int>) -> Signal<Int, NoError>? = { state in
///     switch state {
///     case .initial: return poll()
///     case .loop(let last): return poll(after: last)
///     }
/// }
/// ```
public enum SignalFeedbackLoopState<T> {
    /// The first turn (and, as in SwiftSignalKit, every turn).
    case initial
    /// A turn after one that produced this value (never passed: see ``feedbackLoop(once:reduce:)``).
    case loop(T)
}

extension SignalFeedbackLoopState: Sendable where T: Sendable {}

/// Runs the signal that `once` returns, and each time it completes asks `once` for the next one;
/// completes when `once` returns `nil`. An error is passed on and ends the loop.
///
/// This keeps SwiftSignalKit's observable behaviour exactly: `once` is always called with
/// `.initial`, the values of the turns are dropped (`reduce` is never called, because the state it
/// would fold into starts as `nil` and stays so), and **no value of `R` is ever sent**: the result
/// only completes or fails. Turns that complete synchronously follow one another in a loop, not by
/// recursion, however many there are.
///
/// ```swift
/// let drained: Signal<Never, NoError> = feedbackLoop(once: { _ in queue.isEmpty ? nil : processNext() },
///                                                    reduce: { _, latest in latest })
/// ```
///
/// - Parameters:
///   - once: Makes the signal for the next turn, or returns `nil` to complete.
///   - reduce: Not called (see above); kept for source compatibility.
/// - Returns: A signal that runs the turns and then completes, or fails with a turn's error.
@inlinable public func feedbackLoop<R1, R, E>(
    once: @escaping (SignalFeedbackLoopState<R1>) -> Signal<R1, E>?, reduce: @escaping (R1, R1) -> R1
) -> Signal<R, E> {
    Signal { subscriber in
        Restarts.start(serving: subscriber, isLimited: false) { restarts in
            guard let turn = once(.initial) else {
                subscriber.putCompletion()
                return nil
            }
            return turn.start(error: { subscriber.putError($0) }, completed: { restarts.request() })
        }
    }
}
