import Receiver

/// A disposable that counts its `dispose()` calls (not idempotent on purpose: a second call shows).
final class CountingDisposable: Disposable {
    private let calls = Atomic(value: 0)

    var count: Int { calls.with { $0 } }

    func dispose() { calls.modify { $0 + 1 } }
}

/// A history that handlers on any thread may append to.
final class History<Item: Sendable>: Sendable {
    private let items = Atomic<[Item]>(value: [])

    var recorded: [Item] { items.with { $0 } }

    func record(_ item: Item) {
        items.modify { items in
            var items = items
            items.append(item)
            return items
        }
    }
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
