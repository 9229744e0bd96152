// What debug builds do with the handlers given to `start`, `startStandalone` and `startStrict`:
// those given by code on the main actor are checked, so that a call off the main actor is reported
// once per call site (the checker, and what it can and cannot tell: the core's ActorCheck.swift),
// and those of a start made outside the library hold its token, which the census and the leak
// check count (the core's SubscriptionToken.swift). A release build compiles none of this:
// `RECEIVER_DIAGNOSTICS` is defined for debug builds only.

#if RECEIVER_DIAGNOSTICS
extension Signal {
    /// The three handlers of one start.
    @usableFromInline typealias Handlers = (((T) -> Void)?, ((E) -> Void)?, (() -> Void)?)

    /// The handlers of a start made by `call` at `file`:`line` on `isolation`, each wrapped once
    /// where there is something to do: checked at each call (the caller was on the main actor),
    /// and holding the start's token (the caller is outside the library). The token is in every
    /// handler, so that it goes with the last one the source lets go of; a start with no `next`
    /// gets one that only holds it, since a live source holds its start's `next` — some
    /// (`receiver.signal`, a pipe) only that. (Not inlinable, so unspecialised: debug builds only.)
    @usableFromInline static func diagnosed(
        _ next: ((T) -> Void)?, _ error: ((E) -> Void)?, _ completed: (() -> Void)?, _ isolation: (any Actor)?,
        _ call: StaticString, _ file: String, _ line: Int
    ) -> Handlers {
        let check = ActorCheck(isolation, call, file, line, fix: "Put `|> deliverOnMainQueue` before it")
        let token = SubscriptionToken(fileID: file, line: line, subject: .start(value: T.self, error: E.self))
        if check == nil && token == nil { return (next, error, completed) }
        // `if let`, not `Optional.map`: unspecialised in debug builds, `map` would look up the
        // metadata of the function types at each start.
        var diagnosed: Handlers = (nil, nil, nil)
        if let next {
            diagnosed.0 = { value in
                withExtendedLifetime(token) {
                    check?.verify()
                    next(value)
                }
            }
        } else if let token {
            diagnosed.0 = { _ in _ = token }
        }
        if let error {
            diagnosed.1 = { failure in
                withExtendedLifetime(token) {
                    check?.verify()
                    error(failure)
                }
            }
        }
        if let completed {
            diagnosed.2 = {
                withExtendedLifetime(token) {
                    check?.verify()
                    completed()
                }
            }
        }
        return diagnosed
    }
}
#endif
