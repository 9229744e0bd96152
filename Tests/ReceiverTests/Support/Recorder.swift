@testable import Receiver

/// A thread-safe list of what handlers saw, for tests whose handlers run on several threads.
final class Recorder<Value: Sendable>: Sendable {
    private let box = ReceiverLock<[Value]>([])

    func append(_ value: Value) { box.withLock { $0.append(value) } }

    var values: [Value] { box.withLock { $0 } }
}

/// Counts instances alive, to prove what a pair keeps and what it releases.
final class Tracked: Sendable {
    static let alive = ReceiverLock<[String: Int]>([:])
    let tag: String
    let value: Int

    init(_ value: Int, tag: String) {
        (self.value, self.tag) = (value, tag)
        Self.alive.withLock { $0[tag, default: 0] += 1 }
    }

    deinit { Self.alive.withLock { $0[tag, default: 0] -= 1 } }

    static func count(_ tag: String) -> Int { alive.withLock { $0[tag, default: 0] } }
}

/// Something to capture in a handler and watch through a weak reference.
final class Witness: Sendable {}

let allStrategies: [Receiver<Int>.Strategy] = [.hot, .warm(upTo: 2), .cold]
