import Foundation
import Receiver
import ReceiverSignalKitTesting
import Testing

/// "No user code under a lock — deinit included" (the threading contract, Threading and
/// Re-entrancy article, Sources/Receiver/Receiver.docc/ThreadingAndReentrancy.md): for each place
/// the pair lets go of something, an object released there whose `deinit` calls `broadcast`,
/// `listen` or `dispose` on the same pair. Each runs in an exit test with a watchdog, so a deinit that runs
/// under the pair's lock (and so deadlocks on it) fails the test instead of hanging the suite.
/// Inside, a broken expectation exits with 3 and says why on stderr; the watchdog exits with 2.
@Suite(.detectingLeaks) struct DeinitReentryTests {
    @Test(arguments: Reentry.allCases)
    func aWaveTheWarmRingOverwritesMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.warm(upTo: 1))
            scene.transmitter.broadcast(Payload(1) { [unowned scene] in scene.reenter(reentry) })
            scene.transmitter.broadcast(Payload(2))  // the ring lets go of wave 1
            scene.transmitter.broadcast(Payload(3))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [1, 2, 100, 3])
            case .listen: scene.require(scene.late == [2, 3])  // the ring's wave 2, then live
            case .dispose: scene.require(scene.seen == [1] || scene.seen == [1, 2])
            }
        }
        explain(result)
    }

    @Test(arguments: Reentry.allCases)
    func aQueuedWaveJustDeliveredMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.hot)
            // Broadcast from a handler, wave 2 is queued: once delivered, only the pair holds it.
            scene.receiver.listen { [unowned scene] wave in
                if wave.id == 1 {
                    scene.transmitter.broadcast(Payload(2) { [unowned scene] in scene.reenter(reentry) })
                }
            }
            scene.transmitter.broadcast(Payload(1))
            scene.transmitter.broadcast(Payload(3))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [1, 2, 100, 3])
            case .listen: scene.require(scene.late == [3])
            case .dispose: scene.require(scene.seen == [1, 2])
            }
        }
        explain(result)
    }

    @Test(arguments: Reentry.allCases)
    func aQueuedWaveNobodyReceivesMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.hot, watching: false)
            // Wave 2 is queued, then its only listener leaves and the watcher joins after it: no
            // handler call holds wave 2, only the pair, which lets go of it once delivery moves on.
            final class Slot { var disposable: (any Disposable)? }
            let slot = Slot()
            slot.disposable = scene.receiver.listen { [unowned scene] wave in
                guard wave.id == 1 else { return }
                scene.transmitter.broadcast(Payload(2) { [unowned scene] in scene.reenter(reentry) })
                slot.disposable?.dispose()
                scene.watch()
            }
            scene.transmitter.broadcast(Payload(1))
            scene.transmitter.broadcast(Payload(3))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [100, 3])
            case .listen: scene.require(scene.late == [3])
            case .dispose: scene.require(scene.seen == [])
            }
        }
        explain(result)
    }

    @Test(arguments: Reentry.allCases)
    func aQueuedWaveNobodyReceivesWithOthersQueuedAfterItMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.hot, watching: false)
            // Waves 2, 3 and 4 are queued, then their only listener leaves and the watcher joins
            // after them: none reaches anyone, so the delivery lets go of wave 2 while it moves on
            // through 3 and 4.
            final class Slot { var disposable: (any Disposable)? }
            let slot = Slot()
            slot.disposable = scene.receiver.listen { [unowned scene] wave in
                guard wave.id == 1 else { return }
                scene.transmitter.broadcast(Payload(2) { [unowned scene] in scene.reenter(reentry) })
                scene.transmitter.broadcast(Payload(3))
                scene.transmitter.broadcast(Payload(4))
                slot.disposable?.dispose()
                scene.watch()
            }
            scene.transmitter.broadcast(Payload(1))
            scene.transmitter.broadcast(Payload(5))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [100, 5])
            case .listen: scene.require(scene.late == [5])
            case .dispose: scene.require(scene.seen == [])
            }
        }
        explain(result)
    }

    @Test(arguments: Reentry.allCases)
    func aWaveInTheDrainedQueueMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.hot)
            // Waves 2, 3, 4 queued together; 2 is let go of while 3 and 4 wait, or with the queue.
            scene.receiver.listen { [unowned scene] wave in
                guard wave.id == 1 else { return }
                scene.transmitter.broadcast(Payload(2) { [unowned scene] in scene.reenter(reentry) })
                scene.transmitter.broadcast(Payload(3))
                scene.transmitter.broadcast(Payload(4))
            }
            scene.transmitter.broadcast(Payload(1))
            scene.transmitter.broadcast(Payload(5))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [1, 2, 3, 4, 100, 5])
            case .listen: scene.require(scene.late == [5])
            case .dispose: scene.require([[1, 2], [1, 2, 3], [1, 2, 3, 4]].contains(scene.seen))
            }
        }
        explain(result)
    }

    @Test(arguments: Reentry.allCases)
    func aDisposedListenersHandlerMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.hot)
            var captured: Payload? = Payload(0) { [unowned scene] in scene.reenter(reentry) }
            let listener = scene.receiver.listen { [captured] _ in _ = captured }
            captured = nil
            scene.transmitter.broadcast(Payload(1))
            listener.dispose()  // lets go of the handler, and of what it captured
            scene.transmitter.broadcast(Payload(3))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [1, 100, 3])
            case .listen: scene.require(scene.late == [3])
            case .dispose: scene.require(scene.seen == [1])
            }
        }
        explain(result)
    }

    @Test(arguments: Reentry.allCases)
    func aListenerDisposingItselfDuringDeliveryMayReenter(_ reentry: Reentry) async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) { [reentry] in
            Watchdog.start(seconds: 10)
            let scene = Scene(.hot)
            final class Slot { var disposable: (any Disposable)? }
            let slot = Slot()
            var captured: Payload? = Payload(0) { [unowned scene] in scene.reenter(reentry) }
            slot.disposable = scene.receiver.listen { [captured] wave in
                _ = captured
                if wave.id == 1 { slot.disposable?.dispose() }
            }
            captured = nil
            scene.transmitter.broadcast(Payload(1))
            scene.transmitter.broadcast(Payload(3))
            switch reentry {
            case .broadcast: scene.require(scene.seen == [1, 100, 3])
            case .listen: scene.require(scene.late == [3])
            case .dispose: scene.require(scene.seen == [1])
            }
        }
        explain(result)
    }

    /// At the pair's end nothing can broadcast into it or listen to it any more (the transmitter is
    /// going, and every receiver is gone), but a disposable of the pair still works: its kept
    /// waves and handlers are let go of, and their deinits dispose listeners of the same pair.
    @Test func whatThePairHeldAtItsEndMayDisposeItsListeners() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
            Watchdog.start(seconds: 10)
            final class Count { var value = 0 }
            let released = Count()
            do {
                let (transmitter, receiver) = Receiver<Payload>.make(with: .warm(upTo: 1))
                let first = receiver.listen { _ in }
                let second = receiver.listen { _ in }
                transmitter.broadcast(
                    Payload(1) {
                        first.dispose()
                        released.value += 1
                    })  // kept in the ring
                var captured: Payload? = Payload(2) {
                    second.dispose()
                    released.value += 1
                }
                receiver.listen { [captured] _ in _ = captured }
                captured = nil
            }
            if released.value != 2 {
                complain("expected both deinits to have run at the pair's end, ran \(released.value)")
                exit(3)
            }
        }
        explain(result)
    }
}

