import Foundation
import ReceiverSignalKit
@_exported import TestSupport

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

/// A signal that sends `values`, then fails with `error` if given, else completes, all during
/// its start.
func values(_ values: [Int], thenFail error: TestError? = nil) -> Signal<Int, TestError> {
    Signal { subscriber in
        values.forEach(subscriber.putNext)
        if let error { subscriber.putError(error) } else { subscriber.putCompletion() }
        return EmptyDisposable
    }
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

/// A signal whose starts are logged ("s.subscribe#1", then "s.dispose#1" when that start's
/// disposable is disposed) and driven by `onStart` (called with the start's subscriber and number)
/// or by the test through the latest start's subscriber.
final class Source<Value: Sendable>: Sendable {
    let name: String
    let log: History<String>
    private let subscribers = History<Subscriber<Value, TestError>>()
    private let onStart: @Sendable (Subscriber<Value, TestError>, Int) -> Void

    init(
        _ name: String, _ log: History<String>,
        onStart: @escaping @Sendable (Subscriber<Value, TestError>, Int) -> Void = { _, _ in }
    ) {
        (self.name, self.log, self.onStart) = (name, log, onStart)
    }

    var signal: Signal<Value, TestError> {
        Signal { subscriber in
            self.subscribers.record(subscriber)
            let start = self.subscribers.recorded.count
            self.log.record("\(self.name).subscribe#\(start)")
            self.onStart(subscriber, start)
            return ActionDisposable { self.log.record("\(self.name).dispose#\(start)") }
        }
    }

    var starts: Int { subscribers.recorded.count }
    func emit(_ value: Value) { subscribers.recorded.last?.putNext(value) }
    func fail(_ code: Int) { subscribers.recorded.last?.putError(TestError(code: code)) }
    func complete() { subscribers.recorded.last?.putCompletion() }
}

/// Something whose release shows in a log, as SwiftSignalKit's own suite logs "… released".
final class Logged: Sendable {
    let name: String
    let log: History<String>
    init(_ name: String, _ log: History<String>) { (self.name, self.log) = (name, log) }
    deinit { log.record("\(name) released") }
}
