// Receiver — the core of the library, in one self-contained file.
//
// This file compiles on its own (`swiftc -swift-version 6 Receiver.swift main.swift`) and imports
// only the platform C library, so it can be vendored by copying it into an app. Its internal
// helpers are nested in `Receiver` or carry a `Receiver` prefix so that they do not collide with
// names in the app that vendors it.
//
// The delivery path is `@inlinable`, so it is specialised for the wave type in the module that
// uses it: unspecialised generic code looks up type metadata at run time, which made a broadcast
// about 40 times slower (Benchmarks/README.md). That is why the lock's C calls must be visible to
// inlinable code, and so why the C library is imported `public`ly (it is not re-exported).

#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// Something that can be stopped: a listener, a subscription, a running task.
///
/// `dispose()` is idempotent and may be called from any thread, also from inside a handler.
///
/// ```swift
/// let disposable = receiver.listen { print($0) }
/// disposable.dispose()   // the handler is never called again
/// disposable.dispose()   // does nothing
/// ```
public protocol Disposable: AnyObject, Sendable {
    /// Stops what this disposable stands for. Calling it again does nothing.
    func dispose()
}

/// The read-only end of a pair: something you can listen to, but not broadcast into.
///
/// Pairs are made by ``make(with:)``, which returns the write-only ``Transmitter`` and its
/// receiver. The ``Strategy`` decides what a new listener receives before live waves:
///
/// ```swift
/// let (transmitter, receiver) = Receiver<Int>.make(with: .warm(upTo: 1))
/// transmitter.broadcast(1)
/// transmitter.broadcast(2)
/// receiver.listen { print($0) }   // prints 2 (the kept wave)
/// transmitter.broadcast(3)        // prints 3
/// ```
///
/// > Note: Handlers run on the thread that is delivering: the one that called `broadcast` (or
/// > `listen`, for the replay), or the thread already delivering, which also delivers waves that
/// > other threads broadcast meanwhile. Calls to one handler never overlap, and every listener
/// > sees the waves in the same order. `broadcast`, `listen` and `dispose` may be called from any
/// > thread, also from inside a handler, and never deadlock.
///
/// Ownership: a receiver, and every receiver derived from it, holds its transmitter, which holds
/// the pair's state and the handlers. A disposable holds only the state's lock box, never a
/// handler's owner. When the transmitter and all receivers are gone the handlers are released,
/// so a handler that captures its own disposable is no cycle that leaks:
///
/// ```
/// Receiver ──▶ Transmitter ──▶ state ──▶ handler ──▶ (what it captures, maybe its Disposable)
/// Disposable ─────────────────▶ state            (released with the transmitter's deinit)
/// ```
public final class Receiver<Wave> {
    /// What a pair keeps to replay to each new listener before its live waves.
    ///
    /// ```
    /// hot:           broadcast 1, 2; listen A; broadcast 3     A: 3
    /// warm(upTo: 1): broadcast 1, 2; listen A; broadcast 3     A: 2 3
    /// cold:          broadcast 1, 2; listen A; broadcast 3     A: 1 2 3
    /// ```
    public enum Strategy: Equatable, Sendable {
        /// Keeps nothing: a listener receives only waves broadcast after it started listening.
        case hot
        /// Keeps the last `upTo` waves in a ring buffer and replays them, oldest first.
        /// `.warm(upTo: 0)` is `.hot`; a negative count stops the program at `make(with:)`.
        case warm(upTo: Int)
        /// Keeps every wave and replays all of them. Memory grows with every broadcast:
        /// prefer `.warm(upTo:)` when a bounded history will do.
        case cold
    }

    /// What a listener is: called with each wave (Receiver 0.0.5's name).
    ///
    /// ```swift
    /// let show: Receiver<Int>.Handler = { print($0) }
    /// receiver.listen(to: show)
    /// ```
    public typealias Handler = (Wave) -> Void

    /// The write-only end of a pair: it can broadcast, but nobody can listen to it.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<String>.make()
    /// receiver.listen { print("got", $0) }
    /// transmitter.broadcast("hello")   // prints "got hello"
    /// ```
    public final class Transmitter {
        @usableFromInline let box: ReceiverLock<State>

        @inlinable init(limit: Int) { box = ReceiverLock(State(limit: limit)) }

