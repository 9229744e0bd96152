import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct WeakTests {
    @Test func valueIsTheObjectWhileItLives() {
        let object = Witness()
        let box = Weak(object)
        #expect(box.value === object)
    }

    @Test func valueIsNilOnceTheObjectIsGone() {
        var object: Witness? = Witness()
        let box = Weak(object!)
        object = nil
        #expect(box.value == nil)
    }

    @Test func isSendable() {
        func requireSendable<T: Sendable>(_: T) {}
        requireSendable(Weak(Witness()))
    }
}
