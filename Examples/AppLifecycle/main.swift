// App lifecycle events with Receiver: `swift run AppLifecycle`.
//
// An app-delegate-like object owns the Transmitter and hands out only the read-only Receiver, so
// view models can react to lifecycle events but never fake one. A `@MainActor` view model listens
// with `[weak self]` and disposes its listener when it goes away.
//
// Threading: every `broadcast` and `listen` here happens on the main actor (top-level code in
// `main.swift` runs there), so every handler runs on the main actor too. That is what lets a
// handler call into main-actor state directly. If events could come from another thread, the
// handler would have to hop to the main actor itself.

import Receiver

enum LifecycleEvent: String, Sendable {
    case didFinishLaunching, didBecomeActive, willResignActive, didEnterBackground, willEnterForeground
}

/// Plays the part of `UIApplicationDelegate`: the one object that knows when lifecycle events
/// happen, and the only one that can broadcast them.
@MainActor final class AppDelegate {
    /// Private: nobody outside the app delegate can broadcast a lifecycle event.
    private let transmitter: Receiver<LifecycleEvent>.Transmitter

    /// What view models listen to. `.warm(upTo: 1)` keeps the latest event, so a view model made
    /// later learns at once where the app is (like Combine's `CurrentValueSubject`).
    let lifecycle: Receiver<LifecycleEvent>

    init() {
        (transmitter, lifecycle) = Receiver<LifecycleEvent>.make(with: .warm(upTo: 1))
    }

    /// What the system would call; here `main.swift` calls it.
    func send(_ event: LifecycleEvent) {
        print("app:     \(event.rawValue)")
        transmitter.broadcast(event)
    }
}

/// A screen's view model: pauses its work when the app leaves the foreground.
@MainActor final class PlayerViewModel {
    private(set) var isPlaying = false
    private var listening: (any Disposable)?

    init(lifecycle: Receiver<LifecycleEvent>) {
        // `[weak self]`: the pair holds this closure, and this view model must stay free to go.
        listening = lifecycle.listen { [weak self] event in
            self?.handle(event)
        }
    }

    private func handle(_ event: LifecycleEvent) {
        switch event {
        case .didFinishLaunching, .willEnterForeground:
            print("  player: \(event.rawValue) -> waits for didBecomeActive")
        case .didBecomeActive:
            isPlaying = true
            print("  player: \(event.rawValue) -> plays")
        case .willResignActive, .didEnterBackground:
            isPlaying = false
            print("  player: \(event.rawValue) -> pauses")
        }
    }

    /// Teardown: stop listening, so the pair drops the handler now rather than keeping a closure
    /// whose `self` is gone. (Dropping `listening` without `dispose()` would not stop it.)
    deinit {
        listening?.dispose()
        print("  player: released; its listener is disposed")
    }
}

/// Lives as long as the app: counts how often the app went to the background.
@MainActor final class AnalyticsViewModel {
    private(set) var backgroundCount = 0
    private var listening: (any Disposable)?

    init(lifecycle: Receiver<LifecycleEvent>) {
        listening = lifecycle.filter { $0 == .didEnterBackground }.listen { [weak self] _ in
            guard let self else { return }
            backgroundCount += 1
            print("  analytics: background visit #\(backgroundCount)")
        }
    }

    deinit { listening?.dispose() }
}

let app = AppDelegate()
let analytics = AnalyticsViewModel(lifecycle: app.lifecycle)

app.send(.didFinishLaunching)
app.send(.didBecomeActive)

print("-- open the player screen (it is replayed the latest event at once)")
var player: PlayerViewModel? = PlayerViewModel(lifecycle: app.lifecycle)
weak var playerAfterClose = player

app.send(.willResignActive)
app.send(.didEnterBackground)
app.send(.willEnterForeground)
app.send(.didBecomeActive)
print("-- player is playing: \(player?.isPlaying == true)")

print("-- close the player screen")
player = nil
print("-- player still in memory: \(playerAfterClose != nil)")

app.send(.willResignActive)
app.send(.didEnterBackground)
print("-- nobody but analytics reacted: the player is gone and its listener was disposed")
print("-- background visits counted: \(analytics.backgroundCount)")
