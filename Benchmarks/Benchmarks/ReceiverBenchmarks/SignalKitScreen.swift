// W22: a chat-list screen, as an app writes it against SwiftSignalKit's API — the work apps spend
// most of it on: thousands of promises, most of them idle, and one page of them listened to.
//
// 1,000 peers, each with a `ValuePromise<Int>` (presence) and a `ValuePromise<ScreenMessage>` (last
// message); the list is `scroll.get() |> distinctUntilChanged |> mapToSignal` to a
// `combineLatest` of the visible page's 50 rows, each row `combineLatest(presence, message) |>
// map(makeRow) |> distinctUntilChanged`, then `deliverOn` a serial `Queue`. Measured:
//
// - startup: build the peers and the list, subscribe, wait for the first page on the queue,
//   dispose (per screen); and building alone, the promises and the signals, then releasing them;
// - per update: seeded presence and message updates (half on the visible page), a page switch
//   every 500, the delivery hop included (the queue is waited for at the end of each iteration);
// - memory, phase by phase: the bytes malloc holds for the screen once built, once subscribed, after
//   all 10,000 updates (every page visited) with the queue drained, and after the subscription is
//   disposed (the screen still alive);
// - bytes per `ValuePromise<Int>` and `Promise<Int>` before their first subscriber, while one
//   listens, and after it has gone, 10,000 kept (W9's method).
//
// Compared with the same screen in OpenCombine (`CurrentValueSubject`s; its nearest `combineLatest`
// is W12's `flatMap` + `scan`, `switchToLatest`, `receive(on: DispatchQueue)`) and with a floor: the
// plain model (arrays, the visible page rebuilt when a visible row changes, one `DispatchQueue.async`
// per delivered page). Every run checks that the last delivered page equals the model's.

import Benchmark
import Dispatch
import MallocInterposerSwift
import OpenCombine
import OpenCombineDispatch
import ReceiverSignalKit

/// A peer's last message.
struct ScreenMessage: Equatable {
    var id: Int
    var author: Int
}

/// One row of the list, made from a peer's presence and last message.
struct ScreenRow: Equatable {
    var peer: Int
    var presence: Int
    var message: ScreenMessage
}

/// The screen's shape: 1,000 peers, pages of 50, a page switch every 500 updates.
enum ScreenShape {
    static let peers = 1_000, pageSize = 50, pages = 20, updatesPerPage = 500, updates = 10_000
    static func visible(_ page: Int) -> Range<Int> { page * pageSize..<(page + 1) * pageSize }
}

@inline(never)
func makeRow(_ peer: Int, _ presence: Int, _ message: ScreenMessage) -> ScreenRow {
    ScreenRow(peer: peer, presence: presence, message: message)
}

/// SplitMix64: the same updates in every run.
struct ScreenRandom {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}

enum ScreenUpdate {
    case presence(peer: Int, Int)
    case message(peer: Int, ScreenMessage)
    case scroll(page: Int)
}

/// The seeded updates: a page switch every 500; otherwise a presence (one of four values, so some
/// repeat) or a new message, for a peer on the visible page half of the time.
let screenUpdates: [ScreenUpdate] = {
    var random = ScreenRandom(state: 31)
    var page = 0
    return (0..<ScreenShape.updates).map { index in
        if index % ScreenShape.updatesPerPage == ScreenShape.updatesPerPage - 1 {
            page = random.next(ScreenShape.pages)
            return .scroll(page: page)
        }
        let peer =
            random.next(2) == 0
            ? ScreenShape.visible(page).lowerBound + random.next(ScreenShape.pageSize)
            : random.next(ScreenShape.peers)
        return random.next(2) == 0
            ? .presence(peer: peer, random.next(4))
            : .message(peer: peer, ScreenMessage(id: index, author: random.next(ScreenShape.peers)))
    }
}()

/// The plain model the deliveries are checked against, and the floor's state.
struct ScreenModel {
    var presence = (0..<ScreenShape.peers).map { $0 % 4 }
    var messages = (0..<ScreenShape.peers).map { ScreenMessage(id: -1, author: $0) }
    var page = 0

    /// Applies `update`; returns whether the visible page changed.
    mutating func apply(_ update: ScreenUpdate) -> Bool {
        switch update {
        case .presence(let peer, let value):
            defer { presence[peer] = value }
            return ScreenShape.visible(page).contains(peer) && presence[peer] != value
        case .message(let peer, let message):
            defer { messages[peer] = message }
            return ScreenShape.visible(page).contains(peer) && messages[peer] != message
        case .scroll(let next):
            defer { page = next }
            return page != next
        }
    }

