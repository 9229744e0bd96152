// A signal's latest value as an `@Observable` value: the core's `receiver.observed(initial:)`,
// fed by one start of the signal.
//
// The start broadcasts into a `.warm(upTo: 1)` pair (so a value sent during `start` is kept for
// the listener), and the `Observed` listens to that pair through a `map` whose closure holds a
// `StartOwner`. Releasing the `Observed` disposes its listener, which releases that closure, whose
// owner then disposes the start. The pair and the start hold each other only until then.

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Signal {
    /// Starts this signal once and keeps its latest value in an `Observed`, for
    /// SwiftUI views and other Observation clients.
    ///
    /// ```swift
    /// let profile = Promise<String>("Ada")
    /// let name = profile.get().observed(initial: "")
    /// print(name.value)              // "Ada": a value sent during the start arrives before this returns
    /// profile.set(.single("Grace"))
    /// print(name.value)              // "Grace"
    /// ```
    ///
    /// `value` is `initial` until the first value arrives, then the latest. The `Observed`
    /// owns the start: releasing it disposes the start (and so what the generator returned), and
    /// nothing the start feeds keeps it alive.
    ///
    /// An error or a completion ends the start and leaves `value` as it was: it shows the last
    /// value. To show a failure or the end too, make them values first, for example with
    /// ``ReceiverSignalKit/dematerialize(signal:)``, which turns every event into a value:
    /// `(signal |> dematerialize).observed(initial: .next(placeholder))`.
    ///
    /// > Note: `value` is set on the thread the signal sends from. For a view, deliver on main:
    /// > `(signal |> deliverOnMainQueue).observed(initial: ...)`. In debug builds, made on the
    /// > main actor (a view model, a view) and sent a value off it, it is reported once by the
    /// > actor checker, as a `start` handler would be.
    ///
    /// - Parameters:
    ///   - initial: What `value` is until the first value.
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - fileID: The caller's file, filled in by Swift; leave it out.
    ///   - line: The caller's line, filled in by Swift; leave it out.
    /// - Returns: An `@Observable` holder of the latest value, owning the start.
    public func observed(
        initial: T, isolation: (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
    ) -> Observed<T> {
        let (transmitter, receiver) = Receiver<T>.make(with: .warm(upTo: 1))
        let broadcast: (T) -> Void = { transmitter.broadcast($0) }
        #if RECEIVER_DIAGNOSTICS  // debug builds: SwiftUI reads `value` on the main actor
        let next = ActorCheck.wrap(
            broadcast, isolation, "observed(initial:)", fileID, line, fix: "Put `|> deliverOnMainQueue` before it",
            subject: .observed)
        #else
        let next = broadcast
        #endif
        // At the caller's line, for the census and the leak check; checked above, not as a `start`.
        let owner = StartOwner(start(next: next, isolation: nil, fileID: fileID, line: line))
        return receiver.map { value in withExtendedLifetime(owner) { value } }.observed(initial: initial)
    }

    /// The form of ``observed(initial:isolation:fileID:line:)`` without the caller's actor and
    /// call site, kept so that a reference to `signal.observed(initial:)` has its type. Calls
    /// choose the form above.
    ///
    /// ```swift
    /// let observe: (String) -> Observed<String> = profile.get().observed(initial:)
    /// ```
    ///
    /// - Parameter initial: What `value` is until the first value.
    /// - Returns: An `@Observable` holder of the latest value, owning the start.
    @_disfavoredOverload
    public func observed(initial: T) -> Observed<T> {
        observed(initial: initial, isolation: nil)
    }
}

/// Disposes a start when it is deinitialised: the link from an `Observed`'s listener to
/// the start of `signal.observed(initial:)`.
final class StartOwner: Sendable {
    let start: any Disposable

    init(_ start: any Disposable) { self.start = start }

    deinit { start.dispose() }
}
