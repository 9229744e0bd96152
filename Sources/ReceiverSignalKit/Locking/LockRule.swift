/// The rule every lock of the library rests on, checked in debug builds: **a thread that holds a
/// library lock takes no other lock** (a locked section calls no user code and releases no user
/// value; two objects may share a stripe, so a break could deadlock a thread on itself).
/// ``willTake(_:file:line:)`` stops the program, naming both places, on a break; release builds
/// compile both calls away. The core keeps its own lock table and does not take part.
@usableFromInline enum LockRule {
    /// What kind of lock a thread takes.
    @usableFromInline enum Kind {
        /// One of the library's own locks (`Locked`, `StripedLock`): its sections run no user code.
        case library
        /// A lock that runs user code by design (`Atomic`, `Lock`): checked, but not recorded, as
        /// the code it runs may use the library.
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
