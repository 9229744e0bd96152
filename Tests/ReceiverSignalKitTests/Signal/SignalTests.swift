import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct SignalTests {
    enum Event: Equatable {
        case next(Int)
        case error(TestError)
        case completed
    }

    /// Starts `signal` and records every handler call.
    func record(_ signal: Signal<Int, TestError>, into events: History<Event>) -> any Disposable {
        signal.start(
            next: { events.record(.next($0)) },
            error: { events.record(.error($0)) },
            completed: { events.record(.completed) }
        )
    }

    @Test func theGeneratorRunsOncePerStartAtStart() {
        let runs = Atomic(value: 0)
        let signal = Signal<Int, TestError> { subscriber in
            subscriber.putNext(runs.modify { $0 + 1 })
            return EmptyDisposable
        }
        #expect(runs.with { $0 } == 0)
        let (first, second) = (History<Event>(), History<Event>())
        _ = record(signal, into: first)
        _ = record(signal, into: second)
        #expect(runs.with { $0 } == 2)
        #expect(first.recorded == [.next(1)])
        #expect(second.recorded == [.next(2)])
    }

    @Test func everyHandlerIsOptional() {
        var values: [Int] = []
        Signal<Int, NoError>.single(1).start()
        Signal<Int, NoError>.single(2).start(next: { values.append($0) })
        Signal<Int, TestError>.fail(TestError(code: 1)).start(next: { values.append($0) })
        #expect(values == [2])
    }

    @Test func singleCompleteFailAndNever() {
        let histories = (0..<4).map { _ in History<Event>() }
        _ = record(.single(7), into: histories[0])
        _ = record(.complete(), into: histories[1])
        _ = record(.fail(TestError(code: 3)), into: histories[2])
        _ = record(.never(), into: histories[3])
        #expect(histories.map(\.recorded) == [[.next(7), .completed], [.completed], [.error(TestError(code: 3))], []])
    }

    @Test func theFirstTerminalEventWinsAndEndsDeliveryAndDisposesTheGenerator() {
        let generatorDisposable = CountingDisposable()
        let kept = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let events = History<Event>()
        _ = record(
            Signal { subscriber in
                kept.swap(subscriber)
                return generatorDisposable
            }, into: events)
        let subscriber = try! #require(kept.with { $0 })
        subscriber.putNext(1)
        #expect(generatorDisposable.count == 0)
        subscriber.putError(TestError(code: 1))
        #expect(generatorDisposable.count == 1)
        subscriber.putNext(2)
        subscriber.putCompletion()
        subscriber.putError(TestError(code: 2))
        #expect(events.recorded == [.next(1), .error(TestError(code: 1))])
        #expect(generatorDisposable.count == 1)
    }

    @Test func aGeneratorThatCompletesBeforeReturningHasItsDisposableDisposedAtOnce() {
        let generatorDisposable = CountingDisposable()
        let events = History<Event>()
        _ = record(
            Signal { subscriber in
                subscriber.putNext(1)
                subscriber.putCompletion()
                subscriber.putNext(2)
                return generatorDisposable
            }, into: events)
        #expect(events.recorded == [.next(1), .completed])
        #expect(generatorDisposable.count == 1)
    }

    @Test func disposingTheStartStopsDeliveryAndDisposesTheGeneratorOnce() {
        let generatorDisposable = CountingDisposable()
        let kept = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let events = History<Event>()
        let disposable = record(
            Signal { subscriber in
                kept.swap(subscriber)
                return generatorDisposable
            }, into: events)
        let subscriber = try! #require(kept.with { $0 })
        subscriber.putNext(1)
        disposable.dispose()
        disposable.dispose()
        subscriber.putNext(2)
        subscriber.putCompletion()
        #expect(events.recorded == [.next(1)])
        #expect(generatorDisposable.count == 1)
    }

    @Test func aPutFromInsideAHandlerIsQueuedNotNested() {
        let bag = DisposeBag()  // a handler below holds its own source: the bag ends the cycle with the test
        var log: [String] = []
        let signal = Signal<Int, NoError> { subscriber in
            subscriber.putNext(1)
            return EmptyDisposable
        }
        let (input, output) = Signal<Int, NoError>.pipe()
        output.start(next: { value in
            log.append("begin \(value)")
            if value == 1 { input.putNext(2) }
            log.append("end \(value)")
        }).disposed(by: bag)
        signal.start(next: { input.putNext($0) })
        #expect(log == ["begin 1", "end 1", "begin 2", "end 2"])
    }

    @Test func deliveriesToOneSubscriberNeverOverlap() {
        let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
        let inside = Atomic(value: false)
        let overlaps = Atomic(value: 0)
        let received = History<Int>()
        let disposable = Signal<Int, NoError> { subscriber in
            kept.swap(subscriber)
            return EmptyDisposable
        }.start(next: { value in
            if inside.swap(true) { overlaps.modify { $0 + 1 } }
            received.record(value)
            inside.swap(false)
        })
        let subscriber = try! #require(kept.with { $0 })
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<250 { subscriber.putNext(thread * 1000 + index) }
        }
        disposable.dispose()
        #expect(overlaps.with { $0 } == 0)
        let expected = (0..<8).flatMap { thread in (0..<250).map { thread * 1000 + $0 } }
        #expect(received.recorded.sorted() == expected)
        for thread in 0..<8 {  // each thread's puts arrive in the order it made them
            let own = received.recorded.filter { $0 / 1000 == thread }
            #expect(own == own.sorted())
        }
    }

    @Test func noValueIsDeliveredAfterDisposeReturns() {
        for _ in 0..<20 {
            let kept = Atomic<Subscriber<Int, NoError>?>(value: nil)
            let received = Atomic(value: 0)
            let reachedHundred = DispatchSemaphore(value: 0)
            let disposable = Signal<Int, NoError> { subscriber in
                kept.swap(subscriber)
                return EmptyDisposable
            }.start(next: { _ in
                if received.modify({ $0 + 1 }) == 100 { reachedHundred.signal() }
            })
            let subscriber = try! #require(kept.with { $0 })
            let atDispose = Atomic<Int?>(value: nil)
            let disposer = DispatchGroup()
            DispatchQueue.global().async(group: disposer) {
                reachedHundred.wait()
                disposable.dispose()
                atDispose.swap(received.with { $0 })
            }
            var value = 0
            while atDispose.with({ $0 }) == nil {  // put on this thread until dispose() returned
                subscriber.putNext(value)
                value += 1
            }
            for more in 0..<1000 { subscriber.putNext(value + more) }
            disposer.wait()
            let countAtDispose = try! #require(atDispose.with { $0 })
            // At most the one call already running when dispose() returned may still count.
            #expect(received.with { $0 } <= countAtDispose + 1)
            #expect(received.with { $0 } >= 100)
        }
    }
}
