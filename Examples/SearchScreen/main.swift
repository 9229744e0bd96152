// A search screen, written the way SwiftSignalKit apps are: `swift run SearchScreen`.
//
// What it shows:
// - The screen's state comes from `combineLatest` of three promises: the query
//   (`ValuePromise<String>`), the results (`Promise<[Item]>`) and the spinner
//   (`ValuePromise<Bool>`), mapped into one `ScreenState`.
// - Each change of the query starts a (pretend) request through `mapToSignal`. A request answers
//   after a `delay` on a background `Queue`. A newer query cancels the request in flight, because
//   `mapToSignal` disposes the previous inner signal. As in SwiftSignalKit, it starts the new
//   request first and then disposes the old one: the output shows them in that order.
// - `|> deliverOnMainQueue` brings the answers and the screen's state to the main queue.
// - A view model owns what it started: a `MetaDisposable` for the search and a `DisposableSet` for
//   the rest, both disposed in its `deinit`. Closing the screen cancels the request in flight.
//
// Threading (each line of output says which queue printed it):
// - main queue: the script (one main-queue turn per step, as for a keystroke), the view model
//   (`type(_:)`, so every promise's `set`), `mapToSignal`'s switching and the request it starts,
//   the search's `next` handler, the screen, and cancelling (inside the keystroke that replaces the
//   query, or inside the view model's `deinit`).
// - "network" queue: `delay` subscribes to a request's answer there when its timer fires, so the
//   answer is sent there; `deliverOnMainQueue`, inside the switch, moves it to the main queue.
// The main queue really runs: the file ends in `dispatchMain()`, which is what services
// `DispatchQueue.main` on Linux, and the last step calls `exit(0)` from the main queue.
//
// The output is the same on every run. `combineLatest` sends a state for every promise that
// changes, so a keystroke that changes both the spinner and the query gives the screen two states
// in a row. Each step waits for the state it expects, prints it, and only then starts the next
// step: no timing decides the order of the lines.

import Dispatch
import ReceiverSignalKit

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// MARK: - Model

struct Item {
    var title: String
}

/// Everything the screen draws.
struct ScreenState {
    var query: String
    var results: [Item]
    var isLoading: Bool
}

/// Prints a line, tagged with the queue it runs on (asked of `Queue.isCurrent()`), so the output
/// shows the threading.
func log(_ text: String) {
    let queue = Queue.mainQueue().isCurrent() ? "main" : FakeNetwork.queue.isCurrent() ? "network" : "other"
    print("   \(queue.padding(to: 7)) | \(text)")
}

extension String {
    /// The string with spaces after it up to `width` characters.
    func padding(to width: Int) -> String {
        self + String(repeating: " ", count: max(0, width - count))
    }
}

// MARK: - A pretend network

/// Answers searches over a fixed catalogue after a delay, on its own serial queue.
final class FakeNetwork {
    static let queue = Queue(name: "network")
    private let catalogue = ["Promise", "Queue", "Signal", "Subscriber", "Swift", "SwiftSignalKit", "SwiftUI"]
        .map(Item.init(title:))
    /// Shared by every request's start, on any thread.
    private let requestCount = Atomic<Int>(value: 0)

    /// A request for `query`: per start, sends the matching items after `seconds` on the network
    /// queue and completes. Disposing it before then cancels it and says so.
    func search(_ query: String, delay seconds: Double = 0.2) -> Signal<[Item], NoError> {
        let catalogue = catalogue
        let answer = Signal<[Item], NoError> { subscriber in
            subscriber.putNext(catalogue.filter { $0.title.lowercased().hasPrefix(query.lowercased()) })
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let requestCount = requestCount
        return Signal { subscriber in
            let number = requestCount.modify { $0 + 1 }
            log("request #\(number) for '\(query)' sent")
            // Written on the network queue, read by whoever disposes: shared state, so Atomic.
            let answered = Atomic<Bool>(value: false)
            let request = (answer |> delay(seconds, queue: Self.queue)).start(
                next: { items in
                    _ = answered.swap(true)
                    log("request #\(number) for '\(query)' answered: \(items.count) items")
                    subscriber.putNext(items)
                },
                completed: { subscriber.putCompletion() }
            )
            // Runs on disposal, which also happens after the request completed (the subscriber
            // disposes it then): only an unanswered request was cancelled.
            return ActionDisposable {
                request.dispose()
                if !answered.with({ $0 }) { log("request #\(number) for '\(query)' cancelled") }
            }
        }
    }
}

// MARK: - View model

/// The search screen's logic: its state, the search, and the subscriptions it owns.
final class SearchViewModel {
    private let query = ValuePromise<String>("", ignoreRepeated: true)
    private let results = Promise<[Item]>([])
    private let isLoading = ValuePromise<Bool>(false, ignoreRepeated: true)

    /// The search pipeline: one request per query, the newest only.
    private let searchDisposable = MetaDisposable()
    /// Everything else this view model started: here, the screen's subscription to its state.
    private let disposables = DisposableSet()

