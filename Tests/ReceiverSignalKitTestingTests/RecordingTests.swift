import ReceiverSignalKit
import ReceiverSignalKitTesting
import TestSupport
import Testing

@Suite(.detectingLeaks) struct RecordingTests {
    @Test func aRecordingStampsEachEventWithTheTimeItArrived() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let pipe = ValuePipe<String>()
        let recording = scheduler.record(pipe.signal() |> take(2))
        pipe.putNext("a")
        queue.after(1.5) { pipe.putNext("ab") }
        scheduler.advance(by: 2)
        #expect(recording.events == [.next(0, "a"), .next(1.5, "ab"), .completed(1.5)])
        #expect(recording.events.map(\.time) == [0, 1.5, 1.5])
    }

    @Test func anErrorIsRecordedWithItsTime() {
        let scheduler = TestScheduler()
        let recording = scheduler.record(
            Signal<Int, TestError>.fail(TestError(code: 3)) |> delay(2, queue: scheduler.queue()))
        scheduler.run()
        #expect(recording.events == [.error(2, TestError(code: 3))])
        #expect(recording.events != [.error(2, TestError(code: 4))])
        #expect(recording.events != [.error(2.5, TestError(code: 3))])
    }

    @Test func eventsPrintAsTheyAreWritten() {
        let events: [RecordedEvent<String, TestError>] = [
            .next(0, "a"), .next(1.5, "ab"), .error(2, TestError(code: 1)), .completed(0.25),
        ]
        #expect(
            events.map(\.description) == [
                #".next(0, "a")"#, #".next(1.5, "ab")"#, ".error(2, TestSupport.TestError(code: 1))",
                ".completed(0.25)",
            ])
        #expect("\(events[3...])" == "[.completed(0.25)]")
    }

    @Test func disposingTheRecordingDisposesTheStartAndStopsRecording() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let disposed = History<Double>()
        let ticks = Signal<Int, NoError> { subscriber in
            let timer = Timer(
                timeout: 1, repeat: true, completion: { subscriber.putNext(Int(scheduler.now)) }, queue: queue)
            timer.start()
            return ActionDisposable {
                timer.invalidate()
                disposed.record(scheduler.now)
            }
        }
        let recording = scheduler.record(ticks)
        scheduler.advance(by: 2.5)
        recording.dispose()
        recording.dispose()
        scheduler.advance(by: 5)
        #expect(recording.events == [.next(1, 1), .next(2, 2)])
        #expect(disposed.recorded == [2.5])
        #expect(scheduler.run())  // the timer is gone
    }

    @Test func disposingARecordingDisposesTheStart() {
        let scheduler = TestScheduler()
        let counter = CountingDisposable()
        let recording = scheduler.record(Signal<Int, NoError> { _ in counter })
        recording.dispose()
        #expect(counter.count == 1)
    }

    @Test func aReceiversWavesAreRecordedAsValues() {
        let scheduler = TestScheduler()
        let queue = scheduler.queue()
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
        transmitter.broadcast(1)
        let recording = scheduler.record(receiver)
        queue.after(1) { transmitter.broadcast(7) }
        scheduler.advance(by: 1)
        recording.dispose()
        transmitter.broadcast(8)
        #expect(recording.events == [.next(0, 1), .next(1, 7)])
    }

    @Test func anEventAfterTheSchedulerIsGoneHasNoTime() {
        let pipe = ValuePipe<Int>()
        var recording: Recording<Int, NoError>?
        do {
            let scheduler = TestScheduler()
            recording = scheduler.record(pipe.signal())
        }
        pipe.putNext(1)
        #expect(recording?.events.map(\.time.isNaN) == [true])
        recording?.dispose()
    }
}
