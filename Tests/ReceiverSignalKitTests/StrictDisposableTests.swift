import ReceiverSignalKit
import Testing

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
}
