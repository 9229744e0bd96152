/// The start of a signal that ends at once — `single`, `fail`, `complete` — and the disposable
/// that start returns.
///
/// Such a start calls its handlers itself, in order, before it returns, and nothing else can put
/// into it: no one has its handle yet. So it needs no ``Subscriber``, no queue and no lock while
/// it delivers; it behaves as the start of the same generator does:
/// - It is noted in ``StartsBeingMade`` while it delivers, and has ended (``hasEnded``) from its
///   terminal event on, so a restart loop started from its terminal handler pauses on it and
///   resumes when it returns.
/// - The terminal event lets go of the other handlers before the terminal one is called (this
///   start never held them: its caller does, until it returns).
/// - Disposing it delivers nothing more (it has delivered everything) and only marks it
///   disposed: as the start's handle, it prints `SubscriberDisposable { disposable: hasValue }`
///   until then and `… nil` after.
///
/// Its phase is written by the thread making the start, before the start returns it, and by
/// `dispose()` under its lock; ``hasEnded`` reads it under that lock. It is that one byte: a live
/// handle is the smallest object there is.
@usableFromInline
final class InstantStart: AnySubscriberCore, Disposable, CustomStringConvertible, @unchecked Sendable {
    /// Where the start is: delivering its values, past its terminal event, or disposed.
    @usableFromInline enum Phase: UInt8 { case running, terminated, disposed }

    @exclusivity(unchecked) @usableFromInline var phase = Phase.running

    @inlinable override init() { super.init() }

    /// Runs `deliver` with a new start noted as being made, then resumes the restart loops that
    /// paused on it, as the start of a generator does once its generator returns. `deliver` calls
    /// the handlers, marking the start terminated (``terminate()``) before its terminal handler.
    @inlinable static func run(_ deliver: (InstantStart) -> Void) -> InstantStart {
        let start = InstantStart()
        let ((), paused) = StartsBeingMade.making(start) { deliver(start) }
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
