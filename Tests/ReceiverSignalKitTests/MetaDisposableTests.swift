import Dispatch
import ReceiverSignalKit
import Testing

@Suite struct MetaDisposableTests {
    @Test func setDisposesThePreviousOccupant() {
        let meta = MetaDisposable()
        let (first, second) = (CountingDisposable(), CountingDisposable())
        meta.set(first)
        meta.set(second)
        #expect([first.count, second.count] == [1, 0])
        meta.set(second)  // the same occupant again: nothing to dispose
        #expect(second.count == 0)
        meta.set(nil)
        #expect([first.count, second.count] == [1, 1])
    }

    @Test func disposeDisposesTheOccupantAndLaterOnesAtOnce() {
        let meta = MetaDisposable()
        let (first, late) = (CountingDisposable(), CountingDisposable())
        meta.set(first)
        meta.dispose()
        meta.dispose()
        #expect(first.count == 1)
        meta.set(late)
        #expect(late.count == 1)
    }

    @Test func everyOccupantIsDisposedExactlyOnceUnderRaces() {
        for _ in 0..<50 {
            let meta = MetaDisposable()
            let occupants = (0..<64).map { _ in CountingDisposable() }
            DispatchQueue.concurrentPerform(iterations: occupants.count) { index in
                meta.set(occupants[index])
                if index == 32 { meta.dispose() }
            }
            meta.dispose()
            #expect(occupants.map(\.count) == Array(repeating: 1, count: occupants.count))
        }
    }
}
