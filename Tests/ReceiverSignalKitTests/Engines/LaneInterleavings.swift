import TestSupport

/// A `deliverOn` lane driven by hand, without a lock or Dispatch: what both lanes' transition tests
/// drive, so that one random program checks them both.
protocol LaneDriving: AnyObject {
    /// The blocks dispatched whose run is still to come.
    var blocksOnTheirWay: Int { get }
    /// Called with each value as it is delivered (after it is recorded in `delivered`).
    var onDeliver: (Int) -> Void { get set }
    var delivered: [Int] { get }
    var isIdle: Bool { get }
    func sendOffQueue(_ value: Int)
    func sendOnQueue(_ value: Int)
    func runBlock()
}

/// Runs one seeded random interleaving on `lane`: 40 steps of events sent off and on the queue and
/// blocks run, with handlers that now and then send on the queue or run a block themselves (as a
/// handler running the main run loop does), then every block still on its way. Returns the values
/// in the order they were sent.
func runRandomInterleaving(on lane: some LaneDriving, seed: UInt64) -> [Int] {
    var choices = SeededChoices(seed: seed)
    var sent: [Int] = []
    var depth = 0
    func send(onQueue: Bool) {
        let value = sent.count
        sent.append(value)
        if onQueue { lane.sendOnQueue(value) } else { lane.sendOffQueue(value) }
    }
    lane.onDeliver = { _ in
        guard depth == 0 else { return }
        depth += 1
        defer { depth -= 1 }
        switch choices.next(6) {
        case 0: send(onQueue: true)
        case 1 where lane.blocksOnTheirWay > 0: lane.runBlock()
        default: break
        }
    }
    for _ in 0..<40 {
        switch choices.next(3) {
        case 0: send(onQueue: false)
        case 1: send(onQueue: true)
        default: if lane.blocksOnTheirWay > 0 { lane.runBlock() }
        }
    }
    while lane.blocksOnTheirWay > 0 { lane.runBlock() }
    lane.onDeliver = { _ in }
    return sent
}