        // The receivers hold their transmitter, so this runs once the transmitter and every
        // receiver are gone. It takes the handlers out of the lock and releases them after it;
        // disposables hold only `box`, so they cannot keep a handler (or a cycle through it) alive.
        deinit {
            var released = State(limit: 0)
            box.withLock { swap(&$0, &released) }
        }

        /// Sends `wave` to every listener, and keeps it for replay as the strategy says.
        ///
        /// When no delivery is in progress the wave is delivered before `broadcast` returns, on
        /// this thread. When one is (a handler broadcasting, or another thread), the wave is
        /// queued and the delivering thread delivers it next, in FIFO order: `broadcast` never
        /// waits for handlers and never recurses.
        ///
        /// - Parameter wave: The value to send.
        /// - Complexity: O(1) to queue, plus one handler call per listener; a `.warm` pair costs
        ///   the same whatever its count.
        @inlinable public func broadcast(_ wave: Wave) {
            // Each step's handler call is made, and what the step let go of is released, after
            // unlocking: `step` is only replaced once `withLock` has returned.
            var step = box.withLock { $0.broadcast(wave) }
            while step.continues {
                step.call?.make()
                step = box.withLock { $0.advance() }
            }
        }

        @inlinable func listen(_ handler: @escaping (Wave) -> Void) -> any Disposable {
            var (token, pending) = box.withLock { $0.add(handler) }
            // No lock per replayed wave: nothing can dispose this listener before its disposable
            // is returned below. Waves broadcast meanwhile are held for it, then handed over.
            while !pending.isEmpty {
                pending.forEach(handler)
                pending = box.withLock { $0.takeHeld(token) }
            }
            return Listening(box: box, token: token) { box, token in _ = box.withLock { $0.remove(token) } }
        }
    }

    /// Starts one listener and returns what stops it: for a pair's receiver, its transmitter's
    /// `listen`; for a derived receiver, an operator's.
    @usableFromInline typealias Attach = (@escaping (Wave) -> Void) -> any Disposable

    /// Immutable and only ever called, never changed, so sharing it across threads is safe; it
    /// is `nonisolated(unsafe)` only because operators' closures are not `@Sendable` (handlers
    /// and operators are ordinary closures by design: see the threading contract).
    @usableFromInline nonisolated(unsafe) let attach: Attach

    @usableFromInline init(attach: @escaping Attach) { self.attach = attach }

    /// Makes a transmitter and its receiver.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int>.make(with: .cold)
    /// transmitter.broadcast(1)
    /// receiver.listen { print($0) }   // prints 1
    /// ```
    ///
    /// - Parameter strategy: What to keep for new listeners; `.hot` (nothing) by default.
    /// - Returns: The write-only transmitter and the read-only receiver of one pair.
    /// - Precondition: A `.warm(upTo:)` count is 0 or more.
    @inlinable public static func make(with strategy: Strategy = .hot) -> (Transmitter, Receiver) {
        let limit = switch strategy {
        case .hot: 0
        case .warm(let count): count
        case .cold: Int.max
        }
        precondition(limit >= 0, "Receiver.Strategy.warm(upTo:) needs a count of 0 or more, got \(limit)")
        let transmitter = Transmitter(limit: limit)
        return (transmitter, Receiver(attach: transmitter.listen))
    }

    /// Calls `handler` with every wave: first the kept ones (on this thread, before `listen`
    /// returns), then each live wave broadcast after this call.
    ///
    /// ```swift
    /// let disposable = receiver.listen { wave in print(wave) }
    /// transmitter.broadcast(1)   // prints 1
    /// disposable.dispose()
    /// transmitter.broadcast(2)   // prints nothing
    /// ```
    ///
    /// Dropping the returned disposable does not stop the listener; call `dispose()`.
    ///
    /// - Parameter handler: Called with each wave; calls never overlap.
    /// - Returns: What stops the listener. After its `dispose()` returns, `handler` is not called
    ///   again, and it is released.
    /// - Complexity: O(log n) in the number of listeners, plus the replay.
    @inlinable @discardableResult
    public func listen(to handler: @escaping Handler) -> any Disposable {
        attach(handler)
    }
}

extension Receiver: Sendable where Wave: Sendable {}
extension Receiver.Transmitter: Sendable where Wave: Sendable {}

