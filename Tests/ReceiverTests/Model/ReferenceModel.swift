// The reference model: the core's contract — the strategies (Choosing a Strategy), the threading
// contract (Threading and Re-entrancy, Sources/Receiver/Receiver.docc/ThreadingAndReentrancy.md)
// and the operators' docs — as a plain, sequential program, written from those documents and not
// from the library's code. It is slow on purpose (linear scans, no compaction, no lock) so that it
// stays obviously right; the model-based test compares the library's delivery log with its log.
//
// Plain Swift with no test framework, so the fuzz target (Tests/Fuzz) compiles it too.

final class ReferenceModel: ModelEngine {
    /// A listener on a pair. A derived receiver's listener is one pair listener whose `deliver`
    /// runs that listener's own operator stages (operators are per listener, each with its own state).
    final class Listener {
        /// How many waves the pair had broadcast when it joined: it gets live waves numbered from here.
        let since: Int
        var deliver: (Int) -> Void = { _ in }
        var disposed = false
        /// While `listen` replays, live waves are held for it, and `listen` delivers them after the replay.
        var replaying = true
        var held: [Int] = []

        init(since: Int) { self.since = since }
    }

    final class Pair {
        let keeps: Int  // how many of the latest waves a new listener is replayed
        var kept: [Int] = []
        var broadcasts = 0
        var listeners: [Listener] = []  // in the order they started listening; never reordered
        var delivering = false
        var queue: [(number: Int, wave: Int)] = []

        init(_ strategy: ModelStrategy) {
            keeps =
                switch strategy {
                case .hot: 0
                case .warm(let count): count
                case .cold: Int.max
                }
        }
    }

    struct Subscription { let listener: Listener }

    private let pairs: [Pair]
    private let receivers: [ModelReceiverSpec]

    init(_ program: ModelProgram) {
        pairs = program.pairs.map(Pair.init)
        receivers = program.receivers
    }

    /// Threading and Re-entrancy, "Serialized delivery", "Re-entrant broadcast": a wave broadcast
    /// while the pair delivers is queued, and the delivering call delivers it after the current
    /// wave, FIFO.
    func broadcast(pair index: Int, value: Int) {
        let pair = pairs[index]
        let number = pair.broadcasts
        pair.broadcasts += 1
        if pair.keeps > 0 {
            pair.kept.append(value)
            if pair.kept.count > pair.keeps { pair.kept.removeFirst() }
        }
        pair.queue.append((number, value))
        guard !pair.delivering else { return }
        pair.delivering = true
        while !pair.queue.isEmpty {
            let (number, wave) = pair.queue.removeFirst()
            // Each wave reaches every listener, in the order they joined, before the next wave.
            // Listeners that join meanwhile joined after this wave was broadcast: `since` skips them.
            var position = 0
            while position < pair.listeners.count {
                let listener = pair.listeners[position]
                position += 1
                guard !listener.disposed, listener.since <= number else { continue }
                if listener.replaying {
                    listener.held.append(wave)
                } else {
                    listener.deliver(wave)
                }
            }
        }
        pair.delivering = false
    }

    /// Threading and Re-entrancy, "Replay is synchronous": the kept waves, then the live waves held meanwhile, all
    /// before `listen` returns.
    func listen(receiver: Int, handler: @escaping (Int) -> Void) -> Subscription {
        let spec = receivers[receiver]
        let pair = pairs[spec.pair]
        let listener = Listener(since: pair.broadcasts)
        listener.deliver = stages(spec.operators, for: listener, then: handler)
        pair.listeners.append(listener)
        var pending = pair.kept
        while !pending.isEmpty {
            for wave in pending where !listener.disposed { listener.deliver(wave) }
            (pending, listener.held) = (listener.held, [])
        }
        listener.replaying = false
        return Subscription(listener: listener)
    }

    /// Threading and Re-entrancy, "Disposal": never called again; disposing a derived listener disposes its upstream.
    func dispose(_ subscription: Subscription) {
        subscription.listener.disposed = true
        subscription.listener.held = []
    }

    /// The operators, each with this listener's own state.
    private func stages(_ operators: [ModelOperator], for listener: Listener, then handler: @escaping (Int) -> Void)
        -> (Int) -> Void
    {
        var next = handler
        for op in operators.reversed() {
            let downstream = next
            switch op {
            case .map(let k):
                next = { downstream(ModelOperator.map(k, $0)) }
            case .filter(let k):
                next = { if ModelOperator.filter(k, $0) { downstream($0) } }
            case .withPrevious:
                var previous: Int?
                next = { wave in
                    let pair = (previous, wave)
                    previous = wave
                    downstream(ModelOperator.previous(pair))
                }
            case .skip(let count):
                var remaining = count
                next = { wave in
                    if remaining > 0 { remaining -= 1 } else { downstream(wave) }
                }
            case .take(let count):
                // Passes `count` waves, then disposes its upstream listener: the pair's listener.
                var remaining = count
                if count == 0 { listener.disposed = true }
                next = { [unowned listener] wave in
                    guard remaining > 0 else { return }
                    remaining -= 1
                    downstream(wave)
                    if remaining == 0 { listener.disposed = true }
                }
            case .skipRepeats:
                var last: Int?
                next = { wave in
                    guard wave != last else { return }
                    last = wave
                    downstream(wave)
                }
            case .skipNil(let k):
                next = { if let wave = ModelOperator.optional(k, $0) { downstream(wave) } }
            }
        }
        return next
    }
}
