import Dispatch
import Foundation
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// A disposable written as most are: its `dispose()` is not thread-safe (a plain count, read then
/// written), so two calls at once are a data race that the thread sanitizer reports. `calls`
/// counts the calls under a lock as well, so that a second call shows even when the plain count
/// lost an update.
///
/// Made with `holdingFirstCall`, its first `dispose()` waits, once entered, until
/// ``releaseFirstCall()``: whatever runs meanwhile runs while that call is still in progress, so a
/// race becomes a fixed order. Made with `yields`, each call gives up the processor that many
/// times before it counts, as a `dispose()` that does some work would: races meet more often.
final class UnsafeCountingDisposable: Disposable, @unchecked Sendable {
    private(set) var plainCount = 0  // unsynchronised on purpose
    private let entries = Atomic(value: 0)
    private let holdsFirstCall: Bool
    private let yields: Int
    private let entered = DispatchSemaphore(value: 0)
    private let released = DispatchSemaphore(value: 0)

    init(holdingFirstCall: Bool = false, yields: Int = 0) { (holdsFirstCall, self.yields) = (holdingFirstCall, yields) }

    var calls: Int { entries.with { $0 } }

    func dispose() {
        let entry = entries.modify { $0 + 1 }
        if holdsFirstCall, entry == 1 {
            entered.signal()
            released.wait()
        }
        let count = plainCount
        for _ in 0..<yields { sched_yield() }
        plainCount = count + 1
    }

    /// Waits until the first `dispose()` has begun.
    func waitUntilFirstCallEntered() { entered.wait() }

    /// Lets the first `dispose()` return.
    func releaseFirstCall() { released.signal() }
}

/// The disposable a generator returns is disposed exactly once, never twice and never by two
/// threads at once, whichever of the start's `dispose()` and its end (a terminal event, or its
/// source letting go of the subscriber) comes first — including when one happens while the
/// other is still running (the migration guide's "Disposed once" row).
@Suite(.detectingLeaks) struct DisposalRaceTests {
    enum End: CaseIterable, Sendable, CustomStringConvertible {
        case completion, error, release

        var description: String {
            switch self {
            case .completion: "putCompletion"
            case .error: "putError"
            case .release: "the source letting go of its subscriber"
            }
        }
    }

    /// A start whose generator returns `disposable` and hands its subscriber to the caller, who is
    /// then the only holder of it (the source).
    private static func start(
        returning disposable: any Disposable, error: ((TestError) -> Void)? = nil, completed: (() -> Void)? = nil
    ) -> (start: any Disposable, subscriber: Atomic<Subscriber<Int, TestError>?>) {
        let held = Atomic<Subscriber<Int, TestError>?>(value: nil)
        let start = Signal<Int, TestError> { subscriber in
            held.swap(subscriber)
            return disposable
        }.start(error: error, completed: completed)
        return (start, held)
    }

    /// Ends the start the way `end` says, through the subscriber in `held`.
    private static func end(_ end: End, _ held: Atomic<Subscriber<Int, TestError>?>) {
        switch end {
        case .completion: held.with { $0 }?.putCompletion()
        case .error: held.with { $0 }?.putError(TestError(code: 1))
        case .release: held.swap(nil)  // released here, after unlocking
        }
    }

    /// The terminal handler runs on one thread; `dispose()` is called on another meanwhile, and is
    /// still disposing when the handler returns: the terminal path must leave the disposable to it.
    @Test(arguments: [End.completion, .error])
    func aTerminalEventWhileTheStartIsDisposedDisposesOnce(_ end: End) {
        let disposable = UnsafeCountingDisposable(holdingFirstCall: true)
        let inHandler = DispatchSemaphore(value: 0)
        let handler = {
            inHandler.signal()
            disposable.waitUntilFirstCallEntered()  // `dispose()` below is now disposing
        }
        let (start, held) = Self.start(returning: disposable, error: { _ in handler() }, completed: handler)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Self.end(end, held)
            disposable.releaseFirstCall()
            ended.signal()
        }
        inHandler.wait()
        start.dispose()  // returns once the terminal thread released the first call
        ended.wait()
        #expect(disposable.calls == 1)
        #expect(disposable.plainCount == 1)
    }

    /// The source lets go of its subscriber while `dispose()` is disposing: the disposable is
    /// `dispose()`'s alone.
    @Test func theSourceLettingGoWhileTheStartIsDisposedDisposesOnce() {
        let disposable = UnsafeCountingDisposable(holdingFirstCall: true)
        let (start, held) = Self.start(returning: disposable)
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            disposable.waitUntilFirstCallEntered()
            Self.end(.release, held)
            disposable.releaseFirstCall()
            ended.signal()
        }
        start.dispose()
        ended.wait()
        #expect(disposable.calls == 1)
        #expect(disposable.plainCount == 1)
    }

    /// Each end raced against `dispose()` as it comes, many times, on two threads that meet at a
    /// barrier before each round: exactly one call every time.
    @Test(arguments: End.allCases)
    func anEndRacingDisposeDisposesOnce(_ end: End) {
        let rounds = 2_000
        let racer = Racer()
        var others = 0
        for _ in 0..<rounds {
            let disposable = UnsafeCountingDisposable(yields: 3)
            let handler = { for _ in 0..<3 { sched_yield() } }  // a handler that does some work
            let (start, held) = Self.start(returning: disposable, error: { _ in handler() }, completed: handler)
            racer.race({ Self.end(end, held) }, against: { start.dispose() })
            if disposable.calls != 1 { others += 1 }
        }
        racer.finish()
        #expect(others == 0, "disposed other than once in \(others) of \(rounds) races with \(end)")
    }
}

/// Runs two closures at the same moment, one on a thread of its own and one on the caller's: both
/// threads meet at a barrier (spinning, so that neither is still waking up when the other runs).
final class Racer: @unchecked Sendable {
    private let work = Atomic<(() -> Void)?>(value: nil)
    private let arrived = Atomic(value: 0)
    private let ready = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let isFinished = Atomic(value: false)

    init() {
        Thread.detachNewThread { [self] in
            while true {
                ready.wait()
                if isFinished.with({ $0 }) {
                    done.signal()
                    return
                }
                let other = work.swap(nil)
                meet()
                other?()
                done.signal()
            }
        }
    }

    /// Runs `first` on the racer's thread and `second` on this one, together; returns when both
    /// have returned.
    func race(_ first: @escaping () -> Void, against second: () -> Void) {
        work.swap(first)
        arrived.swap(0)
        ready.signal()
        meet()
        second()
        done.wait()
    }

    /// Stops the racer's thread.
    func finish() {
        isFinished.swap(true)
        ready.signal()
        done.wait()
    }

    /// Waits until both threads are here.
    private func meet() {
        arrived.modify { $0 + 1 }
        while arrived.with({ $0 }) < 2 { sched_yield() }
    }
}
