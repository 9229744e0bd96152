import Foundation
import Receiver

/// A disposable that counts its `dispose()` calls (not idempotent on purpose: a second call shows).
final class CountingDisposable: Disposable {
    private let calls = Atomic(value: 0)

    var count: Int { calls.with { $0 } }

    func dispose() { calls.modify { $0 + 1 } }
}

/// A history that handlers on any thread may append to, in O(1).
///
/// `@unchecked Sendable`: `items` is only touched under `lock`.
final class History<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []

    var recorded: [Item] { lock.withLock { items } }

    func record(_ item: Item) { lock.withLock { items.append(item) } }
}

/// Counts instances alive, per tag, to prove what a pair keeps and what it releases. Tests run in
/// parallel, so each uses a tag of its own.
final class Tracked: Sendable {
    private static let alive = Atomic<[String: Int]>(value: [:])
    let tag: String
    let value: Int

    init(_ value: Int, tag: String) {
        (self.value, self.tag) = (value, tag)
        Self.alive.modify { $0.merging([tag: 1], uniquingKeysWith: +) }
    }

    deinit { Self.alive.modify { [tag] in $0.merging([tag: -1], uniquingKeysWith: +) } }

    static func count(_ tag: String) -> Int { alive.with { $0[tag, default: 0] } }
}

/// Something to capture in a handler and watch through a weak reference.
final class Witness: Sendable {}

let allStrategies: [Receiver<Int>.Strategy] = [.hot, .warm(upTo: 2), .cold]

/// The current value of a promise's signal, read with SwiftSignalKit's start + dispose idiom.
func current<T>(_ signal: Signal<T, NoError>) -> T? {
    var value: T?
    signal.start(next: { value = $0 }).dispose()
    return value
}

/// Runs `write(thread)` on four threads while four others each start `signal()` 50 times and
/// dispose each start at once; returns what every one of those starts received.
func briefStarts(
    of signal: @escaping @Sendable () -> Signal<Int, NoError>,
    whileWriting write: @escaping @Sendable (_ thread: Int) -> Void
) -> [[Int]] {
    let histories = History<[Int]>()
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
        guard thread >= 4 else { return write(thread) }
        for _ in 0..<50 {
            let seen = History<Int>()
            signal().start(next: seen.record).dispose()
            histories.record(seen.recorded)
        }
    }
    return histories.recorded
}

struct TestError: Error, Equatable {
    let code: Int
}

extension Array where Element: Equatable {
    /// Whether `slice` occurs in this array as a contiguous run.
    func containsRun(_ slice: [Element]) -> Bool {
        guard !slice.isEmpty else { return true }
        guard slice.count <= count else { return false }
        return (0...(count - slice.count)).contains { Array(self[$0..<($0 + slice.count)]) == slice }
    }
}
