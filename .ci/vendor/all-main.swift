// Smoke program for the whole library vendored as one file: every `Sources/Receiver/**/*.swift`
// concatenated and compiled alone into this program's module. Run by `.ci/vendor-check.sh`,
// which compares what it prints with `all-expected.txt`.

func text<Wave>(_ waves: [Wave]) -> String { waves.map { "\($0)" }.joined(separator: " ") }

/// What a new listener of `receiver` gets at once (the replay of a cold pair).
func replay<Wave>(_ receiver: Receiver<Wave>) -> [Wave] {
    var waves: [Wave] = []
    receiver.listen { waves.append($0) }.dispose()
    return waves
}

// Operators, on a cold pair so that each listener gets the whole input replayed.
let (numbers, input) = Receiver<Int>.make(with: .cold)
[1, 1, 2, 2, 3, 4, 4, 5, 6].forEach(numbers.broadcast)
print("chain: \(text(replay(input.map { $0 * 3 }.filter { $0.isMultiple(of: 2) }.skipRepeats())))")
print("skip: \(text(replay(input.skip(count: 2))))")
print("take: \(text(replay(input.take(count: 3))))")
print("withPrevious: \(text(replay(input.withPrevious().map { "(\($0.0.map(String.init) ?? "nil"),\($0.1))" })))")
print("skipRepeats(by:): \(text(replay(input.skipRepeats { $0 / 2 == $1 / 2 })))")
let (maybe, optionals) = Receiver<Int?>.make(with: .cold)
[1, nil, 2, nil, 3].forEach(maybe.broadcast)
print("skipNil: \(text(replay(optionals.skipNil())))")

// async/await: the replay, then live waves; leaving the loop disposes the listener.
var looped: [Int] = []
for await wave in input.skip(count: 7).values {
    looped.append(wave)
    if wave == 6 { numbers.broadcast(7) }
    if wave == 7 { break }
}
print("values: \(text(looped))")

// Adapter checks (ValuePromise, |>): added once the adapter lands.

print("all: ok")
