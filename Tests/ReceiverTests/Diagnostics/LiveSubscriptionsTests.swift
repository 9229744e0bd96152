import Receiver
import ReceiverSignalKitTesting
import Testing

/// The census of debug builds, `ReceiverDiagnostics.liveSubscriptions()`, for listeners: each
/// listener made outside the library is counted at its `listen` (or `observed(initial:)`) while it
/// is live, and a chain of operators once, at the user's call. The census is the whole process's
/// and the suites run in parallel, so each test reads only the lines of its own calls.
@Suite(.detectingLeaks) struct LiveSubscriptionsTests {
    #if DEBUG
    @Test func listenersAtTwoCallSitesAreCountedAtEachAndFallToZeroWhenDisposed() {
        let (_, receiver) = Receiver<Int>.make()
        var listeners: [any Disposable] = []
        for _ in 0..<2 { listeners.append(receiver.listen { _ in }) }
        let first = #line - 1
        for _ in 0..<3 { listeners.append(receiver.map { "\($0)" }.filter { !$0.isEmpty }.listen { _ in }) }
        let second = #line - 1
        #expect(
            census(at: [first, second]) == [
                .init(fileID: #fileID, line: second, what: "listener of Receiver<String>", count: 3),
                .init(fileID: #fileID, line: first, what: "listener of Receiver<Int>", count: 2),
            ])
        listeners.forEach { $0.dispose() }
        #expect(census(at: [first, second]) == [])
    }

    @Test func theListenersOfAReleasedPairAreNoLongerCounted() {
        var pair: (Receiver<Int>.Transmitter, Receiver<Int>)? = Receiver<Int>.make(with: .cold)
        pair?.1.listen { _ in }
        let line = #line - 1
        #expect(census(at: [line]).map(\.count) == [1])
        pair = nil
        #expect(census(at: [line]) == [])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedIsOneListenerAtItsCallUntilItIsReleased() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var observed: Observed<Int>? = receiver.map { $0 * 2 }.observed(initial: 0)
        let line = #line - 1
        #expect(census(at: [line]) == [.init(fileID: #fileID, line: line, what: "listener of Receiver<Int>", count: 1)])
        transmitter.broadcast(1)
        #expect(observed?.value == 2)
        observed = nil
        #expect(census(at: [line]) == [])
    }

    /// The census's entries for this file's `lines`.
    private func census(at lines: Set<Int>) -> [ReceiverDiagnostics.LiveSubscriptions] {
        ReceiverDiagnostics.liveSubscriptions().filter { $0.fileID == #fileID && lines.contains($0.line) }
    }
    #endif
}
