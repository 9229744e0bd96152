import Dispatch
import Foundation
import ReceiverSignalKit
import Testing

/// The actor checker of debug builds, for `start`, `startStandalone`, `startStrict` and
/// `observed(initial:)`: a handler given on the main actor and called off it, or an `Observed` made
/// there and set off it, is reported on standard error once per call site, and nothing is reported
/// for correct or nonisolated code. Each case runs in a child process,
/// which has its own once-per-call-site table and whose standard error the test reads; the child
/// prints the line of the start it made on standard output.
@Suite struct ActorCheckTests {
    #if DEBUG
    @Test func aStartHandlerCalledOffTheMainActorIsReportedOnceWithItsCallSite() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let line = await MainActor.run { ActorCheckSites.startOffTheMainActor(times: 3) }
            print(line)
        }
        let (line, reports) = try #require(Self.outcome(of: result))
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(
            report.contains(
                "the handler given to `start` at ReceiverSignalKitTests/ActorCheckTests.swift:\(line) on the main actor is called off the main actor"
            ))
        #expect(report.contains("Put `|> deliverOnMainQueue` before it"))
        #expect(report.contains("call `start` from `nonisolated` code"))
        #expect(report.contains("RECEIVER_ACTOR_CHECK=off"))
    }

    @Test func aCallSiteThatStartsAThousandTimesIsReportedOnce() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog(seconds: 60)
            let line = await MainActor.run { ActorCheckSites.startOffTheMainActor(times: 1_000) }
            print(line)
        }
        let (line, reports) = try #require(Self.outcome(of: result))
        #expect(reports.count == 1)
        #expect(reports.first?.contains("ActorCheckTests.swift:\(line) ") == true)
    }

    @Test func startStandaloneAndStartStrictAreCheckedAndNamed() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let line = await MainActor.run { ActorCheckSites.startStandaloneAndStrictOffTheMainActor() }
            print(line)
        }
        let (line, reports) = try #require(Self.outcome(of: result))
        #expect(reports.count == 2)
        #expect(
            reports.contains {
                $0.contains("given to `startStandalone` at ReceiverSignalKitTests/ActorCheckTests.swift:\(line) ")
            })
        // `startStrict` keeps SwiftSignalKit's `#file`, which in the Swift 6 mode is `#fileID`.
        #expect(
            reports.contains {
                $0.contains("given to `startStrict` at ReceiverSignalKitTests/ActorCheckTests.swift:\(line + 1) ")
            })
    }

    @Test func correctAndNonisolatedCodeIsNotReported() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            // Delivered on the main queue, so on the main actor: correct.
            let arrived = DispatchSemaphore(value: 0)
            await MainActor.run { ActorCheckSites.startDeliveredOnMain(arrived) }
            arrived.wait()
            // Started from nonisolated code, on the main actor's thread: the handler is nobody's.
            await MainActor.run { _ = ActorCheckSites.startFromNonisolatedCode(times: 3) }
            // Started off any actor.
            _ = ActorCheckSites.startFromNonisolatedCode(times: 3)
            print(0)
        }
        let (_, reports) = try #require(Self.outcome(of: result))
        #expect(reports.isEmpty)
    }

    // A known limit, documented: a `@Sendable` closure written on the main actor is not main-actor
    // code, but its type keeps no actor at run time, so it is checked as the caller's.
    @Test func aSendableHandlerWrittenOnTheMainActorIsCheckedAsTheCallers() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let line = await MainActor.run { ActorCheckSites.startSendableOffTheMainActor() }
            print(line)
        }
        let (line, reports) = try #require(Self.outcome(of: result))
        #expect(reports.count == 1)
        #expect(reports.first?.contains("ActorCheckTests.swift:\(line) ") == true)
    }

    @Test func theOffSwitchTurnsTheCheckOff() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            setenv("RECEIVER_ACTOR_CHECK", "off", 1)  // read at the first check
            let line = await MainActor.run { ActorCheckSites.startOffTheMainActor(times: 3) }
            print(line)
        }
        let (_, reports) = try #require(Self.outcome(of: result))
        #expect(reports.isEmpty)
    }

    @Test func theFatalOptInStopsTheProgramWithTheReport() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            startWatchdog()
            setenv("RECEIVER_ACTOR_CHECK", "fatal", 1)
            _ = await MainActor.run { ActorCheckSites.startOffTheMainActor(times: 1) }
            print("went on")
        }
        let error = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(error.contains("the handler given to `start` at ReceiverSignalKitTests/ActorCheckTests.swift:"))
        #expect(error.contains("is called off the main actor"))
        #expect(!error.contains("watchdog"))
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedSignalSetOffTheMainActorIsReportedOnceWithItsCallSite() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let line = await MainActor.run { ActorCheckSites.observeOffTheMainActor(times: 3) }
            print(line)
        }
        let (line, reports) = try #require(Self.outcome(of: result))
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(
            report.contains(
                "the `Observed` made by `observed(initial:)` at ReceiverSignalKitTests/ActorCheckTests.swift:\(line) on the main actor has its value set off the main actor"
            ))
        #expect(report.contains("Put `|> deliverOnMainQueue` before it"))
        #expect(report.contains("call `observed(initial:)` from `nonisolated` code"))
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedSignalDeliveredOnMainOrMadeInNonisolatedCodeIsNotReported() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let arrived = DispatchSemaphore(value: 0)
            let observed = await MainActor.run { ActorCheckSites.observeDeliveredOnMain(arrived) }
            arrived.wait()
            precondition(observed.value == 1)
            await MainActor.run { _ = ActorCheckSites.observeFromNonisolatedCode(times: 3) }
            _ = ActorCheckSites.observeFromNonisolatedCode(times: 3)
            print(0)
        }
        let (_, reports) = try #require(Self.outcome(of: result))
        #expect(reports.isEmpty)
    }

    /// The line the child printed, and each report on its standard error.
    static func outcome(of result: ExitTest.Result?) -> (line: Int, reports: [Substring])? {
        guard let result else { return nil }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        let error = String(decoding: result.standardErrorContent, as: UTF8.self)
        guard let line = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        return (line, error.split(separator: "\n").filter { $0.hasPrefix("Receiver actor check:") })
    }
    #endif
}

