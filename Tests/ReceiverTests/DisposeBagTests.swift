import Receiver
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct DisposeBagTests {
    @Test func disposesEverythingWhenDeinitialised() {
        let members = [CountingDisposable(), CountingDisposable()]
        do {
            let bag = DisposeBag()
            members.forEach { $0.disposed(by: bag) }
            #expect(members.map(\.count) == [0, 0])
        }
        #expect(members.map(\.count) == [1, 1])
    }

    @Test func tiesASubscriptionToItsOwner() {
        let (transmitter, receiver) = Receiver<Int>.make()
        var received: [Int] = []
        do {
            let bag = DisposeBag()
            receiver.listen { received.append($0) }.disposed(by: bag)
            transmitter.broadcast(1)
        }
        transmitter.broadcast(2)
        #expect(received == [1])
    }
}