extension Receiver {
    /// `remove` is made by the inlined `listen`, so `dispose` runs code specialised for the wave
    /// type. The removed listener (its handler, its held waves) is released after the lock.
    @usableFromInline final class Listening: Disposable {
        let box: ReceiverLock<State>, token: UInt64, remove: @Sendable (ReceiverLock<State>, UInt64) -> Void

        @usableFromInline init(box: ReceiverLock<State>, token: UInt64, remove: @escaping @Sendable (ReceiverLock<State>, UInt64) -> Void) {
            (self.box, self.token, self.remove) = (box, token, remove)
        }

        @usableFromInline func dispose() { remove(box, token) }
    }

    /// A handler call to make after unlocking. A struct, not a tuple: a closure moved from a
    /// generic struct into a specialised tuple is re-abstracted, which allocates on every call.
    @usableFromInline struct Call {
        @usableFromInline let handler: (Wave) -> Void, wave: Wave
        @usableFromInline init(handler: @escaping (Wave) -> Void, wave: Wave) { (self.handler, self.wave) = (handler, wave) }
        @inlinable func make() { handler(wave) }
    }

    /// What one transition hands back: the handler call to make next, and the waves the state let
    /// go of. Both are used and released by the caller after unlocking, since a wave's `deinit` is
    /// user code that may call back into the pair. `continues` is false once nothing is left to
    /// deliver.
    @usableFromInline struct Step {
        @usableFromInline var call: Call?, finished: Wave?, displaced: Wave?, continues: Bool
        @usableFromInline init(call: Call? = nil, finished: Wave? = nil, displaced: Wave? = nil, continues: Bool) {
            (self.call, self.finished, self.displaced, self.continues) = (call, finished, displaced, continues)
        }
    }

    @usableFromInline struct Listener {
        @usableFromInline let token: UInt64, since: UInt64  // `since`: the sequence number of its first live wave
        @usableFromInline var handler: ((Wave) -> Void)?  // nil once disposed
        @usableFromInline var held: [Wave]?  // live waves held for it while `listen` replays; nil once live

        @usableFromInline init(token: UInt64, since: UInt64, handler: @escaping (Wave) -> Void, held: [Wave]?) {
            (self.token, self.since, self.handler, self.held) = (token, since, handler, held)
        }
    }

    /// Everything a pair knows, changed only under its lock. The transitions return the next
    /// handler call to make, which the caller makes after unlocking.
    ///
    /// They are `@inlinable`, like `broadcast` and `listen`, so they are specialised for the wave
    /// type in the user's module: unspecialised generic code looks up type metadata and boxes
    /// values at run time, which made a broadcast ~50 times a locked closure call and allocate
    /// twice (Benchmarks/README.md has the figures).
    @usableFromInline struct State {
        @usableFromInline let limit: Int  // how many waves to keep: 0 for hot, Int.max for cold
        @usableFromInline var kept: [Wave] = [], oldest = 0  // once `kept` is full it is a ring starting at `oldest`
        @usableFromInline var listeners: [Listener] = [], liveCount = 0  // sorted by token; live: not disposed
        // Tokens handed out, tombstones compacted away, and waves broadcast (the next one's number).
        @usableFromInline var nextToken: UInt64 = 0, tokensRemoved: UInt64 = 0, waveCount: UInt64 = 0
        @usableFromInline var current: Wave?, sequence: UInt64 = 0, cursor = 0  // the wave being delivered
        // Waves broadcast during a delivery, not yet delivered, from `head` on. A wave leaves the
        // queue by being moved out of its slot, so clearing the drained queue releases nothing.
        @usableFromInline var queue: [Wave?] = [], head = 0

        @inlinable init(limit: Int) { self.limit = limit }

        @inlinable mutating func broadcast(_ wave: Wave) -> Step {
            var displaced: Wave?
            if kept.count < limit {
                kept.append(wave)
            } else if limit > 0 {
                displaced = wave
                swap(&kept[oldest], &displaced!)
                oldest = (oldest + 1) % limit
            }
            waveCount += 1
            guard current == nil else {
                queue.append(wave)
                return Step(displaced: displaced, continues: false)
            }
            (current, sequence, cursor) = (wave, waveCount - 1, 0)
            var step = advance()
            step.displaced = displaced
            return step
        }