    var rows: [ScreenRow] { ScreenShape.visible(page).map { makeRow($0, presence[$0], messages[$0]) } }
}

/// The last page delivered on the queue, and a semaphore signalled by a block dispatched after the
/// updates, so that waiting for it includes every delivery hop.
final class ScreenSink: @unchecked Sendable {  // `rows` is written on the queue, read after a wait
    var rows: [ScreenRow] = []
    var pages = 0
    let done = DispatchSemaphore(value: 0)

    func expect(_ model: ScreenModel, _ name: StaticString) {
        precondition(rows == model.rows, "\(name): the last delivered page is not the model's")
    }
}

/// The first `count` of the seeded updates (each iteration starts from a new screen).
func screenSlice(_ count: Int) -> [ScreenUpdate] {
    Array(screenUpdates[0..<count])
}

// MARK: - The screen, in each library

/// The screen in ReceiverSignalKit, as an app writes it against SwiftSignalKit.
final class ReceiverScreen {
    let presence: [ValuePromise<Int>]
    let messages: [ValuePromise<ScreenMessage>]
    let scroll: ValuePromise<Int>
    let list: Signal<[ScreenRow], NoError>

    init(_ model: ScreenModel, queue: Queue) {
        let presence = model.presence.map { ValuePromise($0) }
        let messages = model.messages.map { ValuePromise($0) }
        let scroll = ValuePromise(model.page)
        (self.presence, self.messages, self.scroll) = (presence, messages, scroll)
        list =
            (scroll.get()
                |> distinctUntilChanged
                |> mapToSignal { page in
                    combineLatest(
                        ScreenShape.visible(page).map { peer in
                            combineLatest(presence[peer].get(), messages[peer].get())
                                |> map { makeRow(peer, $0, $1) }
                                |> distinctUntilChanged
                        })
                }
                |> deliverOn(queue))
    }

    func apply(_ update: ScreenUpdate) {
        switch update {
        case .presence(let peer, let value): presence[peer].set(value)
        case .message(let peer, let message): messages[peer].set(message)
        case .scroll(let page): scroll.set(page)
        }
    }
}

/// The same screen in OpenCombine: `CurrentValueSubject`s, the latest of several inputs by W12's
/// `flatMap` + `scan` (OpenCombine 0.14.0 has no `combineLatest`), `switchToLatest`, and
/// `receive(on:)` a serial `DispatchQueue`.
final class OpenCombineScreen {
    let presence: [CurrentValueSubject<Int, Never>]
    let messages: [CurrentValueSubject<ScreenMessage, Never>]
    let scroll: CurrentValueSubject<Int, Never>
    let list: AnyPublisher<[ScreenRow], Never>

    init(_ model: ScreenModel, queue: DispatchQueue) {
        let presence = model.presence.map { CurrentValueSubject<Int, Never>($0) }
        let messages = model.messages.map { CurrentValueSubject<ScreenMessage, Never>($0) }
        let scroll = CurrentValueSubject<Int, Never>(model.page)
        (self.presence, self.messages, self.scroll) = (presence, messages, scroll)
        func row(_ peer: Int) -> AnyPublisher<ScreenRow, Never> {
            [
                presence[peer].map { (Int?.some($0), ScreenMessage?.none) }.eraseToAnyPublisher(),
                messages[peer].map { (Int?.none, ScreenMessage?.some($0)) }.eraseToAnyPublisher(),
            ]
            .publisher
            .flatMap { $0 }
            .scan((Int?.none, ScreenMessage?.none)) { latest, event in (event.0 ?? latest.0, event.1 ?? latest.1) }
            .compactMap { latest in latest.0.flatMap { p in latest.1.map { makeRow(peer, p, $0) } } }
            .removeDuplicates()
            .eraseToAnyPublisher()
        }
        func page(_ page: Int) -> AnyPublisher<[ScreenRow], Never> {
            ScreenShape.visible(page).enumerated().map { index, peer in row(peer).map { (index, $0) } }
                .publisher
                .flatMap { $0 }
                .scan([ScreenRow?](repeating: nil, count: ScreenShape.pageSize)) { latest, event in
                    var latest = latest
                    latest[event.0] = event.1
                    return latest
                }
                .compactMap { latest in latest.contains { $0 == nil } ? nil : latest.map { $0! } }
                .eraseToAnyPublisher()
        }
        list = scroll.removeDuplicates().map(page).switchToLatest().receive(on: queue.ocombine)
            .eraseToAnyPublisher()
    }

