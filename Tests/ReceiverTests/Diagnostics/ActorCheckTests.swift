import Dispatch
import Foundation
import Receiver
import Testing

/// The actor checker of debug builds, for the core's `listen`: a handler given on the main actor
/// and called off it is reported on standard error once per call site; broadcasting on the main
/// actor, or listening from nonisolated code, is not reported. Each case runs in a child process,
/// whose standard error the test reads; the child prints the line of its `listen` on standard
/// output.
@Suite struct ActorCheckTests {
    #if DEBUG
    @Test func aListenerCalledOffTheMainActorIsReportedOnceWithItsCallSite() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let (transmitter, line) = await MainActor.run { ListenSites.listenOnTheMainActor() }
            for wave in 0..<100 { DispatchQueue.global().sync { transmitter.broadcast(wave) } }
            print(line)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let line = try #require(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)))
        let reports = Self.reports(in: result)
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(
            report.contains(
                "the handler given to `listen` at ReceiverTests/ActorCheckTests.swift:\(line) on the main actor is called off the main actor"
            ))
        #expect(report.contains("Broadcast on the main actor"))
        #expect(report.contains("call `listen` from `nonisolated` code"))
    }

    @Test func broadcastingOnTheMainActorOrListeningFromNonisolatedCodeIsNotReported() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            startWatchdog()
            let (transmitter, _) = await MainActor.run { ListenSites.listenOnTheMainActor() }
            await MainActor.run { for wave in 0..<100 { transmitter.broadcast(wave) } }
            let other = ListenSites.listenFromNonisolatedCode()
            for wave in 0..<100 { DispatchQueue.global().sync { other.broadcast(wave) } }
        }
        #expect(Self.reports(in: result).isEmpty)
    }

    static func reports(in result: ExitTest.Result?) -> [Substring] {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("Receiver actor check:") }
    }
    #endif
}

/// Call sites for the checker's cases.
enum ListenSites {
    /// A pair listened to on the main actor, and the line of the `listen`.
    @MainActor static func listenOnTheMainActor() -> (Receiver<Int>.Transmitter, Int) {
        let (transmitter, receiver) = Receiver<Int>.make()
        var sum = 0
        receiver.listen { sum += $0 }
        return (transmitter, #line - 1)
    }

    /// A pair listened to by nonisolated code.
    static func listenFromNonisolatedCode() -> Receiver<Int>.Transmitter {
        let (transmitter, receiver) = Receiver<Int>.make()
        var sum = 0
        receiver.listen { sum += $0 }
        return transmitter
    }
}
