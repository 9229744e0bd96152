import Foundation
import ReceiverSignalKit
@_exported import TestSupport

/// A disposable that counts its `dispose()` calls (not idempotent on purpose: a second call shows).
final class CountingDisposable: DisposeCounter, Disposable, @unchecked Sendable {}

/// The current value of a promise's signal, read with SwiftSignalKit's start + dispose idiom.
func current<T>(_ signal: Signal<T, NoError>) -> T? {
    var value: T?
    signal.start(next: { value = $0 }).dispose()
    return value
}

/// Runs `write(thread)` on four threads while four others each start `signal()` 50 times and
/// dispose each start at once; returns what every one of those starts received.
func briefStarts(
    of signal: @escaping @Sendable () -> Signal<Int, NoError>,
    whileWriting write: @escaping @Sendable (_ thread: Int) -> Void
) -> [[Int]] {
    let histories = History<[Int]>()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
        guard thread >= 4 else { return write(thread) }
        for _ in 0..<50 {
            let seen = History<Int>()
            signal().start(next: seen.record).dispose()
            histories.record(seen.recorded)
        }
    }
    return histories.recorded
}

/// A disposable whose `deinit` runs `onDeinit`: to show that whoever lets go of it does so after
/// unlocking (the deinit may call back into them).
final class ReenteringDisposable: Disposable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    func dispose() {}
    deinit { onDeinit() }
}

/// A plain error type that does not conform to `Error`, as Telegram's are.
enum LoadError { case network, timeout }

/// Starts `signal` and returns, as text, what it sent synchronously: each value, then
/// `error <e>` or `completed`.
func history<T, E>(of signal: Signal<T, E>) -> [String] {
    let events = History<String>()
    signal.start(
        next: { events.record("\($0)") }, error: { events.record("error \($0)") },
        completed: { events.record("completed") })
    return events.recorded
}
