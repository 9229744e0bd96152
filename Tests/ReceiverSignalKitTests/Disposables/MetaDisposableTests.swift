import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

import class Foundation.Thread

@Suite(.detectingLeaks) struct MetaDisposableTests {
    @Test func setDisposesThePreviousOccupant() {
        let meta = MetaDisposable()
        let (first, second) = (CountingDisposable(), CountingDisposable())
        meta.set(first)
        meta.set(second)
        #expect([first.count, second.count] == [1, 0])
        meta.set(nil)
        #expect([first.count, second.count] == [1, 1])
    }

    @Test func settingTheOccupantAgainDisposesItAndKeepsIt() {
        // SwiftSignalKit's quirk, kept (the migration guide's "Quirks we keep"): the "previous"
        // occupant is disposed even when it is the new one, and it stays in the slot, so
        // `dispose()` disposes it again.
        let meta = MetaDisposable()
        let occupant = CountingDisposable()
        meta.set(occupant)
        meta.set(occupant)
        #expect(occupant.count == 1)
        meta.dispose()
        #expect(occupant.count == 2)
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

    @Test func releasingTheMetaDisposableDoesNotDisposeItsOccupant() {
        let occupant = CountingDisposable()
        MetaDisposable().set(occupant)
        #expect(occupant.count == 0)
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

    @Test func aReplacedOccupantIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let meta = MetaDisposable()
            meta.set(ReenteringDisposable { meta.set(nil) })
            meta.set(EmptyDisposable)  // the replaced one's deinit sets the same slot
            meta.set(ReenteringDisposable { meta.dispose() })
            meta.set(nil)
        }
    }

    @Test func theDisposedOccupantIsReleasedAfterUnlocking() async {
        await #expect(processExitsWith: .success) {
            startWatchdog()
            let meta = MetaDisposable()
            meta.set(ReenteringDisposable { meta.set(EmptyDisposable) })
            meta.dispose()
            meta.set(ReenteringDisposable { meta.dispose() })  // disposed at once, then released
        }
    }
}
