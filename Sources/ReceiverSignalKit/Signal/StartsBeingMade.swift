#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// The starts whose generators are running on this thread, innermost first: the start of a
/// signal made with a generator is "being made" until its generator returns.
///
/// A start cannot be disposed before its generator has returned what stops it — SwiftSignalKit's
/// rule too, and why a downstream `take(1)` that completes while its upstream's generator still
/// runs lets that generator finish (`take(until:)` is asked about the later values, `afterNext`
/// runs for them). That is harmless for a generator that ends, but not for one that never does
/// on its own: a restart loop over a source that ends synchronously (`restart(cached |> take(1))
/// |> take(3)`) would start its source forever, since the end of the `take(3)` around it cannot
/// reach it. So the loop looks at the starts being made around it, and pauses once one of them
/// has ended: it notes itself on that start's entry and returns. When that start's generator has
/// returned, and the start has disposed what it returned (a downstream `take(3)`'s upstream: the
/// loop, which then stops), the loop resumes if it is still alive — it was not that start's
/// upstream, but, say, a promise's source set from inside that start's generator. So an ended
/// start around a loop stops it only by disposing it, as it would any upstream.
///
/// Each generator's run keeps its entry on its own stack and links it to the one around it, in a
/// cell of its thread's, so noting a start costs a look-up of the cell and two stores, and no
/// allocation. (The cell, rather than the thread-specific slot itself, holds the innermost entry:
/// `pthread_setspecific` costs several times what `pthread_getspecific` does, and every start
/// would call it twice.)
@usableFromInline enum StartsBeingMade {
    /// One start being made, on the stack of its run: the start, the entry around it, and the
    /// restart loops paused until its generator returns.
    @usableFromInline struct Entry {
        @usableFromInline unowned(unsafe) let start: AnySubscriberCore
        @usableFromInline let enclosing: UnsafeMutableRawPointer?
        @usableFromInline var paused: Restarts?

        @inlinable init(start: AnySubscriberCore, enclosing: UnsafeMutableRawPointer?) {
            (self.start, self.enclosing, self.paused) = (start, enclosing, nil)
        }
    }

    /// Where each thread keeps its cell: the address of a word holding the thread's innermost
    /// entry. Made at the thread's first start; freed when the thread exits.
    @usableFromInline static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { free($0) }
        guard status == 0 else { fatalError("StartsBeingMade: pthread_key_create failed (\(status))") }
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
            fatalError("StartsBeingMade: out of memory")
        }
        let cell = memory.bindMemory(to: UnsafeMutableRawPointer?.self, capacity: 1)
        cell.initialize(to: nil)
        pthread_setspecific(key, memory)
        return cell
    }

    /// Runs `generator` with `start` noted as being made on this thread. Returns what it returned,
    /// and the restart loops that paused on `start` (for ``Restarts/resume(_:)``, once the start
    /// has taken what the generator returned).
    @inlinable static func making<Result>(
        _ start: AnySubscriberCore, _ generator: () -> Result
    ) -> (Result, paused: Restarts?) {
        let cell = cell
        var entry = Entry(start: start, enclosing: cell.pointee)
        let result = withUnsafeMutablePointer(to: &entry) { entry in
            cell.pointee = UnsafeMutableRawPointer(entry)
            defer { cell.pointee = entry.pointee.enclosing }
            return generator()
        }
        return (result, entry.paused)
    }

    /// This thread's innermost entry: the starts being made around the caller, or `nil`. Valid
    /// only while the caller is inside that start's generator.
    @usableFromInline static var innermost: UnsafeMutableRawPointer? {
        pthread_getspecific(slot)?.load(as: UnsafeMutableRawPointer?.self)
    }

    /// The innermost of the entries from `entry` outwards whose start has ended, or `nil`.
    @usableFromInline static func innermostEnded(from entry: UnsafeMutableRawPointer?) -> UnsafeMutablePointer<Entry>? {
        var next = entry
        while let entry = next?.assumingMemoryBound(to: Entry.self) {
            if entry.pointee.start.hasEnded { return entry }
            next = entry.pointee.enclosing
        }
        return nil
    }
}
