import Dispatch
import ReceiverSignalKit
import Testing

import class Foundation.Thread

@Suite struct StrictDisposableTests {
    @Test func disposeDisposesTheWrappedOneOnce() {
        let wrapped = CountingDisposable()
        let strict = wrapped.strict()
        strict.dispose()
        strict.dispose()
        #expect(wrapped.count == 1)
    }

    @Test func releasingADisposedOneIsFine() async {
        await #expect(processExitsWith: .success) {
            let strict = StrictDisposable(EmptyDisposable)
            strict.dispose()
        }
    }

    #if DEBUG
    @Test func releasingWithoutDisposeStopsADebugBuildNamingWhereItWasMade() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = EmptyDisposable.strict()
        }
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("StrictDisposableTests.swift:"))
        #expect(message.contains("without dispose()"))
    }
    #endif

    @Test func theWrappedDisposableIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let slot = Atomic<(any Disposable)?>(value: nil)
            let strict = StrictDisposable(ReenteringDisposable { slot.with { $0 }?.dispose() })
            slot.swap(strict)
            strict.dispose()  // releasing the wrapped one runs its deinit, which disposes again
        }
    }
}

/// A disposable whose `deinit` runs `onDeinit`: to call back into what released it.
private final class ReenteringDisposable: Disposable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    func dispose() {}
    deinit { onDeinit() }
}

/// Stops the test process, failing its exit test, if it still runs after `seconds`: a deadlock.
private func startWatchdog(seconds: Double = 10) {
    Thread.detachNewThread {
        Thread.sleep(forTimeInterval: seconds)
        fatalError("watchdog: still running after \(seconds) s, deadlocked")
    }
}
