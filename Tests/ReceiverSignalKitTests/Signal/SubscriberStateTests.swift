import ReceiverSignalKitTesting
import TestSupport
import Testing

@testable import ReceiverSignalKit

/// The subscriber's state machine, one transition at a time: no lock, no thread, no Dispatch. Each
/// test drives the transitions as a start's operations would (under the lock, in the order a race
/// could produce) and checks the action each returns and the phase it leaves.
@Suite(.detectingLeaks) struct SubscriberStateTests {
    typealias State = SubscriberState<Int, TestError>

    final class Token: Disposable, @unchecked Sendable {
        var disposals = 0
        func dispose() { disposals += 1 }
    }

    private func state() -> State { State(State.Handlers(next: { _ in }, error: { _ in }, completed: {})) }

    private func holdsAllHandlers(_ handlers: State.Handlers) -> Bool {
        handlers.next != nil && handlers.error != nil && handlers.completed != nil
    }

    /// The phase's name and what the state holds in it, as one string a test compares.
    private func describe(_ state: State) -> String {
        let handlers = state.handlers
        let held = holdsAllHandlers(handlers) ? "handlers" : handlers.isEmpty ? "no handlers" : "some handlers"
        switch state.phase {
        case .running(let generated, let keptAlive):
            return "running(\(held), generated: \(generated != nil), kept: \(keptAlive.count))"
        case .terminating(let generated, let keptAlive):
            return "terminating(\(held), generated: \(generated != nil), kept: \(keptAlive.count))"
        case .terminated(let generated, let keptAlive):
            return "terminated(\(held), generated: \(generated != nil), kept: \(keptAlive.count))"
        case .disposing(let keptAlive, let wasTerminated):
            return "disposing(\(held), kept: \(keptAlive.count), wasTerminated: \(wasTerminated))"
        case .disposed(let keptAlive):
            return "disposed(\(held), kept: \(keptAlive.count))"
        }
    }

    private func describe(_ event: State.Event?) -> String {
        switch event {
        case .next(let value): "next(\(value))"
        case .error: "error"
        case .completion: "completion"
        case nil: "nil"
        }
    }

    private func describe(_ admission: State.Admission) -> String {
        switch admission {
        case .deliver: "deliver"
        case .queued: "queued"
        case .refused(let release): "refused(\(release.count))"
        }
    }

    @Test func aPutFindingNoDeliveryIsDeliveredByItsThreadAndLaterOnesWaitInOrder() {
        var state = state()
        #expect(describe(state.admit(.next(1))) == "deliver")
        #expect(state.serializer.isDelivering)
        #expect(describe(state.admit(.next(2))) == "queued")
        #expect(describe(state.admit(.completion)) == "queued")
        #expect(describe(state) == "terminating(handlers, generated: false, kept: 0)")  // nothing after it is accepted
        #expect(describe(state.admit(.next(3))) == "refused(0)")
        var dropped = DrainQueue<State.Event>()
        #expect(describe(state.next(dropping: &dropped)) == "next(2)")
        #expect(describe(state.next(dropping: &dropped)) == "completion")
        #expect(dropped.isEmpty && state.serializer.isDelivering)
        let held = state.hold(Token())
        #expect(!held)  // terminated: refused, the caller disposes it
        let release = state.beginTermination()
        #expect(holdsAllHandlers(release.handlers))
        #expect(describe(state) == "terminated(no handlers, generated: false, kept: 0)")
        var drained = DrainQueue<State.Event>()
        #expect(state.endTermination(releasing: &drained) == nil)
        #expect(!state.serializer.isDelivering && state.isTerminated && !state.isDisposed)
    }

    @Test func aDisposalWhileIdleTakesTheQueuesStorageToReleaseAfterUnlocking() {
        var state = state()
        var dropped = DrainQueue<State.Event>()
        #expect(describe(state.admit(.next(1))) == "deliver")
        #expect(describe(state.admit(.next(2))) == "queued")
        #expect(describe(state.next(dropping: &dropped)) != "nil")
        #expect(describe(state.next(dropping: &dropped)) == "nil")  // idle, its drained ring kept
        #expect(state.serializer.waiting.storage != nil)
        _ = state.beginDisposal()
        var drained = DrainQueue<State.Event>()
        _ = state.endDisposal(releasing: &drained)
        #expect(state.serializer.waiting.storage == nil && drained.storage != nil)
    }

