// Shared pieces: the configuration every workload uses, and the floors — the least any observer
// implementation can cost — that the libraries are compared with in the same run.

import Benchmark

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

/// A benchmark configuration measuring time and allocations over `units` units of work per
/// iteration; the README divides the reported figures by `units`.
func configuration(
    units: BenchmarkScalingFactor,
    metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal],
    maxDuration: Duration = .seconds(1)
) -> Benchmark.Configuration {
    .init(
        metrics: metrics,
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
        precondition(self.count == count && self.sum == sum,
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

/// Floor 2: the same, with one uncontended `pthread_mutex` held around each broadcast: the least
/// any thread-safe subject with serialized delivery can cost. (It calls the handlers under the
/// lock, which a real library must not do — so it is a floor, not a design.)
final class LockedClosureArray: @unchecked Sendable {  // `handlers` is only touched under `mutex`
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var handlers: [(Int) -> Void] = []

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    func add(_ handler: @escaping (Int) -> Void) {
        pthread_mutex_lock(mutex)
        handlers.append(handler)
        pthread_mutex_unlock(mutex)
    }

    @inline(never)
    func broadcast(_ wave: Int) {
        pthread_mutex_lock(mutex)
        for handler in handlers { handler(wave) }
        pthread_mutex_unlock(mutex)
    }
}

/// Resident memory of this process, in bytes, from `/proc/self/statm` (Linux only; 0 elsewhere).
func residentBytes() -> Int {
    #if os(Linux)
    guard let file = fopen("/proc/self/statm", "r") else { return 0 }
    defer { fclose(file) }
    var size = 0, resident = 0
    guard withUnsafeMutablePointer(to: &size, { sizePointer in
        withUnsafeMutablePointer(to: &resident) { residentPointer in
            withVaList([sizePointer, residentPointer]) { vfscanf(file, "%ld %ld", $0) }
        }
    }) == 2 else { return 0 }
    return resident * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    return 0
    #endif
}
