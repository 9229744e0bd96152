#if canImport(Darwin)
public import Darwin
#else
public import Synchronization
#if canImport(Glibc)
public import Glibc  // `pthread_self()`, for `LockWord.Own`
#elseif canImport(Musl)
public import Musl
#endif
#endif

/// The platform's lock word and its calls, in one place: `os_unfair_lock` on Apple platforms, the
/// toolchain's `Synchronization.Mutex` elsewhere (a futex word whose fast paths are inlined: an
/// uncontended round trip is a fifth of a `pthread_mutex_t`'s; on Apple platforms it needs macOS 15
/// or iOS 18, above the deployment targets); not recursive. An unlocked lock word is all zero
/// bytes on both. A lock word must never move while it is used, so it lives in memory of its own —
/// tail-allocated (`Locked`), in the lock table (`StripedLock`), or held by an object in a
/// ``LockWord/Own`` — never at a copyable stored property's address
/// (`&property` may be a temporary).
///
/// `lock()` and `unlock()` are separate calls (not a closure), for code that must lock and unlock
/// at different places; on Linux they are `Mutex<Void>`'s `_unsafeLock()` and `_unsafeUnlock()`,
/// the toolchain's calls for exactly that.
@usableFromInline enum LockWord {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = Futex

    /// The Linux lock word: the `Mutex`, and a word that each unlock stores to (releasing) and each
    /// lock then loads (acquiring). That pair is two plain moves on x86-64 and orders nothing the
    /// mutex does not; it is there for the thread sanitizer, which cannot see a contended `Mutex`
    /// hand the lock over (that happens in the kernel, from code built without it), and would
    /// otherwise report every locked section as racing with the one before.
    @usableFromInline struct Futex: ~Copyable {
        @usableFromInline let mutex = Mutex<Void>(())
        @usableFromInline let handOver = Synchronization.Atomic<UInt32>(0)
        @inlinable init() {}
        @inlinable @inline(__always) func lock() {
            mutex._unsafeLock()
            _ = handOver.load(ordering: .acquiring)
        }
        @inlinable @inline(__always) func tryLock() -> Bool {
            guard mutex._unsafeTryLock() else { return false }
            _ = handOver.load(ordering: .acquiring)
            return true
        }
        @inlinable @inline(__always) func unlock() {
            handOver.store(0, ordering: .releasing)
            mutex._unsafeUnlock()
        }
    }
    #endif

    /// Initialises the lock word at `word`, unlocked.
    @inlinable static func initialize(_ word: UnsafeMutablePointer<Primitive>) {
        word.initialize(to: Primitive())
    }

    @inlinable @inline(__always) static func lock(_ word: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(word)
        #else
        word.pointee.lock()
        #endif
    }

    @inlinable @inline(__always) static func unlock(_ word: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(word)
        #else
        word.pointee.unlock()
        #endif
    }

    /// A lock word kept by one object (``Atomic``, ``Lock``) as a stored `let`: on Linux the
    /// ``Futex`` itself, inline in the object (a `Mutex` is never copied or moved: the compiler only
    /// lets it be borrowed in place); on Apple platforms an `os_unfair_lock` allocated with it on the
    /// heap and freed with it, as it must not live at a stored property's address.
    /// `@unchecked Sendable`: a lock is what makes its owner safe to share.
    @usableFromInline struct Own: ~Copyable, @unchecked Sendable {
        #if canImport(Darwin)
        @usableFromInline let word: UnsafeMutablePointer<os_unfair_lock>
        @inlinable init() {
            word = .allocate(capacity: 1)
            word.initialize(to: os_unfair_lock())
        }
        deinit {
            word.deinitialize(count: 1)
            word.deallocate()
        }
        @inlinable @inline(__always) func lock() { os_unfair_lock_lock(word) }
        @inlinable @inline(__always) func tryLock() -> Bool { os_unfair_lock_trylock(word) }
        @inlinable @inline(__always) func unlock() { os_unfair_lock_unlock(word) }
        #else
        // The toolchain's `Mutex` (before Swift 6.3) stops the program when a thread tries to take
        // a lock it holds, where `tryLock()` must return `false` (``Atomic/tryWith(_:)`` from
        // inside `with`), as `os_unfair_lock_trylock` does: so it notes which thread holds it.
        // Only that thread ever finds its own id in `holder`. (Three instructions a round trip.)
        @usableFromInline let word = Futex()
        @usableFromInline let holder = Synchronization.Atomic<UInt>(0)
        @inlinable init() {}
        @inlinable static var thisThread: UInt {
            #if canImport(Glibc)
            pthread_self()
            #else
            UInt(bitPattern: pthread_self())
            #endif
        }
        @inlinable @inline(__always) func lock() {
            word.lock()
            holder.store(Self.thisThread, ordering: .relaxed)
        }
        @inlinable @inline(__always) func tryLock() -> Bool {
            guard holder.load(ordering: .relaxed) != Self.thisThread, word.tryLock() else { return false }
            holder.store(Self.thisThread, ordering: .relaxed)
            return true
        }
        @inlinable @inline(__always) func unlock() {
            holder.store(0, ordering: .relaxed)
            word.unlock()
        }
        #endif
    }
}

