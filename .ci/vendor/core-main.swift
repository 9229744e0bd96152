// Smoke program for the vendored core: `Sources/Receiver/Receiver.swift` compiled alone into this
// program's module, as an app that copies the file gets it. Run by `.ci/vendor-check.sh`, which
// compares what it prints with `core-expected.txt`.

// Names an app may well have already. The core's internals join the app's module when vendored,
// so they must not collide with these.
struct State {}
final class Hub {}
struct Listener {}
final class Storage {}
enum Source {}
typealias Attach = Int
typealias Primitive = Int

func text(_ waves: [Int]) -> String { waves.map(String.init).joined(separator: " ") }

// Strategies: broadcast 1, 2, 3; listen A; broadcast 4; listen B; broadcast 5; B disposes; broadcast 6.
for strategy in [Receiver<Int>.Strategy.hot, .warm(upTo: 2), .cold] {
    let (transmitter, receiver) = Receiver<Int>.make(with: strategy)
    var a: [Int] = []
    var b: [Int] = []
    (1...3).forEach(transmitter.broadcast)
    receiver.listen { a.append($0) }
    transmitter.broadcast(4)
    let disposable = receiver.listen { b.append($0) }
    transmitter.broadcast(5)
    disposable.dispose()
    disposable.dispose()
    transmitter.broadcast(6)
    print("\(strategy): A: \(text(a))  B: \(text(b))")
}

// Re-entrant broadcast: A broadcasts 2 when it receives 1.
do {
    let (transmitter, receiver) = Receiver<Int>.make()
    var order: [String] = []
    receiver.listen { wave in
        order.append("A\(wave)")
        if wave == 1 { transmitter.broadcast(2) }
    }
    receiver.listen { order.append("B\($0)") }
    transmitter.broadcast(1)
    print("re-entrant: \(order.joined(separator: " "))")
}

// The public types are Sendable for Sendable waves.
func requireSendable<T: Sendable>(_: T) {}
let (transmitter, receiver) = Receiver<String>.make(with: .warm(upTo: 1))
requireSendable(transmitter)
requireSendable(receiver)
requireSendable(receiver.listen { _ in })
print("core: ok")
