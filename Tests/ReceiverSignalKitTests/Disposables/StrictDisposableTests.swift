import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct StrictDisposableTests {
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
