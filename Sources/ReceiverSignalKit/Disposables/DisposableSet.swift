/// A collection of disposables that are disposed together.
///
/// ```swift
/// let subscriptions = DisposableSet()
/// subscriptions.add(name.get().start(next: showName))
/// subscriptions.add(avatar.get().start(next: showAvatar))
/// subscriptions.dispose()   // disposes both; anything added later is disposed at once
/// ```
///
/// One object holding the list: its lock comes from the library's lock table, so it costs no
/// memory, and `add` and `dispose()` are specialised in your module.
///
/// > Note: Thread-safe. `dispose()` takes everything out under the lock and disposes it after
/// > unlocking, in the order it was added. A second `dispose()` racing the first returns at once.
/// > What the set lets go of is released after unlocking, so its `deinit` may use the set again.
/// > Releasing the set does not dispose its contents.
public final class DisposableSet: Disposable {
    /// `nil` once disposed. Only ever touched under the object's stripe of the lock table
    /// (`StripedLock`), which also makes the exclusivity check redundant.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var members: ContiguousArray<any Disposable>? = []

    /// Makes an empty set.
    ///
    /// ```swift
    /// let disposables = DisposableSet()
    /// ```
    @inlinable public init() {}

    /// Adds `disposable`, or disposes it at once if the set is already disposed.
    ///
    /// ```swift
    /// disposables.add(signal.start())
    /// ```
    ///
    /// - Parameter disposable: What to dispose with the set.
    /// - Complexity: O(1) amortised.
    @inlinable public func add(_ disposable: consuming any Disposable) {
        // Taken as the caller's own reference and moved into the array: no retain here and no
        // release in the caller. (`withLock`'s closure could only copy it.)
        let lock = StripedLock(for: self)
        lock.lock()
        guard members != nil else {
            lock.unlock()
            disposable.dispose()
            return
        }
        // Room for four at the first add, then for sixteen, then doubling: fewer regrowths than
        // from one slot, for sets that mostly hold a few members.
        let capacity = members!.capacity
        if members!.count == capacity, capacity < 16 { members!.reserveCapacity(capacity == 0 ? 4 : 16) }
        members!.append(disposable)
        lock.unlock()
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
        let removed = StripedLock(for: self).withLock { () -> (any Disposable)? in
            guard let index = members?.firstIndex(where: { $0 === disposable }) else { return nil }
            return members?.remove(at: index)
        }
        _ = removed  // released here, after unlocking
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
        let removed = StripedLock(for: self).withLock { members?.popLast() }
        _ = removed  // released here, after unlocking
    }

    /// Disposes everything in the set, and everything added later.
    ///
    /// ```swift
    /// disposables.dispose()
    /// ```
    @inlinable public func dispose() {
        let finished = StripedLock(for: self).withLock { members.take() } ?? []
        // By index: each member is borrowed for its call, not copied out (a retain and a release
        // each, as a `for … in` does).
        for index in finished.indices { finished[index].dispose() }
    }
}
