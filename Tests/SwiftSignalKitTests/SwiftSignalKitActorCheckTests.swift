// What a SwiftSignalKit app in the Swift 5 mode sees of the actor checker of debug builds: code
// on no actor (free functions, plain classes) is never reported; a main-actor controller (every
// UIViewController subclass is one) whose handler runs on a background queue is, once, at its
// `startStrict` call, named "Module/File.swift" as in the Swift 6 mode (the `#file` default
// argument takes the meaning of the library's module, not the caller's), and so is its
// `observed(initial:)` of a signal sent on a background queue. Each case runs in a child process
// whose standard error the test reads.
import Foundation
import SwiftSignalKit
import Testing

private let background = Queue(name: "SwiftSignalKitActorCheckTests")

/// A controller as Telegram writes them: on the main actor, its handler on a background queue.
@MainActor private final class ProfileController {
    var loaded = 0

    func viewDidLoad(_ done: DispatchSemaphore) -> Disposable {
        return (Signal<Int, NoError>.single(1) |> deliverOn(background)).startStrict(next: { value in
            self.loaded += value
            done.signal()
        })
    }
    nonisolated static let startLine = #line - 5
}

/// A screen's model, on the main actor, that shows a signal sent on a background queue.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor private final class ProfileScreen {
    nonisolated let name: Observed<Int>

    init(_ done: DispatchSemaphore) {
        let profile = Signal<Int, NoError>.single(1) |> deliverOn(background) |> afterNext { _ in done.signal() }
        name = profile.observed(initial: 0)
    }
    nonisolated static let observedLine = #line - 2
}

/// The same in a plain class: on no actor.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
private final class ProfileFeed {
    let name: Observed<Int>

    init(_ done: DispatchSemaphore) {
        let profile = Signal<Int, NoError>.single(1) |> deliverOn(background) |> afterNext { _ in done.signal() }
        name = profile.observed(initial: 0)
        // A reference to `observed(initial:)` keeps SwiftSignalKit-era code's type.
        let observe: (Int) -> Observed<Int> = Signal<Int, NoError>.single(1).observed(initial:)
        precondition(observe(0).value == 1)
    }
}

/// The same start in a plain class: on no actor.
private final class ProfileLoader {
    func load(_ done: DispatchSemaphore) -> Disposable {
        return (Signal<Int, NoError>.single(1) |> deliverOn(background)).startStrict(next: { _ in done.signal() })
    }
}

@Suite struct SwiftSignalKitActorCheckTests {
    #if DEBUG
    @Test func aMainActorControllerWithABackgroundHandlerIsReportedOnce() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let done = DispatchSemaphore(value: 0)
            let disposables = await MainActor.run { () -> [Disposable] in
                let controller = ProfileController()
                return [controller.viewDidLoad(done), controller.viewDidLoad(done)]
            }
            done.wait()
            done.wait()
            disposables.forEach { $0.dispose() }
        }
        let reports = Self.reports(in: result)
        #expect(reports.count == 1)
        #expect(
            reports.first?.contains(
                "given to `startStrict` at SwiftSignalKitTests/SwiftSignalKitActorCheckTests.swift:\(ProfileController.startLine) on the main actor"
            ) == true)
    }

    @Test func codeOnNoActorIsNotReported() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let done = DispatchSemaphore(value: 0)
            let disposable = ProfileLoader().load(done)
            done.wait()
            disposable.dispose()
        }
        #expect(Self.reports(in: result).isEmpty)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func aMainActorScreenObservingABackgroundSignalIsReportedOnce() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let done = DispatchSemaphore(value: 0)
            let screens = await MainActor.run { [ProfileScreen(done), ProfileScreen(done)] }
            done.wait()
            done.wait()
            precondition(screens.allSatisfy { $0.name.value == 1 })
        }
        let reports = Self.reports(in: result)
        #expect(reports.count == 1)
        #expect(
            reports.first?.contains(
                "made by `observed(initial:)` at SwiftSignalKitTests/SwiftSignalKitActorCheckTests.swift:\(ProfileScreen.observedLine) on the main actor"
            ) == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
    @Test func anObservedOnNoActorIsNotReported() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            let done = DispatchSemaphore(value: 0)
            let feed = ProfileFeed(done)
            done.wait()
            precondition(feed.name.value == 1)
        }
        #expect(Self.reports(in: result).isEmpty)
    }

    static func reports(in result: ExitTest.Result?) -> [Substring] {
        return String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("Receiver actor check:") }
    }
    #endif
}
