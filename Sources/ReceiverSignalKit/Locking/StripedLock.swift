#if canImport(Darwin)
public import Darwin  // os_unfair_lock, behind `LockWord.Primitive`
#endif

/// A lock from a table of 64 shared by every object that uses it, picked by the object's address:
/// for objects so numerous that a lock each would be most of their size (a subscription, a
/// disposable). Two objects may share a stripe, so its sections take no other lock and call no
/// user code (``LockRule`` checks it); `Locked` is for the rest. The core's `ReceiverLock` keeps a
/// table of its own written the same way (the core file is vendored alone): keep the two alike.
@usableFromInline struct StripedLock: @unchecked Sendable {
    /// One stripe: a lock word, alone in its 64 bytes (a cache line) so that threads locking
    /// different stripes do not contend for a line. Eight stripes make a row, eight rows the table.
    @usableFromInline struct Stripe {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    }
    @usableFromInline struct Row {
        var stripes = (Stripe(), Stripe(), Stripe(), Stripe(), Stripe(), Stripe(), Stripe(), Stripe())
    }
    @usableFromInline struct Table {
        var rows = (Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row())
    }

    /// All zero, which is an unlocked lock word on every platform, so it needs no initialisation,
    /// and a global made of constants, so finding it costs no lazy-initialisation check. Reached
    /// only through lock words at fixed addresses inside it, so the exclusivity check (which would
    /// see every lock as a write of the whole table) is off.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) static var table = Table()

    /// `&table` by a pointer conversion, not an `inout` access, which the thread sanitizer counts
    /// as a write of the whole table. A stored global never moves: the address outlives the call.
    @inlinable static func address(_ table: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer { table }

    @usableFromInline let word: UnsafeMutablePointer<LockWord.Primitive>

    /// The stripe for `object`, picked from its address's bits by a multiplicative hash.
    @inlinable init(for object: AnyObject) {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let stripe = Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - 6))
        word = (Self.address(&Self.table) + stripe * 64).assumingMemoryBound(to: LockWord.Primitive.self)
    }

    /// Takes the lock, for code that cannot use a closure (unspecialised generic code, where one
    /// would look up type metadata); pair it with ``unlock()``. The same rule as ``withLock(file:line:_:)``.
    @inlinable @inline(__always) func lock(file: StaticString = #fileID, line: UInt = #line) {
        LockRule.willTake(.library, file: file, line: line)
        LockWord.lock(word)
    }

    /// Releases the lock taken by ``lock(file:line:)``.
    @inlinable @inline(__always) func unlock() {
        LockRule.didRelease(.library)
        LockWord.unlock(word)
    }

    /// Runs `body` while holding the lock. `body` must not call user code or take another lock;
    /// what it returns is released by the caller, after unlocking.
    ///
    /// - Parameters:
    ///   - file: Where the lock is taken, for ``LockRule``'s message (debug builds only).
    ///   - line: The same, its line.
    ///   - body: The locked section.
    /// - Returns: What `body` returned.
    @inlinable @inline(__always) func withLock<Result>(
        file: StaticString = #fileID, line: UInt = #line, _ body: () throws -> Result
    ) rethrows -> Result {
        LockRule.willTake(.library, file: file, line: line)
        LockWord.lock(word)
        defer {
            LockRule.didRelease(.library)
            LockWord.unlock(word)
        }
        return try body()
    }
}
