/// The subscription of a signal that ends at once — `single`, `fail`, `complete` — and the
/// disposable it returns. It calls its handlers itself, in order, before it returns, and no one
/// else can reach it meanwhile, so it needs no ``Subscriber``, queue or lock while it delivers; it
/// behaves as a generator's subscription does: noted in ``SubscriptionsBeingMade`` while it delivers, ended
/// from its terminal event on (a restart loop started from its terminal handler pauses on it), and
/// printed as `SubscriberDisposable { disposable: hasValue }` until disposed. Its phase is one
/// byte, written by the making thread before it returns and by `dispose()` under its lock.
@usableFromInline
final class InstantSubscription: AnySubscriberCore, Disposable, CustomStringConvertible, @unchecked Sendable {
    /// Where the start is: delivering its values, past its terminal event, or disposed.
    @usableFromInline enum Phase: UInt8 { case running, terminated, disposed }

    @exclusivity(unchecked) @usableFromInline var phase = Phase.running

    @inlinable override init() { super.init() }

    /// Runs `deliver` with a new start noted as being made, then resumes the restart loops that
    /// paused on it, as the start of a generator does once its generator returns. `deliver` calls
    /// the handlers, marking the start terminated (``terminate()``) before its terminal handler.
    @inlinable static func run(_ deliver: (InstantSubscription) -> Void) -> InstantSubscription {
        let start = InstantSubscription()
        let ((), paused) = SubscriptionsBeingMade.making(start) { deliver(start) }
        if let paused { Restarts.resume(paused) }  // loops that paused because this start ended
        return start
    }

    /// Marks the start terminated, before its terminal handler runs. No lock: only the thread
    /// making the start can reach it until it returns.
    @inlinable func terminate() { phase = .terminated }

    @usableFromInline override var hasEnded: Bool {
        let lock = lock
        lock.lock()
        defer { lock.unlock() }
        return phase != .running
    }

    /// Marks the start disposed; it has nothing left to stop. Idempotent, from any thread.
    @usableFromInline func dispose() {
        let lock = lock  // found once: each `lock` hashes the address again
        lock.lock()
        phase = .disposed
        lock.unlock()
    }

    /// As SwiftSignalKit's start handle prints itself: `disposable` is `hasValue` until the start is
    /// disposed.
    @usableFromInline var description: String {
        let lock = lock
        lock.lock()
        let isDisposed = phase == .disposed
        lock.unlock()
        return "SubscriberDisposable { disposable: \(isDisposed ? "nil" : "hasValue") }"
    }
}