/// Call sites for the checker's cases: each returns the line of its start.
enum ActorCheckSites {
    /// Starts a signal delivered on a queue of its own `times` times on the main actor, from one
    /// call site, and waits for each value: the handler, main-actor code, runs off the main actor.
    @MainActor static func startOffTheMainActor(times: Int) -> Int {
        let (queue, arrived) = (Queue(name: "ActorCheckTests"), DispatchSemaphore(value: 0))
        for _ in 0..<times {
            (Signal<Int, NoError>.single(1) |> deliverOn(queue)).start(next: { _ in arrived.signal() })
            arrived.wait()
        }
        return #line - 3
    }

    /// The same with `startStandalone` (on the returned line) and `startStrict` (on the next).
    @MainActor static func startStandaloneAndStrictOffTheMainActor() -> Int {
        let (queue, arrived) = (Queue(name: "ActorCheckTests"), DispatchSemaphore(value: 0))
        (Signal<Int, NoError>.single(1) |> deliverOn(queue)).startStandalone(next: { _ in arrived.signal() })
        let strict = (Signal<Int, NoError>.single(1) |> deliverOn(queue)).startStrict(next: { _ in arrived.signal() })
        arrived.wait()
        arrived.wait()
        strict.dispose()
        return #line - 5
    }

    /// Starts a signal delivered on a queue of its own with a `@Sendable` handler, on the main actor.
    @MainActor static func startSendableOffTheMainActor() -> Int {
        let arrived = DispatchSemaphore(value: 0)
        let handler: @Sendable (Int) -> Void = { _ in arrived.signal() }
        (Signal<Int, NoError>.single(1) |> deliverOn(Queue(name: "ActorCheckTests"))).start(next: handler)
        arrived.wait()
        return #line - 2
    }

    /// Starts a signal delivered on the main queue: correct main-actor code.
    @MainActor static func startDeliveredOnMain(_ arrived: DispatchSemaphore) {
        (Signal<Int, NoError>.single(1) |> deliverOn(Queue(name: "ActorCheckTests")) |> deliverOnMainQueue)
            .start(next: { _ in arrived.signal() })
    }

    /// Observes a signal delivered on a queue of its own `times` times on the main actor, from one
    /// call site, and waits for each value: the `Observed` is set off the main actor.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor static func observeOffTheMainActor(times: Int) -> Int {
        let (queue, arrived) = (Queue(name: "ActorCheckTests"), DispatchSemaphore(value: 0))
        for _ in 0..<times {
            let signal = Signal<Int, NoError>.single(1) |> deliverOn(queue) |> afterNext { _ in arrived.signal() }
            let observed = signal.observed(initial: 0)
            arrived.wait()
            precondition(observed.value == 1)
        }
        return #line - 4
    }

    /// Observes a signal delivered on the main queue: correct. `arrived` is signalled once the
    /// value is set.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @MainActor static func observeDeliveredOnMain(_ arrived: DispatchSemaphore) -> Observed<Int> {
        (Signal<Int, NoError>.single(1) |> deliverOn(Queue(name: "ActorCheckTests")) |> deliverOnMainQueue
            |> afterNext { _ in arrived.signal() }).observed(initial: 0)
    }

    /// Observes a signal delivered on a queue of its own from nonisolated code: nothing to check.
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    nonisolated static func observeFromNonisolatedCode(times: Int) -> Int {
        let (queue, arrived) = (Queue(name: "ActorCheckTests"), DispatchSemaphore(value: 0))
        for _ in 0..<times {
            let signal = Signal<Int, NoError>.single(1) |> deliverOn(queue) |> afterNext { _ in arrived.signal() }
            let observed = signal.observed(initial: 0)
            arrived.wait()
            precondition(observed.value == 1)
        }
        return #line - 4
    }

    /// Starts a signal delivered on a queue of its own from nonisolated code: nothing to check.
    nonisolated static func startFromNonisolatedCode(times: Int) -> Int {
        let (queue, arrived) = (Queue(name: "ActorCheckTests"), DispatchSemaphore(value: 0))
        for _ in 0..<times {
            (Signal<Int, NoError>.single(1) |> deliverOn(queue)).start(next: { _ in arrived.signal() })
            arrived.wait()
        }
        return #line - 3
    }
}
