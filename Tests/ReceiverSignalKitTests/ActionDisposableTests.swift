import Dispatch
import ReceiverSignalKit
import Testing

@Suite struct ActionDisposableTests {
    @Test func runsTheActionOnceOnTheFirstDispose() {
        var runs: [String] = []
        let disposable = ActionDisposable { runs.append("action") }
        #expect(runs == [])
        disposable.dispose()
        disposable.dispose()
        #expect(runs == ["action"])
    }

    @Test func concurrentDisposesRunTheActionExactlyOnce() {
        for _ in 0..<100 {
            let runs = Atomic(value: 0)
            let disposable = ActionDisposable { runs.modify { $0 + 1 } }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
            #expect(runs.with { $0 } == 1)
        }
    }

    @Test func releasesTheActionWhenDisposed() {
        final class Captured {}
        var captured: Captured? = Captured()
        weak let watcher = captured
        let disposable = ActionDisposable { [captured] in _ = captured }
        captured = nil
        #expect(watcher != nil)
        disposable.dispose()
        #expect(watcher == nil)
    }

    @Test func emptyDisposableDoesNothing() {
        EmptyDisposable.dispose()
        EmptyDisposable.dispose()
        #expect(EmptyDisposable === EmptyDisposable)
    }
}
