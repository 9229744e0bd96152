// Leak detection: `detectLeaks` and the `.detectingLeaks` trait report exactly the starts and
// listeners still live when the checked code ends, each at its own call, and tests running at
// the same time do not see each other's. (Debug builds only, as `swift test` builds.)

import Dispatch
import ReceiverSignalKitTesting
import TestSupport
import Testing

@testable import ReceiverSignalKit

@Suite(.detectingLeaks) struct LeakDetectionTests {
    // MARK: what is a leak

    @Test func aStartOnASourceThatOutlivesTheCodeIsALeakAtItsLine() {
        let pipe = ValuePipe<Int>()
        let leaks = detectLeaks {
            pipe.signal().start(next: { _ in })
        }
        #expect(leaks.map(\.line) == [#line - 2])
        #expect(leaks.map(\.fileID) == [#fileID])
        #expect(leaks.first?.description.contains("start of Signal<Int, Never>") == true)
        #expect(leaks.first?.description.contains("\(#fileID):\(#line - 5)") == true)
    }

    @Test func disposedTerminatedAndReleasedStartsAreNotLeaks() {
        let pipe = ValuePipe<Int>()
        let leaks = detectLeaks {
            pipe.signal().start(next: { _ in }).dispose()  // disposed
            Signal<Int, NoError>.single(1).start(next: { _ in })  // terminated at once
            (pipe.signal() |> take(1)).start(next: { _ in })
            pipe.putNext(1)  // terminated later
            let local = ValuePipe<Int>()
            local.signal().start(next: { _ in })  // its source is released with the code
            Signal<Int, NoError>.never().start(next: { _ in })  // its source never held it
        }
        #expect(leaks == [])
    }

    @Test func everyStartFormIsSeen() {
        let pipe = ValuePipe<Int>()
        var strict: (any Disposable)?
        let leaks = detectLeaks {
            pipe.signal().start()  // no handlers
            pipe.signal().startStandalone(next: { _ in })
            strict = pipe.signal().startStrict(error: { _ in })
        }
        #expect(leaks.map(\.line) == [#line - 4, #line - 3, #line - 2])
        strict?.dispose()  // (a StrictDisposable let go of undisposed stops the program)
    }

    @Test func aChainIsOneLeakAtTheUsersStart() {
        let promise = Promise<Int>()
        let leaks = detectLeaks {
            let disposable = (promise.get() |> map { $0 + 1 } |> filter { $0 > 0 } |> deliverOnMainQueue)
                .start(next: { _ in })
            _ = disposable
        }
        #expect(leaks.map(\.line) == [#line - 3])
    }

    @Test func listenersOfTheCoreAreSeenAndAChainOfThemOnce() {
        let (transmitter, receiver) = Receiver<Int>.make()
        let leaks = detectLeaks {
            receiver.listen { _ in }
            receiver.map { $0 * 2 }.filter { $0 > 0 }.listen { _ in }
            receiver.listen { _ in }.dispose()
            let (_, local) = Receiver<Int>.make()
            local.listen { _ in }  // its pair is released with the code
        }
        #expect(leaks.map(\.line) == [#line - 6, #line - 5])
        #expect(leaks.first?.description.contains("listener of Receiver<Int>") == true)
        _ = transmitter
    }

    @Test func aReceiversSignalIsOneStart() {
        let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
        let leaks = detectLeaks {
            (receiver.signal |> map { $0 + 1 }).start()
        }
        #expect(leaks.map(\.line) == [#line - 2])
        _ = transmitter
    }

    // MARK: a retain cycle through a start's own handlers

    /// A start that keeps its handlers in an object of its own, as `then` and `catch` did (in their
    /// StartPair), over a source that lets go of its subscriber (`never()`): when a handler holds the
    /// start's disposable through a `MetaDisposable`, nothing outside the cycle holds it, and
    /// nothing ever releases it.
    final class HandlerHolder: Disposable, @unchecked Sendable {  // (used on one thread)
        var next: ((Int) -> Void)?
        var upstream: (any Disposable)?
        init(_ next: ((Int) -> Void)?) { self.next = next }
        func dispose() {
            next = nil
            upstream?.dispose()
        }
    }

    static func holdingItsHandlers(_ signal: Signal<Int, NoError>) -> Signal<Int, NoError> {
        Signal(start: { next, _, _ in
            let holder = HandlerHolder(next)
            holder.upstream = signal.start(next: { [weak holder] in holder?.next?($0) })
            return holder
        })
    }

    @Test func aStartWhoseHandlersHoldItsOwnDisposableIsALeak() {
        weak var leaked: MetaDisposable?
        let leaks = detectLeaks {
            let cycle = MetaDisposable()
            cycle.set(Self.holdingItsHandlers(.never()).start(next: { _ in cycle.dispose() }))
            leaked = cycle
            // The same start with no cycle is released with its disposable.
            let plain = MetaDisposable()
            plain.set(Self.holdingItsHandlers(.never()).start(next: { _ in }))
        }
        #expect(leaks.map(\.line) == [#line - 6])
        #expect(leaked != nil)  // nothing but the cycle holds it
        leaked?.dispose()  // breaks the cycle
        #expect(leaked == nil)
    }

