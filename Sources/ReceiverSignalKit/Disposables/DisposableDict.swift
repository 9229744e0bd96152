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
/// > Note: Thread-safe. No code of yours runs under the dictionary's lock: the disposables are
/// > filed by their key's hash, computed before locking, and keys are compared (`==`) after
/// > unlocking, so `T`'s `hash(into:)` and `==` may use the library, this dictionary included.
/// > Disposables and keys are disposed, and released, outside the lock, so their `deinit` may use
/// > the dictionary again. Releasing the dictionary does not dispose its contents.
public final class DisposableDict<T: Hashable>: Disposable {
    /// The disposables by their key's hash (the dictionary's own keys are `Int`s, so its hashing
    /// and comparing are not yours); `nil` once disposed. Only ever touched under the object's
    /// stripe of the lock table (`StripedLock`), which also makes the exclusivity check redundant.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var members: [Int: Members]? = [:]
    /// Counts the changes, so that a `set` that compared keys after unlocking can tell whether
    /// what it compared is still what is stored.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var version: UInt64 = 0

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
    /// - Complexity: O(1) on average: `key` is hashed once, and compared with the keys stored under
    ///   the same hash — none when it is new, so a new key costs one lock round trip and a stored
    ///   one two.
    @inlinable public func set(_ disposable: (any Disposable)?, forKey key: T) {
        let hash = key.hashValue  // your code: before locking
        let lock = StripedLock(for: self)
        // What the dictionary lets go of — the replaced disposable, and for `nil` the stored key
        // with it — is taken out, to be disposed and released after unlocking.
        var finished: (any Disposable)?, removedKey: T?
        // The keys under `hash` as last seen, to compare with `key` after unlocking; where they
        // are, when, and which of them is `key`.
        var seen: Members?, found: (index: [Int: Members].Index, version: UInt64, match: Int?)?
        while true {
            let isDone = lock.withLock { () -> Bool in
                guard members != nil else {  // disposed: the new one goes at once
                    finished = disposable
                    return true
                }
                if let found, found.version == version {  // nothing changed since the comparison
                    version &+= 1
                    (finished, removedKey) = Members.change(
                        &members!, at: found.index, found.match, to: disposable, forKey: key)
                    return true
                }
                guard let index = members!.index(forKey: hash) else {  // nothing under this hash: no key to compare
                    if let disposable {
                        members![hash] = .one(key, disposable)
                        version &+= 1
                    }
                    return true
                }
                (seen, found) = (members!.values[index], (index, version, nil))
                return false
            }
            if isDone { break }
            found?.match = seen?.firstIndex(of: key)  // your `==`: after unlocking
            seen = nil
        }
        finished?.dispose()
        _ = removedKey  // released here, with what `finished` held
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
        for members in finished.values {
            switch members {
            case .one(_, let disposable): disposable.dispose()
            case .many(let all): for member in all { member.disposable.dispose() }
            }
        }
    }

    /// What is stored under one hash: almost always one key.
    @usableFromInline enum Members {
        case one(T, any Disposable)
        case many([(key: T, disposable: any Disposable)])

        /// The position of the key equal to `key`. Calls `==`: never under the lock.
        @inlinable func firstIndex(of key: T) -> Int? {
            switch self {
            case .one(let stored, _): stored == key ? 0 : nil
            case .many(let all): all.firstIndex { $0.key == key }
            }
        }

        /// Puts `disposable` in place of the key `match` among those at `index` (with no match, adds it
        /// under `key`), or removes that entry for `nil`. Under the lock: what it replaces or removes
        /// is handed back, to be released after unlocking.
        @inlinable static func change(
            _ members: inout [Int: Members], at index: [Int: Members].Index, _ match: Int?,
            to disposable: (any Disposable)?, forKey key: T
        ) -> ((any Disposable)?, T?) {
            if match == 0, case .one(let stored, let replaced) = members.values[index] {  // the usual case
                guard let disposable else {
                    members.remove(at: index)
                    return (replaced, stored)
                }
                members.values[index] = .one(stored, disposable)  // the stored key stays, as in SwiftSignalKit
                return (replaced, nil)
            }
            var all: [(key: T, disposable: any Disposable)]
            switch members.values[index] {
            case .one(let stored, let other): all = [(stored, other)]
            case .many(let taken): all = taken
            }
            members.values[index] = .many([])  // so that `all` is the only reference to its buffer
            defer {
                if all.isEmpty {
                    members.remove(at: index)
                } else {
                    members.values[index] = all.count == 1 ? .one(all[0].key, all[0].disposable) : .many(all)
                }
            }
            switch (match, disposable) {
            case (let match?, let disposable?):
                defer { all[match].disposable = disposable }
                return (all[match].disposable, nil)
            case (let match?, nil):
                let removed = all.remove(at: match)
                return (removed.disposable, removed.key)
            case (nil, let disposable?):
                all.append((key, disposable))
                return (nil, nil)
            case (nil, nil):
                return (nil, nil)
            }
        }
    }
}
