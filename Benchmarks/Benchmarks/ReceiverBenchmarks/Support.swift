// Shared pieces: the configuration every workload uses, and the floors — the least any observer
// implementation can cost — that the libraries are compared with in the same run.

import Benchmark
import MallocInterposerSwift
import MallocStatistics

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Set by `.ci/bench-smoke.sh`: every benchmark runs once, without warm-up, to prove it still
/// builds, runs and checks its result; the figures are meaningless.
let isSmokeRun = getenv("RECEIVER_BENCH_SMOKE") != nil

/// A benchmark configuration measuring time (in nanoseconds) and allocations over `units` units of
/// work per iteration; package-benchmark divides the figures marked `*` by `units`.
func configuration(
    units: BenchmarkScalingFactor,
    metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal],
    maxDuration: Duration = .seconds(1)
) -> Benchmark.Configuration {
    .init(
        metrics: metrics,
        timeUnits: .nanoseconds,  // automatic units would print 28 μs for 27,600 ns
        warmupIterations: isSmokeRun ? 0 : 3,
        scalingFactor: units,
        maxDuration: isSmokeRun ? .milliseconds(1) : maxDuration,
        maxIterations: isSmokeRun ? 1 : 100_000
    )
}

/// Hides a handler from the optimiser, so that closures built in this module are called
/// through their context as a library's stored handlers are, not inlined at the call site.
@_optimize(none)
func opaque(_ handler: @escaping (Int) -> Void) -> (Int) -> Void { handler }

/// What a listener does with a wave: adds it up and counts it, so every workload can check that
/// each wave arrived exactly once.
final class Tally: @unchecked Sendable {  // written only by serialized deliveries
    var sum = 0
    var count = 0

    /// A handler that records into this tally, hidden from the optimiser.
    func handler() -> (Int) -> Void {
        opaque { wave in  // strong: the tally never holds its handlers, so there is no cycle
            self.sum &+= wave
            self.count &+= 1
        }
    }

    func expect(count: Int, sum: Int, _ name: StaticString) {
        precondition(
            self.count == count && self.sum == sum,
            "\(name): received \(self.count) waves summing to \(self.sum), expected \(count) summing to \(sum)")
    }
}

/// The sum of the waves `0 ..< count`, which is what most workloads broadcast.
func sumOfWaves(_ count: Int) -> Int { count * (count - 1) / 2 }

/// Floor 1: a plain array of closures, called in a loop. No lock, no bookkeeping.
final class ClosureArray {
    var handlers: [(Int) -> Void] = []

    @inline(never)
    func broadcast(_ wave: Int) {
        for handler in handlers { handler(wave) }
    }

    @inline(never)
    func add(_ handler: @escaping (Int) -> Void) { handlers.append(handler) }

    @inline(never)
    func removeLast() { handlers.removeLast() }
}

/// The floors' lock: a `pthread_mutex` on the heap (so it never moves), locked and unlocked with
/// nothing around the two calls. Its owner calls `destroy()` from its `deinit`.
struct FloorMutex {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    func destroy() {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }
}

/// Floor 2: the same, with one uncontended `pthread_mutex` held around each broadcast: the least
/// any thread-safe subject with serialized delivery can cost. (It calls the handlers under the
/// lock, which a real library must not do — so it is a floor, not a design.)
final class LockedClosureArray: @unchecked Sendable {  // `handlers` is only touched under `mutex`
    private let mutex = FloorMutex()
    private var handlers: [(Int) -> Void] = []

    deinit { mutex.destroy() }

    func add(_ handler: @escaping (Int) -> Void) {
        mutex.lock()
        handlers.append(handler)
        mutex.unlock()
    }

    @inline(never)
    func broadcast(_ wave: Int) {
        mutex.lock()
        for handler in handlers { handler(wave) }
        mutex.unlock()
    }
}

/// Resident memory of this process, in bytes, from `/proc/self/statm` (Linux only; 0 elsewhere).
func residentBytes() -> Int {
    #if os(Linux)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0, resident = 0
    guard
        withUnsafeMutablePointer(
            to: &size,
            { sizePointer in
                withUnsafeMutablePointer(to: &resident) { residentPointer in
                    withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
                }
            }) == 2
    else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}

// MARK: - Bytes per live subscription (W9)

/// The bytes malloc has handed out and not yet had back, over the whole process (glibc's
/// `mallinfo2().uordblks`, Darwin's `malloc_zone_statistics`: see MallocStatistics.h).
func mallocedBytes() -> Int { Int(receiver_malloced_bytes()) }

/// W9's figures, per live subscription, reported once per iteration and not scaled: the bytes
/// malloc holds for it (chunk sizes, as `mallocedBytes()` sees them, less the interposer's header:
/// see `bytesPerLiveSubscription(_:_:)`), the bytes asked of malloc, and the allocations.
let bytesPerLiveSubscription = BenchmarkMetric.custom("Bytes per live subscription", useScalingFactor: false)
let requestedBytesPerLiveSubscription = BenchmarkMetric.custom(
    "Requested bytes per live subscription", useScalingFactor: false)
let allocationsPerLiveSubscription = BenchmarkMetric.custom(
    "Allocations per live subscription", useScalingFactor: false)

/// How many subscriptions W9 keeps alive at once (1,000 in a smoke run).
let liveSubscriptions = isSmokeRun ? 1_000 : 10_000

