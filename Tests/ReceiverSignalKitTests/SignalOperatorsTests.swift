import ReceiverSignalKit
import Testing

@Suite struct SignalOperatorsTests {
    /// A signal of `values`, then a completion, that counts how often it is disposed.
    func values(_ values: [Int], disposals: CountingDisposable = CountingDisposable()) -> Signal<Int, NoError> {
        Signal { subscriber in
            values.forEach(subscriber.putNext)
            subscriber.putCompletion()
            return disposals
        }
    }

    func collect<T>(_ signal: Signal<T, NoError>) -> (values: [T], completed: Bool) {
        var (values, completed) = ([T](), false)
        signal.start(next: { values.append($0) }, completed: { completed = true })
        return (values, completed)
    }

    @Test func pipeAppliesFunctionsLeftToRight() {
        #expect((3 |> { $0 + 1 } |> { $0 * 10 }) == 40)
    }

    @Test func mapFilterAndDistinctUntilChangedCompose() {
        let signal = values([1, 1, 2, 2, 3, 1, 4]) |> map { $0 * 3 } |> filter { $0 != 6 } |> distinctUntilChanged
        #expect(collect(signal).values == [3, 9, 3, 12])
        #expect(collect(signal).completed)
    }

    @Test func distinctUntilChangedIsEqual() {
        let signal = values([10, 11, 20, 25, 31]) |> distinctUntilChanged(isEqual: { $0 / 10 == $1 / 10 })
        #expect(collect(signal).values == [10, 20, 31])
    }

    @Test func takePassesTheFirstValuesThenCompletesAndDisposesTheUpstream() {
        let disposals = CountingDisposable()
        let (input, output) = Signal<Int, NoError>.pipe()
        let upstream = Signal<Int, NoError> { subscriber in
            let forwarding = output.start(next: subscriber.putNext)
            return ActionDisposable {
                forwarding.dispose()
                disposals.dispose()
            }
        }
        var received: [Int] = []
        var completed = false
        (upstream |> take(2)).start(next: { received.append($0) }, completed: { completed = true })
        [1, 2, 3].forEach(input.putNext)
        #expect(received == [1, 2])
        #expect(completed)
        #expect(disposals.count == 1)
    }

    @Test func takeZeroCompletesWithoutStartingTheUpstream() {
        let starts = Atomic(value: 0)
        let upstream = Signal<Int, NoError> { subscriber in
            starts.modify { $0 + 1 }
            subscriber.putNext(1)
            return EmptyDisposable
        }
        let result = collect(upstream |> take(0))
        #expect(result.values == [])
        #expect(result.completed)
        #expect(starts.with { $0 } == 0)
    }

    @Test func skipWithPreviousAndSkipNil() {
        #expect(collect(values([1, 2, 3, 4]) |> skip(2)).values == [3, 4])
        #expect(collect(values([1, 2, 3]) |> skip(0)).values == [1, 2, 3])
        #expect(collect(values([1, 2, 3]) |> withPrevious).values.map { [$0.0, $0.1] } == [[nil, 1], [1, 2], [2, 3]])
        let optionals = Signal<Int?, NoError> { subscriber in
            [1, nil, 2, nil].forEach(subscriber.putNext)
            return EmptyDisposable
        }
        #expect(collect(optionals |> skipNil).values == [1, 2])
    }

    @Test func operatorStateIsPerStart() {
        let signal = values([1, 2]) |> withPrevious |> map { "\($0.0.map(String.init) ?? "nil")>\($0.1)" }
        #expect(collect(signal).values == ["nil>1", "1>2"])
        #expect(collect(signal).values == ["nil>1", "1>2"])
        let skipping = values([1, 2, 3]) |> skip(1)
        #expect(collect(skipping).values == [2, 3])
        #expect(collect(skipping).values == [2, 3])
    }

    @Test func errorsPassThroughOperators() {
        var errors: [TestError] = []
        (Signal<Int, TestError>.fail(TestError(code: 9)) |> map { $0 + 1 } |> take(3)).start(error: { errors.append($0) })
        #expect(errors == [TestError(code: 9)])
    }

    @Test func disposingADerivedStartDisposesItsUpstreamStart() {
        let disposals = CountingDisposable()
        let disposable = (Signal<Int, NoError> { _ in disposals } |> map { $0 + 1 } |> filter { $0 > 0 }).start()
        #expect(disposals.count == 0)
        disposable.dispose()
        #expect(disposals.count == 1)
    }

    @Test func aNegativeTakeCountStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = take(-1) as (Signal<Int, NoError>) -> Signal<Int, NoError>
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("take(_:) needs a count of 0 or more, got -1"))
    }

    @Test func aNegativeSkipCountStopsWithAMessage() async throws {
        let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = skip(-2) as (Signal<Int, NoError>) -> Signal<Int, NoError>
        }
        #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("skip(_:) needs a count of 0 or more, got -2"))
    }
}
