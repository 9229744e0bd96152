// A tour of Receiver: `swift run Tour`.
//
// 1. Hot, warm and cold side by side: what each listener receives.
// 2. Operators, one at a time and chained.
// 3. A re-entrant broadcast: a listener that broadcasts.
// 4. Disposing.
// 5. async/await: `for await` over `receiver.values`.
// 6. Promise and ValuePromise: a current value, read at once or followed live.
// 7. combineLatest and mapToSignal: a screen's state from several inputs, and a search that
//    cancels the request it replaces.
//
// Everything here runs on the main thread, so every handler does too: a handler runs on the
// thread that broadcasts (or, for the replay, the thread that listens).

import ReceiverSignalKit

// MARK: - Helpers for printing timelines

/// One step of a timeline: broadcast some waves, or start a listener with a name.
enum Step {
    case broadcast([Int])
    case listen(String)

    var description: String {
        switch self {
        case .broadcast(let waves): "broadcast " + waves.map(String.init).joined(separator: ", ")
        case .listen(let name): "listen \(name)"
        }
    }
}

/// Plays `steps` on a fresh pair made with `strategy` and prints the timeline, then what every
/// listener received, like `cold: broadcast 1, 2, 3; listen A; broadcast 4   A: 1 2 3 4`.
func play(_ label: String, _ strategy: Receiver<Int>.Strategy, _ steps: [Step]) {
    let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
    var names: [String] = []
    var received: [String: [Int]] = [:]
    for step in steps {
        switch step {
        case .broadcast(let waves):
            waves.forEach(transmitter.broadcast)
        case .listen(let name):
            names.append(name)
            received[name] = []
            receiver.listen { received[name, default: []].append($0) }
        }
    }
    let timeline = "\(label):".padding(to: 15) + steps.map(\.description).joined(separator: "; ")
    let results = names.map { name in
        "\(name): " + received[name, default: []].map(String.init).joined(separator: " ")
    }
    print(timeline.padding(to: 82) + results.joined(separator: "    "))
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self + "  " : self + String(repeating: " ", count: width - count)
    }
}

/// Where the results start on the lines of sections 2 to 5.
let column = 48

func section(_ title: String) {
    print("\n== \(title) ==")
}

// MARK: - 1. Strategies

section("1. Strategies: what a new listener receives before live waves")
print("The same timeline on each kind of pair:")
let script: [Step] = [.broadcast([1, 2, 3]), .listen("A"), .broadcast([4]), .listen("B"), .broadcast([5])]
play("hot", .hot, script)
play("warm(upTo: 2)", .warm(upTo: 2), script)
play("cold", .cold, script)
print(
    """
    hot keeps nothing; warm(upTo: 2) keeps the last 2 waves (a ring buffer); cold keeps every wave.
    Replay goes only to the new listener: A never sees a wave twice when B joins.
    """)

print("\nThe examples from the contract:")
play("cold", .cold, [.broadcast([1, 2, 3]), .listen("A"), .broadcast([4])])
play("warm(upTo: 1)", .warm(upTo: 1), [.broadcast([1, 2]), .listen("A"), .broadcast([3])])
play("hot", .hot, [.broadcast([1, 2]), .listen("A"), .broadcast([3])])
play("warm(upTo: 2)", .warm(upTo: 2), script)

// MARK: - 2. Operators

section("2. Operators: lazy, per listener, and they keep the upstream's strategy")
// A cold pair replays everything, so each listener below sees the whole input.
let (numbers, input) = Receiver<Int>.make(with: .cold)
[1, 1, 2, 2, 3, 4, 4, 5, 6].forEach(numbers.broadcast)
print("input is a cold pair, so every listener below gets all of it replayed:")

/// Listens to `receiver` (getting the cold replay at once) and prints what arrived.
func show<Wave>(_ label: String, _ receiver: Receiver<Wave>) {
    var waves: [String] = []
    receiver.listen { waves.append("\($0)") }.dispose()
    print(label.padding(to: column) + waves.joined(separator: " "))
}

