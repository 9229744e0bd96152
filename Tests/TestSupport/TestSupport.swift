// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// Helpers shared by the test targets (public only for that). They use Foundation's lock, not the
// library's, so that they keep working whatever the library under test does; the library is
// imported for its `Disposable` protocol only.
import Foundation
public import Receiver

/// A history that handlers on any thread may append to, in O(1).
///
/// `@unchecked Sendable`: `items` is only touched under `lock`.
public final class History<Item: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Item] = []

    public init() {}

    public var recorded: [Item] { lock.withLock { items } }

    public func record(_ item: Item) { lock.withLock { items.append(item) } }
}

/// Counts instances alive, per tag, to prove what a pair keeps and what it releases. Tests run in
/// parallel, so each uses a tag of its own.
public final class Tracked: Sendable {
    private static let alive = History<(String, Int)>()
    public let tag: String
    public let value: Int

    public init(_ value: Int, tag: String) {
        (self.value, self.tag) = (value, tag)
        Self.alive.record((tag, 1))
    }

    deinit { Self.alive.record((tag, -1)) }

    public static func count(_ tag: String) -> Int {
        alive.recorded.reduce(0) { $0 + ($1.0 == tag ? $1.1 : 0) }
    }
}

/// A disposable that counts its `dispose()` calls (not idempotent on purpose: a second call shows).
///
/// `@unchecked Sendable`: its only state is a `History`, which is.
public final class CountingDisposable: Disposable, @unchecked Sendable {
    private let calls = History<Void>()

    public init() {}

    public var count: Int { calls.recorded.count }

    public func dispose() { calls.record(()) }
}

/// Something to capture in a handler and watch through a weak reference.
public final class Witness: Sendable {
    public init() {}
}

public struct TestError: Error, Equatable {
    public let code: Int
    public init(code: Int) { self.code = code }
}

extension Array where Element: Equatable {
    /// Whether `slice` occurs in this array as a contiguous run.
    public func containsRun(_ slice: [Element]) -> Bool {
        guard !slice.isEmpty else { return true }
        guard slice.count <= count else { return false }
        return (0...(count - slice.count)).contains { Array(self[$0..<($0 + slice.count)]) == slice }
    }
}

/// Stops the test process, failing its exit test, if it still runs after `seconds`: a deadlock
/// fails instead of hanging the suite. Call it first thing inside `#expect(processExitsWith:)`.
public func startWatchdog(seconds: Double = 10) {
    Thread.detachNewThread {
        Thread.sleep(forTimeInterval: seconds)
        fatalError("watchdog: still running after \(seconds) s, deadlocked")
    }
}

/// Yields once into its stream when it is deinitialised: capture it where only the holder you
/// watch keeps it (a task's closure, an iterator), then await the stream to know that holder let go.
public final class DeinitBeacon: Sendable {
    private let continuation: AsyncStream<Void>.Continuation

    public init(_ continuation: AsyncStream<Void>.Continuation) { self.continuation = continuation }

    deinit { continuation.yield() }
}

/// An async sequence of `Int` that ignores cancellation, as a careless user's sequence may: its
/// iterator's `next()` waits until the test calls `send(_:)` (`nil` ends the sequence), whatever
/// happens to the iterating task. One consumer at a time. Each iterator carries a `DeinitBeacon`
/// on `iteratorReleased`, so a test can await the end of the iteration.
///
/// `@unchecked Sendable`: `waiting` and `pending` are only touched under `lock`.
public final class DeafSequence: AsyncSequence, @unchecked Sendable {
    public typealias Element = Int
    public typealias Failure = Never

    private let lock = NSLock()
    private var waiting: CheckedContinuation<Int?, Never>?
    private var pending: [Int?] = []
    private let released: AsyncStream<Void>.Continuation
    /// Yields once each time an iterator of this sequence is released.
    public let iteratorReleased: AsyncStream<Void>

    public init() { (iteratorReleased, released) = AsyncStream.makeStream() }

    /// Hands `element` to the iterator (at once if it waits, else at its next `next()`).
    public func send(_ element: Int?) {
        let resumed: CheckedContinuation<Int?, Never>? = lock.withLock {
            guard let waiting else {
                pending.append(element)
                return nil
            }
            self.waiting = nil
            return waiting
        }
        resumed?.resume(returning: element)
    }

    func take() async -> Int? {
        await withCheckedContinuation { continuation in
            let element: Int?? = lock.withLock {
                guard pending.isEmpty else { return pending.removeFirst() }
                waiting = continuation
                return nil
            }
            if let element { continuation.resume(returning: element) }
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        public typealias Failure = Never
        let source: DeafSequence
        let beacon: DeinitBeacon

        public mutating func next() async -> Int? { await source.take() }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(source: self, beacon: DeinitBeacon(released))
    }
}

/// Whether this process runs under the thread sanitizer, which slows a test about ten times: the
/// single-threaded model tests, which give it nothing to find, then run fewer programs.
#if canImport(Darwin)
public let underThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_init") != nil  // RTLD_DEFAULT
#else
public let underThreadSanitizer = dlsym(nil, "__tsan_init") != nil  // RTLD_DEFAULT
#endif
