#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// The subscriptions whose generators are running on this thread, innermost first: a
/// subscription is "being made" until its generator returns.
///
/// It cannot be disposed before then (SwiftSignalKit's rule too), which a restart loop over a
/// source that ends synchronously would turn into a loop without end: `restart(cached |> take(1))
/// |> take(3)` — the `take(3)` cannot reach it. So the loop looks at the subscriptions being made
/// around it, and pauses once one has ended (see `Restarts`).
///
/// Each generator's run keeps its entry on its own stack, linked to the one around it, in a cell of
/// its thread's: noting a subscription costs a look-up of the cell and two stores, no allocation.
@usableFromInline enum SubscriptionsBeingMade {
    /// One subscription being made, on the stack of its run: the subscription, the entry around
    /// it, and the restart loops paused until its generator returns.
    @usableFromInline struct Entry {
        @usableFromInline unowned(unsafe) let subscription: AnySubscriberCore
        @usableFromInline let enclosing: UnsafeMutableRawPointer?
        @usableFromInline var paused: Restarts?

        @inlinable init(subscription: AnySubscriberCore, enclosing: UnsafeMutableRawPointer?) {
            (self.subscription, self.enclosing, self.paused) = (subscription, enclosing, nil)
        }
    }

    /// Where each thread keeps its cell: the address of a word holding the thread's innermost
    /// entry. Made at the thread's first subscription; freed when the thread exits.
    @usableFromInline static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { free($0) }
        guard status == 0 else { fatalError("SubscriptionsBeingMade: pthread_key_create failed (\(status))") }
        return key
    }()

    /// This thread's cell, made on its first use.
    @inlinable static var cell: UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        let key = slot
        guard let cell = pthread_getspecific(key) else { return makeCell(key) }
        return cell.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
    }

    @usableFromInline static func makeCell(_ key: pthread_key_t) -> UnsafeMutablePointer<UnsafeMutableRawPointer?> {
        guard let memory = malloc(MemoryLayout<UnsafeMutableRawPointer?>.size) else {
            fatalError("SubscriptionsBeingMade: out of memory")
        }
        let cell = memory.bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
        cell.initialize(to: nil)
        pthread_setspecific(key, memory)
        return cell
    }

    /// Runs `generator` with `subscription` noted as being made on this thread. Returns what it
    /// returned, and the restart loops that paused on it (for ``Restarts/resume(_:)``, once it
    /// has taken what the generator returned).
    @inlinable static func making<Result>(
        _ subscription: AnySubscriberCore, _ generator: () -> Result
    ) -> (Result, paused: Restarts?) {
        let cell = cell
        var entry = Entry(subscription: subscription, enclosing: cell.pointee)
        let result = withUnsafeMutablePointer(to: &entry) { entry in
            cell.pointee = UnsafeMutableRawPointer(entry)
            defer { cell.pointee = entry.pointee.enclosing }
            return generator()
        }
        return (result, entry.paused)
    }

    /// This thread's innermost entry: the subscriptions being made around the caller, or `nil`.
    /// Valid only while the caller is inside that subscription's generator.
    @usableFromInline static var innermost: UnsafeMutableRawPointer? {
        pthread_getspecific(slot)?.load(as: UnsafeMutableRawPointer?.self)
    }

    /// The innermost of the entries from `entry` outwards whose subscription has ended, or `nil`.
    @usableFromInline static func innermostEnded(from entry: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Entry>? {
        var next = entry
        while let entry = next?.assumingMemoryBound(to: Entry.self) {
            if entry.pointee.subscription.hasEnded { return entry }
            next = entry.pointee.enclosing
        }
        return nil
    }
}
