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
