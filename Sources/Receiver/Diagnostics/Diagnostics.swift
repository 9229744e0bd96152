// What debug builds do with the handler given to the core's `listen`: the actor checker
// (ActorCheck.swift) and the token that the census and the leak check count (SubscriptionToken.swift).
//
// Compiled only where `RECEIVER_DIAGNOSTICS` is defined: Package.swift defines it for debug builds
// of the library's modules. A release build has none of this: `listen` makes no call here, wraps
// no handler and stores nothing. Nor has the core file vendored alone, which must compile without
// this file; the whole library as one file has it where its debug builds define the condition.

#if RECEIVER_DIAGNOSTICS
extension ReceiverDiagnostics {
    /// `handler`, checked by the actor checker when its caller was on the main actor, and holding
    /// the listener's token when the caller is outside the library. (Not inlinable, so generic:
    /// debug builds only.)
    @usableFromInline static func listening<Wave>(
        _ handler: @escaping (Wave) -> Void, _ isolation: (any Actor)?, _ fileID: String, _ line: Int
    ) -> (Wave) -> Void {
        let check = ActorCheck(isolation, "listen", fileID, line, fix: "Broadcast on the main actor")
        let token = SubscriptionToken(fileID: fileID, line: line, subject: .listener(wave: Wave.self))
        if check == nil && token == nil { return handler }
        return { wave in
            withExtendedLifetime(token) {
                check?.verify()
                handler(wave)
            }
        }
    }
}
#endif
