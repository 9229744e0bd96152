// Debug-build diagnostics of `start`, `startStandalone` and `startStrict`: the handlers given by
// code on the main actor are wrapped so that a call off the main thread is reported once per call
// site (the checker itself, and what it can and cannot tell, is the core's ActorCheck.swift), and
// a start made while a leak check runs is tracked by it (SignalLeakCheck.swift). A release build
// compiles none of this: `RECEIVER_DIAGNOSTICS` is defined for debug builds only.

#if RECEIVER_DIAGNOSTICS
extension Signal {
    /// The handlers of a start made by `call` at `file`:`line` on `isolation`: checked by the actor
    /// checker, then tracked by the leak check running in this task, if there is one.
    @usableFromInline static func diagnosed(
        _ next: ((T) -> Void)?, _ error: ((E) -> Void)?, _ completed: (() -> Void)?, _ isolation: (any Actor)?,
        _ call: StaticString, _ file: String, _ line: Int
    ) -> Handlers {
        let (next, error, completed) = checking(next, error, completed, isolation, call, file, line)
        return SignalLeakCheck.tracking(next, error, completed, file, line)
    }

    /// The three handlers of one start.
    @usableFromInline typealias Handlers = (((T) -> Void)?, ((E) -> Void)?, (() -> Void)?)

    /// The handlers of a start made by `call` at `file`:`line` on `isolation`, each checked at
    /// each call where there is something to check (the caller was on the main actor), else as
    /// they are: one closure more per handler.
    static func checking(
        _ next: ((T) -> Void)?, _ error: ((E) -> Void)?, _ completed: (() -> Void)?, _ isolation: (any Actor)?,
        _ call: StaticString, _ file: String, _ line: Int
    ) -> Handlers {
        guard let check = ActorCheck(isolation, call, file, line, fix: "Put `|> deliverOnMainQueue` before it")
        else { return (next, error, completed) }
        // `if let`, not `Optional.map`: unspecialised in debug builds, `map` looks up the metadata of
        // the function types at each start, which made a start 4,000 instructions dearer.
        var checked: Handlers = (nil, nil, nil)
        if let next {
            checked.0 = { value in
                check.verify()
                next(value)
            }
        }
        if let error {
            checked.1 = { value in
                check.verify()
                error(value)
            }
        }
        if let completed {
            checked.2 = {
                check.verify()
                completed()
            }
        }
        return checked
    }
}
#endif
