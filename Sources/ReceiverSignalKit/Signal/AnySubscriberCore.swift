/// A start without its types: what ``SubscriptionsBeingMade`` and a subscriber's `deinit` ask of it —
/// whether it has ended (terminated, or disposed), and that its source let go of its subscriber.
/// A class rather than a protocol, so that asking looks up no type metadata or witness table. Its
/// subclasses are ``SubscriberCore`` and ``InstantSubscription``.
@usableFromInline class AnySubscriberCore: @unchecked Sendable {
    @inlinable init() {}

    /// This start's lock.
    @inlinable final var lock: StripedLock { StripedLock(for: self) }

    /// Its ``Subscriber`` was released by its source. Only a ``SubscriberCore`` has a subscriber,
    /// and it overrides this; an ``InstantSubscription`` has none, so there is nothing to release.
    @usableFromInline func subscriberReleased(isHandleGone: Bool) {}

    /// Whether the start has terminated or been disposed (each subclass overrides this).
    @usableFromInline var hasEnded: Bool { true }
}
