// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// The one way the suites wait for real threads: a semaphore with a time limit, so that a bug
// fails the test instead of hanging the suite. Only the tests that must run real Dispatch (a
// thread hop, the main queue, a dispatch timer) wait at all; the rest run on virtual time.
public import Dispatch
public import Testing

/// Waits for `semaphore`, failing (never hanging) if it is not signalled within `seconds`.
public func expectSignal(
    _ semaphore: DispatchSemaphore, within seconds: Double = 10, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(semaphore.wait(timeout: .now() + seconds) == .success, "timed out", sourceLocation: sourceLocation)
}
