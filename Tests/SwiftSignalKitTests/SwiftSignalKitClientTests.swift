// SwiftSignalKit client code as Telegram writes it, compiled against the `SwiftSignalKit` product
// in the Swift 5 language mode with Foundation imported beside it: module-qualified names
// (`SwiftSignalKit.Timer`, `SwiftSignalKit.filter`), bare protocol types (`Disposable`),
// implicitly unwrapped handlers, and the most used operators. If switching the dependency ever
// needed a line of this to change, this target would stop compiling.
import Foundation
import ReceiverSignalKitTesting
import SwiftSignalKit
import Testing

/// Shows a "typing…" state for a while after each keystroke, as Telegram's managers do.
private final class TypingIndicator {
    private let queue = Queue()
    private var timer: SwiftSignalKit.Timer?
    private let isTypingPromise = ValuePromise<Bool>(false, ignoreRepeated: true)

    var isTyping: Signal<Bool, NoError> {
        return self.isTypingPromise.get()
    }

    func keystroke() {
        self.queue.async {
            self.timer?.invalidate()
            self.isTypingPromise.set(true)
            let timer = SwiftSignalKit.Timer(
                timeout: 0.05, repeat: false,
                completion: { [weak self] in
                    self?.isTypingPromise.set(false)
                }, queue: self.queue)
            self.timer = timer
            timer.start()
        }
    }
}

private enum FetchError {
    case generic
}

private func fetchTitle(_ id: Int) -> Signal<String, FetchError> {
    if id < 0 {
        return .fail(.generic)
    }
    return .single("chat \(id)")
}

@Suite struct SwiftSignalKitClientTests {
    @Test func moduleQualifiedNamesResolveThroughTheSwiftSignalKitModule() {
        let even: (Signal<Int, NoError>) -> Signal<Int, NoError> = SwiftSignalKit.filter { $0 % 2 == 0 }
        var values: [Int] = []
        let disposable: Disposable = (Signal<Int, NoError>.single(1) |> then(.single(2)) |> even).start(next: { value in
            values.append(value)
        })
        disposable.dispose()
        #expect(values == [2])
        let timerType: SwiftSignalKit.Timer.Type = SwiftSignalKit.Timer.self
        #expect(timerType != Foundation.Timer.self as Any.Type)
    }

    @Test func aTelegramStyleManagerRunsItsTimerOnItsQueue() {
        let indicator = TypingIndicator()
        let states = Atomic<[Bool]>(value: [])
        let finished = DispatchSemaphore(value: 0)
        let disposable = (indicator.isTyping |> distinctUntilChanged).start(next: { isTyping in
            let all = states.modify { $0 + [isTyping] }
            if all.count == 3 {
                finished.signal()
            }
        })
        indicator.keystroke()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        #expect(states.with { $0 } == [false, true, false])
        disposable.dispose()
    }

    #if DEBUG
    /// On virtual time: the main queue `deliverOnMainQueue` names is the scheduler's in its scope.
    @Test func theMostUsedOperatorsChainAsInTelegram() {
        let scheduler = TestScheduler()
        scheduler.withMainQueue {
            let chatId = Promise<Int>(1)
            let titles =
                chatId.get()
                |> mapToSignal { id -> Signal<String?, NoError> in
                    return fetchTitle(id)
                        |> map(Optional.init)
                        |> `catch` { _ -> Signal<String?, NoError> in
                            return .single(nil)
                        }
                }
                |> deliverOnMainQueue
            let received = Atomic<[String?]>(value: [])
            let disposable = MetaDisposable()
            let onMain: (String?) -> Void = { title in
                _ = received.modify { $0 + [title] }
            }
            disposable.set((titles |> take(2)).start(next: onMain, error: nil, completed: nil))
            chatId.set(.single(-1))
            #expect(received.with { $0 } == [])
            scheduler.advance()
            #expect(received.with { $0 } == ["chat 1", nil])

            let combined = combineLatest(Signal<Int, NoError>.single(1), chatId.get() |> map { "\($0)" })
            var pair: (Int, String)?
            combined.start(next: { pair = $0 }).dispose()
            #expect(pair?.0 == 1 && pair?.1 == "-1")
            disposable.dispose()
        }
    }
    #endif

    @Test func disposablesAndAtomicAsClientsUseThem() {
        let count = Atomic<Int>(value: 0)
        let set = DisposableSet()
        set.add(
            ActionDisposable {
                let _ = count.modify { $0 + 1 }
            })
        let meta = MetaDisposable()
        meta.set(
            ActionDisposable {
                let _ = count.modify { $0 + 10 }
            })
        meta.set(nil)
        set.dispose()
        #expect(count.with { $0 } == 11)
        let dict = DisposableDict<String>()
        dict.set(EmptyDisposable, forKey: "k")
        dict.dispose()
    }
}