    /// `then` and `catch` over a source that lets go of its subscriber are released as a plain start
    /// is, even when a handler holds the start's own disposable: the check finds nothing. (When their
    /// handlers held the object that holds their starts, this was the cycle above.)
    @Test func thenAndCatchOverASourceThatLetsGoLeaveNoCycle() {
        let leaks = detectLeaks { () -> Void in
            let thenMeta = MetaDisposable()
            thenMeta.set((Signal<Int, NoError>.never() |> then(.single(1))).start(next: { _ in thenMeta.dispose() }))
            let catchMeta = MetaDisposable()
            catchMeta.set(
                (Signal<Int, Int>.never() |> `catch` { _ in Signal<Int, NoError>.single(1) }).start(next: { _ in
                    catchMeta.dispose()
                }))
        }
        #expect(leaks.isEmpty)
    }

    // MARK: whose starts a check sees

    @Test func aCheckInsideAnotherSeesOnlyItsOwnStarts() {
        let pipe = ValuePipe<Int>()
        var inner: [Leak] = []
        let outer = detectLeaks {
            pipe.signal().start()
            inner = detectLeaks {
                pipe.signal().start()
            }
        }
        #expect(outer.map(\.line) == [#line - 5])
        #expect(inner.map(\.line) == [#line - 4])
    }

    @Test func startsInATaskTheCodeCreatesAreSeenNotThoseOnADispatchQueue() async {
        let pipe = ValuePipe<Int>()
        let leaks = await detectLeaks {
            await Task { _ = pipe.signal().start() }.value
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    pipe.signal().start()  // no task: not seen
                    continuation.resume()
                }
            }
        }
        #expect(leaks.map(\.line) == [#line - 8])
    }

    /// Eight checks at once, each leaking at its own line: each sees its own leak only.
    @Test func checksRunningAtOnceSeeOnlyTheirOwnStarts() async {
        let pipe = ValuePipe<Int>()
        let lines = Array(1_000..<1_008)
        let results = await withTaskGroup(of: (Int, [Int]).self) { group in
            for line in lines {
                group.addTask {
                    let leaks = await detectLeaks {
                        for _ in 0..<50 {
                            _ = pipe.signal().start(line: line)
                            await Task.yield()
                            pipe.signal().start(next: { _ in }).dispose()
                        }
                    }
                    return (line, leaks.map(\.line))
                }
            }
            return await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        for line in lines { #expect(results[line] == Array(repeating: line, count: 50)) }
    }

    // Swift Testing runs these three at the same time: each check sees its own line only.
    @Test(.detectingLeaks) func parallelA() {
        let pipe = ValuePipe<Int>()
        #expect(detectLeaks { Self.sharedPipe.signal().start() }.map(\.line) == [#line])
        pipe.signal().start()  // released with the test
    }
    @Test(.detectingLeaks) func parallelB() {
        #expect(detectLeaks { Self.sharedPipe.signal().start() }.map(\.line) == [#line])
    }
    @Test(.detectingLeaks) func parallelC() async {
        #expect(
            await detectLeaks {
                await Task.yield()
                Self.sharedPipe.signal().start()
            }.map(\.line) == [#line])
    }
    static let sharedPipe = ValuePipe<Int>()

    // MARK: the trait

    /// Runs `body` in the trait's scope, and returns the lines of the issues it recorded.
    static func issues(_ body: @escaping @Sendable () async throws -> Void) async throws -> [Int] {
        let lines = History<Int>()
        try await withKnownIssue(isIntermittent: true) {
            try await LeakDetectionTrait.detectingLeaks.provideScope(
                for: Test.current!, testCase: Test.Case.current, performing: body)
        } matching: { issue in
            guard let line = issue.sourceLocation?.line,
                issue.comments.contains(where: { "\($0)".contains("still live") })
            else { return false }
            lines.record(line)
            return true
        }
        return lines.recorded
    }

    @Test func theTraitRecordsOneIssuePerLeakAtItsLine() async throws {
        let pipe = ValuePipe<Int>()
        let lines = try await Self.issues {
            pipe.signal().start()
            pipe.signal().start().dispose()
            (pipe.signal() |> map { $0 }).start(next: { _ in })
        }
        #expect(lines == [#line - 4, #line - 2])
    }

    @Test func theTraitRecordsNothingForATestThatLetsGo() async throws {
        let lines = try await Self.issues {
            let pipe = ValuePipe<Int>()
            pipe.signal().start()
        }
        #expect(lines == [])
    }

    @Test func theTraitPassesOnWhatTheTestThrows() async throws {
        await #expect(throws: TestError(code: 7)) {
            try await LeakDetectionTrait.detectingLeaks.provideScope(for: Test.current!, testCase: nil) {
                throw TestError(code: 7)
            }
        }
    }

    @Test func theTraitAppliesToEachTestOfASuiteOnItsOwn() {
        #expect(LeakDetectionTrait.detectingLeaks.isRecursive)
    }
}