    @Test func aDeliveryStopsWhenTheQueueIsEmptyAndTheNextPutDeliversAgain() {
        var state = state()
        var dropped = DrainQueue<State.Event>()
        #expect(describe(state.admit(.next(1))) == "deliver")
        #expect(describe(state.next(dropping: &dropped)) == "nil")
        #expect(!state.serializer.isDelivering)
        #expect(describe(state.admit(.next(2))) == "deliver")
    }

    @Test func aTerminalPutAfterTheEndReleasesWhatWasKeptAliveSinceUnlessDisposed() {
        var state = state()
        #expect(describe(state.admit(.error(TestError(code: 1)))) == "deliver")
        _ = state.beginTermination()
        var drained = DrainQueue<State.Event>()
        _ = state.endTermination(releasing: &drained)
        state.keepAlive(Token())
        #expect(describe(state.admit(.next(1))) == "refused(0)")  // a value leaves it kept
        #expect(describe(state) == "terminated(no handlers, generated: false, kept: 1)")
        #expect(describe(state.admit(.completion)) == "refused(1)")
        #expect(describe(state) == "terminated(no handlers, generated: false, kept: 0)")

        _ = state.beginDisposal()
        _ = state.endDisposal(releasing: &drained)
        state.keepAlive(Token())
        #expect(describe(state.admit(.completion)) == "refused(0)")  // disposed: kept until released
        #expect(describe(state) == "disposed(no handlers, kept: 1)")
    }

    @Test func aDisposalDuringADeliveryStopsItAndDropsWhatWasQueued() {
        var state = state()
        let token = Token()
        let held = state.hold(token)
        #expect(held)
        #expect(describe(state.admit(.next(1))) == "deliver")
        #expect(describe(state.admit(.next(2))) == "queued")
        guard case .dispose(let disposable) = state.beginDisposal() else {
            Issue.record("the first disposal must dispose")
            return
        }
        #expect(disposable === token)
        // Handlers held until what the generator returned is disposed.
        #expect(describe(state) == "disposing(handlers, kept: 0, wasTerminated: false)")
        #expect(state.isDisposed && !state.isTerminated)
        #expect(describe(state.admit(.next(3))) == "refused(0)")
        var dropped = DrainQueue<State.Event>()
        #expect(describe(state.next(dropping: &dropped)) == "nil")
        #expect(dropped.count == 1 && state.serializer.waiting.isEmpty && !state.serializer.isDelivering)
        let release = state.endDisposal(releasing: &dropped)
        #expect(holdsAllHandlers(release.handlers))
        #expect(describe(state) == "disposed(no handlers, kept: 0)" && state.isTerminated)
        guard case .alreadyDisposed = state.beginDisposal() else {
            Issue.record("a second disposal must do nothing")
            return
        }
        let held2 = state.hold(Token())
        #expect(!held2)
    }

    @Test func aTerminalEventTakesWhatTheGeneratorReturnedUnlessADisposalTookItFirst() {
        var state = state()
        let token = Token()
        let held = state.hold(token)
        #expect(held)
        #expect(describe(state.admit(.completion)) == "deliver")
        _ = state.beginTermination()
        // The terminal handler runs; a disposal begins meanwhile and takes the disposable.
        guard case .dispose(let disposable) = state.beginDisposal() else {
            Issue.record("a disposal after termination must dispose")
            return
        }
        #expect(disposable === token)
        #expect(describe(state) == "disposing(no handlers, kept: 0, wasTerminated: true)")
        var drained = DrainQueue<State.Event>()
        #expect(state.endTermination(releasing: &drained) == nil)  // nothing left to dispose twice
        _ = state.endDisposal(releasing: &drained)
        #expect(describe(state) == "disposed(no handlers, kept: 0)")

        var other = self.state()
        let second = Token()
        let held2 = other.hold(second)
        #expect(held2)
        #expect(describe(other.admit(.completion)) == "deliver")
        _ = other.beginTermination()
        #expect(other.endTermination(releasing: &drained) === second)
    }