    func apply(_ update: ScreenUpdate) {
        switch update {
        case .presence(let peer, let value): presence[peer].send(value)
        case .message(let peer, let message): messages[peer].send(message)
        case .scroll(let page): scroll.send(page)
        }
    }
}

/// The floor: the plain model, the visible page rebuilt when a visible row changes and handed to
/// the queue with one `DispatchQueue.async`.
final class FloorScreen {
    var model: ScreenModel
    let queue: DispatchQueue
    let sink: ScreenSink

    init(_ model: ScreenModel, queue: DispatchQueue, sink: ScreenSink) {
        (self.model, self.queue, self.sink) = (model, queue, sink)
    }

    func deliver() {
        let rows = model.rows, sink = sink
        queue.async {
            sink.rows = rows
            sink.pages += 1
        }
    }

    func apply(_ update: ScreenUpdate) {
        if model.apply(update) { deliver() }
    }
}

// MARK: - W22

func registerScreen() {
    let queue = Queue(name: "W22 Receiver"), dispatchQueue = DispatchQueue(label: "W22")

    /// Waits until every block dispatched to `queue` before this call has run.
    func drain(_ queue: DispatchQueue, _ sink: ScreenSink) {
        queue.async { sink.done.signal() }
        sink.done.wait()
    }
    func drain(_ queue: Queue, _ sink: ScreenSink) {
        queue.async { sink.done.signal() }
        sink.done.wait()
    }

    // Startup, per screen.
    let startup = configuration(units: .one, maxDuration: .seconds(2))

    Benchmark("W22 screen startup floor: the model, one page delivered", configuration: startup) { benchmark in
        let sink = ScreenSink()
        let screen = FloorScreen(ScreenModel(), queue: dispatchQueue, sink: sink)
        screen.deliver()
        drain(dispatchQueue, sink)
        sink.expect(ScreenModel(), "W22 startup floor")
    }

    Benchmark("W22 screen startup ReceiverSignalKit: build, subscribe, first page, dispose", configuration: startup) {
        benchmark in
        let sink = ScreenSink()
        let screen = ReceiverScreen(ScreenModel(), queue: queue)
        let disposable = screen.list.start(next: { rows in
            sink.rows = rows
            sink.pages += 1
        })
        drain(queue, sink)
        disposable.dispose()
        sink.expect(ScreenModel(), "W22 startup ReceiverSignalKit")
        precondition(sink.pages == 1, "W22 startup ReceiverSignalKit: \(sink.pages) pages")
    }

    Benchmark("W22 screen startup OpenCombine: build, subscribe, first page, cancel", configuration: startup) {
        benchmark in
        let sink = ScreenSink()
        let screen = OpenCombineScreen(ScreenModel(), queue: dispatchQueue)
        let cancellable = screen.list.sink { rows in
            sink.rows = rows
            sink.pages += 1
        }
        drain(dispatchQueue, sink)
        cancellable.cancel()
        sink.expect(ScreenModel(), "W22 startup OpenCombine")
    }

    Benchmark("W22 screen build ReceiverSignalKit: promises and signals, made and released", configuration: startup) {
        benchmark in
        var screen: ReceiverScreen? = ReceiverScreen(ScreenModel(), queue: queue)
        precondition(screen?.presence.count == ScreenShape.peers)
        screen = nil
        blackHole(screen)
    }

    Benchmark("W22 screen build OpenCombine: subjects and publishers, made and released", configuration: startup) {
        benchmark in
        var screen: OpenCombineScreen? = OpenCombineScreen(ScreenModel(), queue: dispatchQueue)
        precondition(screen?.presence.count == ScreenShape.peers)
        screen = nil
        blackHole(screen)
    }

    // Per update, the delivery hop included.
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue
    let perUpdate = configuration(units: units)

    Benchmark("W22 screen update floor: the model, changed pages delivered", configuration: perUpdate) { benchmark in
        let sink = ScreenSink()
        let screen = FloorScreen(ScreenModel(), queue: dispatchQueue, sink: sink)
        screen.deliver()
        drain(dispatchQueue, sink)
        let updates = screenSlice(n)
        benchmark.startMeasurement()
        for update in updates { screen.apply(update) }
        drain(dispatchQueue, sink)
        benchmark.stopMeasurement()
        sink.expect(screen.model, "W22 update floor")
    }

    Benchmark("W22 screen update ReceiverSignalKit", configuration: perUpdate) { benchmark in
        let sink = ScreenSink()
        var model = ScreenModel()
        let screen = ReceiverScreen(model, queue: queue)
        let disposable = screen.list.start(next: { rows in
            sink.rows = rows
            sink.pages += 1
        })
        drain(queue, sink)
        let updates = screenSlice(n)
        benchmark.startMeasurement()
        for update in updates { screen.apply(update) }
        drain(queue, sink)
        benchmark.stopMeasurement()
        disposable.dispose()
        for update in updates { _ = model.apply(update) }
        sink.expect(model, "W22 update ReceiverSignalKit")
    }

    Benchmark("W22 screen update OpenCombine", configuration: perUpdate) { benchmark in
        let sink = ScreenSink()
        var model = ScreenModel()
        let screen = OpenCombineScreen(model, queue: dispatchQueue)
        let cancellable = screen.list.sink { rows in
            sink.rows = rows
            sink.pages += 1
        }
        drain(dispatchQueue, sink)
        let updates = screenSlice(n)
        benchmark.startMeasurement()
        for update in updates { screen.apply(update) }
        drain(dispatchQueue, sink)
        benchmark.stopMeasurement()
        cancellable.cancel()
        for update in updates { _ = model.apply(update) }
        sink.expect(model, "W22 update OpenCombine")
    }

    // Memory, phase by phase: built, subscribed, after every update with the queue drained, and
    // after the subscription is disposed. (`updated` is made here, outside what is measured.)
    let updated = screenUpdates.reduce(into: ScreenModel()) { _ = $0.apply($1) }
    screenBytes("W22 screen bytes floor: the model") {
        let sink = ScreenSink()
        let screen = FloorScreen(ScreenModel(), queue: dispatchQueue, sink: sink)
        return ScreenPhases(
            subscribe: {
                screen.deliver()
                drain(dispatchQueue, sink)
            },
            update: {
                for update in screenUpdates { screen.apply(update) }
                drain(dispatchQueue, sink)
                sink.expect(screen.model, "W22 bytes floor")
            },
            dispose: {}, keep: screen)
    }
    screenBytes("W22 screen bytes ReceiverSignalKit") {
        let sink = ScreenSink()
        let screen = ReceiverScreen(ScreenModel(), queue: queue)
        var disposable: (any Disposable)?
        return ScreenPhases(
            subscribe: {
                disposable = screen.list.start(next: { rows in
                    sink.rows = rows
                    sink.pages += 1
                })
                drain(queue, sink)
            },
            update: {
                for update in screenUpdates { screen.apply(update) }
                drain(queue, sink)
                sink.expect(updated, "W22 bytes ReceiverSignalKit")
            },
            dispose: {
                disposable?.dispose()
                disposable = nil
                drain(queue, sink)
            }, keep: screen)
    }
    screenBytes("W22 screen bytes OpenCombine") {
        let sink = ScreenSink()
        let screen = OpenCombineScreen(ScreenModel(), queue: dispatchQueue)
        var cancellable: AnyCancellable?
        return ScreenPhases(
            subscribe: {
                cancellable = screen.list.sink { rows in
                    sink.rows = rows
                    sink.pages += 1
                }
                drain(dispatchQueue, sink)
            },
            update: {
                for update in screenUpdates { screen.apply(update) }
                drain(dispatchQueue, sink)
                sink.expect(updated, "W22 bytes OpenCombine")
            },
            dispose: {
                cancellable?.cancel()
                cancellable = nil
                drain(dispatchQueue, sink)
            }, keep: screen)
    }

    // Bytes per idle promise (W9's method: 10,000 kept, malloc's figures around them).
    bytesPerLiveSubscription("W22 bytes per idle ValuePromise<Int>") {
        (subscribe: { ValuePromise<Int>(1) }, end: { _ in })
    }
    bytesPerLiveSubscription("W22 bytes per idle ValuePromise<Int>(ignoreRepeated: true)") {
        (subscribe: { ValuePromise<Int>(1, ignoreRepeated: true) }, end: { _ in })
    }
    bytesPerLiveSubscription("W22 bytes per idle Promise<Int>") {
        (subscribe: { Promise<Int>(1) }, end: { _ in })
    }
    bytesPerLiveSubscription("W22 bytes per idle Promise<Int> set to a single") {
        (
            subscribe: { () -> Promise<Int> in
                let promise = Promise<Int>()
                promise.set(.single(1))
                return promise
            }, end: { _ in }
        )
    }
    bytesPerLiveSubscription("W22 bytes per ValuePromise<Int> with one subscriber") {
        (
            subscribe: { () -> (ValuePromise<Int>, any Disposable) in
                let promise = ValuePromise<Int>(1)
                return (promise, promise.get().start())
            }, end: { $0.1.dispose() }
        )
    }
    bytesPerLiveSubscription("W22 bytes per ValuePromise<Int> after its last subscriber") {
        (
            subscribe: { () -> ValuePromise<Int> in
                let promise = ValuePromise<Int>(1)
                promise.get().start().dispose()
                return promise
            }, end: { _ in }
        )
    }
    bytesPerLiveSubscription("W22 bytes per Promise<Int> with one subscriber") {
        (
            subscribe: { () -> (Promise<Int>, any Disposable) in
                let promise = Promise<Int>(1)
                return (promise, promise.get().start())
            }, end: { $0.1.dispose() }
        )
    }
    bytesPerLiveSubscription("W22 bytes per Promise<Int> after its last subscriber") {
        (
            subscribe: { () -> Promise<Int> in
                let promise = Promise<Int>(1)
                promise.get().start().dispose()
                return promise
            }, end: { _ in }
        )
    }
    bytesPerLiveSubscription("W22 bytes per idle OpenCombine CurrentValueSubject<Int, Never>") {
        (subscribe: { CurrentValueSubject<Int, Never>(1) }, end: { _ in })
    }
}

