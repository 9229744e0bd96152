/// Disposables kept under keys: setting a key disposes what was under it before.
///
/// ```swift
/// let downloads = DisposableDict<String>()
/// downloads.set(fetch("a.png").start(), forKey: "a.png")
/// downloads.set(fetch("a.png").start(), forKey: "a.png")   // disposes the first fetch
/// downloads.set(nil, forKey: "a.png")                      // disposes the second one
/// downloads.dispose()                                      // disposes everything left
/// ```
///
/// > Note: Thread-safe. Disposables are disposed outside the lock. `Key`'s `hash(into:)` and `==`
/// > run under the lock, so they must not call back into this dictionary.
public final class DisposableDict<Key: Hashable>: Disposable {
    private let members = Locked<[Key: any Disposable]?>([:])  // nil once disposed

    /// Makes an empty dictionary.
    ///
    /// ```swift
    /// let disposables = DisposableDict<Int>()
    /// ```
    public init() {}

    /// Puts `disposable` under `key` and disposes what was there. After `dispose()`, it disposes
    /// `disposable` at once instead.
    ///
    /// ```swift
    /// dict.set(first, forKey: 1)
    /// dict.set(second, forKey: 1)   // first.dispose() is called
    /// ```
    ///
    /// - Parameters:
    ///   - disposable: The new occupant, or `nil` to empty the key. Setting the current occupant
    ///     again does nothing.
    ///   - key: Where to put it.
    /// - Complexity: O(1) on average.
    public func set(_ disposable: (any Disposable)?, forKey key: Key) {
        let finished = members.withLock { members -> (any Disposable)? in
            guard members != nil else { return disposable }
            let previous = members?[key]
            members?[key] = disposable
            return previous === disposable ? nil : previous
        }
        finished?.dispose()
    }

    /// Disposes everything in the dictionary, and everything set later.
    ///
    /// ```swift
    /// dict.dispose()
    /// ```
    public func dispose() {
        let finished = members.withLock { $0.take() } ?? [:]
        for disposable in finished.values { disposable.dispose() }
    }
}
