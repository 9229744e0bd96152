import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// One step of the queued fold that sends `(accumulator + value, .Some(accumulator + value))`
/// and completes at once.
private func runningSum(_ accumulator: Int, _ value: Int) -> Signal<(Int, Passthrough<Int>), TestError> {
    .single((accumulator + value, .Some(accumulator + value)))
}

@Suite(.detectingLeaks) struct SignalReduceTests {
    @Test func reduceLeftSendsTheFoldOnCompletion() {
        let sum = values([1, 2, 3]) |> reduceLeft(value: 0, f: +)
        #expect(history(of: sum) == ["6", "completed"])
        #expect(history(of: sum) == ["6", "completed"])  // a fresh accumulator per start
        #expect(history(of: values([]) |> reduceLeft(value: 10, f: +)) == ["10", "completed"])
        let failing = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            subscriber.putError(TestError(code: 2))
            return EmptyDisposable
        }
        #expect(history(of: failing |> reduceLeft(value: 0, f: +)) == ["error TestError(code: 2)"])
    }

    @Test func reduceLeftWithEmitSendsWhatTheStepsEmitThenTheFold() {
        let signal =
            values([1, -1, 2])
            |> reduceLeft(
                value: 0,
                f: { (sum: Int, value: Int, emit: (Int) -> Void) -> Int in
                    if value < 0 { emit(sum) }
                    return sum + value
                })
        #expect(history(of: signal) == ["1", "2", "completed"])
        #expect(history(of: signal) == ["1", "2", "completed"])
    }

    @Test func passthroughHasNoneAndSome() {
        let steps: [Passthrough<Int>] = [.None, .Some(3)]
        #expect(steps.map { if case .Some(let value) = $0 { value } else { nil } } == [nil, 3])
    }

    @Test func queuedReduceLeftRunsStepsInOrderAndSendsTheFoldLast() {
        let calls = History<String>()
        let signal =
            values([1, 2, 3])
            |> reduceLeft(
                0,
                generator: { (accumulator: Int, value: Int) in
                    calls.record("\(accumulator)+\(value)")
                    return runningSum(accumulator, value)
                })
        #expect(history(of: signal) == ["1", "3", "6", "6", "completed"])
        #expect(calls.recorded == ["0+1", "1+2", "3+3"])
        #expect(history(of: values([]) |> reduceLeft(5, generator: runningSum)) == ["5", "completed"])
    }

    @Test func aNoneStepUpdatesTheAccumulatorWithoutSending() {
        let signal =
            values([1, 2])
            |> reduceLeft(
                0,
                generator: { accumulator, value in
                    Signal<(Int, Passthrough<Int>), TestError>.single((accumulator + value, .None))
                })
        #expect(history(of: signal) == ["3", "completed"])
    }

    /// Values that arrive while a step runs wait; the fold comes after the upstream completed
    /// AND the queue drained.
    @Test func valuesWaitForTheRunningStep() {
        let (input, output) = Signal<Int, TestError>.pipe()
        let steps = Atomic<[Subscriber<(Int, Passthrough<Int>), TestError>]>(value: [])
        let calls = History<String>()
        let signal =
            output
            |> reduceLeft(
                0,
                generator: { accumulator, value in
                    calls.record("\(accumulator)+\(value)")
                    return Signal { step in
                        steps.modify { $0 + [step] }
                        return EmptyDisposable
                    }
                })
        let events = History<String>()
        signal.start(next: { events.record("\($0)") }, completed: { events.record("completed") })
        [1, 2, 3].forEach(input.putNext)
        input.putCompletion()
        #expect(calls.recorded == ["0+1"])
        func finishStep(_ index: Int, with accumulator: Int) {
            let step = steps.with { $0[index] }
            step.putNext((accumulator, .Some(accumulator)))
            step.putCompletion()
        }
        finishStep(0, with: 1)
        #expect(calls.recorded == ["0+1", "1+2"])
        finishStep(1, with: 3)
        #expect(events.recorded == ["1", "3"])
        finishStep(2, with: 6)
        #expect(calls.recorded == ["0+1", "1+2", "3+3"])
        #expect(events.recorded == ["1", "3", "6", "6", "completed"])
    }

    @Test func aStepErrorEndsTheStartWithoutTheFold() {
        let signal =
            values([1, 2, 3])
            |> reduceLeft(
                0,
                generator: { accumulator, value in
                    value == 2 ? .fail(TestError(code: 7)) : runningSum(accumulator, value)
                })
        #expect(history(of: signal) == ["1", "error TestError(code: 7)"])
    }

    @Test func disposingDisposesTheRunningStepThenTheUpstream() {
        let log = History<String>()
        let upstream = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            return ActionDisposable { log.record("upstream disposed") }
        }
        let signal =
            upstream
            |> reduceLeft(
                0,
                generator: { _, _ in
                    Signal { _ in ActionDisposable { log.record("step disposed") } }
                })
        signal.start().dispose()
        #expect(log.recorded == ["step disposed", "upstream disposed"])
    }

    /// Steps that complete synchronously are run by a loop, not by recursion: 200,000 queued
    /// values must not overflow the stack (a regression would crash, hence the exit test).
    @Test func aLongQueueOfSynchronousStepsDoesNotGrowTheStack() async {
        await #expect(processExitsWith: .success) {
            let (input, output) = Signal<Int, NoError>.pipe()
            let first = Atomic<Subscriber<(Int, Passthrough<Int>), NoError>?>(value: nil)
            let signal =
                output
                |> reduceLeft(
                    0,
                    generator: { accumulator, value in
                        guard value == 0 else { return .single((accumulator + value, .None)) }
                        return Signal { step in
                            _ = first.swap(step)
                            return EmptyDisposable
                        }
                    })
            var fold: Int?
            signal.start(next: { fold = $0 })
            for value in 0..<200_000 { input.putNext(value) }
            input.putCompletion()
            let step = first.with { $0 }
            step?.putCompletion()
            guard fold == (0..<200_000).reduce(0, +) else { exit(1) }
        }
    }

    /// Steps completing on another thread while the upstream keeps sending: still one step at a
    /// time, in order.
    @Test func stepsCompletingOnAnotherThreadStayInOrder() {
        let queue = DispatchQueue(label: "steps")
        let running = Atomic(value: 0)
        let overlapped = Atomic(value: false)
        let order = History<Int>()
        let done = DispatchSemaphore(value: 0)
        let signal =
            values(Array(1...200))
            |> reduceLeft(
                0,
                generator: { accumulator, value in
                    Signal { step in
                        if running.modify({ $0 + 1 }) > 1 { _ = overlapped.swap(true) }
                        order.record(value)
                        queue.async {
                            _ = running.modify { $0 - 1 }
                            step.putNext((accumulator + value, .None))
                            step.putCompletion()
                        }
                        return EmptyDisposable
                    }
                })
        let fold = Atomic<Int?>(value: nil)
        signal.start(next: { _ = fold.swap($0) }, completed: { done.signal() })
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(fold.with { $0 } == 20_100)
        #expect(order.recorded == Array(1...200))
        #expect(!overlapped.with { $0 })
    }

    @Test func reduceOperatorsAcceptErrorTypesThatAreNotErrors() {
        let void: Signal<Int, Void> = Signal<Int, Void>.single(2) |> reduceLeft(value: 1, f: *)
        #expect(history(of: void) == ["2", "completed"])
        let plain: Signal<Int, LoadError> =
            Signal<Int, LoadError>.single(2)
            |> reduceLeft(1, generator: { _, _ in .fail(.network) })
        #expect(history(of: plain) == ["error network"])
    }

    /// Where SwiftSignalKit leaks (a cycle through its subscribers): a queued fold that never ends,
    /// started and its handle dropped, leaves nothing behind.
    @Test func aNeverEndingQueuedReduceLeftWhoseHandleIsDroppedIsFreed() {
        weak var weakSentinel: Witness?
        do {
            let sentinel = Witness()
            weakSentinel = sentinel
            (Signal<Int, NoError>.never()
                |> reduceLeft(
                    0,
                    generator: { sum, value in
                        _ = sentinel
                        return .single((sum + value, .None))
                    }))
                .start()
        }
        #expect(weakSentinel == nil)
    }
}
