// The actor checker: in debug builds, a handler given to `listen` or `start` by code on the main
// actor is wrapped so that its first call off the main actor prints one diagnostic per call site;
// so is the handler that sets the value of an `Observed` made there (`observed(initial:)`), since
// SwiftUI reads that value on the main actor.
//
// Compiled only where `RECEIVER_DIAGNOSTICS` is defined: Package.swift defines it for debug
// builds of the library's modules. A release build has none of this — the calls are not made, no
// handler is wrapped and nothing is stored — and nor has a vendored copy, since the core file must
// compile alone (the whole library vendored as one file has it where its debug builds define the
// condition; `.ci/vendor-check.sh` type-checks that).
//
// What it can tell: `#isolation` (SE-0420) at the user's call says which actor the caller runs
// on, and so which actor a non-`@Sendable` closure written there belongs to. Only the main actor
// is checked: "on the main thread, or running the main queue" is exact and cheap to ask. Whether
// another actor is running can be asked only of the concurrency runtime's unexported-in-Swift
// entry points, whose answer for an actor with a custom executor may be a trap. A handler's type
// carries no isolation at run time, so a `@Sendable` closure written on the main actor (which is
// not main-actor code) is checked as if it were.

#if RECEIVER_DIAGNOSTICS
#if canImport(Darwin)
internal import Darwin
#elseif canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#endif

/// Where a handler was given and what to say about it: made once per wrapped handler, checked at
/// each of its calls.
@usableFromInline package struct ActorCheck: Sendable {
    /// What the switch says: `RECEIVER_ACTOR_CHECK=off` turns the check off, `=fatal` stops the
    /// program at the first report; anything else (or nothing) reports and goes on.
    enum Mode: String { case report, fatal, off }

    static let mode = getenv("RECEIVER_ACTOR_CHECK").flatMap { Mode(rawValue: String(cString: $0)) } ?? .report

    /// What runs off the main actor: a handler the user wrote, or the update of an `Observed`.
    @usableFromInline package enum Subject: Sendable { case handler, observed }

    let call: StaticString, file: String, line: Int, fix: StaticString, subject: Subject

    /// A check for a handler given to `call` at `file`:`line` by code on `isolation`, or `nil`
    /// when there is nothing to check: no actor, an actor other than the main actor, or the
    /// checker switched off. `file` may be a `#fileID` or a `#file` path.
    @usableFromInline package init?(
        _ isolation: (any Actor)?, _ call: StaticString, _ file: String, _ line: Int, fix: StaticString,
        subject: Subject = .handler
    ) {
        guard let isolation, isolation === MainActor.shared, Self.mode != .off else { return nil }
        (self.call, self.file, self.line, self.fix, self.subject) = (call, file, line, fix, subject)
    }

    /// `handler`, checked at each call; `handler` itself where there is nothing to check.
    @usableFromInline package static func wrap<Value>(
        _ handler: @escaping (Value) -> Void, _ isolation: (any Actor)?, _ call: StaticString, _ file: String,
        _ line: Int, fix: StaticString, subject: Subject = .handler
    ) -> (Value) -> Void {
        guard let check = ActorCheck(isolation, call, file, line, fix: fix, subject: subject) else { return handler }
        return { value in
            check.verify()
            handler(value)
        }
    }

    /// Reports this call site if the caller is not on the main actor: once per call site.
    @inline(__always) @usableFromInline package func verify() {
        if !CurrentThread.isMainThread && !CurrentThread.isMainQueue { report() }
    }

    @usableFromInline func report() {
        guard Self.reported.insert("\(call) \(file):\(line)") else { return }
        // Named as a `#fileID` names it, "Module/File.swift" (`startStrict`'s `#file` is one too: a
        // default argument takes the declaring module's Swift 6 meaning); a path, by its last two.
        let site = "\(file.split(separator: "/").suffix(2).joined(separator: "/")):\(line)"
        let what =
            switch subject {
            case .handler:
                """
                the handler given to `\(call)` at \(site) on the main actor is called off the main actor. It is \
                main-actor code, so it races with the main actor. \(fix); or, if the handler is meant to run \
                elsewhere, call `\(call)` from `nonisolated` code.
                """
            case .observed:
                """
                the `Observed` made by `\(call)` at \(site) on the main actor has its value set off the main \
                actor. SwiftUI reads that value on the main actor, so it races with the main actor. \(fix); or, \
                if it is not read on the main actor, call `\(call)` from `nonisolated` code.
                """
            }
        let message = """
            Receiver actor check: \(what) (Reported once per call site. RECEIVER_ACTOR_CHECK=fatal stops the \
            program here; RECEIVER_ACTOR_CHECK=off turns the check off.)
            """
        if Self.mode == .fatal { fatalError(message) }
        let line = message + "\n"
        _ = line.utf8.withContiguousStorageIfAvailable { write(2, $0.baseAddress, $0.count) }
    }

    /// The call sites reported so far, shared by every thread.
    static let reported = Reported()

    final class Reported: Sendable {
        private nonisolated(unsafe) var sites: Set<String> = []
        private var lock: ReceiverLock { ReceiverLock(for: self) }

        /// Whether `site` was not reported before; it is from now on.
        func insert(_ site: String) -> Bool {
            lock.withLock { sites.insert(site).inserted }
        }
    }
}
#endif
