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
/// reach it. So the loop asks: it notes the starts being made around it when it begins, and
/// stops starting again once one of them has ended. Nothing else changes: those starts are
/// disposed when their generators return, as always.
///
/// Each generator's run keeps its entry on its own stack and links it to the one around it, in a
/// thread-local slot, so noting a start costs two stores and no allocation.
@usableFromInline enum StartsBeingMade {
    /// One start being made, on the stack of its run: the start, and the entry around it.
    @usableFromInline struct Entry {
        @usableFromInline unowned(unsafe) let start: AnySubscriberCore
        @usableFromInline let enclosing: UnsafeMutableRawPointer?

        @inlinable init(start: AnySubscriberCore, enclosing: UnsafeMutableRawPointer?) {
            (self.start, self.enclosing) = (start, enclosing)
        }
    }

    /// This thread's innermost entry, or `nil`.
    @usableFromInline static let slot: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        guard status == 0 else { fatalError("StartsBeingMade: pthread_key_create failed (\(status))") }
        return key
    }()

    /// Runs `generator` with `start` noted as being made on this thread.
    @inlinable static func making<Result>(_ start: AnySubscriberCore, _ generator: () -> Result) -> Result {
        let key = slot
        let enclosing = pthread_getspecific(key)
        var entry = Entry(start: start, enclosing: enclosing)
        return withUnsafeMutablePointer(to: &entry) { entry in
            pthread_setspecific(key, entry)
            defer { pthread_setspecific(key, enclosing) }
            return generator()
        }
    }

    /// The starts being made on this thread, innermost first. Strong references: they are valid
    /// only while the caller is inside the innermost one's generator, so keep them no longer.
    @usableFromInline static func current() -> [AnySubscriberCore] {
        var starts: [AnySubscriberCore] = []
        var next = pthread_getspecific(slot)
        while let entry = next?.assumingMemoryBound(to: Entry.self) {
            starts.append(entry.pointee.start)
            next = entry.pointee.enclosing
        }
        return starts
    }
}
