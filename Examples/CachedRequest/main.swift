// Cached value first, network result second, cancelled when the screen goes away:
// `swift run CachedRequest`.
//
// A screen's view model owns a `Promise<Profile>`. It sets it to a signal that sends the cached
// profile at once and then starts a (pretend) network request running in a `Task`. The screen
// renders `profile.get() |> map(\.summary) |> distinctUntilChanged`, so a response equal to the
// cache does not re-render anything.
//
// Cancellation is plain disposal: when the view model is released, its `Promise` is released too,
// and a promise disposes the signal it was given; the request's disposable cancels its `Task`,
// whose `Task.sleep` then throws `CancellationError`.
//
// Threading: the request's task runs on the main actor, so the response is put on the main actor
// and the view model's handlers (main-actor state) run there. The script waits for every request
// task to end before it moves on, so the output is always in the same order.

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

/// How a request's task ended.
enum Outcome: String {
    case answered
    case cancelled
}

/// Answers requests after a delay, each in its own `Task`; `waitForRequests()` awaits them all.
final class FakeNetwork: Sendable {
    private let tasks = Atomic<[Task<Outcome, Never>]>(value: [])

    /// A signal that, per start, waits `milliseconds` in a task and then sends `response` and
    /// completes. Disposing the start before that cancels the task.
    func fetch(_ response: Profile, milliseconds: UInt64) -> Signal<Profile, NoError> {
        Signal { subscriber in
            print("  network: request started (answers in \(milliseconds) ms)")
            let task = Task { @MainActor in
                do {
                    // `sleep(nanoseconds:)` rather than `sleep(for:)`: it needs no newer OS than
                    // the package's platforms.
                    try await Task.sleep(nanoseconds: milliseconds * 1_000_000)
                } catch {
                    // The cancellation path: disposal cancelled the task while it waited.
                    print("  network: task cancelled (\(type(of: error)) thrown from Task.sleep); nothing sent")
                    return Outcome.cancelled
                }
                print("  network: response arrived: \(response.summary)")
                subscriber.putNext(response)
                subscriber.putCompletion()
                return Outcome.answered
            }
            self.tasks.modify { $0 + [task] }
            return ActionDisposable { task.cancel() }  // does nothing once the task has finished
        }
    }

    /// Waits for every request started so far to end, and returns how each ended.
    func waitForRequests() async -> [Outcome] {
        var outcomes: [Outcome] = []
        for task in tasks.swap([]) { outcomes.append(await task.value) }
        return outcomes
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
        let request = network.fetch(response, milliseconds: milliseconds)
        profile.set(
            Signal { subscriber in
                subscriber.putNext(cached)
                return request.start(next: { subscriber.putNext($0) }, completed: { subscriber.putCompletion() })
            })
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
