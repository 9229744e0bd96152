#if canImport(Darwin)
public import Darwin  // os_unfair_lock
#else
public import Synchronization  // Mutex
#endif

/// The platform's lock word and its calls: `os_unfair_lock` on Apple platforms, the toolchain's
/// `Synchronization.Mutex` elsewhere (on Apple platforms it needs macOS 15 or iOS 18); not
/// recursive; all zero bytes when unlocked. A lock word must never move while it is used, so it
/// lives in memory of its own — tail-allocated (`Locked`), in the lock table (`StripedLock`), or in
/// a ``LockWord/Own`` — never at a copyable stored property's address. `lock()` and `unlock()` are
/// separate calls, for code that locks and unlocks at different places.
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
        // Only that thread ever finds its own id in `holder`.
        @usableFromInline let word = Futex()
        @usableFromInline let holder = Synchronization.Atomic<UInt>(0)
        @inlinable init() {}
        @inlinable @inline(__always) func lock() {
            word.lock()
            holder.store(Platform.currentThread, ordering: .relaxed)
        }
        @inlinable @inline(__always) func tryLock() -> Bool {
            guard holder.load(ordering: .relaxed) != Platform.currentThread, word.tryLock() else { return false }
            holder.store(Platform.currentThread, ordering: .relaxed)
            return true
        }
        @inlinable @inline(__always) func unlock() {
            holder.store(0, ordering: .relaxed)
            word.unlock()
        }
        #endif
    }
}