/// What a released object's `deinit` does to its own pair. Codable, to be captured by exit tests.
enum Reentry: String, Codable, Sendable, CaseIterable {
    /// Broadcasts wave 100 into the pair.
    case broadcast
    /// Starts a new listener (`Scene.late`) on the pair.
    case listen
    /// Disposes the pair's first listener (`Scene.seen` stops growing).
    case dispose
}

/// A wave (or anything a handler captures) that runs `onDeinit` when released.
private final class Payload {
    let id: Int
    let onDeinit: (() -> Void)?

    init(_ id: Int, onDeinit: (() -> Void)? = nil) { (self.id, self.onDeinit) = (id, onDeinit) }

    deinit { onDeinit?() }
}

/// A pair with a listener (usually its first) that records what it sees, and what a deinit does to it.
private final class Scene {
    let transmitter: Receiver<Payload>.Transmitter
    let receiver: Receiver<Payload>
    var seen: [Int] = []
    var late: [Int]?  // the listener a deinit started, if any
    private var watcher: (any Disposable)?
    private var reentered = false

    init(_ strategy: Receiver<Payload>.Strategy, watching: Bool = true) {
        (transmitter, receiver) = Receiver<Payload>.make(with: strategy)
        if watching { watch() }
    }

    /// Starts the listener that records into `seen`.
    func watch() {
        watcher = receiver.listen { [unowned self] in seen.append($0.id) }
    }

    func reenter(_ reentry: Reentry) {
        reentered = true
        switch reentry {
        case .broadcast: transmitter.broadcast(Payload(100))
        case .listen:
            late = []
            receiver.listen { [unowned self] in late?.append($0.id) }
        case .dispose: watcher?.dispose()
        }
    }

    /// Exits with 3, saying what was seen, unless `condition` holds and a deinit re-entered.
    func require(_ condition: Bool, line: Int = #line) {
        if reentered, condition { return }
        complain("line \(line): re-entered: \(reentered), seen: \(seen), late: \(late.map(\.description) ?? "none")")
        exit(3)
    }
}

/// Exits the process with 2 after `seconds`: a deadlock fails its exit test instead of hanging.
private enum Watchdog {
    static func start(seconds: UInt32) {
        Thread {
            sleep(seconds)
            complain("watchdog: still running after \(seconds) s (a deinit deadlocked on the pair's lock?)")
            _exit(2)
        }.start()
    }
}

private func complain(_ message: String) {
    FileHandle.standardError.write(Data((message + "\n").utf8))
}

/// Shows the child's stderr when an exit test did not succeed.
private func explain(_ result: ExitTest.Result?) {
    guard let result else { return }
    if case .exitCode(EXIT_SUCCESS) = result.exitStatus { return }
    Issue.record("exit status \(result.exitStatus): \(String(decoding: result.standardErrorContent, as: UTF8.self))")
}
