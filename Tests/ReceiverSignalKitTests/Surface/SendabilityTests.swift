import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// Compile-time checks: these fail to build, not to run, if a promise of the API breaks.
@Suite(.detectingLeaks) struct SendabilityTests {
    func requireSendable<T: Sendable>(_: T.Type) {}

    @Test func theAdapterTypesAreSendable() {
        requireSendable(Signal<Int, TestError>.self)
        requireSendable(Subscriber<Int, TestError>.self)
        requireSendable(Promise<Int>.self)
        requireSendable(ValuePromise<Int>.self)
        requireSendable(Atomic<Int>.self)
        requireSendable(ActionDisposable.self)
        requireSendable(MetaDisposable.self)
        requireSendable(DisposableSet.self)
        requireSendable(DisposableDict<String>.self)
        requireSendable(StrictDisposable.self)
        requireSendable(DisposeBag.self)
    }

    @MainActor final class ProfileViewModel {
        let name = Promise<String>()
        private(set) var shown: [String] = []
        private let bag = DisposeBag()

        init() {
            name.get().start(next: { [weak self] in self?.shown.append($0) }).disposed(by: bag)
        }
    }

    @Test @MainActor func aMainActorViewModelListensWithWeakSelf() {
        let model = ProfileViewModel()
        model.name.set(.single("Ada"))
        model.name.set(.single("Grace"))
        #expect(model.shown == ["Ada", "Grace"])
    }

    @Test func promisesCrossTasks() async {
        let promise = ValuePromise(0)
        await withTaskGroup(of: Void.self) { group in
            for value in 1...10 { group.addTask { promise.set(value) } }
        }
        let last = try? await promise.get().first()
        #expect((1...10).contains(last ?? 0))
    }
}
