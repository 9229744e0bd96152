// A view model as SwiftSignalKit apps write them — the main queue named in place, nothing
// injected: `deliverOnMainQueue`, `Queue.mainQueue().after/async/isCurrent`, a main-queue
// `Timer` and `timeout` — tested unchanged on virtual time inside `TestScheduler.withMainQueue`,
// with whole histories at exact times. (The scope needs a debug build of the library.)
import Foundation
import ReceiverSignalKitTesting
import SwiftSignalKit
import Testing

/// A profile screen's model: the name from the network ("Offline" if it takes more than 5 s), a
/// "typing…" state that ends 3 s after the last keystroke, and a "Copied" toast shown for 2 s.
private final class ProfileViewModel {
    struct State: Equatable {
        var name = ""
        var isTyping = false
        var toast: String?
    }

    private var state = State()
    private let statePromise = ValuePromise(State(), ignoreRepeated: true)
    private let nameDisposable = MetaDisposable()
    private var typingTimer: SwiftSignalKit.Timer?

    var states: Signal<State, NoError> {
        return self.statePromise.get()
    }

    init(name: Signal<String, NoError>) {
        self.nameDisposable.set(
            (name
                |> timeout(5.0, queue: Queue.mainQueue(), alternate: .single("Offline"))
                |> deliverOnMainQueue).start(next: { [weak self] name in
                    self?.update { $0.name = name }
                }))
    }

    deinit {
        self.nameDisposable.dispose()
        self.typingTimer?.invalidate()
    }

    func keystroke() {
        Queue.mainQueue().async {
            self.typingTimer?.invalidate()
            self.update { $0.isTyping = true }
            let timer = SwiftSignalKit.Timer(
                timeout: 3.0, repeat: false,
                completion: { [weak self] in
                    self?.update { $0.isTyping = false }
                }, queue: Queue.mainQueue())
            self.typingTimer = timer
            timer.start()
        }
    }

    func copyName() {
        self.update { $0.toast = "Copied" }
        Queue.mainQueue().after(2.0) { [weak self] in
            self?.update { $0.toast = nil }
        }
    }

    /// State changes on the main queue only: at once there, otherwise hopping onto it.
    private func update(_ f: @escaping (inout State) -> Void) {
        if Queue.mainQueue().isCurrent() {
            f(&self.state)
            self.statePromise.set(self.state)
        } else {
            Queue.mainQueue().async {
                self.update(f)
            }
        }
    }
}

private typealias State = ProfileViewModel.State

#if DEBUG
@Suite struct SwiftSignalKitMainQueueTests {
    /// The name arrives from the network at 1.5 s; typing at 0 and again at 1 ends at 4; the toast
    /// asked for at 1 (off the main queue, so it hops there) hides at 3.
    @Test func theViewModelRunsOnTheSchedulersMainQueue() {
        let scheduler = TestScheduler()
        scheduler.withMainQueue {
            let network = scheduler.queue(name: "network")
            let model = ProfileViewModel(name: .single("Ada") |> delay(1.5, queue: network))
            let states = scheduler.record(model.states)
            model.keystroke()
            scheduler.advance(by: 1)
            model.keystroke()
            model.copyName()
            scheduler.advance(by: 9)
            #expect(
                states.events == [
                    .next(0, State()),
                    .next(0, State(name: "", isTyping: true, toast: nil)),
                    .next(1, State(name: "", isTyping: true, toast: "Copied")),
                    .next(1.5, State(name: "Ada", isTyping: true, toast: "Copied")),
                    .next(3, State(name: "Ada", isTyping: true, toast: nil)),
                    .next(4, State(name: "Ada", isTyping: false, toast: nil)),
                ])
        }
    }

    /// A name that never comes is replaced by "Offline" when the main queue's timeout fires, at 5.
    @Test(.mainQueueOnVirtualTime) func aSlowNameTimesOutOnTheMainQueue() {
        let scheduler = TestScheduler.current
        let model = ProfileViewModel(name: .never())
        let states = scheduler.record(model.states)
        scheduler.advance(by: 4.999)
        #expect(states.events == [.next(0, State())])
        scheduler.advance(by: 0.001)
        #expect(states.events == [.next(0, State()), .next(5, State(name: "Offline", isTyping: false, toast: nil))])
    }

    /// Made in the scope and advanced after it: the model's main-queue work still finds the
    /// scheduler's main queue when it names `Queue.mainQueue()` (its state update, its timer).
    @Test func theModelsWorkKeepsTheMainQueueWhenAdvancedOutsideTheScope() {
        let scheduler = TestScheduler()
        let (model, states) = scheduler.withMainQueue { () -> (ProfileViewModel, Recording<State, NoError>) in
            let model = ProfileViewModel(name: .never())
            let states = scheduler.record(model.states)
            model.keystroke()
            return (model, states)
        }
        scheduler.advance(by: 4)
        #expect(
            states.events == [
                .next(0, State()),
                .next(0, State(name: "", isTyping: true, toast: nil)),
                .next(3, State(name: "", isTyping: false, toast: nil)),
            ])
        withExtendedLifetime(model) {}
    }

    /// The `async` form, from a test that awaits: the model's state at 5 s, read with `get()`.
    @Test func theAsyncFormReturnsWhatItsBodyReturns() async {
        let scheduler = TestScheduler()
        let name = await scheduler.withMainQueue { () async -> String in
            let model = ProfileViewModel(name: .never())
            await Task.yield()
            scheduler.advance(by: 5)
            return await (model.states |> take(1)).get().name
        }
        #expect(name == "Offline")
    }
}
#endif
