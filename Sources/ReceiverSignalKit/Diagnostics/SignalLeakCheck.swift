#if RECEIVER_DIAGNOSTICS
@_spi(LeakCheck) internal import Receiver

/// Debug builds only: what lets a leak check (`detectLeaks`, `.detectingLeaks`:
/// ReceiverSignalKitTesting) see the starts made in its task, as the core's `listen` lets it see
/// listeners. A start made while a check runs, at a call site outside the library, holds a token
/// of the check in each of its handlers: the token goes when the last handler does — when the
/// start is disposed or terminates, or when its source lets go of it — so a token still alive when
/// the test ends is a start still live, reported at its call site. The library's own starts (an
/// operator starting its upstream) are called with the library's `#fileID`, which the check
/// ignores: a chain is reported once, at the user's start.
@usableFromInline enum SignalLeakCheck {
    /// The handlers of a start made at `fileID`:`line`, holding a token of the check running in
    /// this task, if there is one. A start with no `next` gets one that only holds the token:
    /// a live source holds its start's `next` — some (`receiver.signal`, a pipe) only that.
    /// Not inlinable, so unspecialised: debug builds only.
    @usableFromInline static func tracking<T, E>(
        _ next: ((T) -> Void)?, _ error: ((E) -> Void)?, _ completed: (() -> Void)?, _ fileID: String, _ line: Int
    ) -> (((T) -> Void)?, ((E) -> Void)?, (() -> Void)?) {
        guard let make = receiverLeakCheck.get(),
            let token = make("start of Signal<\(T.self), \(E.self)>", fileID, line)
        else { return (next, error, completed) }
        return (
            next.map { next in { value in withExtendedLifetime(token) { next(value) } } } ?? { _ in _ = token },
            error.map { error in { failure in withExtendedLifetime(token) { error(failure) } } },
            completed.map { completed in { withExtendedLifetime(token) { completed() } } }
        )
    }
}
#endif
