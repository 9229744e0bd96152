// Leak detection for tests, in three layers: `detectLeaks` (any test framework) runs a body with
// a task-local check that the library's starts and listens report to; the `.detectingLeaks` trait
// wraps each Swift Testing test in it and records what it finds as issues; `LeakCheck` keeps the
// weakly held starts and decides, after a short grace, which are still live. The library side
// (the task-local hook and what a start reports) lives in the library's Diagnostics, so that
// release builds compile none of it and this module only reads it.
internal import ReceiverSignalKit

#if canImport(Testing)
// The toolchain's own module (not a package dependency): the trait needs it, `detectLeaks` does not.
public import Testing
#endif

#if RECEIVER_DIAGNOSTICS
internal import Receiver
#endif

#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// A start or listener that was still live when the code that made it ended: not disposed, not
/// terminated, and its source still holding it. ``detectLeaks(_:)`` returns them.
///
/// ```swift
/// let leaks = detectLeaks {
///     settings.get().start(next: { print($0) })   // nothing disposes it
/// }
/// leaks.map(\.line)   // [2]: the line of that `start`
/// ```
public struct Leak: Sendable, Hashable, CustomStringConvertible {
    /// The file of the `start`, `listen` or `observed(initial:)` call that made it, as `#fileID` writes it
    /// (`Module/File.swift`). For `startStrict`, its `file` argument.
    public let fileID: String
    /// The line of that call.
    public let line: Int
    /// What leaked, where, and what to do about it.
    ///
    /// ```swift
    /// print(leak)
    /// // A start of Signal<Int, Never> made at AppTests/SettingsTests.swift:12 is still live: ...
    /// ```
    public let description: String

    /// Makes a leak, as ``detectLeaks(_:)`` reports one.
    ///
    /// ```swift
    /// #expect(leaks == [Leak(fileID: "AppTests/SettingsTests.swift", line: 12, what: "start of Signal<Int, Never>")])
    /// ```
    ///
    /// - Parameters:
    ///   - fileID: The call site's file (`#fileID`).
    ///   - line: The call site's line.
    ///   - what: What was made there: `start of Signal<Int, Never>` or `listener of Receiver<Int>`.
    public init(fileID: String, line: Int, what: String) {
        (self.fileID, self.line) = (fileID, line)
        description =
            "A \(what) made at \(fileID):\(line) is still live: not disposed, not terminated, and its source "
            + "still holds it. Dispose it before the test ends (or let go of its source)."
    }
}

/// Runs `body` and returns the starts and listeners it made that are still live when it returns —
/// not disposed, not terminated, their source still holding them — each at its `start`/`listen`
/// call. For XCTest, and for assertions on what leaks; in Swift Testing, `.detectingLeaks`
/// records them as issues.
///
/// ```swift
/// func testTheScreenLetsGoOfItsSubscriptions() {
///     let leaks = detectLeaks {
///         let screen = SettingsScreen(settings: settings)   // starts settings.get() inside
///         screen.close()
///     }
///     XCTAssertEqual(leaks, [])
/// }
/// ```
///
/// What it sees: each `start`, `startStandalone`, `startStrict`, `listen` and `observed(initial:)`
/// made in `body` on this thread, or in a `Task` it creates (a task-local value marks them) — not
/// those made by work sent to a Dispatch queue, a thread or a detached task. A chain (`promise.get() |> map { … }`) is
/// one start, at the user's call: the library's inner starts are its own. A start whose source
/// was released with `body` (nobody held it) is not a leak.
///
/// When `body` returns with some still live, it gives them up to half a second to be let go of —
/// a handler that had just finished on another thread may still hold its start for a moment — and
/// reports those still live then. In release builds nothing is tracked and it returns `[]`.
///
/// - Parameter body: The code to check. A `detectLeaks` inside another sees its own starts only.
/// - Returns: The leaks, in the order they were made.
public func detectLeaks(_ body: () throws -> Void) rethrows -> [Leak] {
    #if RECEIVER_DIAGNOSTICS
    let check = LeakCheck()
    try SubscriptionToken.$leakCheck.withValue(check.watch) { try body() }
    return check.leaks(waiting: { usleep(2_000) })
    #else
    try body()
    return []
    #endif
}

