internal import Dispatch
internal import Foundation  // Thread.isMainThread

// What `Queue.isCurrent()` asks libdispatch and the thread, as cheaply as each platform allows.
// `DispatchQueue.getSpecific(key:)` is generic and copies and retains the value it finds; the C
// call it wraps, `dispatch_get_specific`, which the overlay marks unavailable, is looked up once
// and called directly on Linux (the overlay everywhere else, and where the lookup fails).

/// Asks libdispatch, with one `dispatch_get_specific` call, what the running block's queue (or,
/// failing that, the nearest of its target queues) carries under one key: libdispatch answers
/// with the address of the value the innermost carrier holds, or `nil`.
struct DispatchSpecificProbe: Sendable {
    private let key: UInt, expected: UInt
    #if !canImport(Darwin)
    private let getSpecific: GetSpecific
    #endif

    /// A probe that recognises the current queue by what it carries under `key`, learned here, on
    /// the queue; `nil` if it carries nothing, or where the C call is not available (then the
    /// caller asks the overlay).
    init?<Value>(recognising key: DispatchSpecificKey<Value>) {
        #if canImport(Darwin)
        return nil
        #else
        guard let getSpecific = Self.dispatchGetSpecific, let expected = getSpecific(Self.address(of: key)) else {
            return nil
        }
        (self.key, self.expected, self.getSpecific) = (
            UInt(bitPattern: Self.address(of: key)), UInt(bitPattern: expected), getSpecific
        )
        #endif
    }

    /// A probe that only tells whether anything is there under `key` (see ``isAbsent()``); `nil`
    /// where the C call is not available.
    init?<Value>(lookingFor key: DispatchSpecificKey<Value>) {
        #if canImport(Darwin)
        return nil
        #else
        guard let getSpecific = Self.dispatchGetSpecific else { return nil }
        (self.key, self.expected, self.getSpecific) = (UInt(bitPattern: Self.address(of: key)), 0, getSpecific)
        #endif
    }

    /// Whether the innermost carrier of the key is the queue this probe was made on.
    func isFound() -> Bool { current() == expected }

    /// Whether no queue from the running block's queue through its targets carries the key.
    func isAbsent() -> Bool { current() == 0 }

    /// The address libdispatch returns for the key now, 0 for `nil`.
    private func current() -> UInt {
        #if canImport(Darwin)
        return 0  // never made
        #else
        UInt(bitPattern: getSpecific(UnsafeRawPointer(bitPattern: key).unsafelyUnwrapped))
        #endif
    }

    #if !canImport(Darwin)
    typealias GetSpecific = @convention(c) (UnsafeRawPointer) -> UnsafeMutableRawPointer?

    /// libdispatch's `dispatch_get_specific`, or `nil` if the dynamic linker does not know it.
    private static let dispatchGetSpecific: GetSpecific? = Platform.address(ofSymbol: "dispatch_get_specific").map {
        unsafeBitCast($0, to: GetSpecific.self)
    }

    /// The address under which `setSpecific(key:value:)` files a value for `key` in libdispatch:
    /// the key object's own. (Were it another, `init` would find nothing and return `nil`.)
    private static func address<Value>(of key: DispatchSpecificKey<Value>) -> UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(key).toOpaque())
    }
    #endif
}

/// Whether the calling thread is the main thread: `Thread.isMainThread`, which on Linux makes two
/// system calls, so there each thread's answer is kept after its first question.
func isMainThread() -> Bool {
    #if canImport(Darwin)
    return Thread.isMainThread
    #else
    switch mainThreadAnswer.value {
    case MainThreadAnswer.yes.rawValue: return true
    case MainThreadAnswer.no.rawValue: return false
    default:
        let answer: MainThreadAnswer = Thread.isMainThread ? .yes : .no
        mainThreadAnswer.value = answer.rawValue
        return answer == .yes
    }
    #endif
}

#if !canImport(Darwin)
/// A thread's kept answer, stored as its word (0: not asked yet).
private enum MainThreadAnswer: UInt {
    case no = 1
    case yes = 2
}

/// Each thread's answer: a thread never becomes, or stops being, the main thread.
private let mainThreadAnswer = Platform.ThreadLocalWord(owner: "Queue")
#endif
