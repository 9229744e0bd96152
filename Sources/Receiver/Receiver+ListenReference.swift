// Receiver 0.0.5's `listen(to:)` under its exact signature, for code that names the function
// rather than calling it. Calls resolve to `listen(to:isolation:fileID:line:)`, which knows its
// caller's actor and call site for the debug-build diagnostics; this form is disfavoured so that
// it is chosen only where nothing else fits. It lives outside the core file because a vendored
// core needs no more than the calls.

extension Receiver {
    /// Receiver 0.0.5's exact signature of ``listen(to:isolation:fileID:line:)``, kept so that a
    /// reference to `receiver.listen(to:)` has its type. Calls choose the other form.
    ///
    /// ```swift
    /// let listen: (@escaping (Int) -> Void) -> any Disposable = receiver.listen(to:)
    /// ```
    @_disfavoredOverload @inlinable @discardableResult
    public func listen(to handler: @escaping Handler) -> any Disposable {
        listen(to: handler, isolation: nil)
    }
}
