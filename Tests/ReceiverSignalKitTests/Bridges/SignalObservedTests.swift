import Foundation
import Observation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks, .timeLimit(.minutes(1))) struct SignalObservedTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aValueSentDuringTheStartArrivesBeforeObservedReturns() {
        let observed = Signal<Int, NoError>.single(5).observed(initial: 0)
        #expect(observed.value == 5)
        let pending = Signal<Int, NoError>.never().observed(initial: 0)
        #expect(pending.value == 0)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func trackingFiresOnEachValue() {
        let promise = ValuePromise(1)
        let observed = promise.get().observed(initial: 0)
        #expect(observed.value == 1)
        let changes = History<Int>()
        var after: [Int] = []
        for value in 2...4 {
            withObservationTracking {
                _ = observed.value
            } onChange: {
                changes.record(observed.value)
            }
            promise.set(value)
            after.append(observed.value)
        }
        #expect(changes.recorded == [1, 2, 3])  // in `willSet`: the old value
        #expect(after == [2, 3, 4])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anErrorOrACompletionLeavesTheValue() {
        let (errorInput, errors) = Signal<Int, TestError>.pipe()
        let observed = errors.observed(initial: 0)
        errorInput.putNext(3)
        errorInput.putError(TestError(code: 1))
        errorInput.putNext(4)  // after the error: dropped
        #expect(observed.value == 3)

        let completing = Signal<Int, NoError>.single(8).observed(initial: 0)
        #expect(completing.value == 8)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func releasingItDisposesTheStart() {
        let disposed = History<Void>()
        weak var weakCapture: Witness?
        weak var weakObserved: Observed<Int>?
        let pipe = ValuePipe<Int>()
        do {
            let capture = Witness()
            weakCapture = capture
            let signal = Signal<Int, NoError> { subscriber in
                let listening = pipe.signal().start(next: { value in
                    withExtendedLifetime(capture) { subscriber.putNext(value) }
                })
                return ActionDisposable {
                    listening.dispose()
                    disposed.record(())
                }
            }
            let observed = signal.observed(initial: 0)
            weakObserved = observed
            pipe.putNext(1)
            #expect(observed.value == 1)
            #expect(disposed.recorded.isEmpty)
        }
        #expect(weakObserved == nil)  // nothing the start feeds keeps it alive
        #expect(disposed.recorded.count == 1)  // the generator's disposable, disposed
        #expect(weakCapture == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aValueFromAnotherThreadSetsTheValue() async {
        let pipe = ValuePipe<Int>()
        let observed = pipe.signal().observed(initial: 0)
        await Task.detached { for value in 1...100 { pipe.putNext(value) } }.value
        #expect(observed.value == 100)
    }
}