// MARK: - Memory, phase by phase

/// What W22's memory phases do with one screen, made by the benchmark's `make` (the building is
/// the first phase): subscribe and wait for the first page, apply every update and wait for the
/// queue, dispose. `keep` is the screen, held until the last phase has been measured.
struct ScreenPhases {
    let subscribe: () -> Void, update: () -> Void, dispose: () -> Void
    let keep: AnyObject
}

/// W22's memory phases, reported once per iteration: the bytes malloc holds for the screen (as
/// W9 measures them: glibc's chunks, less the interposer's 16-byte header per live allocation) once
/// built, once subscribed, after every update with the queue drained, and after the subscription
/// is disposed, each against what malloc held before the screen was made.
let screenBytesBuilt = BenchmarkMetric.custom("Bytes built", useScalingFactor: false)
let screenBytesSubscribed = BenchmarkMetric.custom("Bytes subscribed", useScalingFactor: false)
let screenBytesDrained = BenchmarkMetric.custom("Bytes after the updates, drained", useScalingFactor: false)
let screenBytesDisposed = BenchmarkMetric.custom("Bytes after disposal", useScalingFactor: false)

func screenBytes(_ name: String, _ make: @escaping () -> ScreenPhases) {
    let configuration = memoryConfiguration(
        [screenBytesBuilt, screenBytesSubscribed, screenBytesDrained, screenBytesDisposed],
        maxDuration: .seconds(5), maxIterations: 3)
    Benchmark(name, configuration: configuration) { benchmark in
        benchmark.startMeasurement()
        let (bytesBefore, countsBefore) = (mallocedBytes(), MallocInterposerSwift.getStatistics())
        /// What malloc holds now, more than before the screen, as a normal glibc process would.
        func held() -> Int {
            let (bytes, counts) = (mallocedBytes(), MallocInterposerSwift.getStatistics())
            let allocations =
                (counts.mallocCount - countsBefore.mallocCount) - (counts.freeCount - countsBefore.freeCount)
            return bytes - bytesBefore - 16 * allocations
        }
        var phases: ScreenPhases? = make()
        benchmark.measurement(screenBytesBuilt, held())
        phases?.subscribe()
        benchmark.measurement(screenBytesSubscribed, held())
        phases?.update()
        benchmark.measurement(screenBytesDrained, held())
        phases?.dispose()
        benchmark.measurement(screenBytesDisposed, held())
        benchmark.stopMeasurement()
        phases = nil
        blackHole(phases)
    }
}
