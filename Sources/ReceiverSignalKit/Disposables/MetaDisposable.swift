/// A slot for one disposable: setting a new one disposes the one before.
///
/// ```swift
/// let search = MetaDisposable()
/// search.set(results(for: "a").start(next: show))
/// search.set(results(for: "ab").start(next: show))   // disposes the "a" search
/// search.dispose()                                   // disposes the "ab" search
/// search.set(results(for: "abc").start())            // disposed at once
/// ```
///
/// One object holding the slot: its lock comes from the library's lock table, so it costs no
/// memory, and `set` and `dispose()` are specialised in your module.
///
/// > Note: Thread-safe. Disposables are disposed, and released, outside the lock, on the thread
/// > whose call replaced them (or that called `dispose()`), so their `deinit` may use this
/// > `MetaDisposable` again. Releasing the `MetaDisposable` does not dispose its occupant.
public final class MetaDisposable: Disposable {
    /// Only ever touched under the object's stripe of the lock table (`StripedLock`), which also
    /// makes the exclusivity check redundant.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var slot = Slot()

    /// The occupant, and whether `dispose()` was called. Its transitions return the disposable to
    /// dispose (and release) after unlocking.
    @usableFromInline struct Slot {
        @usableFromInline var current: (any Disposable)?
        @usableFromInline var isDisposed = false

        @inlinable init() {}

        /// Puts `new` in the slot; returns the occupant it replaced, or `new` itself once disposed.
        @inlinable mutating func replace(with new: consuming (any Disposable)?) -> (any Disposable)? {
            var replaced = new
            if !isDisposed { swap(&current, &replaced) }
            return replaced
        }

        /// Marks the slot disposed; returns the occupant.
        @inlinable mutating func dispose() -> (any Disposable)? {
            isDisposed = true
            return current.take()
        }
    }

    /// Makes an empty slot.
    ///
    /// ```swift
    /// let disposable = MetaDisposable()
    /// ```
    @inlinable public init() {}

    /// Puts `disposable` in the slot and disposes the one it replaces. After `dispose()`, it
    /// disposes `disposable` at once instead.
    ///
    /// ```swift
    /// meta.set(first)
    /// meta.set(second)   // first.dispose() is called
    /// meta.set(nil)      // second.dispose() is called; the slot is empty
    /// ```
    ///
    /// - Parameter disposable: The new occupant, or `nil` to empty the slot. Setting the current
    ///   occupant again disposes it and keeps it in the slot, as SwiftSignalKit does.
    @inlinable public func set(_ disposable: consuming (any Disposable)?) {
        // Taken as the caller's own reference and moved into the slot (`take()` leaves `nil`
        // behind): no retain here and no release in the caller.
        var incoming = disposable
        StripedLock(for: self).withLock { slot.replace(with: incoming.take()) }?.dispose()
    }

    /// Disposes the occupant, and every disposable set later.
    ///
    /// ```swift
    /// meta.dispose()
    /// ```
    @inlinable public func dispose() {
        StripedLock(for: self).withLock { slot.dispose() }?.dispose()
    }
}