        /// The next handler call for the current wave; once it has reached everyone, the current
        /// wave is handed back as `finished` and the next queued one becomes current.
        @inlinable mutating func advance() -> Step {
            guard let wave = current else { return Step(continues: false) }
            while cursor < listeners.count {
                let index = cursor
                cursor += 1
                guard let handler = listeners[index].handler, listeners[index].since <= sequence else { continue }
                guard listeners[index].held != nil else { return Step(call: Call(handler: handler, wave: wave), continues: true) }
                listeners[index].held?.append(wave)
            }
            let finished = current.take()
            if head < queue.count {
                (current, sequence, cursor, head) = (queue[head].take(), sequence + 1, 0, head + 1)
            }
            if head > 0, head == queue.count {  // drained: only moved-out slots are left
                queue.removeAll(keepingCapacity: head <= 64)
                head = 0
            }
            return Step(finished: finished, continues: current != nil)
        }

        @inlinable mutating func add(_ handler: @escaping (Wave) -> Void) -> (token: UInt64, replay: ArraySlice<Wave>) {
            let replay = kept[oldest...] + kept[..<oldest]
            listeners.append(Listener(token: nextToken, since: waveCount, handler: handler, held: replay.isEmpty ? nil : []))
            (nextToken, liveCount) = (nextToken + 1, liveCount + 1)
            return (nextToken - 1, replay)
        }

        /// The live waves held for `token` while `listen` replayed; when there are none left, it
        /// is live from now on and the delivering thread calls it.
        @inlinable mutating func takeHeld(_ token: UInt64) -> ArraySlice<Wave> {
            let index = index(of: token)!  // it cannot be disposed before `listen` returns
            defer { listeners[index].held = listeners[index].held!.isEmpty ? nil : [] }
            return listeners[index].held![...]
        }

        /// Tombstones the listener; compacts once tombstones outnumber the living (amortised O(1)).
        @inlinable mutating func remove(_ token: UInt64) -> Listener? {
            guard let index = index(of: token), listeners[index].handler != nil else { return nil }
            let removed = listeners[index]
            (listeners[index].handler, listeners[index].held, liveCount) = (nil, nil, liveCount - 1)
            if listeners.count > 2 * liveCount + 16 {
                cursor = listeners[..<cursor].lazy.filter { $0.handler != nil }.count
                tokensRemoved += UInt64(listeners.count - liveCount)
                listeners.removeAll { $0.handler == nil }
            }
            assert(liveCount >= 0 && cursor <= listeners.count)
            return removed
        }

        /// A listener added since the last compaction sits at `token - tokensRemoved` (every token
        /// compacted away was smaller): try there first, O(1); else binary search, O(log n).
        @inlinable func index(of token: UInt64) -> Int? {
            let guess = Int(truncatingIfNeeded: token &- tokensRemoved)
            if guess >= 0, guess < listeners.count, listeners[guess].token == token { return guess }
            var (low, high) = (0, listeners.count)
            while low < high {
                let middle = (low + high) / 2
                if listeners[middle].token < token { low = middle + 1 } else { high = middle }
            }
            return low < listeners.count && listeners[low].token == token ? low : nil
        }
    }
}

/// The library's one lock: a value that is only reachable through `withLock`. Shaped like
/// `Synchronization.Mutex` so it can become one when the platforms allow.
///
/// It is `@unchecked Sendable` because every access to the value happens under the lock. The
/// value may hold non-`Sendable` closures (the handlers); those are only ever called
/// outside the lock, on the threads the threading contract names.
@usableFromInline struct ReceiverLock<Value>: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    /// The value with the lock word tail-allocated after it, so the lock never moves.
    @usableFromInline final class Storage: ManagedBuffer<Value, Primitive> {
        #if !canImport(Darwin)
        deinit { _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) } }
        #endif
    }

    @usableFromInline let storage: Storage

    @inlinable init(_ value: Value) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { lock in
            lock.initialize(to: Primitive())
            #if !canImport(Darwin)
            pthread_mutex_init(lock, nil)
            #endif
        }
    }

    /// Runs `body` with the value while holding the lock. `body` must not call user code.
    @inlinable func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            #if canImport(Darwin)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }
}
