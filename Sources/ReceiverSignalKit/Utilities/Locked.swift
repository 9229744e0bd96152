#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// The adapter's lock: a value that is only reachable through `withLock`, the lock word
/// tail-allocated after it so that it never moves. `os_unfair_lock` on Apple platforms,
/// `pthread_mutex_t` elsewhere; not recursive.
///
/// It repeats the core's private lock on purpose: the core file stays self-contained and keeps
/// its lock out of its public API. `@unchecked Sendable` because every access to the value happens
/// under the lock; `withLock` bodies never call user code (SPEC §1: no user code, `deinit`
/// included, under a lock): what they let go of is returned and released by the caller.
@usableFromInline struct Locked<Value>: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    @usableFromInline final class Storage: ManagedBuffer<Value, Primitive> {
        #if !canImport(Darwin)
        deinit { _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) } }
        #endif
    }

    @usableFromInline let storage: Storage

    @inlinable init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { lock in
            lock.initialize(to: Primitive())
            #if !canImport(Darwin)
            pthread_mutex_init(lock, nil)
            #endif
        }
    }

    /// Runs `body` with the value while holding the lock.
    @inlinable func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, word in
            Self.lock(word)
            defer { Self.unlock(word) }
            return try body(&value.pointee)
        }
    }

    /// Runs `body` with the value if the lock is free; returns `nil` without waiting otherwise.
    @inlinable func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        try storage.withUnsafeMutablePointers { value, word in
            #if canImport(Darwin)
            guard os_unfair_lock_trylock(word) else { return nil }
            #else
            guard pthread_mutex_trylock(word) == 0 else { return nil }
            #endif
            defer { Self.unlock(word) }
            return try body(&value.pointee)
        }
    }

    @inlinable static func lock(_ word: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(word)
        #else
        pthread_mutex_lock(word)
        #endif
    }

    @inlinable static func unlock(_ word: UnsafeMutablePointer<Primitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(word)
        #else
        pthread_mutex_unlock(word)
        #endif
    }
}

/// A lock from a table of mutexes shared by the objects that use it, picked by the object's
/// address — for objects so numerous that a mutex each would be most of their size (a
/// subscription's run). The core's pairs do the same with their own table.
///
/// It is only safe for locked sections that take no other lock and call no user code, since two
/// objects may share a stripe; `Locked` is for the rest (`Atomic` and `Lock` run user code under
/// theirs).
@usableFromInline struct StripedLock: @unchecked Sendable {
    /// 64 stripes, 64 bytes apart (one cache line each), made once.
    @usableFromInline nonisolated(unsafe) static let table: UnsafeMutableRawPointer = {
        let table = UnsafeMutableRawPointer.allocate(byteCount: 64 * 64, alignment: 64)
        for stripe in 0..<64 {
            let word = (table + stripe * 64).bindMemory(to: Locked<Void>.Primitive.self, capacity: 1)
            word.initialize(to: Locked<Void>.Primitive())
            #if !canImport(Darwin)
            pthread_mutex_init(word, nil)
            #endif
        }
        return table
    }()

    @usableFromInline let word: UnsafeMutablePointer<Locked<Void>.Primitive>

    /// The stripe for `object`, picked from its address's bits by a multiplicative hash.
    @inlinable init(for object: AnyObject) {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let stripe = Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - 6))
        word = (Self.table + stripe * 64).assumingMemoryBound(to: Locked<Void>.Primitive.self)
    }

    /// Takes the lock, for code that cannot use a closure; pair it with ``unlock()``.
    @inlinable @inline(__always) func lock() { Locked<Void>.lock(word) }

    /// Releases the lock taken by ``lock()``.
    @inlinable @inline(__always) func unlock() { Locked<Void>.unlock(word) }

    /// Runs `body` while holding the lock. `body` must not call user code or take another lock.
    @inlinable @inline(__always) func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        Locked<Void>.lock(word)
        defer { Locked<Void>.unlock(word) }
        return try body()
    }
}
