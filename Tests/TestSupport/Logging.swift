// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// A start whose events go into the same log as what its sources write there (`Source`'s starts
// and disposals, `deinit`s, side effects), so that a test compares one whole history, in order.
// Where a test needs the events alone, or their virtual times, it uses `TestScheduler.record`.
public import ReceiverSignalKit

/// Starts `signal`, writing each event into `log`: "next <value>", "error <error>", "completed".
@discardableResult
public func startLogging<T, E>(_ signal: Signal<T, E>, into log: History<String>) -> any Disposable {
    signal.start(
        next: { log.record("next \($0)") }, error: { log.record("error \($0)") },
        completed: { log.record("completed") })
}