/// Runs `body` and returns the starts and listeners it made that are still live when it returns:
/// the `async` form of ``detectLeaks(_:)``. Starts made in tasks `body` creates (not detached) are
/// seen too.
///
/// ```swift
/// let leaks = await detectLeaks {
///     await model.load()   // starts model.updates inside
/// }
/// #expect(leaks.isEmpty, "\(leaks)")
/// ```
///
/// - Parameters:
///   - isolation: The caller's actor, filled in by Swift; leave it out.
///   - body: The code to check.
/// - Returns: The leaks, in the order they were made.
public func detectLeaks(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
) async rethrows -> [Leak] {
    #if RECEIVER_DIAGNOSTICS
    let check = LeakCheck()
    try await SubscriptionToken.$leakCheck.withValue(check.watch, operation: body)
    var leaks = check.leaks(waiting: nil)
    var waited = 0
    while !leaks.isEmpty, waited < 250 {
        try? await Task.sleep(nanoseconds: 2_000_000)
        waited += 1
        leaks = check.leaks(waiting: nil)
    }
    return leaks
    #else
    try await body()
    return []
    #endif
}

#if canImport(Testing)
/// The trait of `.detectingLeaks`: see there.
///
/// ```swift
/// @Suite(.detectingLeaks) struct SettingsTests { … }
/// ```
public struct LeakDetectionTrait: TestTrait, SuiteTrait, TestScoping {
    /// `true`: on a suite, every test in it (and in its nested suites) is checked, each on its own.
    ///
    /// ```swift
    /// LeakDetectionTrait.detectingLeaks.isRecursive   // true
    /// ```
    public var isRecursive: Bool { true }

    /// Runs the test, then records an issue for each start or listener it made that is still live.
    ///
    /// ```swift
    /// try await LeakDetectionTrait.detectingLeaks.provideScope(for: test, testCase: nil) { try await body() }
    /// ```
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: Its test case, if it has arguments.
    ///   - function: The test.
    /// - Throws: What the test throws, after its leaks are recorded.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        var thrown: (any Error)?
        let leaks = await detectLeaks {
            do { try await function() } catch { thrown = error }
        }
        for leak in leaks {
            // Swift Testing wants the file's path too, which the call site does not give: the test's
            // own when the start is in the test's file, otherwise the `#fileID` itself.
            let path = leak.fileID == test.sourceLocation.fileID ? test.sourceLocation.filePath : leak.fileID
            Issue.record(
                Comment(rawValue: leak.description),
                sourceLocation: SourceLocation(fileID: leak.fileID, filePath: path, line: leak.line, column: 1))
        }
        if let thrown { throw thrown }
    }
}

extension Trait where Self == LeakDetectionTrait {
    /// Fails a test for each start or listener it makes that is still live when it ends — not
    /// disposed, not terminated, its source still holding it — with an issue at the `start` or
    /// `listen` call that made it. On a suite, each of its tests is checked on its own.
    ///
    /// ```swift
    /// @Suite(.detectingLeaks) struct SettingsTests {
    ///     @Test func showsTheName() {
    ///         let screen = SettingsScreen(settings: .shared)
    ///         screen.settings.get().start(next: { screen.show($0) })   // ← an issue here: never disposed
    ///     }
    /// }
    /// ```
    ///
    /// Tests running in parallel each see only their own starts: a task-local value marks them, so
    /// it sees the starts made in the test's task and in tasks it creates, not those made by work
    /// on a Dispatch queue or a thread. What it reports, and what it cannot see, is in
    /// <doc:FindingLeakedSubscriptions>. Debug builds only: in release builds it checks nothing.
    public static var detectingLeaks: Self { Self() }
}
#endif

#if RECEIVER_DIAGNOSTICS
/// One running check: a weak reference to each token made in its task. The library gives a token
/// to each start and listener made outside its own modules, and the token lives in its handlers,
/// so one still alive at the end is a subscription still live.
final class LeakCheck: Sendable {
    private struct Entry: @unchecked Sendable {
        weak var token: SubscriptionToken?
    }

    private let entries = Locked<[Entry]>([])

    /// Keeps `token`, weakly.
    var watch: @Sendable (SubscriptionToken) -> Void {
        { [self] token in entries.withLock { $0.append(Entry(token: token)) } }
    }

    /// The leaks whose tokens are alive; with `waiting`, calls it between looks, for up to about
    /// half a second, while some are.
    func leaks(waiting: (() -> Void)?) -> [Leak] {
        var leaks = live()
        var waited = 0
        while let waiting, !leaks.isEmpty, waited < 250 {
            waiting()
            waited += 1
            leaks = live()
        }
        return leaks
    }

    /// Read after unlocking: the last reference to a token, let go of here, ends it, which takes
    /// the census's lock.
    private func live() -> [Leak] {
        entries.withLock { $0 }.compactMap { entry in
            entry.token.map { Leak(fileID: $0.fileID, line: $0.line, what: $0.subject.description) }
        }
    }
}
#endif
