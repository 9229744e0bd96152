/// ``SubscriberCore`` without its generic parameters: what a start made with a generator knows
/// whatever its types — whether it has ended (terminated, or disposed) — and that its source let
/// go of its subscriber. A class rather than a protocol, so that noting a start in
/// ``StartsBeingMade``, asking it whether it has ended, and a subscriber's `deinit` look up no
/// type metadata or witness table (measured: a protocol existential of the generic core cost
/// about 800 instructions per start). It has no fields: each subclass keeps its state in one
/// place, ``SubscriberCore`` in the fields its transitions change (SubscriberState.swift),
/// ``InstantStart`` in its phase.
@usableFromInline class AnySubscriberCore: @unchecked Sendable {
    @inlinable init() {}

    /// This start's lock.
    @inlinable final var lock: StripedLock { StripedLock(for: self) }

    /// Its ``Subscriber`` was released by its source. Only a ``SubscriberCore`` has a subscriber,
    /// and it overrides this; an ``InstantStart`` has none, so there is nothing to release.
    @usableFromInline func subscriberReleased(isHandleGone: Bool) {}

    /// Whether the start has terminated or been disposed (each subclass overrides this).
    @usableFromInline var hasEnded: Bool { true }
}
