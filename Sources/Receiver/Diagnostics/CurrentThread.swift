// Where the calling code runs: on the main queue or thread, in which dispatch queue, on which
// thread. Asked by the actor checker (debug builds), by Observation's feeds and by the event log.

internal import Dispatch

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

package enum CurrentThread {
    /// Whether the main queue is running the caller: in its blocks wherever they run, and on the
    /// main thread outside them; not in a `sync` onto another queue. The main actor runs on the
    /// main queue, which is not always served by the main thread: a program that calls
    /// `dispatchMain()` (as one with an `async` main does on Linux) lets the main thread go, and
    /// worker threads take turns serving the main queue.
    package static var isMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) != nil }

    /// Set on the main queue once, so that `getSpecific` finds it there.
    private static let mainQueueKey: DispatchSpecificKey<Void> = {
        let key = DispatchSpecificKey<Void>()
        DispatchQueue.main.setSpecific(key: key, value: ())
        return key
    }()

    /// Whether this thread is the main thread: one load on Apple platforms; elsewhere the answer
    /// of two system calls, asked once per thread and kept in a thread-specific slot.
    package static var isMainThread: Bool {
        #if canImport(Darwin)
        return pthread_main_np() != 0
        #else
        let key = threadKind
        if let known = pthread_getspecific(key) { return Int(bitPattern: known) == 1 }
        // Without `gettid` (a static build without the symbol) no thread is called off main.
        let main = gettid.map { $0() == getpid() } ?? true
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: main ? 1 : 2))
        return main
        #endif
    }

    /// The label of the dispatch queue running the caller; on a thread no queue runs, `""` on
    /// Apple platforms (Linux names a root queue).
    package static var queueLabel: String {
        #if canImport(Darwin)
        return String(cString: __dispatch_queue_get_label(nil))
        #else
        return queueLabelOf.flatMap { $0(nil) }.map { String(cString: $0) } ?? ""
        #endif
    }

    /// The system's number for this thread, as debuggers and `top` show it.
    package static var id: UInt64 {
        #if canImport(Darwin)
        var id: UInt64 = 0
        pthread_threadid_np(nil, &id)
        return id
        #else
        return gettid.map { UInt64($0()) } ?? 0
        #endif
    }

    #if !canImport(Darwin)
    private static let threadKind: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0)  // fails only when the process has no keys left
        return key
    }()

    /// The C library's `gettid`, which Swift does not import: looked up once.
    private static let gettid: (@convention(c) () -> pid_t)? = dlsym(nil, "gettid").map {
        unsafeBitCast($0, to: (@convention(c) () -> pid_t).self)
    }

    /// libdispatch's `dispatch_queue_get_label`, which the Dispatch module does not export here:
    /// looked up once. Given `nil`, it names the current queue.
    private static let queueLabelOf: (@convention(c) (UnsafeRawPointer?) -> UnsafePointer<CChar>?)? =
        dlsym(nil, "dispatch_queue_get_label").map {
            unsafeBitCast($0, to: (@convention(c) (UnsafeRawPointer?) -> UnsafePointer<CChar>?).self)
        }
    #endif
}
