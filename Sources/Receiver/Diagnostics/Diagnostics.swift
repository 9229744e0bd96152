// Debug-build diagnostics of the core's `listen`: the actor checker (ActorCheck.swift) and the
// leak check's hook (`detectLeaks` and `.detectingLeaks`, in ReceiverSignalKitTesting).
//
// Compiled only where `RECEIVER_DIAGNOSTICS` is defined: Package.swift defines it for debug builds
// of the library's modules. A release build has none of this: `listen` makes no call here, wraps
// no handler and stores nothing. Nor has the core file vendored alone, which must compile without
// this file; the whole library as one file has it where its debug builds define the condition.

#if RECEIVER_DIAGNOSTICS
/// What debug builds do with a listener's handler before `listen` registers it.
@usableFromInline enum ReceiverDiagnostics {
    /// `handler`, checked by the actor checker when its caller was on the main actor, and holding
    /// a token of the leak check running in this task, if there is one.
    @usableFromInline static func listening<Wave>(
        _ handler: @escaping (Wave) -> Void, _ isolation: (any Actor)?, _ fileID: String, _ line: Int
    ) -> (Wave) -> Void {
        ReceiverLeakCheck.tracking(
            ActorCheck.wrap(handler, isolation, "listen", fileID, line, fix: "Broadcast on the main actor"),
            "listener of Receiver<\(Wave.self)>", fileID, line)
    }
}

/// Debug builds only: the leak check (`detectLeaks`, ReceiverSignalKitTesting) running in this task
/// gives each listener and start made outside the library a token to hold in its handlers, and at
/// the end reports those whose token is still held. (Not inlinable, so generic: debug only.)
@usableFromInline enum ReceiverLeakCheck {
    @TaskLocal static var token: (@Sendable (_ what: String, _ fileID: String, _ line: Int) -> AnyObject?)?

    @usableFromInline static func tracking<Value>(
        _ handler: @escaping (Value) -> Void, _ what: @autoclosure () -> String, _ fileID: String, _ line: Int
    ) -> (Value) -> Void {
        guard let make = token, let token = make(what(), fileID, line) else { return handler }
        return { value in withExtendedLifetime(token) { handler(value) } }
    }
}

/// Debug builds only: the running leak check's token maker, for ReceiverSignalKit's starts and the
/// check itself.
///
/// ```swift
/// receiverLeakCheck.withValue(maker) { receiver.listen { print($0) } }
/// ```
@_spi(LeakCheck) public var receiverLeakCheck: TaskLocal<(@Sendable (String, String, Int) -> AnyObject?)?> {
    ReceiverLeakCheck.$token
}
#endif
