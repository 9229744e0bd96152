import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// An outer source and the log it shares with its inners.
private func outerSource() -> (Source<Signal<Int, TestError>>, History<String>) {
    let log = History<String>()
    return (Source("o", log), log)
}

@Suite(.detectingLeaks) struct SignalMetaTests {
    // MARK: switchToLatest

    @Test func switchToLatestStartsTheNewInnerBeforeDisposingTheOne() {
        let (outer, log) = outerSource()
        let (a, b) = (Source<Int>("a", log), Source<Int>("b", log))
        startLogging(outer.signal |> switchToLatest, into: log)
        outer.emit(a.signal)
        a.emit(1)
        outer.emit(b.signal)
        a.emit(99)  // disposed: never delivered
        b.emit(2)
        outer.complete()  // an inner runs: not complete yet
        b.emit(3)
        b.complete()
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "next 1", "b.subscribe#1", "a.dispose#1", "next 2",
                "o.dispose#1", "next 3", "completed", "b.dispose#1",
            ])
    }

    /// A replaced inner that still sends (here: from inside the new inner's start, before it is
    /// disposed) reaches nobody, and its completion does not count as the current inner's.
    @Test func switchToLatestIgnoresEverythingAReplacedInnerSends() {
        let (outer, log) = outerSource()
        let a = Source<Int>("a", log)
        let b = Source<Int>(
            "b", log,
            onStart: { _, _ in
                a.emit(99)
                a.complete()
            })
        startLogging(outer.signal |> switchToLatest, into: log)
        outer.emit(a.signal)
        outer.emit(b.signal)
        outer.complete()
        b.emit(2)
        b.complete()
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "b.subscribe#1", "a.dispose#1", "o.dispose#1", "next 2", "completed",
                "b.dispose#1",
            ])
    }

    /// The new inner's synchronous value reaches the downstream while it starts, before the inner
    /// it replaces is disposed (SwiftSignalKit's order); what the replaced one sends while it is
    /// disposed is dropped.
    @Test func switchToLatestIgnoresWhatAReplacedInnerSendsWhileItIsDisposed() {
        let (outer, log) = outerSource()
        let a = Signal<Int, TestError> { subscriber in
            subscriber.putNext(1)
            return ActionDisposable {
                log.record("a.dispose")
                subscriber.putNext(99)
                subscriber.putCompletion()
            }
        }
        startLogging(outer.signal |> switchToLatest, into: log)
        outer.emit(a)
        outer.emit(.single(2))
        outer.complete()
        #expect(log.recorded == ["o.subscribe#1", "next 1", "next 2", "a.dispose", "completed", "o.dispose#1"])
    }

    @Test func switchToLatestCompletesOnceTheOuterHasCompletedAndNoInnerRuns() {
        let log = History<String>()
        startLogging(Signal<Signal<Int, TestError>, TestError>.complete() |> switchToLatest, into: log)
        #expect(log.recorded == ["completed"])

        let (outer, innerLog) = outerSource()
        let a = Source<Int>("a", innerLog)
        startLogging(outer.signal |> switchToLatest, into: innerLog)
        outer.emit(a.signal)
        a.complete()
        outer.complete()
        #expect(innerLog.recorded == ["o.subscribe#1", "a.subscribe#1", "a.dispose#1", "completed", "o.dispose#1"])
    }

    @Test func switchToLatestPassesOnAnInnerError() {
        let (outer, log) = outerSource()
        let a = Source<Int>("a", log)
        startLogging(outer.signal |> switchToLatest, into: log)
        outer.emit(a.signal)
        a.fail(7)
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "error TestError(code: 7)", "a.dispose#1", "o.dispose#1",
            ])
    }

    @Test func switchToLatestPassesOnAnOuterError() {
        let (outer, log) = outerSource()
        let a = Source<Int>("a", log)
        startLogging(outer.signal |> switchToLatest, into: log)
        outer.emit(a.signal)
        outer.fail(5)
        a.emit(1)
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "error TestError(code: 5)", "a.dispose#1", "o.dispose#1",
            ])
    }

    @Test func switchToLatestDisposesTheCurrentInnerThenTheOuter() {
        let (outer, log) = outerSource()
        let a = Source<Int>("a", log)
        let disposable = startLogging(outer.signal |> switchToLatest, into: log)
        outer.emit(a.signal)
        disposable.dispose()
        a.emit(1)
        outer.emit(Source<Int>("b", log).signal)
        #expect(log.recorded == ["o.subscribe#1", "a.subscribe#1", "a.dispose#1", "o.dispose#1"])
    }

    /// The outer sends from the test's thread while every inner sends from a thread of its own,
    /// and keeps sending for a while after it was replaced: the values arrive grouped by inner, in
    /// the order the inners were sent, and the last inner's arrive whole.
    @Test func switchToLatestNeverDeliversAReplacedInnerAcrossThreads() {
        let (inners, perInner) = (40, 300)
        let seen = History<Int>()
        let done = DispatchSemaphore(value: 0)
        let (outer, signal) = Signal<Signal<Int, NoError>, NoError>.pipe()
        let disposable = (signal |> switchToLatest).start(next: seen.record, completed: { done.signal() })
        for inner in 0..<inners {
            outer.putNext(
                Signal { subscriber in
                    let stopped = Atomic(value: false)
                    DispatchQueue.global().async {
                        for index in 0..<perInner where !stopped.with({ $0 }) {
                            subscriber.putNext(inner * 1_000_000 + index)
                        }
                        if inner == inners - 1 { subscriber.putCompletion() }
                    }
                    return ActionDisposable { stopped.swap(true) }
                })
        }
        outer.putCompletion()
        #expect(done.wait(timeout: .now() + 60) == .success)
        let values = seen.recorded
        #expect(values.map { $0 / 1_000_000 } == values.map { $0 / 1_000_000 }.sorted())
        #expect(values.filter { $0 / 1_000_000 == inners - 1 } == (0..<perInner).map { (inners - 1) * 1_000_000 + $0 })
        disposable.dispose()
    }

    // MARK: queue, throttled

    @Test func queueRunsTheInnersOneAtATimeInArrivalOrder() {
        let (outer, log) = outerSource()
        let (a, b, c) = (Source<Int>("a", log), Source<Int>("b", log), Source<Int>("c", log))
        startLogging(outer.signal |> queue, into: log)
        outer.emit(a.signal)
        outer.emit(b.signal)
        outer.emit(c.signal)
        a.emit(1)
        a.complete()
        b.emit(2)
        outer.complete()
        b.complete()
        c.emit(3)
        c.complete()
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "next 1", "b.subscribe#1", "a.dispose#1", "next 2", "o.dispose#1",
                "c.subscribe#1", "b.dispose#1", "next 3", "completed", "c.dispose#1",
            ])
    }

    /// 100,000 inners that complete as they start, queued behind one that runs: each inner's
    /// completion starts the next one in a loop, not a stack frame deeper.
    @Test func queueDrainsSynchronousInnersIteratively() {
        let count = 100_000
        let (outer, signal) = Signal<Signal<Int, NoError>, NoError>.pipe()
        let (first, firstSignal) = Signal<Int, NoError>.pipe()
        var values: [Int] = []
        var completed = false
        (signal |> queue).start(next: { values.append($0) }, completed: { completed = true })
        outer.putNext(firstSignal)
        for value in 0..<count { outer.putNext(.single(value)) }
        outer.putCompletion()
        #expect(values.isEmpty)
        first.putCompletion()
        #expect(values == Array(0..<count))
        #expect(completed)
    }

    @Test func queueDropsTheWaitingInnersOnAnErrorAndOnDisposal() {
        let (outer, log) = outerSource()
        let (a, b) = (Source<Int>("a", log), Source<Int>("b", log))
        startLogging(outer.signal |> queue, into: log)
        outer.emit(a.signal)
        outer.emit(b.signal)
        a.fail(4)
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "error TestError(code: 4)", "a.dispose#1", "o.dispose#1",
            ])
        #expect(b.starts == 0)

        let (outer2, log2) = outerSource()
        let (c, d) = (Source<Int>("c", log2), Source<Int>("d", log2))
        let disposable = startLogging(outer2.signal |> queue, into: log2)
        outer2.emit(c.signal)
        outer2.emit(d.signal)
        disposable.dispose()
        c.complete()
        #expect(log2.recorded == ["o.subscribe#1", "c.subscribe#1", "c.dispose#1", "o.dispose#1"])
        #expect(d.starts == 0)
    }

    @Test func throttledKeepsOnlyTheNewestWaitingInner() {
        let (outer, log) = outerSource()
        let sources = ["a", "b", "c", "d"].map { Source<Int>($0, log) }
        startLogging(outer.signal |> throttled, into: log)
        sources.forEach { outer.emit($0.signal) }
        sources[0].emit(1)
        sources[0].complete()
        sources[3].emit(4)
        outer.complete()
        sources[3].complete()
        #expect(
            log.recorded == [
                "o.subscribe#1", "a.subscribe#1", "next 1", "d.subscribe#1", "a.dispose#1", "next 4", "o.dispose#1",
                "completed", "d.dispose#1",
            ])
        #expect(sources[1].starts == 0 && sources[2].starts == 0)
    }

    // MARK: mapToSignal and friends

    @Test func mapToSignalMapsEachValueToTheSignalItFollows() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        let inners = [1: Source<Int>("one", log), 2: Source<Int>("two", log)]
        startLogging(
            source.signal
                |> mapToSignal { value in
                    log.record("f \(value)")
                    return inners[value]!.signal
                }, into: log)
        source.emit(1)
        inners[1]!.emit(10)
        source.emit(2)
        inners[2]!.emit(20)
        source.complete()
        inners[2]!.complete()
        #expect(
            log.recorded == [
                "s.subscribe#1", "f 1", "one.subscribe#1", "next 10", "f 2", "two.subscribe#1", "one.dispose#1",
                "next 20", "s.dispose#1", "completed", "two.dispose#1",
            ])
    }

    /// Synchronous outers and inners are delivered before `start` returns, so SwiftSignalKit's
    /// "read the current value with start + dispose" idiom reads through `mapToSignal`.
    @Test func mapToSignalDeliversSynchronousValuesBeforeStartReturns() {
        let (names, ids) = (ValuePromise("ab"), ValuePromise(2))
        let signal = ids.get() |> mapToSignal { id in names.get() |> map { String(repeating: $0, count: id) } }
        #expect(current(signal) == "abab")
        ids.set(3)
        names.set("c")
        #expect(current(signal) == "ccc")
    }

    /// A start that never ends and whose handle is dropped lives as long as its sources: when they
    /// go, it goes, with what its handlers and the transform captured (the pair does not keep
    /// itself alive through its listener).
    @Test func mapToSignalIsReleasedWithItsSources() {
        weak var handlerCapture: Witness?
        weak var transformCapture: Witness?
        do {
            let (handlerWitness, transformWitness) = (Witness(), Witness())
            (handlerCapture, transformCapture) = (handlerWitness, transformWitness)
            let (input, values) = Signal<Int, NoError>.pipe()
            let mapped =
                values
                |> mapToSignal { _ in
                    _ = transformWitness
                    return Signal<Int, NoError>.never()
                }
            mapped.start(next: { _ in _ = handlerWitness })
            input.putNext(1)
        }
        #expect(handlerCapture == nil)
        #expect(transformCapture == nil)
    }

    @Test func mapToSignalPromotingErrorFailsWithTheInnerError() {
        let log = History<String>()
        let (input, values) = Signal<Int, NoError>.pipe()
        let inner = Source<Int>("i", log)
        startLogging(
            values
                |> mapToSignalPromotingError { value in
                    log.record("f \(value)")
                    return inner.signal
                }, into: log)
        input.putNext(1)
        inner.emit(10)
        inner.fail(3)
        input.putNext(2)
        #expect(log.recorded == ["f 1", "i.subscribe#1", "next 10", "error TestError(code: 3)", "i.dispose#1"])
    }

    @Test func mapToQueueRunsTheMappedSignalsInOrder() {
        let log = History<String>()
        let (input, values) = Signal<Int, TestError>.pipe()
        let inners = (0..<3).map { Source<Int>("q\($0)", log) }
        startLogging(values |> mapToQueue { inners[$0].signal }, into: log)
        (0..<3).forEach(input.putNext)
        inners[0].complete()
        inners[1].emit(1)
        inners[1].complete()
        input.putCompletion()
        inners[2].complete()
        #expect(
            log.recorded == [
                "q0.subscribe#1", "q1.subscribe#1", "q0.dispose#1", "next 1", "q2.subscribe#1", "q1.dispose#1",
                "completed", "q2.dispose#1",
            ])
    }

    @Test func mapToThrottledRunsTheNewestWaitingMappedSignal() {
        let log = History<String>()
        let (input, values) = Signal<Int, TestError>.pipe()
        let inners = (0..<4).map { Source<Int>("t\($0)", log) }
        startLogging(values |> mapToThrottled { inners[$0].signal }, into: log)
        (0..<4).forEach(input.putNext)
        inners[0].complete()
        inners[3].fail(9)
        #expect(
            log.recorded == [
                "t0.subscribe#1", "t3.subscribe#1", "t0.dispose#1", "error TestError(code: 9)", "t3.dispose#1",
            ])
    }

    // MARK: then, deferred, ignoreValues

    @Test func thenStartsTheNextSignalWhenTheFirstCompletes() {
        let log = History<String>()
        let (first, next) = (Source<Int>("s", log), Source<Int>("n", log))
        startLogging(first.signal |> then(next.signal), into: log)
        first.emit(1)
        first.complete()
        next.emit(2)
        next.complete()
        #expect(
            log.recorded == [
                "s.subscribe#1", "next 1", "n.subscribe#1", "s.dispose#1", "next 2", "completed", "n.dispose#1",
            ])
    }

    @Test func thenNeverStartsTheNextSignalAfterAnError() {
        let log = History<String>()
        let (first, next) = (Source<Int>("s", log), Source<Int>("n", log))
        startLogging(first.signal |> then(next.signal), into: log)
        first.fail(3)
        #expect(log.recorded == ["s.subscribe#1", "error TestError(code: 3)", "s.dispose#1"])
        #expect(next.starts == 0)
    }

    @Test func thenDisposesBoth() {
        let log = History<String>()
        let (first, next) = (Source<Int>("s", log), Source<Int>("n", log))
        let disposable = startLogging(first.signal |> then(next.signal), into: log)
        first.complete()
        disposable.dispose()
        next.emit(1)
        #expect(log.recorded == ["s.subscribe#1", "n.subscribe#1", "s.dispose#1", "n.dispose#1"])
    }

    @Test func thenDropsAndDisposesTheNextStartWhenDisposedWhileItStarts() {
        // The start is disposed from inside the next signal's generator: what that generator sends
        // then is dropped, and the start it returns arrives after the dispose and must be disposed
        // at once.
        let log = History<String>()
        let first = Source<Int>("s", log)
        let disposable = Atomic<(any Disposable)?>(value: nil)
        let next = Signal<Int, TestError> { subscriber in
            log.record("n.subscribe")
            disposable.with { $0 }?.dispose()
            subscriber.putNext(9)  // after the dispose: not passed on
            return ActionDisposable { log.record("n.dispose") }
        }
        _ = disposable.swap(startLogging(first.signal |> then(next), into: log))
        first.complete()
        #expect(log.recorded == ["s.subscribe#1", "n.subscribe", "s.dispose#1", "n.dispose"])
    }

    @Test func thenDisposedWhileTheNextSignalSendsFromAnotherThreadDisposesItOnce() {
        // Exercises the StartPair's lock under TSan: the next signal's events and the start's
        // dispose race; the next start is disposed exactly once, and the start ends once at most.
        for _ in 0..<200 {
            let (disposes, ends) = (Atomic(value: 0), Atomic(value: 0))
            let sending = Atomic<Subscriber<Int, TestError>?>(value: nil)
            let next = Signal<Int, TestError> { subscriber in
                _ = sending.swap(subscriber)
                return ActionDisposable { _ = disposes.modify { $0 + 1 } }
            }
            let start = (Signal<Int, TestError>.complete() |> then(next)).start(
                next: { _ in }, error: { _ in _ = ends.modify { $0 + 1 } }, completed: { _ = ends.modify { $0 + 1 } })
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                guard index == 0 else { return start.dispose() }
                let subscriber = sending.with { $0 }
                for value in 0..<20 { subscriber?.putNext(value) }
                subscriber?.putCompletion()
            }
            start.dispose()
            #expect(disposes.with { $0 } == 1)
            #expect(ends.with { $0 } <= 1)
        }
    }

    @Test func deferredCallsTheGeneratorAtEachStartOnTheStartingThread() {
        let log = History<String>()
        let queue = Queue(name: "deferred")
        let signal = deferred { () -> Signal<Int, TestError> in
            log.record("generator on queue: \(queue.isCurrent())")
            return .single(log.recorded.count)
        }
        #expect(log.recorded.isEmpty)
        queue.sync { startLogging(signal, into: log) }
        startLogging(signal, into: log)
        #expect(
            log.recorded == [
                "generator on queue: true", "next 1", "completed", "generator on queue: false", "next 4", "completed",
            ])
    }

    @Test func ignoreValuesPassesOnlyTheTerminalEvent() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        let ignored: Signal<Never, TestError> = source.signal |> ignoreValues
        startLogging(ignored, into: log)
        source.emit(1)
        source.complete()
        startLogging(ignored, into: log)
        source.emit(2)
        source.fail(6)
        #expect(
            log.recorded == [
                "s.subscribe#1", "completed", "s.dispose#1", "s.subscribe#2", "error TestError(code: 6)", "s.dispose#2",
            ])
    }

    // MARK: debug_measureTimeToFirstEvent

    @Test func debugMeasureTimeToFirstEventPassesEverythingThrough() {
        let log = History<String>()
        let source = Source<Int>("s", log)
        let measured = source.signal |> debug_measureTimeToFirstEvent(label: "test")
        startLogging(measured, into: log)
        source.emit(1)
        source.emit(2)
        source.complete()
        let disposable = startLogging(measured, into: log)
        source.emit(3)
        disposable.dispose()
        startLogging(measured, into: log)
        source.fail(8)
        #expect(
            log.recorded == [
                "s.subscribe#1", "next 1", "next 2", "completed", "s.dispose#1",
                "s.subscribe#2", "next 3", "s.dispose#2", "s.subscribe#3", "error TestError(code: 8)", "s.dispose#3",
            ])
    }

    /// One line, at the first value of all the returned signal's starts.
    @Test func debugMeasureTimeToFirstEventPrintsOncePerReturnedSignal() async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let (input, values) = Signal<Int, NoError>.pipe()
            let measured = values |> debug_measureTimeToFirstEvent(label: "first-value")
            measured.start()
            measured.start()
            input.putNext(1)
            input.putNext(2)
            measured.start()
            input.putNext(3)
        }
        let lines = String(decoding: result.standardOutputContent, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.hasPrefix("measureTimeToFirstEvent(first-value: ") && line.hasSuffix(" ms"))
        let milliseconds = line.dropFirst("measureTimeToFirstEvent(first-value: ".count).dropLast(" ms".count)
        #expect(Double(milliseconds).map { $0 >= 0 } == true)
    }
}
