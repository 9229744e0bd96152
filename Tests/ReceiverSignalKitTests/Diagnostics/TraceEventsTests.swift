import Dispatch
import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

/// The event log, `signal |> traceEvents(label)`: one line per start, value, error, completion and
/// disposal, with the label, the time its clock reads and the queue it happened on. Each test runs
/// its chain inside `sync` on a named queue, so the place is that queue, and reads virtual time.
@Suite(.detectingLeaks) struct TraceEventsTests {
    let scheduler = TestScheduler()
    let lines = History<String>()
    let work = Queue(name: "work")

    @Test func aStartThatCompletesLogsEachEventAndItsTeardown() {
        let later = scheduler.queue()
        let signal = Signal<Int, NoError> { subscriber in
            later.after(1) { subscriber.putNext(1) }
            later.after(2.5) { subscriber.putNext(2) }
            later.after(3) { subscriber.putCompletion() }
            return EmptyDisposable
        }
        let values = History<Int>()
        work.sync {
            (signal |> traceEvents("values", clock: { scheduler.now }, to: lines.record)).start(next: values.record)
            scheduler.advance(by: 3)
        }
        #expect(
            lines.recorded == [
                #"values: start at 0.000s on queue "work""#,
                #"values: next(1) at 1.000s on queue "work""#,
                #"values: next(2) at 2.500s on queue "work""#,
                #"values: completed at 3.000s on queue "work""#,
                #"values: dispose at 3.000s on queue "work""#,
            ])
        #expect(values.recorded == [1, 2])  // what passes is unchanged
    }

    @Test func anErrorAndADisposalAreLoggedAndEachStartHasItsOwnLines() {
        let pipe = ValuePipe<Int>()
        let failing = Signal<Int, TestError>.fail(TestError(code: 7))
        work.sync {
            let traced = pipe.signal() |> traceEvents("pipe", clock: { scheduler.now }, to: lines.record)
            let first = traced.start()
            scheduler.advance(by: 1)
            pipe.putNext(5)
            let second = traced.start()
            first.dispose()
            second.dispose()
            (failing |> traceEvents("failing", clock: { scheduler.now }, to: lines.record)).start()
        }
        #expect(
            lines.recorded == [
                #"pipe: start at 0.000s on queue "work""#,
                #"pipe: next(5) at 1.000s on queue "work""#,
                #"pipe: start at 1.000s on queue "work""#,
                #"pipe: dispose at 1.000s on queue "work""#,
                #"pipe: dispose at 1.000s on queue "work""#,
                #"failing: start at 1.000s on queue "work""#,
                #"failing: error(TestError(code: 7)) at 1.000s on queue "work""#,
                #"failing: dispose at 1.000s on queue "work""#,
            ])
    }

    @Test func eachLineNamesTheQueueItsEventHappenedOn() async {
        let (hop, gate, arrived) = (Queue(name: "hop"), DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let traced =
            Signal<Int, NoError>.single(1) |> traceEvents("before", clock: { 0 }, to: lines.record) |> deliverOn(hop)
            |> traceEvents("after", clock: { 0 }, to: lines.record)
        hop.queue.async { gate.wait() }  // "hop" runs nothing of the start until the main queue is done
        let started = await MainActor.run { Self.start(traced, completed: arrived) }
        gate.signal()
        arrived.wait()
        hop.queue.sync {}  // the teardown after `completed` runs in the same block on "hop"; wait it out
        started.dispose()
        #expect(
            lines.recorded == [
                "after: start at 0.000s on the main queue",
                "before: start at 0.000s on the main queue",
                "before: next(1) at 0.000s on the main queue",
                "before: completed at 0.000s on the main queue",
                "before: dispose at 0.000s on the main queue",
                #"after: next(1) at 0.000s on queue "hop""#,
                #"after: completed at 0.000s on queue "hop""#,
                #"after: dispose at 0.000s on queue "hop""#,
            ])
    }

    @Test func withoutAClockEachLineShowsTheTimeOfDay() {
        (Signal<Int, NoError>.single(1) |> traceEvents("now", to: lines.record)).start()
        let times = lines.recorded.map { $0.split(separator: " ")[3] }
        #expect(times.map { $0.map { $0.isNumber ? "9" : $0 } } == Array(repeating: Array("99:99:99.999"), count: 4))
    }

    @Test func placesAndTimesAreWrittenAsTheLinesShowThem() {
        #expect(EventLog.place(label: "com.apple.main-thread", thread: 1) == "the main queue")
        #expect(EventLog.place(label: "", thread: 4711) == "thread 4711")
        #expect(EventLog.place(label: "search", thread: 4711) == #"queue "search""#)
        let seconds = [0, 0.0004, 0.0005, 2.25, 59.999_9, -0.25, -1.5, 12_345.678].map(EventLog.seconds)
        #expect(seconds == ["0.000s", "0.000s", "0.001s", "2.250s", "60.000s", "-0.250s", "-1.500s", "12345.678s"])
    }

    /// Starts `signal` from nonisolated code (so its handler is checked by no actor checker), on
    /// the caller's thread.
    nonisolated static func start(_ signal: Signal<Int, NoError>, completed: DispatchSemaphore) -> any Disposable {
        signal.start(completed: { completed.signal() })
    }
}
