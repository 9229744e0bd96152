#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// The C library calls the adapter makes, wrapped, so that this is the one file of the adapter's
/// own that imports Darwin, Glibc or Musl (imports are per file): the calling thread's identity,
/// thread-local storage, a symbol looked up at run time, and the wall clock.
@usableFromInline enum Platform {
    /// The calling thread, as a number: the same for every call on one thread, and different for
    /// two threads alive at once.
    @inlinable @inline(__always) static var currentThread: UInt {
        #if canImport(Glibc)
        pthread_self()
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }

    /// A word per thread, 0 until the thread sets it; nothing to free when the thread ends.
    struct ThreadLocalWord: @unchecked Sendable {
        private let key: pthread_key_t

        /// Makes the key. `owner` names the caller in the message if the process has no keys left.
        init(owner: StaticString) {
            key = Platform.makeKey(owner, freeingAtThreadExit: false)
        }

        /// The calling thread's word.
        var value: UInt {
            get { UInt(bitPattern: pthread_getspecific(key)) }
            nonmutating set { pthread_setspecific(key, UnsafeRawPointer(bitPattern: newValue)) }
        }
    }

    /// A value of `T` per thread, `initial` until the thread changes it, made at the thread's
    /// first use and freed when the thread ends. `T` must be a trivial type (no references): the
    /// memory is freed without deinitialising it.
    struct ThreadLocal<T>: @unchecked Sendable {
        private let key: pthread_key_t
        private let initial: T

        /// Makes the key. `owner` names the caller in the message if the process has no keys left.
        init(_ initial: T, owner: StaticString) {
            assert(_isPOD(T.self), "Platform.ThreadLocal holds trivial values only")
            (key, self.initial) = (Platform.makeKey(owner, freeingAtThreadExit: true), initial)
        }

        /// The calling thread's value.
        var pointer: UnsafeMutablePointer<T> {
            if let cell = pthread_getspecific(key) { return cell.assumingMemoryBound(to: T.self) }
            guard let memory = malloc(MemoryLayout<T>.size) else { fatalError("Platform.ThreadLocal: out of memory") }
            let cell = memory.bindMemory(to: T.self, capacity: 1)
            cell.initialize(to: initial)
            pthread_setspecific(key, memory)
            return cell
        }
    }

    private static func makeKey(_ owner: StaticString, freeingAtThreadExit: Bool) -> pthread_key_t {
        var key = pthread_key_t()
        let status = freeingAtThreadExit ? pthread_key_create(&key) { free($0) } : pthread_key_create(&key, nil)
        guard status == 0 else { fatalError("\(owner): pthread_key_create failed (\(status))") }
        return key
    }

    /// The address of the C function or variable named `symbol` in the running process, or `nil`
    /// where the dynamic linker does not know it (a static build).
    static func address(ofSymbol symbol: String) -> UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol)  // RTLD_DEFAULT
        #else
        dlsym(nil, symbol)  // RTLD_DEFAULT
        #endif
    }

    /// Seconds since 1970 by the wall clock (`CLOCK_REALTIME`), which keeps running while the
    /// device sleeps, unlike a dispatch timer's clock.
    static func wallClockSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
    }
}
