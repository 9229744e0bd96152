import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct MulticastPromiseTests {
    @Test func holdsAValueSubscribersAndALock() {
        let shared = MulticastPromise<Int>()
        #expect(shared.value == nil)
        #expect(shared.subscribers.isEmpty)
        var received: [Int] = []
        shared.lock.locked {
            shared.value = 1
            shared.subscribers.add { received.append($0) }
        }
        shared.subscribers.copyItems().forEach { $0(shared.value!) }
        #expect(received == [1])
    }
}
