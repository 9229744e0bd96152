import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct ActionDisposableTests {
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

    @Test func theActionIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let slot = Atomic<ActionDisposable?>(value: nil)
            let disposable = ActionDisposable { [captured = Reentering { slot.with { $0 }?.dispose() }] in _ = captured
            }
            slot.swap(disposable)
            disposable.dispose()  // releasing the action runs `captured`'s deinit, which disposes again
        }
    }
}

/// Runs `onDeinit` when released: to call back into what released it.
private final class Reentering: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
}