/// A memory benchmark's configuration: `metrics`, custom counts read once per iteration, with
/// the interposer counting mallocs while measuring; one iteration without warm-up in a smoke run.
func memoryConfiguration(_ metrics: [BenchmarkMetric], maxDuration: Duration, maxIterations: Int)
    -> Benchmark.Configuration
{
    Benchmark.Configuration(
        // `.mallocCountTotal` switches the interposer's counting on while measuring (per iteration).
        metrics: metrics + [.mallocCountTotal],
        units: Dictionary(uniqueKeysWithValues: metrics.map { ($0, BenchmarkUnits.count) }),
        warmupIterations: isSmokeRun ? 0 : 1,
        scalingFactor: .one,
        maxDuration: isSmokeRun ? .milliseconds(1) : maxDuration,
        maxIterations: isSmokeRun ? 1 : maxIterations
    )
}

/// One W9 benchmark. `prepare` builds what the subscriptions share (the promise, the subject);
/// then `liveSubscriptions` subscriptions are made with `subscribe` and kept in an array reserved
/// beforehand, and what malloc holds is read before and after; `end` ends each one afterwards.
///
/// package-benchmark's `MallocInterposer` (which counts mallocs for every workload) prefixes each
/// allocation with a 16-byte header, so every chunk of more than 8 bytes is 16 bytes larger than
/// it would be without it; the interposer's own counts (mallocs less frees, bytes asked less bytes
/// freed, over the same span) give the live allocations, and 16 bytes each are taken off. (A
/// request of 8 bytes or less does not grow, as glibc's smallest chunk holds 24; Swift's smallest
/// object is 16.)
func bytesPerLiveSubscription<Live>(
    _ name: String,
    _ prepare: @escaping @Sendable () -> (subscribe: () -> Live, end: (Live) -> Void)
) {
    let configuration = memoryConfiguration(
        [bytesPerLiveSubscription, requestedBytesPerLiveSubscription, allocationsPerLiveSubscription],
        maxDuration: .seconds(2), maxIterations: 5)
    Benchmark(name, configuration: configuration) { benchmark in
        let (subscribe, end) = prepare()
        end(subscribe())  // one-time costs (metadata, lazily made statics) are not per subscription
        var live: [Live] = []
        live.reserveCapacity(liveSubscriptions)
        benchmark.startMeasurement()
        let (bytesBefore, countsBefore) = (mallocedBytes(), MallocInterposerSwift.getStatistics())
        for _ in 0..<liveSubscriptions { live.append(subscribe()) }
        let (bytesAfter, countsAfter) = (mallocedBytes(), MallocInterposerSwift.getStatistics())
        benchmark.stopMeasurement()
        let allocations =
            (countsAfter.mallocCount - countsBefore.mallocCount) - (countsAfter.freeCount - countsBefore.freeCount)
        let requested =
            (countsAfter.mallocBytesCount - countsBefore.mallocBytesCount)
            - (countsAfter.freeBytesCount - countsBefore.freeBytesCount)
        let held = bytesAfter - bytesBefore - 16 * allocations
        func perSubscription(_ total: Int) -> Int { (total + liveSubscriptions / 2) / liveSubscriptions }
        benchmark.measurement(bytesPerLiveSubscription, perSubscription(held))
        benchmark.measurement(requestedBytesPerLiveSubscription, perSubscription(requested))
        benchmark.measurement(allocationsPerLiveSubscription, perSubscription(allocations))
        live.forEach(end)
    }
}

/// W9's floor: the least a live subscription can hold, one object with one reference in it.
final class OneObject {
    let next: AnyObject?
    init(_ next: AnyObject?) { self.next = next }
}

/// Makes a `OneObject` where the optimiser cannot see it, so it is not allocated on the stack.
@inline(never)
func makeOneObject(_ next: AnyObject? = nil) -> OneObject { OneObject(next) }

/// Makes an escaping closure with a context of two words (a reference and an integer), where the
/// optimiser cannot see it.
@inline(never)
func makeClosure(_ tally: Tally, _ add: Int) -> () -> Void {
    { tally.sum &+= add }
}

/// A closure kept as it is made: stored in W9's generic array as a bare `() -> Void`, it would be
/// re-abstracted, which allocates a second context.
struct ClosureBox {
    let action: () -> Void
}

// MARK: - Floors for the adapter's workloads (W10–W15)

/// A slot for one object behind a `pthread_mutex`: the least `MetaDisposable.set` can cost (swap
/// under a lock, then end the old occupant outside it).
final class LockedSlot: @unchecked Sendable {  // `current` is only touched under `mutex`
    private let mutex = FloorMutex()
    private var current: (() -> Void)?

    deinit { mutex.destroy() }

    @inline(never)
    func set(_ next: @escaping () -> Void) {
        mutex.lock()
        let old = current
        current = next
        mutex.unlock()
        old?()
    }
}

/// The latest of three values behind a `pthread_mutex`: the least a `combineLatest` update can
/// cost (store one value under a lock, read all three, hand them on outside it).
final class LockedLatestOfThree: @unchecked Sendable {  // `latest` is only touched under `mutex`
    private let mutex = FloorMutex()
    private var latest: (Int, Int, Int)
    private let handler: (Int) -> Void

    init(_ initial: (Int, Int, Int), handler: @escaping (Int) -> Void) {
        latest = initial
        self.handler = handler
    }

    deinit { mutex.destroy() }

    @inline(never)
    func setFirst(_ value: Int) {
        mutex.lock()
        latest.0 = value
        let values = latest
        mutex.unlock()
        handler(values.0 &+ values.1 &+ values.2)
    }
}

/// Hides a transform from the optimiser, as `opaque(_:)` does a handler.
@_optimize(none)
func opaqueMap(_ transform: @escaping (Int) -> Int) -> (Int) -> Int { transform }
