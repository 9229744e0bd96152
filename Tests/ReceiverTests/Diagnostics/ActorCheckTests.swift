import Dispatch
import Foundation
import Receiver
import Testing

/// The actor checker of debug builds, for the core's `listen` and `observed(initial:)`: a handler
/// given on the main actor and called off it, or an `Observed` made there and set off it, is
/// reported on standard error once per call site; broadcasting on the main actor, or listening
/// from nonisolated code, is not reported. Each case runs in a child process, whose standard error
/// the test reads; the child prints the line of its call on standard output.
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

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedMadeOnTheMainActorAndSetOffItIsReportedOnceWithItsCallSite() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            startWatchdog()
            let (transmitter, observed, line) = await MainActor.run { ObservedSites.observeOnTheMainActor() }
            for wave in 1...100 { DispatchQueue.global().sync { transmitter.broadcast(wave) } }
            precondition(observed.value == 100)
            print(line)
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        let line = try #require(Int(output.trimmingCharacters(in: .whitespacesAndNewlines)))
        let reports = Self.reports(in: result)
        #expect(reports.count == 1)
        let report = try #require(reports.first)
        #expect(
            report.contains(
                "the `Observed` made by `observed(initial:)` at ReceiverTests/ActorCheckTests.swift:\(line) on the main actor has its value set off the main actor"
            ))
        #expect(report.contains("SwiftUI reads that value on the main actor"))
        #expect(report.contains("Broadcast on the main actor"))
        #expect(report.contains("call `observed(initial:)` from `nonisolated` code"))
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedSetOnTheMainActorOrMadeInNonisolatedCodeIsNotReported() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            startWatchdog()
            let (transmitter, observed, _) = await MainActor.run { ObservedSites.observeOnTheMainActor() }
            await MainActor.run { for wave in 1...100 { transmitter.broadcast(wave) } }
            let (other, otherObserved) = ObservedSites.observeFromNonisolatedCode()
            for wave in 1...100 { DispatchQueue.global().sync { other.broadcast(wave) } }
            precondition(observed.value == 100 && otherObserved.value == 100)
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

/// Call sites of `observed(initial:)` for the checker's cases.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum ObservedSites {
    /// An `Observed` of a pair, made on the main actor, and the line that made it.
    @MainActor static func observeOnTheMainActor() -> (Receiver<Int>.Transmitter, Observed<Int>, Int) {
        let (transmitter, receiver) = Receiver<Int>.make()
        let observed = receiver.observed(initial: 0)
        return (transmitter, observed, #line - 1)
    }

    /// An `Observed` of a pair, made by nonisolated code.
    static func observeFromNonisolatedCode() -> (Receiver<Int>.Transmitter, Observed<Int>) {
        let (transmitter, receiver) = Receiver<Int>.make()
        return (transmitter, receiver.observed(initial: 0))
    }
}
