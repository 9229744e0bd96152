import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A signal of `values`, then a completion.
private func values<T>(_ values: [T]) -> Signal<T, NoError> {
    Signal { subscriber in
        values.forEach(subscriber.putNext)
        subscriber.putCompletion()
        return EmptyDisposable
    }
}

@Suite(.detectingLeaks) struct SignalMappingTests {
    @Test func pipeAppliesFunctionsLeftToRight() {
        let result = 3 |> { (value: Int) in value + 1 } |> { (value: Int) in value * 10 }
        #expect(result == 40)
    }

    @Test func mapTransformsEachValueAndPassesCompletionAndErrorOn() {
        #expect(history(of: values([1, 2]) |> map { $0 * 10 }) == ["10", "20", "completed"])
        #expect(
            history(of: Signal<Int, TestError>.fail(TestError(code: 9)) |> map { $0 + 1 }) == [
                "error TestError(code: 9)"
            ])
    }

    @Test func mapRunsItsTransformEvenWithoutANextHandler() {
        let calls = History<Int>()
        (values([1, 2]) |> map { calls.record($0) }).start()
        #expect(calls.recorded == [1, 2])
    }

    @Test func filterPassesOnlyIncludedValues() {
        #expect(history(of: values([1, 2, 3, 4]) |> filter { $0.isMultiple(of: 2) }) == ["2", "4", "completed"])
    }

    @Test func flatMapMapsNonNilValuesAndPassesNilOn() {
        let calls = History<Int>()
        let signal =
            values([1, nil, 2])
            |> flatMap { (value: Int) -> String in
                calls.record(value)
                return "#\(value)"
            }
        #expect(history(of: signal) == ["Optional(\"#1\")", "nil", "Optional(\"#2\")", "completed"])
        #expect(calls.recorded == [1, 2])
    }

    @Test func mapErrorTransformsTheErrorOnly() {
        let failing = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            subscriber.putError(TestError(code: 5))
            return EmptyDisposable
        }
        let mapped: Signal<Int, LoadError> = failing |> mapError { $0.code == 5 ? .timeout : .network }
        #expect(history(of: mapped) == ["1", "error timeout"])
        #expect(
            history(of: Signal<Int, TestError>.single(1) |> mapError { _ in LoadError.network }) == ["1", "completed"])
    }

    @Test func castErrorRetypesASignalThatCannotFail() {
        let cast: Signal<Int, LoadError> = values([1, 2]) |> castError(LoadError.self)
        #expect(history(of: cast) == ["1", "2", "completed"])
        let void: Signal<Int, Void> = values([3]) |> castError(Void.self)
        #expect(history(of: void) == ["3", "completed"])
    }

    @Test func distinctUntilChangedDropsRepeatsOfTheLastValuePassedOn() {
        #expect(history(of: values([1, 1, 2, 2, 3, 1]) |> distinctUntilChanged) == ["1", "2", "3", "1", "completed"])
    }

    @Test func distinctUntilChangedIsEqualComparesWithTheLastEmittedValue() {
        let compared = History<String>()
        let signal =
            values([1, 2, 3])
            |> distinctUntilChanged(isEqual: { (last: Int, new: Int) in
                compared.record("\(last)~\(new)")
                return abs(last - new) < 2
            })
        // 2 is dropped as close to 1, then 3 is compared with 1 (last emitted), not with 2.
        #expect(history(of: signal) == ["1", "3", "completed"])
        #expect(compared.recorded == ["1~2", "1~3"])
    }

    @Test func distinctUntilChangedStartsAfreshForEachStart() {
        let signal = values([7, 7]) |> distinctUntilChanged
        #expect(history(of: signal) == ["7", "completed"])
        #expect(history(of: signal) == ["7", "completed"])
    }

    @Test func mapFilterAndDistinctUntilChangedCompose() {
        let signal = values([1, 1, 2, 2, 3, 1, 4]) |> map { $0 * 3 } |> filter { $0 != 6 } |> distinctUntilChanged
        #expect(history(of: signal) == ["3", "9", "3", "12", "completed"])
    }

    @Test func disposingADerivedStartDisposesItsUpstreamStart() {
        let disposals = CountingDisposable()
        let disposable =
            (Signal<Int, NoError> { _ in disposals } |> map { $0 + 1 } |> filter { $0 > 0 } |> distinctUntilChanged)
            .start()
        #expect(disposals.count == 0)
        disposable.dispose()
        #expect(disposals.count == 1)
    }

    @Test func noValuePassesAStageAfterItsStartIsDisposed() {
        let (input, output) = Signal<Int, NoError>.pipe()
        var received: [Int] = []
        let disposable = (output |> map { $0 * 2 } |> filter { _ in true }).start(next: { received.append($0) })
        input.putNext(1)
        disposable.dispose()
        input.putNext(2)
        #expect(received == [2])
    }

    /// Per-start state has no lock: it relies on a start's handlers never overlapping, which a
    /// subscriber guarantees even when values are put from many threads at once.
    @Test func statefulStagesSeeOneValueAtATimeFromManyThreads() {
        let (input, output) = Signal<Int, NoError>.pipe()
        let received = History<Int>()
        let inside = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        let disposable = (output |> distinctUntilChanged |> map { $0 * 10 }).start(next: { value in
            if inside.modify({ $0 + 1 }) > 1 { _ = overlapped.swap(true) }
            received.record(value)
            _ = inside.modify { $0 - 1 }
        })
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<500 { input.putNext((thread + index) % 3) }
        }
        disposable.dispose()
        let values = received.recorded
        #expect(!overlapped.with { $0 })
        #expect(!values.isEmpty)
        #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 })
    }

    @Test func operatorsAcceptErrorTypesThatAreNotErrors() {
        let void: Signal<Int, Void> =
            Signal<Int, Void>.fail(()) |> map { $0 + 1 } |> filter { $0 > 0 } |> distinctUntilChanged
        #expect(history(of: void) == ["error ()"])
        let plain: Signal<String, LoadError> =
            Signal<Int?, LoadError>.single(1)
            |> flatMap { $0 * 2 } |> map { "\($0 ?? 0)" } |> distinctUntilChanged(isEqual: ==)
        #expect(history(of: plain) == ["2", "completed"])
        let remapped: Signal<Int, Void> = Signal<Int, LoadError>.fail(.network) |> mapError { _ in () }
        #expect(history(of: remapped) == ["error ()"])
    }
}
