import ReceiverSignalKitTesting
import TestSupport
import Testing

@testable import ReceiverSignalKit

/// The subscriber's state machine, one transition at a time: no lock, no thread, no Dispatch. Each
/// test drives a core's transitions as its operations would (under the lock, in the order a race
/// could produce) and checks the action each returns and the phase it leaves. Debug builds check
/// the invariants after every transition, so these also run the checks.
@Suite(.detectingLeaks) struct SubscriberStateTests {
    typealias Core = SubscriberCore<Int, TestError>

    final class Token: Disposable, @unchecked Sendable {
        var disposals = 0
        func dispose() { disposals += 1 }
    }

    private func core() -> Core { Core(next: { _ in }, error: { _ in }, completed: {}) }

    private func holdsHandlers(_ core: Core) -> Bool {
        core.next != nil && core.error != nil && core.completed != nil
    }

    private func holdsHandlers(_ release: Core.Release) -> Bool {
        release.next != nil && release.error != nil && release.completed != nil
    }

    private func describe(_ event: Core.Event?) -> String {
        switch event {
        case .next(let value): "next(\(value))"
        case .error: "error"
        case .completion: "completion"
        case nil: "nil"
        }
    }

    private func describe(_ admission: Core.Admission) -> String {
        switch admission {
        case .deliver: "deliver"
        case .queued: "queued"
        case .refused(let release): "refused(\(release.count))"
        }
    }

    @Test func aPutFindingNoDeliveryIsDeliveredByItsThreadAndLaterOnesWaitInOrder() {
        let core = core()
        #expect(describe(core.admit(.next(1))) == "deliver")
        #expect(core.isDelivering)
        #expect(describe(core.admit(.next(2))) == "queued")
        #expect(describe(core.admit(.completion)) == "queued")
        #expect(core.phase == .terminated)  // accepted: nothing after it is
        #expect(describe(core.admit(.next(3))) == "refused(0)")
        var dropped = DrainQueue<Core.Event>()
        #expect(describe(core.advance(dropping: &dropped)) == "next(2)")
        #expect(describe(core.advance(dropping: &dropped)) == "completion")
        #expect(dropped.isEmpty && core.isDelivering)
        let token = Token()
        #expect(!core.hold(token))  // terminated: refused, the caller disposes it
        let release = core.beginTermination()
        #expect(holdsHandlers(release) && !holdsHandlers(core) && core.next == nil)
        var drained = DrainQueue<Core.Event>()
        #expect(core.endTermination(releasing: &drained) == nil)
        #expect(!core.isDelivering && core.phase == .terminated && core.isTerminated && !core.isDisposed)
    }

    @Test func aDeliveryStopsWhenTheQueueIsEmptyAndTheNextPutDeliversAgain() {
        let core = core()
        var dropped = DrainQueue<Core.Event>()
        #expect(describe(core.admit(.next(1))) == "deliver")
        #expect(describe(core.advance(dropping: &dropped)) == "nil")
        #expect(!core.isDelivering)
        #expect(describe(core.admit(.next(2))) == "deliver")
    }

    @Test func aTerminalPutAfterTheEndReleasesWhatWasKeptAliveSinceUnlessDisposed() {
        let core = core()
        #expect(describe(core.admit(.error(TestError(code: 1)))) == "deliver")
        _ = core.beginTermination()
        var drained = DrainQueue<Core.Event>()
        _ = core.endTermination(releasing: &drained)
        core.addKeptAlive(Token())
        #expect(describe(core.admit(.next(1))) == "refused(0)")  // a value leaves it kept
        #expect(core.keptAlive.count == 1)
        #expect(describe(core.admit(.completion)) == "refused(1)")
        #expect(core.keptAlive.isEmpty)

        _ = core.beginDisposal()
        _ = core.endDisposal()
        core.addKeptAlive(Token())
        #expect(describe(core.admit(.completion)) == "refused(0)")  // disposed: kept until released
        #expect(core.keptAlive.count == 1)
    }

    @Test func aDisposalDuringADeliveryStopsItAndDropsWhatWasQueued() {
        let core = core(), token = Token()
        #expect(core.hold(token))
        #expect(describe(core.admit(.next(1))) == "deliver")
        #expect(describe(core.admit(.next(2))) == "queued")
        guard case .dispose(let disposable) = core.beginDisposal() else {
            Issue.record("the first disposal must dispose")
            return
        }
        #expect(disposable === token && core.disposable == nil)
        #expect(core.phase == .disposing && core.isDisposed && !core.isTerminated)
        #expect(holdsHandlers(core))  // held until what the generator returned is disposed
        #expect(describe(core.admit(.next(3))) == "refused(0)")
        var dropped = DrainQueue<Core.Event>()
        #expect(describe(core.advance(dropping: &dropped)) == "nil")
        #expect(dropped.count == 1 && core.queue.isEmpty && !core.isDelivering)
        let release = core.endDisposal()
        #expect(holdsHandlers(release) && !holdsHandlers(core))
        #expect(core.phase == .disposed && core.isTerminated)
        guard case .alreadyDisposed = core.beginDisposal() else {
            Issue.record("a second disposal must do nothing")
            return
        }
        #expect(!core.hold(Token()))
    }