show("input", input)
show("map { $0 * 3 }", input.map { $0 * 3 })
show("filter { $0.isMultiple(of: 2) }", input.filter { $0.isMultiple(of: 2) })
show("skipRepeats()", input.skipRepeats())
show("skip(count: 2)", input.skip(count: 2))
show("take(count: 3)", input.take(count: 3))
show(
    "withPrevious()",
    input.withPrevious().map { previous, current in
        "(\(previous.map(String.init) ?? "nil"), \(current))"
    })
let (maybe, optionals) = Receiver<Int?>.make(with: .cold)
[1, nil, 2, nil, 3].forEach(maybe.broadcast)
show("optionals", optionals.map { $0.map(String.init) ?? "nil" })
show("optionals.skipNil()", optionals.skipNil())

print("\nChained:")
show("map { $0 * 3 }.filter { even }.skipRepeats()", input.map { $0 * 3 }.filter { $0.isMultiple(of: 2) }.skipRepeats())

// MARK: - 3. Re-entrancy

section("3. Re-entrant broadcast: A broadcasts 2 when it receives 1")
do {
    let (transmitter, receiver) = Receiver<Int>.make()
    var order: [String] = []
    receiver.listen { wave in
        order.append("A\(wave)")
        // Queued, not delivered in the middle of wave 1: B gets 1 before anyone gets 2.
        if wave == 1 { transmitter.broadcast(2) }
    }
    receiver.listen { wave in order.append("B\(wave)") }
    transmitter.broadcast(1)
    let a = order.filter { $0.hasPrefix("A") }.map { $0.dropFirst() }.joined(separator: " ")
    let b = order.filter { $0.hasPrefix("B") }.map { $0.dropFirst() }.joined(separator: " ")
    print("broadcast 1".padding(to: column) + "A: \(a)    B: \(b)")
    print("delivery order".padding(to: column) + order.joined(separator: " "))
    print("Each wave reaches every listener before the next wave reaches anyone, and nothing deadlocks.")
}

// MARK: - 4. Disposing

section("4. Disposing")
do {
    let (transmitter, receiver) = Receiver<String>.make()
    var heard: [String] = []
    let disposable = receiver.listen { heard.append($0) }
    transmitter.broadcast("before")
    disposable.dispose()
    transmitter.broadcast("after")
    disposable.dispose()  // disposing twice does nothing
    print("broadcast before; dispose; broadcast after".padding(to: column) + "heard: \(heard.joined(separator: " "))")

    // Dropping a disposable does NOT stop its listener (it is not cancel-on-deinit).
    var kept: [String] = []
    _ = receiver.listen { kept.append($0) }
    transmitter.broadcast("still listening")
    print("listener whose disposable was dropped".padding(to: column) + "heard: \(kept.joined(separator: " "))")

    // A handler may dispose itself; take(count:) does exactly that for you.
    let (counter, counts) = Receiver<Int>.make()
    var firstTwo: [Int] = []
    counts.take(count: 2).listen { firstTwo.append($0) }
    (1...5).forEach(counter.broadcast)
    print("take(count: 2) of 1...5".padding(to: column) + "heard: \(firstTwo.map(String.init).joined(separator: " "))")
}

// MARK: - 5. async/await

section("5. async/await: for await over receiver.values")
do {
    let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
    transmitter.broadcast(1)
    transmitter.broadcast(2)
    var got: [Int] = []
    for await wave in receiver.values {  // listens here: 2 is replayed at once
        got.append(wave)
        if wave < 4 { transmitter.broadcast(wave + 1) }
        if wave == 4 { break }  // leaving the loop disposes the listener
    }
    print("(the loop broadcasts 3 and 4 itself, then breaks)")
    print(
        "warm(upTo: 1): broadcast 1, 2; for await".padding(to: column)
            + "loop got: \(got.map(String.init).joined(separator: " "))")
}

// MARK: - 6. Promise and ValuePromise

