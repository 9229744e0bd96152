#!/usr/bin/env bash
# The core's broadcast before and after a change, in instructions and in time: builds
# Sources/Receiver/Receiver.swift at two revisions as two modules (ReceiverBefore, ReceiverAfter;
# the core file compiles alone), links both into one release driver with the floors, and runs
#   instructions: valgrind --tool=callgrind, (Ir at 2N − Ir at N) ÷ N per workload, N = 20,000;
#   time: 201 rounds of 10,000 units, the workloads alternating within each round, thread CPU
#         time (a loaded machine's scheduler taking the thread off the core is not counted),
#         the median per workload.
# Usage (from the repository): bash Benchmarks/Scripts/core-driver.sh [BEFORE [AFTER]]
# (revisions; default main and the working tree). Needs valgrind for the instructions.
set -euo pipefail
cd "$(dirname "$0")/../.."
before="${1:-main}" after="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
git show "$before:Sources/Receiver/Receiver.swift" >"$work/before.swift"
if [ -n "$after" ]; then git show "$after:Sources/Receiver/Receiver.swift" >"$work/after.swift"; else cp Sources/Receiver/Receiver.swift "$work/after.swift"; fi
cd "$work"

cat >main.swift <<'SWIFT'
import Glibc
import ReceiverAfter
import ReceiverBefore

/// The benchmarks' listener: a tally behind a closure the optimiser cannot see into.
@_optimize(none) func opaque(_ handler: @escaping (Int) -> Void) -> (Int) -> Void { handler }
final class Tally: @unchecked Sendable {
    var sum = 0, count = 0
    func handler() -> (Int) -> Void { opaque { self.sum &+= $0; self.count &+= 1 } }
}
final class ClosureArray {
    var handlers: [(Int) -> Void] = []
    @inline(never) func broadcast(_ wave: Int) { for handler in handlers { handler(wave) } }
}
/// Floor of W1: one closure under an uncontended `pthread_mutex`.
@inline(never) func floor1(_ n: Int) -> Int {
    let tally = Tally(), handler = tally.handler()
    let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    pthread_mutex_init(mutex, nil)
    for wave in 0..<n { pthread_mutex_lock(mutex); handler(wave); pthread_mutex_unlock(mutex) }
    return tally.sum
}
/// Floor of W2, per delivery: 100 closures called from an array.
@inline(never) func floor100(_ n: Int) -> Int {
    let tally = Tally(), subject = ClosureArray()
    for _ in 0..<100 { subject.handlers.append(tally.handler()) }
    for wave in 0..<(n / 100) { subject.broadcast(wave) }
    return tally.sum
}
/// Floor of W3: append a closure to an array and remove it.
@inline(never) func floorAR(_ n: Int) -> Int {
    let tally = Tally(), subject = ClosureArray(), handler = tally.handler()
    for _ in 0..<n { subject.handlers.append(handler); subject.handlers.removeLast() }
    return tally.sum + subject.handlers.count
}
SWIFT
for side in Before After; do
    sed "s/MOD/$side/g" >>main.swift <<'SWIFT'
