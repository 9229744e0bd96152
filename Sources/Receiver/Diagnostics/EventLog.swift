// The lines of the event logs, `receiver.traceEvents(_:)` and ReceiverSignalKit's
// `traceEvents(_:)`: "search: next(1) at 12:04:31.250 on queue "work"". In every build: they
// are ordinary operators, which cost nothing where they are not used.

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Writes one line per event: the label, the event, the time and where it happened.
package struct EventLog {
    let label: String
    let clock: (() -> Double)?
    let write: (String) -> Void

    package init(label: String, clock: (() -> Double)?, write: @escaping (String) -> Void) {
        (self.label, self.clock, self.write) = (label, clock, write)
    }

    /// Writes `event` (`start`, `next(1)`…) with the time and the place, on the calling thread.
    package func record(_ event: String) {
        let time = clock.map { Self.seconds($0()) } ?? Self.timeOfDay()
        write(
            "\(label): \(event) at \(time) on \(Self.place(label: CurrentThread.queueLabel, thread: CurrentThread.id))")
    }

    /// Where code runs, named by the dispatch queue running it, or by its thread where no queue
    /// has a label.
    package static func place(label: String, thread: UInt64) -> String {
        switch label {
        case "com.apple.main-thread": "the main queue"
        case "": "thread \(thread)"
        default: "queue \"\(label)\""
        }
    }

    /// A clock's reading, in seconds to the millisecond: `2.250s`.
    package static func seconds(_ time: Double) -> String {
        guard time.isFinite, abs(time) < 1e15 else { return "\(time)s" }
        let milliseconds = Int64((time * 1000).rounded())
        let whole = milliseconds / 1000, fraction = abs(milliseconds % 1000)
        let sign = milliseconds < 0 && whole == 0 ? "-" : ""
        return "\(sign)\(whole).\(padded(fraction, to: 3))s"
    }

    /// The local time of day, to the millisecond: `12:04:31.250`.
    static func timeOfDay() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var seconds = now.tv_sec, parts = tm()
        localtime_r(&seconds, &parts)
        return "\(padded(Int64(parts.tm_hour), to: 2)):\(padded(Int64(parts.tm_min), to: 2)):"
            + "\(padded(Int64(parts.tm_sec), to: 2)).\(padded(Int64(now.tv_nsec / 1_000_000), to: 3))"
    }

    private static func padded(_ number: Int64, to digits: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
