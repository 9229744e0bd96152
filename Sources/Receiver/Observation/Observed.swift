// The latest wave as an `@Observable` value, for SwiftUI and anything else built on Observation.
// (`Receiver+Observing.swift` goes the other way: an `@Observable` read into a receiver.)
//
// Ownership, with no cycle:
//
//     your code ──> Observed ──> its listener's disposable
//     pair ──> listener ──> handler ╌╌weak╌╌> Observed
//
// Releasing the `Observed` disposes its listener, which releases the handler and what it captured.

public import Observation

/// The latest wave of a receiver (or value of a signal), as an `@Observable` value: a SwiftUI
/// view that reads ``value`` re-renders when it changes.
///
/// ```swift
/// let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
/// transmitter.broadcast(1)
/// let count = receiver.observed(initial: 0)
/// print(count.value)          // 1: the replay arrives before `observed(initial:)` returns
/// transmitter.broadcast(2)
/// print(count.value)          // 2
/// ```
///
/// Make one with ``Receiver/observed(initial:isolation:fileID:line:)``, or from a signal with
/// ReceiverSignalKit's `signal.observed(initial:)`. It owns its subscription: releasing it disposes
/// the listener (or the signal's start), which releases whatever the source's handlers captured.
/// The subscription holds it weakly, so nothing it listens to keeps it alive.
///
/// In SwiftUI, hold it where the view's model lives (an `@Observable` view model's property, or
/// `@State`), and read `value` in `body`:
///
/// ```swift
/// struct CounterView: View {
///     let count: Observed<Int>
///     var body: some View { Text("\(count.value)") }
/// }
/// ```
///
/// > Note: `value` is set on the thread that delivers the wave, as every handler runs, and
/// > Observation calls its observers there. Feed a view from the main thread: broadcast on main, or
/// > put `|> deliverOnMainQueue` before `observed(initial:)` on a signal. In debug builds, one made
/// > on the main actor whose value is set off it is reported by the actor checker, once per call
/// > site. Reading `value` is thread-safe (it is kept under a lock), so `Observed` is `Sendable`
/// > when `Value` is.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable public final class Observed<Value> {
    /// The wave behind ``value``. Only touched under `ReceiverLock(for: self)`.
    @ObservationIgnored nonisolated(unsafe) private var latest: Value
    /// The listener (or start) this instance owns. Only touched under `ReceiverLock(for: self)`.
    @ObservationIgnored nonisolated(unsafe) private var subscription: (any Disposable)?

    /// The latest wave, or the initial value until the first one arrives.
    ///
    /// ```swift
    /// Text(observed.value)   // in a SwiftUI view's body: re-renders on each new wave
    /// ```
    ///
    /// Reading it inside `withObservationTracking` (or a SwiftUI `body`) tracks it: the tracking
    /// fires on each wave, and the new wave is what `value` returns once that wave has been set.
    public var value: Value {
        access(keyPath: \.value)
        return ReceiverLock(for: self).withLock { latest }
    }

    init(initial: Value) { latest = initial }

    // Disposes outside the lock: disposing releases handlers, whose captures' `deinit`s are user code.
    deinit { ReceiverLock(for: self).withLock { subscription }?.dispose() }

    /// Sets `value`, telling Observation's observers (in `willSet`, before the change, as every
    /// `@Observable` property does). The replaced wave is released after unlocking.
    func update(_ wave: Value) {
        withMutation(keyPath: \.value) {
            var replaced = wave
            ReceiverLock(for: self).withLock { swap(&latest, &replaced) }
            _ = replaced
        }
    }

    /// Keeps `disposable` until this instance is deinitialised, then disposes it.
    func own(_ disposable: any Disposable) {
        ReceiverLock(for: self).withLock { subscription = disposable }
    }
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Observed: Sendable where Value: Sendable {}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
extension Receiver {
    /// Listens to this receiver and keeps the latest wave in an ``Observed``, for SwiftUI views and
    /// other Observation clients.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<String>.make(with: .warm(upTo: 1))
    /// transmitter.broadcast("Ada")
    /// let name = receiver.observed(initial: "")
    /// print(name.value)            // "Ada": the kept wave, replayed during the call
    /// transmitter.broadcast("Grace")
    /// print(name.value)            // "Grace"
    /// ```
    ///
    /// `value` is `initial` until the first wave arrives. A warm or cold pair's replay arrives
    /// during this call, so `value` is already the latest kept wave when it returns; a hot pair's
    /// next broadcast is the first.
    ///
    /// The ``Observed`` owns the listener: releasing it disposes the listener, so the pair's later
    /// waves reach nothing and the handler (which holds the `Observed` weakly) is released.
    ///
    /// > Note: `value` is set on the thread that broadcasts. For a view, broadcast on the main
    /// > thread (or observe a signal with `|> deliverOnMainQueue` before it, in ReceiverSignalKit).
    /// > In debug builds, made on the main actor (a view model, a view) and set off it, it is
    /// > reported once by the actor checker, as a `listen` handler would be.
    ///
    /// - Parameters:
    ///   - initial: What `value` is until the first wave.
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - fileID: The caller's file, filled in by Swift; leave it out.
    ///   - line: The caller's line, filled in by Swift; leave it out.
    /// - Returns: An `@Observable` holder of the latest wave, owning the listener.
    public func observed(
        initial: Wave, isolation: (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
    ) -> Observed<Wave> {
        let observed = Observed(initial: initial)
        let update: (Wave) -> Void = { [weak observed] wave in observed?.update(wave) }
        #if RECEIVER_DIAGNOSTICS  // debug builds: SwiftUI reads `value` on the main actor
        let checked = ActorCheck.wrap(
            update, isolation, "observed(initial:)", fileID, line, fix: "Broadcast on the main actor",
            subject: .observed)
        #else
        let checked = update
        #endif
        // At the caller's line, for the census and the leak check; checked above, not as a `listen`.
        observed.own(listen(to: checked, isolation: nil, fileID: fileID, line: line))
        return observed
    }

    /// The form of ``observed(initial:isolation:fileID:line:)`` without the caller's actor and
    /// call site, kept so that a reference to `receiver.observed(initial:)` has its type. Calls
    /// choose the form above.
    ///
    /// ```swift
    /// let observe: (Int) -> Observed<Int> = receiver.observed(initial:)
    /// ```
    ///
    /// - Parameter initial: What `value` is until the first wave.
    /// - Returns: An `@Observable` holder of the latest wave, owning the listener.
    @_disfavoredOverload
    public func observed(initial: Wave) -> Observed<Wave> {
        observed(initial: initial, isolation: nil)
    }
}
