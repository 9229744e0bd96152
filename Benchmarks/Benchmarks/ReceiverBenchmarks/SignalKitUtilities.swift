// The adapter's utilities: SwiftSignalKit's own `Bag` and `Atomic.modify` benchmark workloads,
// each beside a floor. OpenCombine has neither a bag nor an atomic box, so it has no row here.

import Benchmark
import ReceiverSignalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func registerSignalKitUtilities() {
    registerBagAddRemove()
    registerAtomicModify()
}

// MARK: - W16 Bag: add 64 items, then remove them — per round of 64

/// The items each W16 round adds: 0 ..< 64, so a round's items add up to 2,016.
let bagRound = 64

func registerBagAddRemove() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue
    let roundSum = sumOfWaves(bagRound)

    Benchmark("W16 floor: append 64 to an array, then remove the last 64", configuration: configuration(units: units)) {
        benchmark in
        let floor = ArrayBag()
        var sum = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { sum &+= floor.round(bagRound) }
        benchmark.stopMeasurement()
        precondition(sum == n * roundSum && floor.items.isEmpty, "W16 floor: sum \(sum), expected \(n * roundSum)")
    }

    for newestFirst in [false, true] {
        let order = newestFirst ? "newest first" : "in the order added"
        Benchmark("W16 Bag add 64, then remove them \(order)", configuration: configuration(units: units)) {
            benchmark in
            let bag = Bag<Int>()
            var indices: [Bag<Int>.Index] = []
            indices.reserveCapacity(bagRound)
            var sum = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for item in 0..<bagRound { indices.append(bag.add(item)) }
                for item in bag.copyItems() { sum &+= item }
                if newestFirst {
                    for index in indices.reversed() { bag.remove(index) }
                } else {
                    for index in indices { bag.remove(index) }
                }
                indices.removeAll(keepingCapacity: true)
            }
            benchmark.stopMeasurement()
            precondition(bag.isEmpty, "W16 Bag: not empty after the removals")
            precondition(sum == n * roundSum, "W16 Bag: the items added up to \(sum), expected \(n * roundSum)")
            precondition(bag.add(0) == n * bagRound, "W16 Bag: indices are not 0, 1, 2, …")
        }
    }
}

/// W16's floor: a plain array, appended to and emptied from its end.
final class ArrayBag {
    var items: [Int] = []

    init() { items.reserveCapacity(bagRound) }

    /// Appends `0 ..< count`, adds the items up, removes them from the end; returns the sum.
    @inline(never)
    func round(_ count: Int) -> Int {
        for item in 0..<count { items.append(item) }
        var sum = 0
        for item in items { sum &+= item }
        for _ in 0..<count { items.removeLast() }
        return sum
    }
}

// MARK: - W17 Atomic.modify — per call

func registerAtomicModify() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    Benchmark("W17 floor: a closure called under a pthread_mutex", configuration: configuration(units: units)) {
        benchmark in
        let floor = LockedValue()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { floor.modify { $0 &+ 1 } }
        benchmark.stopMeasurement()
        precondition(floor.value == n, "W17 floor: \(floor.value), expected \(n)")
    }

    Benchmark("W17 Atomic.modify", configuration: configuration(units: units)) { benchmark in
        let atomic = Atomic(value: 0)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { atomic.modify { $0 &+ 1 } }
        benchmark.stopMeasurement()
        let value = atomic.with { $0 }
        precondition(value == n, "W17 Atomic.modify: \(value), expected \(n)")
    }
}

/// W17's floor: an integer behind a `pthread_mutex`, changed by a closure under the lock.
final class LockedValue: @unchecked Sendable {  // `value` is only touched under `mutex`
    private let mutex = FloorMutex()
    private(set) var value = 0

    deinit { mutex.destroy() }

    @inline(never)
    func modify(_ transform: (Int) -> Int) {
        mutex.lock()
        value = transform(value)
        mutex.unlock()
    }
}