@inline(never) func w1MOD(_ n: Int) -> Int {
    let tally = Tally(), (transmitter, receiver) = ReceiverMOD.Receiver<Int>.make(with: .hot)
    let listener = receiver.listen(to: tally.handler())
    for wave in 0..<n { transmitter.broadcast(wave) }
    listener.dispose()
    return tally.sum
}
@inline(never) func w2MOD(_ n: Int) -> Int {
    let tally = Tally(), (transmitter, receiver) = ReceiverMOD.Receiver<Int>.make(with: .hot)
    let listeners = (0..<100).map { _ in receiver.listen(to: tally.handler()) }
    for wave in 0..<(n / 100) { transmitter.broadcast(wave) }
    listeners.forEach { $0.dispose() }
    return tally.sum
}
@inline(never) func w3MOD(_ n: Int) -> Int {
    let tally = Tally(), handler = tally.handler()
    let (transmitter, receiver) = ReceiverMOD.Receiver<Int>.make(with: .hot)
    for _ in 0..<n { receiver.listen(to: handler).dispose() }
    transmitter.broadcast(1)
    return tally.sum
}
@inline(never) func warmMOD(_ n: Int) -> Int {
    let tally = Tally(), (transmitter, receiver) = ReceiverMOD.Receiver<Int>.make(with: .warm(upTo: 64))
    for wave in 0..<64 { transmitter.broadcast(wave) }
    let listener = receiver.listen(to: tally.handler())
    for wave in 0..<n { transmitter.broadcast(wave) }
    listener.dispose()
    return tally.sum
}
final class BoxMOD {
    let value: Int
    init(_ value: Int) { self.value = value }
}
@inline(never) func classMOD(_ n: Int) -> Int {
    var sum = 0
    let (transmitter, receiver) = ReceiverMOD.Receiver<BoxMOD>.make(with: .hot)
    let listener = receiver.listen { sum &+= $0.value }
    for wave in 0..<n { transmitter.broadcast(BoxMOD(wave)) }
    listener.dispose()
    return sum
}
@inline(never) func rebroadcastMOD(_ n: Int) -> Int {
    let tally = Tally(), (transmitter, receiver) = ReceiverMOD.Receiver<Int>.make(with: .hot)
    let first = receiver.listen { if $0 >= 0 { transmitter.broadcast(-1) } }
    let second = receiver.listen(to: tally.handler())
    for wave in 0..<n { transmitter.broadcast(wave) }
    first.dispose()
    second.dispose()
    return tally.sum
}
@inline(never) func lateMOD(_ n: Int) -> Int {
    let tally = Tally(), handler = tally.handler()
    let (transmitter, receiver) = ReceiverMOD.Receiver<Int>.make(with: .warm(upTo: 64))
    for wave in 0..<64 { transmitter.broadcast(wave) }
    for _ in 0..<n { receiver.listen(to: handler).dispose() }
    return tally.sum
}
SWIFT
done
cat >>main.swift <<'SWIFT'
let workloads: [String: (Int) -> Int] = [
    "floor1": floor1, "floor100": floor100, "floorAR": floorAR,
    "w1-before": w1Before, "w1-after": w1After, "w2-before": w2Before, "w2-after": w2After,
    "w3-before": w3Before, "w3-after": w3After, "warm-before": warmBefore, "warm-after": warmAfter,
    "class-before": classBefore, "class-after": classAfter, "rebroadcast-before": rebroadcastBefore,
    "rebroadcast-after": rebroadcastAfter, "late-before": lateBefore, "late-after": lateAfter,
]
func cpuNanoseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e9 + Double(time.tv_nsec)
}
let arguments = CommandLine.arguments
var sink = 0
if arguments[1] == "time" {  // time N NAME…: the median ns per unit of each, alternating
    let n = Int(arguments[2])!, names = Array(arguments[3...])
    var samples: [String: [Double]] = [:]
    for _ in 0..<201 {
        for name in names {
            let start = cpuNanoseconds()
            sink &+= workloads[name]!(n)
            samples[name, default: []].append((cpuNanoseconds() - start) / Double(n))
        }
    }
    for name in names { print(name, (samples[name]!.sorted()[100] * 10).rounded() / 10) }
} else {  // NAME N: runs it once
    sink = workloads[arguments[1]]!(Int(arguments[2])!)
}
if sink == 42 { print("") }
SWIFT

for side in before after; do
    [ "$side" = before ] && module=ReceiverBefore || module=ReceiverAfter
    swiftc -O -wmo -parse-as-library -swift-version 6 -emit-library -emit-module -module-name "$module" \
        "$side.swift" -o "lib$module.so"
done
swiftc -O -wmo -swift-version 6 -I . -L . -lReceiverBefore -lReceiverAfter -Xlinker -rpath -Xlinker "$work" \
    main.swift -o driver

echo "instructions per unit ((Ir at 2N − Ir at N) ÷ N, N = 20,000)"
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null ./driver "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
for name in floor1 w1-before w1-after floor100 w2-before w2-after floorAR w3-before w3-after warm-before \
    warm-after class-before class-after rebroadcast-before rebroadcast-after late-before late-after; do
    small=$(instructions "$name" 20000) large=$(instructions "$name" 40000)
    awk -v name="$name" -v a="$small" -v b="$large" 'BEGIN { printf "%-20s %8.1f\n", name, (b - a) / 20000 }'
done
echo "thread CPU time, ns per unit (median of 201 alternating rounds of 10,000)"
./driver time 10000 floor1 w1-before w1-after floor100 w2-before w2-after floorAR w3-before w3-after
