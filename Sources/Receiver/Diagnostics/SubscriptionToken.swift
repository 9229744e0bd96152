// Debug builds only: one token per start or listener made outside the library, held by its
// handlers. The census (`ReceiverDiagnostics.liveSubscriptions()`) counts the live tokens, and the
// leak check of the testing module watches those made in its task.
//
// A token lives exactly as long as its subscription can still be called: it goes with the last of
// the handlers that hold it — when the subscription is disposed or terminates, or when its source
// lets go of it. Each token has a node in a doubly linked list of plain memory, so joining and
// leaving it is a few pointer writes under one lock: no hashing, and no reference counting under
// the lock (a token released there would take the lock again in its `deinit`).

#if RECEIVER_DIAGNOSTICS
#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Held by the handlers of one start or listener made at `fileID`:`line`, outside the library.
package final class SubscriptionToken: Sendable {
    /// What a subscription listens to; its types, kept as they are and named only when asked.
    package enum Subject: Sendable {
        /// A listener of a `Receiver<Wave>`.
        case listener(wave: Any.Type)
        /// A start of a `Signal<T, E>`.
        case start(value: Any.Type, error: Any.Type)

        /// `listener of Receiver<Int>`, `start of Signal<Int, Never>`.
        package var description: String {
            switch self {
            case .listener(let wave): "listener of Receiver<\(wave)>"
            case .start(let value, let error): "start of Signal<\(value), \(error)>"
            }
        }
    }

    /// Its entry in the list of live tokens: allocated with it, freed in its `deinit`. Only its
    /// links change, under the list's lock.
    private nonisolated(unsafe) let node: UnsafeMutablePointer<LiveTokens.Node>

    package var fileID: String { node.pointee.fileID }
    package var line: Int { node.pointee.line }
    package var subject: Subject { node.pointee.subject }

    /// The leak check running in this task, if one is: shown each token made here.
    @TaskLocal package static var leakCheck: (@Sendable (SubscriptionToken) -> Void)?

    /// A live token for a subscription made at `fileID`:`line`; `nil` where the library's own
    /// modules made it (an operator starting its upstream), which is never the user's.
    package init?(fileID: String, line: Int, subject: Subject) {
        guard !Self.isInLibrary(fileID) else { return nil }
        node = .allocate(capacity: 1)
        node.initialize(to: LiveTokens.Node(fileID: fileID, line: line, subject: subject))
        LiveTokens.shared.insert(node)
        Self.leakCheck?(self)
    }

    deinit {
        LiveTokens.shared.remove(node)
        node.deinitialize(count: 1)
        node.deallocate()
    }

    /// Whether `fileID` ("Module/File.swift") is in one of the library's modules. Asked at every
    /// start and listen of a debug build, the library's own included: a few byte comparisons.
    static func isInLibrary(_ fileID: String) -> Bool {
        var fileID = fileID
        return fileID.withUTF8 { bytes in
            guard let start = bytes.baseAddress, bytes.count > 0 else { return false }
            switch start.pointee {
            case UInt8(ascii: "R"):
                return start.starts(bytes.count, with: "Receiver/")
                    || start.starts(bytes.count, with: "ReceiverSignalKit/")
                    || start.starts(bytes.count, with: "ReceiverSignalKitTesting/")
            case UInt8(ascii: "S"): return start.starts(bytes.count, with: "SwiftSignalKit/")
            default: return false
            }
        }
    }

    /// The live tokens, counted by call site and subject: most first, then by file and line.
    static func census() -> [ReceiverDiagnostics.LiveSubscriptions] {
        var counts: [Site: (subject: Subject, count: Int)] = [:]
        for (fileID, line, subject) in LiveTokens.shared.snapshot() {
            counts[Site(fileID, line, subject), default: (subject, 0)].count += 1
        }
        return counts.map { site, entry in
            ReceiverDiagnostics.LiveSubscriptions(
                fileID: site.fileID, line: site.line, what: entry.subject.description, count: entry.count)
        }
        .sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            if a.fileID != b.fileID { return a.fileID < b.fileID }
            if a.line != b.line { return a.line < b.line }
            return a.what < b.what
        }
    }

    /// A call site and the types of what was made there: the census's key.
    private struct Site: Hashable {
        let fileID: String, line: Int, first: ObjectIdentifier, second: ObjectIdentifier?

        init(_ fileID: String, _ line: Int, _ subject: Subject) {
            (self.fileID, self.line) = (fileID, line)
            switch subject {
            case .listener(let wave): (first, second) = (ObjectIdentifier(wave), nil)
            case .start(let value, let error): (first, second) = (ObjectIdentifier(value), ObjectIdentifier(error))
            }
        }
    }
}

extension UnsafePointer<UInt8> {
    /// Whether the `count` bytes here start with `prefix`.
    fileprivate func starts(_ count: Int, with prefix: StaticString) -> Bool {
        prefix.utf8CodeUnitCount <= count && memcmp(self, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
    }
}

/// Every live token's node, in a doubly linked list. A node is plain memory that its token frees
/// after leaving the list, so every node in the list is whole while the lock is held.
private final class LiveTokens: Sendable {
    static let shared = LiveTokens()

    /// What the list knows of a token: where it was made, and its neighbours.
    struct Node {
        let fileID: String, line: Int, subject: SubscriptionToken.Subject
        var previous: UnsafeMutablePointer<Node>?, next: UnsafeMutablePointer<Node>?

        init(fileID: String, line: Int, subject: SubscriptionToken.Subject) {
            (self.fileID, self.line, self.subject) = (fileID, line, subject)
        }
    }

    /// Only touched under `lock`.
    private nonisolated(unsafe) var first: UnsafeMutablePointer<Node>?
    /// Locked by hand, not with `withLock`'s closure: this runs at every start of a debug build,
    /// where nothing is inlined.
    private let lock = ReceiverLock(for: Anchor())

    func insert(_ node: UnsafeMutablePointer<Node>) {
        lock.lock()
        node.pointee.next = first
        first?.pointee.previous = node
        first = node
        lock.unlock()
    }

    func remove(_ node: UnsafeMutablePointer<Node>) {
        lock.lock()
        let (previous, next) = (node.pointee.previous, node.pointee.next)
        if let previous { previous.pointee.next = next } else { first = next }
        next?.pointee.previous = previous
        lock.unlock()
    }

    /// What each live token says about its subscription, copied under the lock.
    func snapshot() -> [(fileID: String, line: Int, subject: SubscriptionToken.Subject)] {
        var found: [(fileID: String, line: Int, subject: SubscriptionToken.Subject)] = []
        lock.lock()
        var node = first
        while let current = node {
            found.append((current.pointee.fileID, current.pointee.line, current.pointee.subject))
            node = current.pointee.next
        }
        lock.unlock()
        return found
    }
}

/// What picks the list's stripe of the lock table (by its address, once).
private final class Anchor: Sendable {}

extension ReceiverLock {
    fileprivate func lock() {
        #if canImport(Darwin)
        os_unfair_lock_lock(word)
        #else
        pthread_mutex_lock(word)
        #endif
    }

    fileprivate func unlock() {
        #if canImport(Darwin)
        os_unfair_lock_unlock(word)
        #else
        pthread_mutex_unlock(word)
        #endif
    }
}
#endif
