import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

/// The census of debug builds, `ReceiverDiagnostics.liveSubscriptions()`, for starts: each start
/// made outside the library is counted at its call site while it is live, a chain once at the
/// user's `start`, and never the library's own starts. The census is the whole process's and the
/// suites run in parallel, so each test reads only the lines of its own calls.
@Suite(.detectingLeaks) struct LiveSubscriptionsTests {
    #if DEBUG
    @Test func startsLeftLiveAtTwoCallSitesAreCountedAtEachAndFallToZeroWhenDisposed() {
        let pipe = ValuePipe<Int>()
        var starts: [any Disposable] = []
        for _ in 0..<3 { starts.append(pipe.signal().start(next: { _ in })) }
        let first = #line - 1
        for _ in 0..<2 { starts.append((pipe.signal() |> map { "\($0)" }).startStandalone(next: { _ in })) }
        let second = #line - 1
        #expect(
            census(at: [first, second]) == [
                .init(fileID: #fileID, line: first, what: "start of Signal<Int, Never>", count: 3),
                .init(fileID: #fileID, line: second, what: "start of Signal<String, Never>", count: 2),
            ])
        starts.removeLast().dispose()
        starts.removeFirst().dispose()
        #expect(census(at: [first, second]).map(\.count) == [2, 1])
        starts.forEach { $0.dispose() }
        #expect(census(at: [first, second]) == [])
    }

    @Test func aChainIsOneStartAtTheUsersCallAndTheLibrarysStartsAreNeverCounted() {
        let (pipe, queue) = (ValuePipe<Int>(), Queue(name: "LiveSubscriptionsTests"))
        let promise = Promise<Int>()
        let chain = (pipe.signal() |> mapToSignal { _ in promise.get() } |> filter { $0 > 0 } |> deliverOn(queue))
            .start(next: { _ in })
        let line = #line - 1
        pipe.putNext(1)  // a start of the promise's signal, inside the library
        #expect(
            census(at: [line]) == [.init(fileID: #fileID, line: line, what: "start of Signal<Int, Never>", count: 1)])
        let library = ["Receiver/", "ReceiverSignalKit/", "SwiftSignalKit/", "ReceiverSignalKitTesting/"]
        #expect(
            !ReceiverDiagnostics.liveSubscriptions().contains { site in library.contains { site.fileID.hasPrefix($0) } }
        )
        chain.dispose()
        #expect(census(at: [line]) == [])
    }

    @Test func aStartThatEndsOrWhoseSourceLetsGoIsNoLongerCounted() {
        let pipe = ValuePipe<Int>()
        var local: ValuePipe<Int>? = ValuePipe<Int>()
        (pipe.signal() |> take(1)).start(next: { _ in })
        let ending = #line - 1
        _ = local?.signal().start(next: { _ in })
        let released = #line - 1
        #expect(census(at: [ending, released]).map(\.count) == [1, 1])
        pipe.putNext(1)  // ends the first
        local = nil  // lets go of the second
        #expect(census(at: [ending, released]) == [])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedSignalIsOneStartAtItsCallUntilItIsReleased() {
        let pipe = ValuePipe<Int>()
        var observed: Observed<Int>? = pipe.signal().observed(initial: 0)
        let line = #line - 1
        #expect(
            census(at: [line]) == [.init(fileID: #fileID, line: line, what: "start of Signal<Int, Never>", count: 1)])
        pipe.putNext(1)
        #expect(observed?.value == 1)
        observed = nil
        #expect(census(at: [line]) == [])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func theLeakCheckSeesTheSameTokensAnObservedStillHeldIsALeakAtItsCall() {
        let pipe = ValuePipe<Int>()
        var kept: Observed<Int>?
        let leaks = detectLeaks {
            kept = pipe.signal().observed(initial: 0)
            _ = pipe.signal().observed(initial: 0)  // released at once: not a leak
        }
        #expect(leaks == [Leak(fileID: #fileID, line: #line - 3, what: "start of Signal<Int, Never>")])
        kept = nil
        #expect(detectLeaks { _ = kept } == [])
    }

    @Test func theCensusIsSortedByCountAndDescribesEachSite() {
        let pipe = ValuePipe<Int>()
        let one = pipe.signal().start(next: { _ in })
        let line = #line - 1
        let three = (0..<3).map { _ in pipe.signal().start(next: { _ in }) }
        let other = #line - 1
        let sites = census(at: [line, other])
        #expect(sites.map(\.line) == [other, line])
        #expect(sites.first?.description == "3 × start of Signal<Int, Never> at \(#fileID):\(other)")
        ([one] + three).forEach { $0.dispose() }
    }

    @Test func startsMadeOnOtherThreadsAreCounted() {
        let pipe = ValuePipe<Int>()
        let starts = History<any Disposable>()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in starts.record(pipe.signal().start(next: { _ in })) }
        let line = #line - 1
        #expect(census(at: [line]).map(\.count) == [8])
        starts.recorded.forEach { $0.dispose() }
        #expect(census(at: [line]) == [])
    }

    /// The census's entries for this file's `lines`.
    private func census(at lines: Set<Int>) -> [ReceiverDiagnostics.LiveSubscriptions] {
        ReceiverDiagnostics.liveSubscriptions().filter { $0.fileID == #fileID && lines.contains($0.line) }
    }
    #endif
}