    @Test func aTerminalEventTakesWhatTheGeneratorReturnedUnlessADisposalTookItFirst() {
        let core = core(), token = Token()
        #expect(core.hold(token))
        #expect(describe(core.admit(.completion)) == "deliver")
        _ = core.beginTermination()
        // The terminal handler runs; a disposal begins meanwhile and takes the disposable.
        guard case .dispose(let disposable) = core.beginDisposal() else {
            Issue.record("a disposal after termination must dispose")
            return
        }
        #expect(disposable === token)
        #expect(core.phase == .terminatedAndDisposing)
        var drained = DrainQueue<Core.Event>()
        #expect(core.endTermination(releasing: &drained) == nil)  // nothing left to dispose twice
        _ = core.endDisposal()
        #expect(core.phase == .disposed)

        let other = self.core(), second = Token()
        #expect(other.hold(second))
        #expect(describe(other.admit(.completion)) == "deliver")
        _ = other.beginTermination()
        #expect(other.endTermination(releasing: &drained) === second)
    }

    @Test func theSubscriberReleasedLetsGoOfTheDisposableOnlyWhenTheHandleIsGone() {
        let kept = core(), token = Token()
        #expect(kept.hold(token))
        kept.addKeptAlive(Token())
        var release = kept.subscriberWasReleased(isHandleGone: false)
        #expect(holdsHandlers(release) && release.keptAlive.count == 1 && release.disposable == nil)
        #expect(!holdsHandlers(kept) && kept.keptAlive.isEmpty && kept.disposable === token)

        let gone = core()
        #expect(gone.hold(token))
        release = gone.subscriberWasReleased(isHandleGone: true)
        #expect(holdsHandlers(release) && release.disposable === token && gone.disposable == nil)
    }

    @Test func theSubscriberReleasedDuringADisposalLeavesEverythingToItUnlessTerminated() {
        let disposing = core()
        #expect(disposing.hold(Token()))
        _ = disposing.beginDisposal()
        let release = disposing.subscriberWasReleased(isHandleGone: true)
        #expect(!holdsHandlers(release) && release.next == nil && holdsHandlers(disposing))
        #expect(holdsHandlers(disposing.endDisposal()))

        // A terminal event queued behind a value, then a disposal: the subscriber is terminated.
        let terminated = core()
        #expect(terminated.hold(Token()))
        _ = terminated.admit(.next(1))
        _ = terminated.admit(.completion)
        _ = terminated.beginDisposal()
        #expect(terminated.phase == .terminatedAndDisposing)
        #expect(holdsHandlers(terminated.subscriberWasReleased(isHandleGone: true)))
        var dropped = DrainQueue<Core.Event>()
        #expect(describe(terminated.advance(dropping: &dropped)) == "nil" && dropped.count == 1)
    }

    @Test func theDescriptionsFollowThePhase() {
        let running = core()
        #expect(running.hold(Token()))
        #expect(running.description == "SubscriberDisposable { disposable: hasValue }")
        _ = running.beginDisposal()  // disposing: the subscriber still shows the disposable
        #expect(running.description == "SubscriberDisposable { disposable: nil }")
        #expect(
            running.subscriberDescription
                == "Subscriber { next: hasValue, error: hasValue, completed: hasValue, disposable: hasValue, terminated: false }"
        )
        _ = running.endDisposal()
        #expect(
            running.subscriberDescription
                == "Subscriber { next: nil, error: nil, completed: nil, disposable: nil, terminated: true }")

        let terminated = core()
        #expect(terminated.hold(Token()))
        _ = terminated.admit(.next(1))
        _ = terminated.admit(.completion)
        _ = terminated.beginDisposal()
        #expect(
            terminated.subscriberDescription
                == "Subscriber { next: hasValue, error: hasValue, completed: hasValue, disposable: nil, terminated: true }"
        )
        #expect(terminated.hasEnded)
        #expect(!core().hasEnded)
    }

    /// The checks debug builds run after every transition find each kind of impossible state.
    @Test func theInvariantCheckFindsImpossibleStates() {
        #expect(core().brokenInvariant == nil)

        let queuedWithNoDelivery = core()
        queuedWithNoDelivery.queue.append(.next(1))
        #expect(queuedWithNoDelivery.brokenInvariant == "events are queued with no thread delivering them")
        _ = queuedWithNoDelivery.queue.removeAll()

        let idleTerminated = core()
        idleTerminated.phase = .terminated
        #expect(idleTerminated.brokenInvariant == "a terminated start holds handlers after its delivery")
        idleTerminated.isDelivering = true  // its terminal event is still on its way
        #expect(idleTerminated.brokenInvariant == nil)

        let disposing = core()
        disposing.disposable = Token()
        disposing.phase = .disposing
        #expect(disposing.brokenInvariant == "a disposing start holds what the generator returned")

        let disposed = core()
        disposed.phase = .disposed
        #expect(disposed.brokenInvariant == "a disposed start holds handlers")
        (disposed.next, disposed.error, disposed.completed, disposed.disposable) = (nil, nil, nil, Token())
        #expect(disposed.brokenInvariant == "a disposed start holds what the generator returned")
    }
}
