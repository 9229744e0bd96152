// swift-format-ignore-file: AlwaysUseLowerCamelCase
// (SwiftSignalKit's own names, kept so that its client code compiles.)
// SwiftSignalKit's Signal_Materialize.swift. Mind the names, which are the reverse of Rx's:
// `dematerialize` turns a signal's events INTO values, `materialize` turns such values back
// into events. They are kept as SwiftSignalKit has them, so code written against it keeps its
// meaning.

/// One event of a signal, as a value: what ``dematerialize(signal:)`` sends.
///
/// ```swift
/// let event: SignalEvent<Int, LoadError> = .Next(1)
/// ```
public enum SignalEvent<T, E> {
    /// A value.
    case Next(T)
    /// The error that ended the signal.
    case Error(E)
    /// The completion that ended the signal.
    case Completion
}

extension SignalEvent: Sendable where T: Sendable, E: Sendable {}

/// Turns each event of a start into a value, then completes; it never fails. (Rx calls this
/// `materialize`; the name is SwiftSignalKit's.) Use it without parentheses.
///
/// ```swift
/// download |> dematerialize   // 1, then error e -> .Next(1), .Error(e), then completion
/// ```
///
/// - Parameter signal: The upstream signal.
/// - Returns: The signal of `.Next` for each value, then `.Error` or `.Completion` for how the
///   upstream ended, then completion.
@inlinable public func dematerialize<T, E>(signal: Signal<T, E>) -> Signal<SignalEvent<T, E>, NoError> {
    // A subscriber of its own: the end is a value and the completion in one call, and the
    // completion is dropped once the value's handler has disposed the start.
    Signal { subscriber in
        signal.run(
            { subscriber.putNext(.Next($0)) },
            { error in
                subscriber.putNext(.Error(error))
                subscriber.putCompletion()
            },
            {
                subscriber.putNext(.Completion)
                subscriber.putCompletion()
            }
        )
    }
}

/// Turns event values back into events: `.Next` sends the value, `.Error` fails, `.Completion`
/// completes (which disposes the upstream start). (Rx calls this `dematerialize`; the name is
/// SwiftSignalKit's.) Use it without parentheses.
///
/// ```swift
/// events |> materialize   // .Next(1), .Error(e) -> 1, then error e
/// ```
///
/// - Parameter signal: The upstream signal of events.
/// - Returns: The signal of those events; it also completes when the upstream completes.
@inlinable public func materialize<T, E>(signal: Signal<SignalEvent<T, E>, NoError>) -> Signal<T, E> {
    Signal { subscriber in
        signal.run(
            { event in
                switch event {
                case .Next(let value): subscriber.putNext(value)
                case .Error(let error): subscriber.putError(error)
                case .Completion: subscriber.putCompletion()
                }
            },
            nil,
            { subscriber.putCompletion() }
        )
    }
}
