import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A signal of `values`, then a completion.
private func values<T>(_ values: [T]) -> Signal<T, Void> {
    Signal { subscriber in
        values.forEach(subscriber.putNext)
        subscriber.putCompletion()
        return EmptyDisposable
    }
}

@Suite(.detectingLeaks) struct SignalExtrasTests {
    @Test func skipDropsTheFirstValuesOfEachStart() {
        let signal = values([1, 2, 3, 4]) |> skip(2)
        #expect(history(of: signal) == ["3", "4", "completed"])
        #expect(history(of: signal) == ["3", "4", "completed"])
        #expect(history(of: values([1, 2]) |> skip(0)) == ["1", "2", "completed"])
    }

    @Test func withPreviousPairsEachValueWithTheOneBefore() {
        let signal = values([1, 2, 3]) |> withPrevious |> map { "\($0.0.map(String.init) ?? "nil")>\($0.1)" }
        #expect(history(of: signal) == ["nil>1", "1>2", "2>3", "completed"])
        #expect(history(of: signal) == ["nil>1", "1>2", "2>3", "completed"])
    }

    @Test func skipNilDropsNilAndUnwraps() {
        #expect(history(of: values([1, nil, 2, nil]) |> skipNil) == ["1", "2", "completed"])
    }

    @Test func errorsPassThroughTheExtras() {
        let failing = Signal<Int?, Void>.fail(())
        #expect(history(of: failing |> skipNil |> skip(1) |> withPrevious) == ["error ()"])
    }

    /// Not a SwiftSignalKit function: it keeps the core's `skip(count:)` rule.
    @Test func aNegativeSkipCountStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = skip(-2) as (Signal<Int, NoError>) -> Signal<Int, NoError>
        }
        #expect(
            String(decoding: result.standardErrorContent, as: UTF8.self).contains(
                "skip(_:) needs a count of 0 or more, got -2"))
    }
}
