import Dispatch
import Receiver
import ReceiverSignalKitTesting
import Testing

/// The event log of a receiver, `receiver.traceEvents(label)`: one line per listen, wave and
/// disposal of each of its listeners, with the label, the time its clock reads and the queue it
/// happened on. Each test runs inside `sync` on a named queue, so the place is that queue.
@Suite(.detectingLeaks) struct ReceiverTraceEventsTests {
    let lines = History<String>()
    let work = DispatchQueue(label: "work")

    @Test(arguments: allStrategies)
    func eachListenerLogsItsListenItsWavesReplayIncludedAndItsDisposal(strategy: Receiver<Int>.Strategy) {
        let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
        let time = Clock()
        let (first, second) = (History<Int>(), History<Int>())
        work.sync {
            transmitter.broadcast(1)
            let traced = receiver.map { $0 * 10 }.traceEvents("tens", clock: time.read, to: lines.record)
            let one = traced.listen(to: first.record)
            time.advance()
            transmitter.broadcast(2)
            let two = traced.listen(to: second.record)
            time.advance()
            one.dispose()
            one.dispose()  // logged once
            transmitter.broadcast(3)
            two.dispose()
        }
        let keeps = strategy != .hot
        #expect(
            lines.recorded == [
                line("listen", at: 0)
            ] + (keeps ? [line("wave(10)", at: 0)] : []) + [
                line("wave(20)", at: 1),
                line("listen", at: 1),
            ] + (keeps ? [line("wave(10)", at: 1), line("wave(20)", at: 1)] : []) + [
                line("dispose", at: 2),
                line("wave(30)", at: 2),
                line("dispose", at: 2),
            ])
        #expect(first.recorded == (keeps ? [10, 20] : [20]))  // what passes is unchanged
        #expect(second.recorded == (keeps ? [10, 20, 30] : [30]))
    }

    /// A line of the log, as it reads in full.
    private func line(_ event: String, at second: Int) -> String {
        "tens: \(event) at \(second).000s on queue \"work\""
    }

    /// A clock the test moves, one second at a time.
    final class Clock: Sendable {
        private let seconds = History<Void>()
        func advance() { seconds.record(()) }
        var read: () -> Double { { Double(self.seconds.recorded.count) } }
    }
}
