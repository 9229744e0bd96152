#if RECEIVER_DIAGNOSTICS
/// Debug builds only: a point where a promise's `set` stops after storing its value and before
/// sending it, so that a test can have another thread set the promise in between and show in what
/// order the values are sent. Release builds compile none of it.
///
/// ```swift
/// PromiseSetPause.once(promise) { reached.signal(); resume.wait() }
/// ```
@usableFromInline package enum PromiseSetPause {
    /// What each promise's next `set` runs at the point, by promise: taken out when it runs.
    static let pauses = Locked<[ObjectIdentifier: @Sendable () -> Void]>([:])

    /// Runs `pause` once, on the thread of `promise`'s next `set` that reaches the point.
    package static func once(_ promise: AnyObject, _ pause: @escaping @Sendable () -> Void) {
        pauses.withLock { $0[ObjectIdentifier(promise)] = pause }
    }

    /// Called by `set` at the point, with no lock held: runs the pause set for `promise`, if any.
    @usableFromInline package static func reached(_ promise: AnyObject) {
        let pause = pauses.withLock { $0.removeValue(forKey: ObjectIdentifier(promise)) }
        pause?()
    }
}
#endif
