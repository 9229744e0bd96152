/// The rule every lock of the library rests on, checked in debug builds: **a thread that holds a
/// library lock takes no other lock.** A locked section is a short state change: it calls no user
/// code and releases no user value (whose `deinit` is user code), so it can never reach another
/// lock. Two objects may share a stripe of the lock table (`StripedLock`), so breaking the rule can
/// deadlock a thread on itself; and the threading contract promises that a `deinit` may call back
/// into the library (Threading and Re-entrancy, "No user code under a lock — deinit included").
///
/// Each lock acquisition first calls ``willTake(_:file:line:)``: in a debug build it stops the
/// program, with a message naming both places, if this thread already holds a library lock, and
/// records the one it takes until ``didRelease(_:)``. What a thread holds is one thread-local slot
/// (`Platform.ThreadLocal`), made only in debug builds; in release builds both calls are empty and
/// inlined away, so the locks pay nothing (as swift-collections checks its invariants only in
/// debug builds).
///
/// ``Kind/user`` is for the locks that run *your* code by design, SwiftSignalKit's ``Atomic`` and
/// ``Lock``: taking one is checked (holding a library lock there would mean library code nests
/// locks, or a `deinit` ran under a lock), but holding one is not recorded, since the closure you
/// run under it may legitimately use the library (`atomic.with { _ in promise.set(value) }`), and
/// nesting your own `Atomic`s is yours to order.
///
/// The core (`Receiver.swift`) keeps its own lock table for its pairs and does not take part yet.
/// It could, within its budget: the same slot and the same two calls around its `withLock` (a few
/// lines under `#if DEBUG`), and, for one count across both modules, this enum moved into the core
/// behind `@_spi` and called from here — then a wave released under a pair's lock whose `deinit`
/// takes an adapter lock would stop with this message too.
@usableFromInline enum LockRule {
    /// What kind of lock a thread takes.
    @usableFromInline enum Kind {
        /// One of the library's own locks (`Locked`, `StripedLock`): its sections run no user code.
        case library
        /// A lock that runs user code by design (`Atomic`, `Lock`): checked, never recorded.
        case user
    }

    /// Checks the rule before a lock of `kind` is taken at `file`:`line`, and records it if it is a
    /// library lock. Does nothing in release builds.
    @inlinable @inline(__always) static func willTake(_ kind: Kind, file: StaticString, line: UInt) {
        #if RECEIVER_DIAGNOSTICS
        check(kind, file: file, line: line)
        #endif
    }

    /// Records that the lock of `kind` taken last by this thread was released. Does nothing in
    /// release builds.
    @inlinable @inline(__always) static func didRelease(_ kind: Kind) {
        #if RECEIVER_DIAGNOSTICS
        if kind == .library { heldByThisThread.pointee = nil }
        #endif
    }

    #if RECEIVER_DIAGNOSTICS
    /// Where a thread took the library lock it holds.
    @usableFromInline struct Place {
        let file: StaticString
        let line: UInt
    }

    /// The library lock each thread holds, if any.
    private static let held = Platform.ThreadLocal(Place?.none, owner: "LockRule")

    /// This thread's slot: the library lock it holds, or `nil`.
    @usableFromInline static var heldByThisThread: UnsafeMutablePointer<Place?> { held.pointer }

    @usableFromInline static func check(_ kind: Kind, file: StaticString, line: UInt) {
        let slot = heldByThisThread
        if let held = slot.pointee {
            let what = kind == .library ? "a library lock" : "the lock of an Atomic or a Lock"
            fatalError(
                """
                ReceiverSignalKit lock rule broken: \(file):\(line) takes \(what) while this thread \
                holds the library lock taken at \(held.file):\(held.line). A locked section must not \
                take another lock, call user code, or release a value whose deinit may run user code \
                (no user code under a lock, deinit included): return what it lets go and \
                release it after unlocking.
                """)
        }
        if kind == .library { slot.pointee = Place(file: file, line: line) }
    }
    #endif
}
