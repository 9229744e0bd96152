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
/// One object holding the dictionary: its lock comes from the library's lock table, so it costs
/// no memory.
///
/// > Note: Thread-safe. Disposables and keys are disposed, and released, outside the lock, so
/// > their `deinit` may use the dictionary again. `T`'s `hash(into:)` and `==` run under the lock
/// > (as in SwiftSignalKit), so they must not call into the library — this dictionary or any other
/// > object of it (in debug builds, that stops the program with a message naming the lock rule).
/// > Releasing the dictionary does not dispose its contents.
public final class DisposableDict<T: Hashable>: Disposable {
    /// `nil` once disposed. Only ever touched under the object's stripe of the lock table
    /// (`StripedLock`), which also makes the exclusivity check redundant.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var members: [T: any Disposable]? = [:]

    /// Makes an empty dictionary.
    ///
    /// ```swift
    /// let disposables = DisposableDict<Int>()
    /// ```
    @inlinable public init() {}

    /// Puts `disposable` under `key` and disposes what was there. After `dispose()`, it disposes
    /// `disposable` at once instead.
    ///
    /// ```swift
    /// dict.set(first, forKey: 1)
    /// dict.set(second, forKey: 1)   // first.dispose() is called
    /// dict.set(nil, forKey: 1)      // second.dispose() is called; key 1 is gone
    /// ```
    ///
    /// `nil` removes the entry (SwiftSignalKit keeps it, and disposes it again in `dispose()`).
    ///
    /// - Parameters:
    ///   - disposable: The new occupant, or `nil` to dispose and remove the current one. Setting
    ///     the current occupant again disposes it and keeps it, as SwiftSignalKit does.
    ///   - key: Where to put it.
    /// - Complexity: O(1) on average.
    @inlinable public func set(_ disposable: (any Disposable)?, forKey key: T) {
        // What the dictionary lets go of — the replaced disposable, and for `nil` the stored key
        // with it — is returned, to be disposed and released below.
        let (finished, removedKey) = StripedLock(for: self).withLock { () -> ((any Disposable)?, T?) in
            guard members != nil else { return (disposable, nil) }
            guard let disposable else {
                guard let index = members?.index(forKey: key), let (removedKey, removed) = members?.remove(at: index)
                else { return (nil, nil) }
                return (removed, removedKey)
            }
            return (members?.updateValue(disposable, forKey: key), nil)
        }
        finished?.dispose()
        _ = removedKey
    }

    /// Disposes everything in the dictionary, and everything set later.
    ///
    /// ```swift
    /// dict.dispose()
    /// ```
    ///
    /// - Complexity: O(n) for n disposables in the dictionary.
    @inlinable public func dispose() {
        let finished = StripedLock(for: self).withLock { members.take() } ?? [:]
        for disposable in finished.values { disposable.dispose() }
    }
}
