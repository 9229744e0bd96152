// W19, one of SwiftSignalKit's own benchmark workloads: `Queue.isCurrent()`, which `Queue.async`,
// `Queue.sync`, `deliverOn` and `runOn` ask once per call or event. On a named queue (from inside
// one of its blocks, and from outside) and for the main queue (from the benchmark's own thread, and
// from another queue's block). The floor is what SwiftSignalKit's `isCurrent` does:
// `DispatchQueue.getSpecific(key:)` and an identity comparison. OpenCombine's schedulers have no
// equivalent question. Also `Timer`'s start and invalidate, beside a bare dispatch source.

import Benchmark
import Dispatch
import Foundation
import ReceiverSignalKit

func registerQueueIsCurrent() {
    let units = BenchmarkScalingFactor.kilo, n = units.rawValue

    /// Asks `isCurrent` `n` times per iteration on the thread `run` provides, counting the
    /// answers that are `true`, and checks that count against `expected`.
    func isCurrentBenchmark(
        _ name: String, expected: @escaping @Sendable () -> Int, run: @escaping @Sendable (() -> Void) -> Void,
        ask: @escaping @Sendable () -> Bool
    ) {
        Benchmark(name, configuration: configuration(units: units)) { benchmark in
            var count = 0
            run {
                benchmark.startMeasurement()
                for _ in benchmark.scaledIterations where ask() { count &+= 1 }
                benchmark.stopMeasurement()
            }
            let expected = expected()
            precondition(count == expected, "\(name): \(count) answers were true, expected \(expected)")
        }
    }

    let named = Queue(name: "W19")
    let other = DispatchQueue(label: "W19 other")
    let marker = SpecificMarker()
    named.queue.setSpecific(key: SpecificMarker.key, value: marker)
    let onNamed: @Sendable (() -> Void) -> Void = { body in named.queue.sync(execute: body) }
    let onCaller: @Sendable (() -> Void) -> Void = { body in body() }
    let onOther: @Sendable (() -> Void) -> Void = { body in other.sync(execute: body) }

    isCurrentBenchmark(
        "W19 floor: DispatchQueue.getSpecific === marker, on the queue", expected: { n }, run: onNamed,
        ask: { DispatchQueue.getSpecific(key: SpecificMarker.key) === marker })
    isCurrentBenchmark(
        "W19 floor: DispatchQueue.getSpecific === marker, off the queue", expected: { 0 }, run: onCaller,
        ask: { DispatchQueue.getSpecific(key: SpecificMarker.key) === marker })
    isCurrentBenchmark(
        "W19 Queue.isCurrent, named queue, on it", expected: { n }, run: onNamed, ask: { named.isCurrent() })
    isCurrentBenchmark(
        "W19 Queue.isCurrent, named queue, off it", expected: { 0 }, run: onCaller, ask: { named.isCurrent() })
    // The benchmark's own thread may or may not be the main thread: the check follows it.
    isCurrentBenchmark(
        "W19 Queue.isCurrent, main queue, from the benchmark's thread", expected: { Thread.isMainThread ? n : 0 },
        run: onCaller, ask: { Queue.mainQueue().isCurrent() })
    // `sync` runs the block on the calling thread; off the main thread, this is a queue's block.
    isCurrentBenchmark(
        "W19 Queue.isCurrent, main queue, from another queue's block", expected: { Thread.isMainThread ? n : 0 },
        run: onOther, ask: { Queue.mainQueue().isCurrent() })

    // A `Timer` started and invalidated before it fires: what `delay`, `timeout` and each retry
    // wait cost beyond the wait. The floor is the dispatch source alone.
    Benchmark(
        "W19 floor: DispatchSource timer made, scheduled, resumed, cancelled",
        configuration: configuration(units: units)
    ) {
        benchmark in
        let queue = DispatchQueue(label: "W19 timer floor")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now() + 10)
            source.setEventHandler {}
            source.resume()
            source.cancel()
        }
        benchmark.stopMeasurement()
    }
    Benchmark("W19 Timer start + invalidate (one-shot, 10 s, named queue)", configuration: configuration(units: units))
    {
        benchmark in
        let queue = Queue(name: "W19 timer")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let timer = ReceiverSignalKit.Timer(timeout: 10, repeat: false, completion: {}, queue: queue)
            timer.start()
            timer.invalidate()
        }
        benchmark.stopMeasurement()
    }
}

/// What the floor's queue carries, as SwiftSignalKit's `Queue` does (an object compared by identity).
final class SpecificMarker: Sendable {
    static let key = DispatchSpecificKey<SpecificMarker>()
}