section("6. Promise and ValuePromise: a current value, read at once or followed live")
do {
    // A Promise is fed by a signal; get() sends the current value (if any), then every new one.
    let name = Promise<String>()
    var live: [String] = []
    let following = name.get().start(next: { live.append($0) })
    print("Promise<String>(); start".padding(to: column) + "heard: (nothing: no value yet)")
    name.set(.single("Ada"))
    print("set(.single(\"Ada\"))".padding(to: column) + "heard: \(live.joined(separator: " "))")
    var late: [String] = []
    name.get().start(next: { late.append($0) }).dispose()
    print("a later start".padding(to: column) + "heard: \(late.joined(separator: " "))  (the current value, at once)")
    following.dispose()

    // The SwiftSignalKit idiom for reading the current value synchronously: start, then dispose.
    // Reliable because the replay runs on the calling thread before `start` returns.
    let count = ValuePromise(0, ignoreRepeated: true)
    func current() -> Int {
        var value = -1
        count.get().start(next: { value = $0 }).dispose()
        return value
    }
    print("ValuePromise(0); read with start + dispose".padding(to: column) + "current: \(current())")
    count.set(5)
    print("set(5); read again".padding(to: column) + "current: \(current())")

    // Live updates; ignoreRepeated drops a value equal to the current one.
    var updates: [String] = []
    let watching = count.get().start(next: { updates.append(String($0)) })
    [6, 6, 7].forEach(count.set)
    print("start; set 6, 6, 7 (ignoreRepeated)".padding(to: column) + "heard: \(updates.joined(separator: " "))")
    watching.dispose()

    // |> map … |> distinctUntilChanged: react only when the derived value changes.
    var parities: [String] = []
    let parity = count.get() |> map { $0.isMultiple(of: 2) ? "even" : "odd" } |> distinctUntilChanged
    let watchingParity = parity.start(next: { parities.append($0) })
    [9, 11, 12, 14, 15].forEach(count.set)
    watchingParity.dispose()
    count.set(16)  // after dispose(): nobody hears it
    print("|> map { even/odd } |> distinctUntilChanged")
    print("  start at 7; set 9, 11, 12, 14, 15".padding(to: column) + "heard: \(parities.joined(separator: " "))")
}

// MARK: - 7. combineLatest and mapToSignal

section("7. combineLatest and mapToSignal: state from several inputs; a switch that cancels")
do {
    // combineLatest: once every input has a value, the latest of each, again on every change.
    let firstName = ValuePromise("Ada")
    let lastName = ValuePromise("Lovelace")
    var names: [String] = []
    let fullName = combineLatest(firstName.get(), lastName.get()) |> map { "\($0) \($1)" }
    let showing = fullName.start(next: { names.append($0) })
    firstName.set("Augusta")
    lastName.set("King")
    showing.dispose()
    print("combineLatest(first, last); set first, last".padding(to: column) + "heard: \(names.joined(separator: ", "))")

    // mapToSignal: each query starts a search; a new query disposes the search still running.
    // `search` stands for a request: it answers at once for short queries, and never (a slow
    // network) for the query "slow", so that one is still running when the next query arrives.
    var requests: [String] = []
    func search(_ query: String) -> Signal<String, NoError> {
        Signal { subscriber in
            requests.append("start \(query)")
            if query != "slow" { subscriber.putNext("results for \(query)") }
            return ActionDisposable { requests.append("cancel \(query)") }
        }
    }
    let query = ValuePipe<String>()
    var results: [String] = []
    let searching = (query.signal() |> mapToSignal(search)).start(next: { results.append($0) })
    ["swift", "slow", "sweet"].forEach(query.putNext)
    searching.dispose()
    print("queries swift, slow, sweet".padding(to: column) + "heard: \(results.joined(separator: ", "))")
    print("requests".padding(to: column) + requests.joined(separator: ", "))
    print("The next request starts before the previous one is cancelled, as in SwiftSignalKit.")
}
