#if canImport(Testing)
// The toolchain's own module (not a package dependency), as for `.detectingLeaks`.
public import Testing

/// The trait of `.mainQueueOnVirtualTime`: see there.
///
/// ```swift
/// @Suite(.mainQueueOnVirtualTime) struct ProfileViewModelTests { … }
/// ```
public struct MainQueueOnVirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// `true`: on a suite, every test in it (and in its nested suites) gets a scheduler of its own.
    ///
    /// ```swift
    /// MainQueueOnVirtualTimeTrait.mainQueueOnVirtualTime.isRecursive   // true
    /// ```
    public var isRecursive: Bool { true }

    /// Runs the test inside a new scheduler's ``TestScheduler/withMainQueue(isolation:_:)``.
    ///
    /// ```swift
    /// try await MainQueueOnVirtualTimeTrait.mainQueueOnVirtualTime.provideScope(for: test, testCase: nil) {
    ///     try await body()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - test: The test.
    ///   - testCase: Its test case, if it has arguments.
    ///   - function: The test.
    /// - Throws: What the test throws.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestScheduler().withMainQueue { try await function() }
    }
}

extension Trait where Self == MainQueueOnVirtualTimeTrait {
    /// Runs each test with a ``TestScheduler`` of its own whose main queue is the main queue:
    /// ``TestScheduler/withMainQueue(_:)`` around the whole test, with the scheduler in
    /// ``TestScheduler/current``. On a suite, each of its tests gets its own.
    ///
    /// ```swift
    /// @Test(.mainQueueOnVirtualTime) func theToastHidesAfterTwoSeconds() {
    ///     let scheduler = TestScheduler.current
    ///     let model = ToastModel()                  // names Queue.mainQueue() in place
    ///     model.show("Copied")
    ///     scheduler.advance(by: 2)
    ///     #expect(model.toast == nil)
    /// }
    /// ```
    ///
    /// Tests running in parallel each see only their own scheduler. Debug builds only: in a
    /// release build the test stops with a message (see ``TestScheduler/withMainQueue(_:)``).
    public static var mainQueueOnVirtualTime: Self { Self() }
}
#endif
