/// Disposables kept under keys: setting a key disposes what was under it before.
///
/// ```swift
/// let downloads = DisposableDict<String>()
/// downloads.set(fetch("a.png").start(), forKey: "a.png")
/// downloads.set(fetch("a.png").start(), forKey: "a.png")   // disposes the first fetch
/// downloads.set(nil, forKey: "a.png")                      // disposes the second one, removes the key
/// downloads.dispose()                                      // disposes everything left
/// ```
///
/// > Note: Thread-safe. Disposables are disposed, and released, outside the lock, so their
/// > `deinit` may use the dictionary again. `T`'s `hash(into:)` and `==` run under the lock, so
/// > they must not call back into this dictionary. Releasing the dictionary does not dispose
/// > its contents.
public final class DisposableDict<T: Hashable>: Disposable {
    private let members = Locked<[T: any Disposable]?>([:])  // nil once disposed

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
    /// dict.set(nil, forKey: 1)      // second.dispose() is called; key 1 is gone
    /// ```
    ///
    /// We deliberately differ from SwiftSignalKit for `nil`: it removes the entry. SwiftSignalKit
    /// disposes the entry but keeps it, so its `dispose()` disposes it a second time.
    ///
    /// - Parameters:
    ///   - disposable: The new occupant, or `nil` to dispose and remove the current one. Setting
    ///     the current occupant again disposes it and keeps it, as SwiftSignalKit does.
    ///   - key: Where to put it.
    /// - Complexity: O(1) on average.
    public func set(_ disposable: (any Disposable)?, forKey key: T) {
        let finished = members.withLock { members -> (any Disposable)? in
            guard members != nil else { return disposable }
            defer { members?[key] = disposable }
            return members?[key]
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
