import Receiver

let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 2))
for wave in 1...3 { transmitter.broadcast(wave) }
receiver.map { $0 * 10 }.listen { print("late listener got", $0) }
transmitter.broadcast(4)
