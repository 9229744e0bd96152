/// What a running app can ask the library about itself, for a debug menu or a test: the starts and
/// listeners live now, by the call site that made them.
///
/// ```swift
/// for site in ReceiverDiagnostics.liveSubscriptions() {
///     print(site)   // 3 × start of Signal<Profile, Never> at App/ProfileModel.swift:42
/// }
/// ```
///
/// Debug builds only: a release build of the library records nothing, and the census is empty.
public enum ReceiverDiagnostics {
    /// The starts and listeners made at one call site, and of one kind, that are live now.
    ///
    /// ```swift
    /// let site = ReceiverDiagnostics.LiveSubscriptions(
    ///     fileID: "App/ProfileModel.swift", line: 42, what: "start of Signal<Int, Never>", count: 3)
    /// print(site)   // 3 × start of Signal<Int, Never> at App/ProfileModel.swift:42
    /// ```
    public struct LiveSubscriptions: Sendable, Hashable, CustomStringConvertible {
        /// The file of the `start`, `listen` or `observed(initial:)` call that made them, as
        /// `#fileID` writes it (`Module/File.swift`); for `startStrict`, its `file` argument.
        public let fileID: String
        /// The line of that call.
        public let line: Int
        /// What they are: `start of Signal<Int, Never>` or `listener of Receiver<String>`.
        public let what: String
        /// How many are live now: made there, not disposed, not terminated, and still held by
        /// their source.
        public let count: Int

        /// Makes one, as ``ReceiverDiagnostics/liveSubscriptions()`` does; for comparisons in tests.
        ///
        /// ```swift
        /// #expect(census.contains(.init(fileID: #fileID, line: 12, what: "listener of Receiver<Int>", count: 1)))
        /// ```
        ///
        /// - Parameters:
        ///   - fileID: The call site's file (`#fileID`).
        ///   - line: The call site's line.
        ///   - what: What was made there.
        ///   - count: How many are live.
        public init(fileID: String, line: Int, what: String, count: Int) {
            (self.fileID, self.line, self.what, self.count) = (fileID, line, what, count)
        }

        /// The count, what they are, and where they were made.
        ///
        /// ```swift
        /// print(site)   // 3 × start of Signal<Int, Never> at App/ProfileModel.swift:42
        /// ```
        public var description: String { "\(count) × \(what) at \(fileID):\(line)" }
    }

    /// The starts and listeners live now, grouped by the call site that made them: most first.
    ///
    /// ```swift
    /// // A debug menu's "Subscriptions" screen:
    /// let lines = ReceiverDiagnostics.liveSubscriptions().map(\.description)
    /// // ["12 × start of Signal<Message, Never> at Chat/ChatModel.swift:88", ...]
    /// ```
    ///
    /// A subscription is live from its `start`, `startStandalone`, `startStrict`, `listen` or
    /// `observed(initial:)` until it is disposed, terminates (an error or a completion), or its
    /// source lets go of it: the same rule as the leak check of the testing module, which counts
    /// the same subscriptions, only those its test made. Each is counted at the call outside the
    /// library that made it: a chain (`promise.get() |> map { … } |> deliverOnMainQueue`) is one
    /// start, at its `start`; the starts the library makes inside are never counted.
    ///
    /// A count that grows each time a screen opens and closes is a leak: compare the census before
    /// and after (see "Finding races and leaks"). Subscriptions made on every thread are counted.
    ///
    /// Debug builds of the library record them: each start or listener made outside the library
    /// holds one small object in its handlers while it lives. A release build records nothing,
    /// and this returns `[]`.
    ///
    /// - Returns: One entry per call site and kind, by count (highest first), then by file and line.
    /// - Complexity: O(*n* log *n*) for *n* live subscriptions.
    public static func liveSubscriptions() -> [LiveSubscriptions] {
        #if RECEIVER_DIAGNOSTICS
        return SubscriptionToken.census()
        #else
        return []
        #endif
    }
}
