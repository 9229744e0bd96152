// An event is a plain enum whose cases carry their time, so that an expectation is one array
// literal compared with `==`, and a failure prints in the same form as the literal.
/// One event of a ``Recording``, with the virtual time it arrived at, in seconds.
///
/// ```swift
/// #expect(recording.events == [.next(0, "a"), .next(1.5, "ab"), .completed(1.5)])
/// ```
///
/// Comparable with `==` when the value and error types are `Equatable` (a signal whose error type
/// is `NoError` is: `NoError` is `Never`). Printed as you write it, so a failed expectation reads
/// `[.next(0, "a"), .completed(2)]`.
public enum RecordedEvent<Value, Failure> {
    /// A value, at `time`.
    case next(Double, Value)
    /// The error that ended the signal, at `time`.
    case error(Double, Failure)
    /// The completion that ended the signal, at `time`.
    case completed(Double)

    /// The virtual time the event arrived at, in seconds.
    ///
    /// ```swift
    /// recording.events.map(\.time)   // [0, 1.5, 1.5]
    /// ```
    public var time: Double {
        switch self {
        case .next(let time, _), .error(let time, _), .completed(let time): time
        }
    }
}

extension RecordedEvent: Equatable where Value: Equatable, Failure: Equatable {}

extension RecordedEvent: Sendable where Value: Sendable, Failure: Sendable {}

extension RecordedEvent: CustomStringConvertible, CustomDebugStringConvertible {
    /// The event as you would write it: `.next(1.5, "ab")`, `.error(2, TestError())`,
    /// `.completed(2)`.
    ///
    /// ```swift
    /// print(RecordedEvent<Int, NoError>.next(2, 1))   // .next(2, 1)
    /// ```
    public var description: String {
        switch self {
        case .next(let time, let value): ".next(\(Self.format(time)), \(String(reflecting: value)))"
        case .error(let time, let error): ".error(\(Self.format(time)), \(String(reflecting: error)))"
        case .completed(let time): ".completed(\(Self.format(time)))"
        }
    }

    /// The same as ``description``, so that an array of events prints alike.
    ///
    /// ```swift
    /// print([RecordedEvent<Int, NoError>.completed(0.5)])   // [.completed(0.5)]
    /// ```
    public var debugDescription: String { description }

    /// `2` for 2.0, `1.5` for 1.5: a time as it is written in a test.
    private static func format(_ time: Double) -> String {
        if time.rounded() == time, abs(time) < 1e15 { String(Int64(time)) } else { "\(time)" }
    }
}
