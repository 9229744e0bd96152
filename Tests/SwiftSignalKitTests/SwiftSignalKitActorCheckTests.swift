// What a SwiftSignalKit app in the Swift 5 mode sees of the actor checker of debug builds: code
// on no actor (free functions, plain classes) is never reported; a main-actor controller (every
// UIViewController subclass is one) whose handler runs on a background queue is, once, at its
// `startStrict` call, named "Module/File.swift" as in the Swift 6 mode (the `#file` default
// argument takes the meaning of the library's module, not the caller's). Each case runs in a
// child process whose standard error the test reads.
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

    static func reports(in result: ExitTest.Result?) -> [Substring] {
        return String(decoding: result?.standardErrorContent ?? [], as: UTF8.self).split(separator: "\n")
            .filter { $0.hasPrefix("Receiver actor check:") }
    }
    #endif
}
