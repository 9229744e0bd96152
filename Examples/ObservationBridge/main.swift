// SwiftUI's data flow without SwiftUI: `swift run ObservationBridge` (Linux too).
//
// A view model as SwiftUI code writes one, `@Observable` and `@MainActor`, driven through both
// bridges, and a "view" that re-renders the way SwiftUI does, from Observation:
// - Observation into a signal: `Signal(observing: { query.text })` sends the query now and after
//   every change; `mapToSignal` turns each into a (pretend) request, disposing the one in flight.
// - A signal into Observation: `signal.observed(initial:)` keeps the results in an `Observed`,
//   whose `value` the view reads. `|> deliverOnMainQueue` first, so that it is set on main.
// - The same for the core: `Receiver.make(with:observing:)` makes the query a `Receiver` (here for
//   a history of searches), and `receiver.observed(initial:)` shows a pair's latest wave (the
//   connection status, broadcast on main).
//
// The view is a closure that reads the model under `withObservationTracking`; when something it
// read changes, it renders again in the next main-actor job, as SwiftUI schedules a new `body`.
// Each step waits for the screen it expects before it prints it: the output is the same every run.

import Dispatch
import Observation
import ReceiverSignalKit

/// A pretend search service: answers after 50 ms, on a background queue.
func search(_ query: String) -> Signal<[String], NoError> {
    let catalogue = ["swift", "swiftui", "signal", "receiver", "observation"]
    let found = query.isEmpty ? [] : catalogue.filter { $0.hasPrefix(query) }
    return .single(found) |> delay(0.05, queue: Queue.concurrentDefaultQueue())
}

/// What the text field edits, in a real app: an object of its own, so that the view model's `init`
/// can capture it.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable @MainActor final class SearchQuery {
    var text = ""
}

@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@Observable @MainActor final class SearchViewModel {
    /// Bound to a text field in a real app.
    let query = SearchQuery()
    /// What the list shows: the latest results, set on main. Made in `init`, on the main actor,
    /// like everything the model shows; its closures capture the query, never the model.
    let results: Observed<[String]>
    /// The connection's status, as a view shows it.
    let status: Observed<String>
    /// Every query typed, in order (a pair fed by observation).
    @ObservationIgnored private(set) var typed: [String] = []
    @ObservationIgnored private let bag = DisposeBag()

    init(connection: Receiver<String>) {
        let query = self.query
        results =
            (Signal(observing: { query.text })
            |> distinctUntilChanged
            |> mapToSignal(search)
            |> deliverOnMainQueue).observed(initial: [])
        status = connection.observed(initial: "connecting")
        let (queries, feed) = Receiver.make(with: .warm(upTo: 1), observing: { query.text })
        queries.skip(count: 1).listen { [weak self] in self?.typed.append($0) }.disposed(by: bag)
        feed.disposed(by: bag)
    }
}

/// Renders `body` now and again after every change to what it read, one main-actor job later (as
/// SwiftUI does); yields each screen.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor final class Screen {
    let frames: AsyncStream<String>
    private let yield: AsyncStream<String>.Continuation
    private let body: @MainActor () -> String

    init(body: @escaping @MainActor () -> String) {
        (frames, yield) = AsyncStream.makeStream()
        self.body = body
        render()
    }

    private func render() {
        let frame = withObservationTracking(body) {
            Task { @MainActor [weak self] in self?.render() }
        }
        yield.yield(frame)
    }
}

/// The script: a user typing, and what the screen shows after each step.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
@MainActor func run() async {
    let (connection, connectionStatus) = Receiver<String>.make(with: .warm(upTo: 1))
    let model = SearchViewModel(connection: connectionStatus)
    let screen = Screen {
        "[\(model.status.value)] query \"\(model.query.text)\": \(model.results.value.joined(separator: ", "))"
    }

    /// Waits for the screen to show `expected`, then prints it.
    func show(_ expected: String) async {
        for await frame in screen.frames where frame == expected {
            print(frame)
            return
        }
    }

    await show("[connecting] query \"\": ")
    connection.broadcast("online")  // on main, so the view's observers run on main
    await show("[online] query \"\": ")
    model.query.text = "s"  // typing: the results follow, after the request answers
    await show("[online] query \"s\": swift, swiftui, signal")
    model.query.text = "sw"
    model.query.text = "swi"  // one job: read once, so one request
    await show("[online] query \"swi\": swift, swiftui")
    model.query.text = "rec"
    await show("[online] query \"rec\": receiver")
    print("searches typed:", model.typed)
}

if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) {
    await run()
} else {
    print("Observation needs macOS 14, iOS 17, tvOS 17 or watchOS 10")
}