    @Test func theSubscriberReleasedLetsGoOfTheDisposableOnlyWhenTheHandleIsGone() {
        var kept = state()
        let token = Token()
        let held = kept.hold(token)
        #expect(held)
        kept.keepAlive(Token())
        var release = kept.subscriberReleased(isHandleGone: false)
        #expect(holdsAllHandlers(release.handlers) && release.keptAlive.count == 1 && release.disposable == nil)
        #expect(describe(kept) == "running(no handlers, generated: true, kept: 0)")

        var gone = state()
        let held2 = gone.hold(token)
        #expect(held2)
        release = gone.subscriberReleased(isHandleGone: true)
        #expect(holdsAllHandlers(release.handlers) && release.disposable === token)
        #expect(describe(gone) == "running(no handlers, generated: false, kept: 0)")
    }

    @Test func theSubscriberReleasedDuringADisposalLeavesEverythingToItUnlessTerminated() {
        var disposing = state()
        let held = disposing.hold(Token())
        #expect(held)
        _ = disposing.beginDisposal()
        let release = disposing.subscriberReleased(isHandleGone: true)
        #expect(release.handlers.isEmpty)
        #expect(describe(disposing) == "disposing(handlers, kept: 0, wasTerminated: false)")
        var drained = DrainQueue<State.Event>()
        #expect(holdsAllHandlers(disposing.endDisposal(releasing: &drained).handlers))

        // A terminal event queued behind a value, then a disposal: the subscriber is terminated.
        var terminated = state()
        let held2 = terminated.hold(Token())
        #expect(held2)
        _ = terminated.admit(.next(1))
        _ = terminated.admit(.completion)
        _ = terminated.beginDisposal()
        #expect(describe(terminated) == "disposing(handlers, kept: 0, wasTerminated: true)")
        #expect(holdsAllHandlers(terminated.subscriberReleased(isHandleGone: true).handlers))
        var dropped = DrainQueue<State.Event>()
        #expect(describe(terminated.next(dropping: &dropped)) == "nil" && dropped.count == 1)
    }

    @Test func whatTheSubscriberShowsFollowsThePhase() {
        var running = state()
        let held = running.hold(Token())
        #expect(held)
        #expect(running.subscriberHoldsGenerated && !running.isDisposed)
        _ = running.beginDisposal()  // disposing: the subscriber still shows the disposable
        #expect(running.subscriberHoldsGenerated && holdsAllHandlers(running.handlers))
        #expect(running.isDisposed && !running.isTerminated)
        var drained = DrainQueue<State.Event>()
        _ = running.endDisposal(releasing: &drained)
        #expect(!running.subscriberHoldsGenerated && running.handlers.isEmpty && running.isTerminated)

        var terminated = state()
        let held2 = terminated.hold(Token())
        #expect(held2)
        _ = terminated.admit(.next(1))
        _ = terminated.admit(.completion)
        _ = terminated.beginDisposal()
        #expect(!terminated.subscriberHoldsGenerated && holdsAllHandlers(terminated.handlers))
        #expect(terminated.isTerminated)
    }

    /// A core's descriptions read its state under its lock.
    @Test func theDescriptionsFollowThePhase() {
        let core = SubscriberCore<Int, TestError>(next: { _ in }, error: { _ in }, completed: {})
        core.assign(Token())
        #expect(core.description == "SubscriberDisposable { disposable: hasValue }")
        #expect(
            core.subscriberDescription
                == "Subscriber { next: hasValue, error: hasValue, completed: hasValue, disposable: hasValue, terminated: false }"
        )
        #expect(!core.hasEnded)
        core.dispose()
        #expect(core.description == "SubscriberDisposable { disposable: nil }")
        #expect(
            core.subscriberDescription
                == "Subscriber { next: nil, error: nil, completed: nil, disposable: nil, terminated: true }")
        #expect(core.hasEnded)
    }

    /// What the phases cannot rule out, debug builds check when a delivery stops: events queued
    /// with no thread delivering them, handlers held past the end.
    @Test func theInvariantCheckFindsImpossibleStates() {
        var state = state()
        #expect(state.brokenInvariant == nil)
        state.serializer.waiting.append(.next(1))
        #expect(state.brokenInvariant == "events are queued with no thread delivering them")
        state.serializer.isDelivering = true
        #expect(state.brokenInvariant == nil)
        _ = state.serializer.stop()
        state.phase = .disposed(keptAlive: [])
        #expect(state.brokenInvariant == "an ended subscription holds handlers")
        _ = state.takeHandlers()
        #expect(state.brokenInvariant == nil)
    }
}
