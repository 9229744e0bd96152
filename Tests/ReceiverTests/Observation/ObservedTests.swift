import Foundation
import Observation
import Receiver
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks, .timeLimit(.minutes(1))) struct ObservedTests {
    /// Tracks `observed.value` once; records the value seen in `onChange` (Observation calls it in
    /// `willSet`, so that is the old one) and counts the calls.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    private func track(_ observed: Observed<Int>, into changes: History<Int>) {
        withObservationTracking {
            _ = observed.value
        } onChange: {
            changes.record(observed.value)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func trackingFiresOnEachWaveAndTheNewWaveIsReadableAfterIt() {
        let (transmitter, receiver) = Receiver<Int>.make()
        let observed = receiver.observed(initial: 0)
        let changes = History<Int>()
        var after: [Int] = []
        for wave in 1...3 {
            track(observed, into: changes)
            transmitter.broadcast(wave)
            after.append(observed.value)
        }
        #expect(changes.recorded == [0, 1, 2])  // once per wave, each in the wave's `willSet`
        #expect(after == [1, 2, 3])
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test(arguments: allStrategies)
    func theReplayArrivesBeforeObservedReturns(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        transmitter.broadcast(1)
        transmitter.broadcast(2)
        let observed = receiver.observed(initial: 0)
        #expect(observed.value == (strategy == .hot ? 0 : 2))
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func releasingItDisposesTheListenerAndReleasesWhatItsSourceCaptured() {
        let (transmitter, receiver) = Receiver<Int>.make()
        let passed = History<Int>()
        weak var weakCapture: Witness?
        weak var weakObserved: Observed<Int>?
        do {
            let capture = Witness()
            weakCapture = capture
            let observed = receiver.map { wave in
                withExtendedLifetime(capture) { passed.record(wave) }
                return wave
            }.observed(initial: 0)
            weakObserved = observed
            transmitter.broadcast(1)
            #expect(observed.value == 1)
        }
        #expect(weakObserved == nil)  // the listener's handler does not keep it alive
        #expect(weakCapture == nil)  // its listener is disposed, and its handler released
        transmitter.broadcast(2)
        #expect(passed.recorded == [1])  // the hot pair's later broadcast reaches nothing
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func wavesFromAnotherThreadSetTheValue() async {
        let (transmitter, receiver) = Receiver<Int>.make()
        let observed = receiver.observed(initial: 0)
        let changes = History<Int>()
        track(observed, into: changes)
        await Task.detached { for wave in 1...100 { transmitter.broadcast(wave) } }.value
        #expect(observed.value == 100)
        #expect(changes.recorded.count == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    // The writer is a Dispatch thread, not a task: the reader spins, and a spinning test must not
    // wait for a thread of Swift's small cooperative pool, which other tests may hold.
    @Test func itMayBeReadOnOneThreadWhileAnotherSetsIt() {
        let (transmitter, receiver) = Receiver<[Int]>.make()
        let observed = receiver.observed(initial: [])
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            for count in 1...200 { transmitter.broadcast(Array(0..<count)) }
            written.signal()
        }
        var lengths: [Int] = []
        while lengths.last != 200 { lengths.append(observed.value.count) }  // until the last wave
        expectSignal(written)
        #expect(lengths == lengths.sorted())
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func releasingItFromAHandlerMidDeliveryIsSafe() {
        let (transmitter, receiver) = Receiver<Int>.make()
        let holder = Holder()
        holder.observed = receiver.observed(initial: 0)
        weak let weakObserved = holder.observed
        let releasing = receiver.listen { if $0 == 2 { holder.observed = nil } }
        transmitter.broadcast(1)
        #expect(weakObserved?.value == 1)
        transmitter.broadcast(2)
        #expect(weakObserved == nil)
        transmitter.broadcast(3)  // reaches only the other listener
        releasing.dispose()
    }
}

/// Holds an `Observed` that a handler may release. Only touched by the test's thread.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private final class Holder: @unchecked Sendable {
    var observed: Observed<Int>?
}
