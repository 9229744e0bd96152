import Dispatch
import ReceiverSignalKit
import Testing

@Suite struct AtomicTests {
    @Test func withModifyAndSwap() {
        let atomic = Atomic(value: 1)
        #expect(atomic.with { $0 * 10 } == 10)
        #expect(atomic.modify { $0 + 1 } == 2)
        #expect(atomic.swap(7) == 2)
        #expect(atomic.with { $0 } == 7)
    }

    @Test func concurrentModificationsAreNotLost() {
        let atomic = Atomic(value: 0)
        DispatchQueue.concurrentPerform(iterations: 1000) { _ in atomic.modify { $0 + 1 } }
        #expect(atomic.with { $0 } == 1000)
    }

    @Test func concurrentSwapsHandOutEveryValueOnce() {
        let atomic = Atomic(value: -1)
        let old = History<Int>()
        DispatchQueue.concurrentPerform(iterations: 500) { old.record(atomic.swap($0)) }
        let seen = (old.recorded + [atomic.with { $0 }]).sorted()
        #expect(seen == Array(-1..<500))
    }
}
