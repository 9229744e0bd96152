// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Models and a recorder for the Observation bridges' tests, in both test targets.
import Foundation
public import Observation

/// A view model as SwiftUI code writes one: main-actor isolated, changed and read on main.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable @MainActor public final class MainModel {
    public var a = 0
    public var b = 0
    public var showsA = false
    /// What the observing closures read: `a` or `b`, depending on `showsA`.
    public var shown: Int { showsA ? a : b }

    public init() {}
}

/// A model that is safe to change on any thread: each change (Observation's `willSet`, then the
/// store) happens under its lock, so a reader on another thread sees either the old value before
/// the change is announced or the new one.
///
/// `@unchecked Sendable`: `stored` is only touched under `lock`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable public final class LockedModel: @unchecked Sendable {
    @ObservationIgnored private let lock = NSLock()
    @ObservationIgnored private var stored = 0

    public var a: Int {
        get {
            access(keyPath: \.a)
            return lock.withLock { stored }
        }
        set {
            lock.withLock { withMutation(keyPath: \.a) { stored = newValue } }
        }
    }

    public init() {}
}

/// A thread-safe model with a hook inside each change, after Observation's `willSet` and before
/// the store, that a test uses to hold a change there while a read runs.
///
/// `locksTheAnnouncement`: whether its lock is held around `withMutation(keyPath:)` and the
/// store (a reader waits for the store once the change is announced: the feed never loses the
/// last value), or around the store only (a reader may see the old value after the announcement).
///
/// `@unchecked Sendable`: `stored` and `hook` are only touched under `lock`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable public final class AnnouncedModel: @unchecked Sendable {
    @ObservationIgnored private let lock = NSLock()
    @ObservationIgnored private let locksTheAnnouncement: Bool
    @ObservationIgnored private var stored = 0
    @ObservationIgnored private var hook: (@Sendable () -> Void)?

    public var a: Int {
        get {
            access(keyPath: \.a)
            return lock.withLock { stored }
        }
        set {
            if locksTheAnnouncement {
                lock.withLock {
                    withMutation(keyPath: \.a) {
                        hook?()
                        stored = newValue
                    }
                }
            } else {
                withMutation(keyPath: \.a) {
                    lock.withLock { hook }?()
                    lock.withLock { stored = newValue }
                }
            }
        }
    }

    /// Runs `hook` in each later change, between its announcement and its store; `nil` for none.
    public func betweenAnnouncementAndStore(_ hook: (@Sendable () -> Void)?) { lock.withLock { self.hook = hook } }

    public init(locksTheAnnouncement: Bool) { self.locksTheAnnouncement = locksTheAnnouncement }
}

/// Whether the caller runs on the main queue, where the main actor's jobs run. (Not
/// `Thread.isMainThread`: on Linux, once the test runner calls `dispatchMain()`, worker threads
/// drain the main queue.)
public func isOnMainQueue() -> Bool { DispatchQueue.getSpecific(key: mainQueueKey) != nil }

private let mainQueueKey: DispatchSpecificKey<Void> = {
    let key = DispatchSpecificKey<Void>()
    DispatchQueue.main.setSpecific(key: key, value: ())
    return key
}()

/// Records values from any thread and lets a test await each one (the suites' time limits bound
/// every wait).
public final class Arrivals<Value: Sendable>: Sendable {
    public let history = History<Value>()
    public let stream: AsyncStream<Value>
    private let continuation: AsyncStream<Value>.Continuation

    public init() { (stream, continuation) = AsyncStream.makeStream() }

    public func record(_ value: Value) {
        history.record(value)
        continuation.yield(value)
    }
}

extension AsyncStream.Iterator where Element: Equatable {
    /// Waits for `value`, passing the ones before it.
    public mutating func wait(for value: Element) async {
        while let next = await next(), next != value {}
    }
}