/// The adapter's lock: a value that is only reachable through `withLock`, the lock word
/// tail-allocated after it so that it never moves.
///
/// It repeats the core's private lock on purpose: the core file stays self-contained and keeps
/// its lock out of its public API. `@unchecked Sendable` because every access to the value happens
/// under the lock. `withLock` bodies never call user code and take no other lock (the threading
/// contract: no user code under a lock, deinit included; checked in debug builds by ``LockRule``):
/// what they let go of is returned, and the caller releases it after unlocking — so write each
/// change as a transition that returns what it took out. Package access: the test scheduler of
/// ReceiverSignalKitTesting keeps its state in one too.
@usableFromInline package struct Locked<Value>: @unchecked Sendable {
    @usableFromInline typealias Primitive = LockWord.Primitive

    @usableFromInline final class Storage: ManagedBuffer<Value, Primitive> {
        deinit { _ = withUnsafeMutablePointerToElements { $0.deinitialize(count: 1) } }
    }

    @usableFromInline let storage: Storage

    @inlinable package init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { LockWord.initialize($0) }
    }

    /// Runs `body` with the value while holding the lock.
    ///
    /// - Parameters:
    ///   - file: Where the lock is taken, for ``LockRule``'s message (debug builds only).
    ///   - line: The same, its line.
    ///   - body: A short state change: no user code, no other lock.
    /// - Returns: What `body` returned — what it let go of, for the caller to release after
    ///   unlocking.
    @inlinable package func withLock<Result>(
        file: StaticString = #fileID, line: UInt = #line, _ body: (inout Value) throws -> Result
    ) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, word in
            LockRule.willTake(.library, file: file, line: line)
            LockWord.lock(word)
            defer {
                LockRule.didRelease(.library)
                LockWord.unlock(word)
            }
            return try body(&value.pointee)
        }
    }
}

/// A lock from a table of mutexes shared by the objects that use it, picked by the object's
/// address — for objects so numerous that a mutex each would be most of their size (a
/// subscription's run, a disposable). The core's `ReceiverLock` keeps a table of its own, written
/// the same way (the core file is vendored alone, so it cannot use this one); keep the two alike.
///
/// It is only safe for locked sections that take no other lock and call no user code, since two
/// objects may share a stripe (``LockRule`` checks it in debug builds); `Locked` is for the rest,
/// and ``Atomic`` and ``Lock``, which run user code under their lock, have a lock word each.
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

    /// The table: 64 stripes, all zero — which is an unlocked lock word (`os_unfair_lock`'s
    /// initial value, and the futex word of an unlocked `Mutex`), so it needs no initialisation;
    /// and a global made of constants is laid out by the compiler, so finding it is an address,
    /// not the `swift_once` check of a lazily made global (about 15 instructions a lock). Only
    /// ever reached through lock words at fixed addresses inside it (a stored global never moves),
    /// so the exclusivity check, which would see every lock as a write of the whole table, is off.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) static var table = Table()

    /// The address of `&table`, taken by a pointer conversion rather than an `inout` access (such
    /// as `withUnsafeMutablePointer(to:)`), which the thread sanitizer counts as a write of the
    /// whole table by every thread that locks. A stored global never moves: the address outlives
    /// the call.
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
