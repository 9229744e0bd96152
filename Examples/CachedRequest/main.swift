// Cached value first, network result second, cancelled when the screen goes away:
// `swift run CachedRequest`.
//
// A screen's view model owns a `Promise<Profile>`. It sets it to a signal that sends the cached
// profile at once and then the result of a (pretend) network request: an `async` function made a
// signal with `Signal { … }`, which runs it in a `Task` at each start. The screen renders
// `profile.get() |> map(\.summary) |> distinctUntilChanged`, so a response equal to the cache does
// not re-render anything.
//
// Cancellation is plain disposal: when the view model is released, its `Promise` is released too,
// and a promise disposes the signal it was given; disposing the request's start cancels its
// `Task`, whose `Task.sleep` then throws `CancellationError`.
//
// Threading: the request's function runs on the main actor, so its result is put on the main
// actor and the view model's handlers (main-actor state) run there. The script waits for every
// request to end before it moves on, so the output is always in the same order.

import ReceiverSignalKit

// MARK: - Model

struct Profile: Equatable {
    var name: String
    var followers: Int
    /// Whether this came from the network (false: from the cache).
    var isFresh: Bool

    /// What the screen shows: the same text for a cached and a fresh profile with equal data.
    var summary: String { "\(name), \(followers) followers" }
}

// MARK: - A pretend network

/// How a request ended.
enum Outcome: String {
    case answered
    case cancelled
}

/// Answers requests after a delay; `waitForRequests()` awaits every request started so far.
final class FakeNetwork: Sendable {
    private let started = Atomic(value: 0)
    private let (outcomes, report) = AsyncStream<Outcome>.makeStream()

    /// A signal that, per start, waits `milliseconds` and then sends `response` and completes.
    /// Disposing the start before that cancels the wait.
    func fetch(_ response: Profile, milliseconds: UInt64) -> Signal<Profile, NoError> {
        Signal { @MainActor in
            do {
                // `sleep(nanoseconds:)` rather than `sleep(for:)`: it needs no newer OS than the
                // package's platforms.
                try await Task.sleep(nanoseconds: milliseconds * 1_000_000)
            } catch {
                // The cancellation path: disposal cancelled the task while it waited.
                print("  network: task cancelled (\(type(of: error)) thrown from Task.sleep); nothing sent")
                self.report.yield(.cancelled)
                return response  // dropped: the start is disposed, which is what cancelled the task
            }
            print("  network: response arrived: \(response.summary)")
            self.report.yield(.answered)
            return response
        }
            |> beforeStarted {
                _ = self.started.modify { $0 + 1 }
                print("  network: request started (answers in \(milliseconds) ms)")
            }
    }

    /// Waits for every request started so far to end, and returns how each ended.
    func waitForRequests() async -> [Outcome] {
        await outcomes.prefix(started.swap(0)).reduce(into: []) { $0.append($1) }
    }
}

// MARK: - View model

/// One profile screen: shows the cached profile at once, then the fresh one, with a spinner while
/// the request is in flight.
@MainActor final class ProfileViewModel {
    let title: String
    private let profile = Promise<Profile>()
    private(set) var shown: String?
    private(set) var isLoading = false
    private let bag = DisposeBag()

    init(title: String, cached: Profile, network: FakeNetwork, response: Profile, milliseconds: UInt64) {
        self.title = title
        print("open \(title)")

        // `[weak self]`: the promise (owned by self) holds these handlers.
        (profile.get() |> map(\.summary) |> distinctUntilChanged)
            .start(next: { [weak self] summary in
                guard let self else { return }
                shown = summary
                print("  \(title) shows: \(summary)")
            })
            .disposed(by: bag)

        (profile.get() |> map { !$0.isFresh } |> distinctUntilChanged)
            .start(next: { [weak self] loading in
                guard let self else { return }
                isLoading = loading
                print("  \(title) spinner: \(loading ? "on" : "off")")
            })
            .disposed(by: bag)

        // The cached value at once, then the request. The promise keeps the start of this signal
        // and disposes it when it is set again or released.
        profile.set(.single(cached) |> then(network.fetch(response, milliseconds: milliseconds)))
    }

    /// Runs when the screen goes away. The bag (the rendering) and the promise (and with it the
    /// request) are disposed right after this body.
    deinit {
        print(isLoading ? "  \(title) closed: request cancelled" : "  \(title) closed: nothing in flight")
    }
}

// MARK: - The script

let network = FakeNetwork()
let ada = Profile(name: "Ada Lovelace", followers: 10, isFresh: false)
let adaNow = Profile(name: "Ada Lovelace", followers: 12, isFresh: true)

print("== A screen that stays until the response arrives ==")
var screen: ProfileViewModel? = ProfileViewModel(
    title: "screen 1", cached: ada, network: network, response: adaNow, milliseconds: 100)
var outcomes = await network.waitForRequests()
print("close screen 1")
screen = nil
print("request outcomes: \(outcomes.map(\.rawValue).joined(separator: ", "))")

print("\n== A screen that goes away before the response ==")
screen = ProfileViewModel(
    title: "screen 2", cached: ada, network: network, response: adaNow, milliseconds: 60_000)
try await Task.sleep(nanoseconds: 50_000_000)  // the user looks at the cached profile briefly
print("close screen 2 (50 ms later)")
screen = nil
outcomes = await network.waitForRequests()  // returns at once if cancelling worked
print("request outcomes: \(outcomes.map(\.rawValue).joined(separator: ", "))")

print("\n== A response equal to the cache: nothing to re-render ==")
screen = ProfileViewModel(
    title: "screen 3", cached: ada, network: network,
    response: Profile(name: "Ada Lovelace", followers: 10, isFresh: true),
    milliseconds: 100)
outcomes = await network.waitForRequests()
print("close screen 3")
screen = nil
print("request outcomes: \(outcomes.map(\.rawValue).joined(separator: ", "))")
