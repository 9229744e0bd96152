// The actor checker's part for `start`, `startStandalone` and `startStrict`: in debug builds, the
// handlers given by code on the main actor are wrapped so that a call off the main thread is
// reported once per call site (the checker itself, and what it can and cannot tell, is the core's
// ActorCheck.swift). A release build compiles none of this.

#if RECEIVER_ACTOR_CHECK
extension Signal {
    /// The three handlers of one start.
    @usableFromInline typealias Handlers = (((T) -> Void)?, ((E) -> Void)?, (() -> Void)?)

    /// The handlers of a start made by `call` at `file`:`line` on `isolation`, each checked at
    /// each call where there is something to check (the caller was on the main actor), else as
    /// they are: one closure more per handler.
    @usableFromInline static func checking(
        _ next: ((T) -> Void)?, _ error: ((E) -> Void)?, _ completed: (() -> Void)?, _ isolation: (any Actor)?,
        _ call: StaticString, _ file: String, _ line: Int
    ) -> Handlers {
        guard let check = ActorCheck(isolation, call, file, line, fix: "Put `|> deliverOnMainQueue` before it")
        else { return (next, error, completed) }
        return (
            next.map { next in
                { value in
                    check.verify()
                    next(value)
                }
            },
            error.map { error in
                { value in
                    check.verify()
                    error(value)
                }
            },
            completed.map { completed in
                {
                    check.verify()
                    completed()
                }
            }
        )
    }
}
#endif
