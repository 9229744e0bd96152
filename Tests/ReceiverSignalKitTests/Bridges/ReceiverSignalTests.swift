import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

@Suite(.detectingLeaks) struct ReceiverSignalTests {
    @Test func aSignalStartGetsTheReplayThenLiveWaves() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 2))
        [1, 2, 3].forEach(transmitter.broadcast)
        var received: [Int] = []
        let disposable = receiver.signal.start(next: { received.append($0) })
        #expect(received == [2, 3])
        transmitter.broadcast(4)
        disposable.dispose()
        transmitter.broadcast(5)
        #expect(received == [2, 3, 4])
    }

    @Test func eachStartIsItsOwnListener() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
        let signal = receiver.signal |> map { $0 * 10 }
        transmitter.broadcast(1)
        var (first, second) = ([Int](), [Int]())
        signal.start(next: { first.append($0) })
        transmitter.broadcast(2)
        signal.start(next: { second.append($0) })
        #expect(first == [10, 20])
        #expect(second == [10, 20])
    }
}
