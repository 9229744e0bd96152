/// A collection of disposables that are disposed together.
///
/// ```swift
/// let subscriptions = DisposableSet()
/// subscriptions.add(name.get().start(next: showName))
/// subscriptions.add(avatar.get().start(next: showAvatar))
/// subscriptions.dispose()   // disposes both; anything added later is disposed at once
/// ```
///
/// > Note: Thread-safe. `dispose()` takes everything out under the lock and disposes it after
/// > unlocking, in the order it was added. A second `dispose()` racing the first returns at once.
/// > What the set lets go of is released after unlocking, so its `deinit` may use the set again.
/// > Releasing the set does not dispose its contents.
public final class DisposableSet: Disposable {
    private let members = Locked<[any Disposable]?>([])  // nil once disposed

    /// Makes an empty set.
    ///
    /// ```swift
    /// let disposables = DisposableSet()
    /// ```
    public init() {}

    /// Adds `disposable`, or disposes it at once if the set is already disposed.
    ///
    /// ```swift
    /// disposables.add(signal.start())
    /// ```
    ///
    /// - Parameter disposable: What to dispose with the set.
    /// - Complexity: O(1) amortised.
    public func add(_ disposable: any Disposable) {
        let isAdded = members.withLock { $0?.append(disposable) != nil }
        if !isAdded { disposable.dispose() }
    }

    /// Takes one occurrence of `disposable` (by identity) out of the set without disposing it.
    ///
    /// ```swift
    /// disposables.add(subscription)
    /// disposables.remove(subscription)   // subscription keeps running
    /// ```
    ///
    /// - Parameter disposable: What to take out; nothing happens if it is not in the set.
    /// - Complexity: O(n) in the number of disposables in the set.
    public func remove(_ disposable: any Disposable) {
        // Not the last reference: the caller holds `disposable` until this returns.
        members.withLock { members in
            if let index = members?.firstIndex(where: { $0 === disposable }) { members?.remove(at: index) }
        }
    }

    /// Takes the most recently added disposable out of the set without disposing it. Does
    /// nothing if the set is empty (SwiftSignalKit crashes there) or disposed.
    ///
    /// ```swift
    /// disposables.add(first)
    /// disposables.add(second)
    /// disposables.removeLast()   // second keeps running, outside the set
    /// ```
    ///
    /// - Complexity: O(1).
    public func removeLast() {
        _ = members.withLock { $0?.popLast() }  // released here, after unlocking
    }

    /// Disposes everything in the set, and everything added later.
    ///
    /// ```swift
    /// disposables.dispose()
    /// ```
    public func dispose() {
        let finished = members.withLock { $0.take() } ?? []
        for disposable in finished { disposable.dispose() }
    }
}