    /// What the screen shows, delivered on the main queue: a new state whenever a promise changes.
    var state: Signal<ScreenState, NoError> {
        combineLatest(query.get(), results.get(), isLoading.get())
            |> map { query, results, isLoading in
                ScreenState(query: query, results: results, isLoading: isLoading)
            }
            |> deliverOnMainQueue
    }

    init(network: FakeNetwork, screen: SearchScreen) {
        let results = self.results
        let isLoading = self.isLoading
        searchDisposable.set(
            (query.get()
                |> mapToSignal { query -> Signal<[Item], NoError> in
                    if query.isEmpty { return .single([]) }  // nothing to ask the network
                    // The answer comes on the network queue: move it to the main queue here, inside
                    // the switch, so that everything the switch does (start the new request,
                    // cancel the old one, pass an answer on) happens on the main queue, in order
                    // with the keystrokes.
                    return network.search(query) |> deliverOnMainQueue
                })
                .start(next: { items in
                    results.set(.single(items))
                    isLoading.set(false)
                })
        )
        disposables.add(state.start(next: { [weak screen] state in screen?.show(state) }))
    }

    /// The user edited the search field (main queue).
    func type(_ text: String) {
        isLoading.set(!text.isEmpty)
        query.set(text)
    }

    deinit {
        log("view model released: disposing its search and its subscriptions")
        searchDisposable.dispose()
        disposables.dispose()
    }
}

// MARK: - The screen

/// The screen's views, drawn as one line of text (main queue only). It takes every state the
/// view model sends; `onShow` lets the script look at it.
final class SearchScreen {
    var onShow: (ScreenState) -> Void = { _ in }

    func show(_ state: ScreenState) {
        dispatchPrecondition(condition: .onQueue(.main))
        onShow(state)
    }

    static func draw(_ state: ScreenState) -> String {
        let field = "[\(state.query.padding(to: 5))]"
        let titles = state.results.map(\.title).joined(separator: ", ")
        switch (state.isLoading, state.results.isEmpty, state.query.isEmpty) {
        case (true, true, _): return "screen: \(field) searching…"
        case (true, false, _): return "screen: \(field) searching… (still showing: \(titles))"
        case (false, _, true): return "screen: \(field) type to search"
        case (false, true, false): return "screen: \(field) no results"
        case (false, false, false): return "screen: \(field) \(titles)"
        }
    }
}

// MARK: - The script

/// One thing the user does, and what the screen shows once the app has handled it.
struct Step {
    var title: String
    var shows: (ScreenState) -> Bool
    var action: () -> Void

    init(_ title: String, shows: @escaping (ScreenState) -> Bool, action: @escaping () -> Void = {}) {
        (self.title, self.shows, self.action) = (title, shows, action)
    }
}

/// Runs the steps on the main queue: each step's action in its own main-queue turn, then waits
/// until the screen shows what the step expects, draws it, and starts the next step.
final class Script {
    private var steps: [Step] = []
    private var current = -1
    /// Whether the current step has yet to see its screen (later states are not drawn).
    private var isWaiting = false
    private let screen = SearchScreen()
    private var viewModel: SearchViewModel?
    private let network = FakeNetwork()

    func run() {
        screen.onShow = { [unowned self] state in
            guard isWaiting, steps[current].shows(state) else { return }
            isWaiting = false
            log(SearchScreen.draw(state))
            Queue.mainQueue().justDispatch { self.next() }  // the next step in a turn of its own
        }
        steps = [
            Step("The screen opens.", shows: { $0.query.isEmpty && !$0.isLoading }) { [unowned self] in
                viewModel = SearchViewModel(network: network, screen: screen)
            },
            Step("The user types \"s\".", shows: { $0.query == "s" && $0.isLoading }) { [unowned self] in
                viewModel?.type("s")
            },
            Step("The answer arrives.", shows: { $0.query == "s" && !$0.isLoading }),
            Step("The user types \"w\".", shows: { $0.query == "sw" && $0.isLoading }) { [unowned self] in
                viewModel?.type("sw")
            },
            Step(
                "The user types \"i\" before the answer for \"sw\": mapToSignal cancels it.",
                shows: { $0.query == "swi" && $0.isLoading }
            ) { [unowned self] in
                viewModel?.type("swi")
            },
            Step("The answer for \"swi\" arrives.", shows: { $0.query == "swi" && !$0.isLoading }),
            Step(
                "The user clears the field: no request, the list empties at once.",
                shows: { $0.query.isEmpty && $0.results.isEmpty }
            ) { [unowned self] in
                viewModel?.type("")
            },
            Step("The user types \"q\".", shows: { $0.query == "q" && $0.isLoading }) { [unowned self] in
                viewModel?.type("q")
            },
            Step("The user closes the screen before the answer.", shows: { _ in false }) { [unowned self] in
                viewModel = nil  // its owner lets it go; its deinit disposes what it started
                log("screen closed; exiting")
                exit(0)
            },
        ]
        next()
    }

    private func next() {
        current += 1
        let step = steps[current]
        print("\(current + 1). \(step.title)")
        isWaiting = true
        step.action()
    }
}

// MARK: - Main

print("SearchScreen: a search screen built the SwiftSignalKit way (see the comment at the top of main.swift).")
let script = Script()
Queue.mainQueue().justDispatch { script.run() }
dispatchMain()
