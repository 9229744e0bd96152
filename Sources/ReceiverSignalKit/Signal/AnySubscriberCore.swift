/// ``SubscriberCore`` without its generic parameters: what a start made with a generator knows
/// whatever its types — whether it has ended (terminated, or disposed). Not generic, and a class
/// rather than a protocol, so that noting a start in ``StartsBeingMade``, asking it whether it has
/// ended, and a subscriber's `deinit` look up no type metadata or witness table (measured: a
/// protocol existential of the generic core cost about 800 instructions per start).
///
/// Its flags are only touched under the start's lock (a `StripedLock` for the object) — but for
/// ``InstantStart``'s, which the thread making that start also sets before anyone else has it.
@usableFromInline class AnySubscriberCore: @unchecked Sendable {
    /// A terminal event was put, or the start's disposal has finished (SwiftSignalKit's
    /// `terminated`): nothing more is accepted.
    @exclusivity(unchecked) @usableFromInline final var isTerminated = false
    /// The start's `dispose()` has begun: nothing more is accepted or delivered.
    @exclusivity(unchecked) @usableFromInline final var isDisposed = false
    /// ``SubscriberCore``'s: a thread is delivering, and where its queue of events starts. Kept
    /// here, beside the flags, only so that they share one word: a never-ending start is then one
    /// 104-byte object (a 112-byte glibc chunk) instead of 109 bytes (128).
    @exclusivity(unchecked) @usableFromInline final var isDelivering = false
    @exclusivity(unchecked) @usableFromInline final var head: UInt32 = 0

    @inlinable init() {}

    /// This start's lock.
    @inlinable final var lock: StripedLock { StripedLock(for: self) }

    /// Its ``Subscriber`` was released by its source (``SubscriberCore`` overrides this).
    @usableFromInline func subscriberReleased(isHandleGone: Bool) {}

    /// Whether the start has terminated or been disposed.
    @usableFromInline final var hasEnded: Bool {
        let lock = lock
        lock.lock()
        defer { lock.unlock() }
        return isTerminated || isDisposed
    }
}
