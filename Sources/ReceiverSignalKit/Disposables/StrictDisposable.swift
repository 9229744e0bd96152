/// A disposable that must be disposed: in debug builds, reaching `deinit` without `dispose()` is
/// an assertion failure naming the file and line where it was made.
///
/// Use it (usually through ``Disposable/strict(file:line:)``) for subscriptions whose leak would be
/// a bug: the program stops at the leak in development, and release builds pay nothing but the
/// wrapper.
///
/// ```swift
/// let disposable = signal.start(next: show).strict()
/// // ... later, forgetting this line stops a debug build when `disposable` is released:
/// disposable.dispose()
/// ```
///
/// One object: its lock comes from the library's lock table, so it costs no memory.
public final class StrictDisposable: Disposable {
    /// `nil` once disposed. Only ever touched under the object's stripe of the lock table
    /// (`StripedLock`), which also makes the exclusivity check redundant.
    @exclusivity(unchecked) private nonisolated(unsafe) var wrapped: (any Disposable)?
    private let file: String
    private let line: Int

    /// Wraps `disposable`, remembering where the wrapper was made.
    ///
    /// ```swift
    /// let strict = StrictDisposable(signal.start())
    /// ```
    ///
    /// - Parameters:
    ///   - disposable: What `dispose()` disposes.
    ///   - file: Named in the assertion message; the caller's file by default.
    ///   - line: Named in the assertion message; the caller's line by default.
    public init(_ disposable: any Disposable, file: String = #fileID, line: Int = #line) {
        wrapped = disposable
        (self.file, self.line) = (file, line)
    }

    deinit {
        if StripedLock(for: self).withLock({ wrapped != nil }) {
            assertionFailure("StrictDisposable made at \(file):\(line) was deinitialised without dispose()")
        }
    }

    /// Disposes the wrapped disposable (once) and releases it, after unlocking.
    ///
    /// ```swift
    /// strict.dispose()
    /// ```
    public func dispose() {
        StripedLock(for: self).withLock { wrapped.take() }?.dispose()
    }
}

extension Disposable {
    /// Wraps this disposable in a ``StrictDisposable``: in debug builds, releasing it without
    /// `dispose()` stops the program with a message naming this call's file and line.
    ///
    /// ```swift
    /// let disposable = signal.start(next: show).strict()
    /// ```
    ///
    /// - Parameters:
    ///   - file: The caller's file by default (`#file`, as SwiftSignalKit; in the Swift 6
    ///     language mode it is the same short `Module/File.swift` as `#fileID`).
    ///   - line: The caller's line by default.
    /// - Returns: The strict wrapper; dispose it instead of this disposable.
    public func strict(file: String = #file, line: Int = #line) -> any Disposable {
        StrictDisposable(self, file: file, line: line)
    }
}
