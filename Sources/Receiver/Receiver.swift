// Receiver — the core of the library, in one self-contained file. Why it has this shape:
//
// - One file that compiles on its own (`swiftc -swift-version 6 Receiver.swift main.swift`) and
//   imports only the platform C library, so it can be vendored by copying it into an app. Its
//   internal helpers are nested in `Receiver` or carry a `Receiver` prefix so that they do not
//   collide with names in the app that vendors it. So it keeps its own copies of what the adapter
//   also has (the lock table, the queue of waves broadcast during a delivery), written alike.
// - A pair's state is one `State` value whose transitions run under the lock. The delivering
//   thread's `Delivery` goes in and out of each one: the transition lends it the handler to call
//   next (moved out of its listener and back, so a call costs no retain and release) and moves the
//   waves it lets go of into it; the thread makes the call and releases them after unlocking,
//   because handlers and `deinit`s are user code, which may call back into the pair. So no locked
//   section here calls or releases anything of the user's.
// - The delivery path is `@inlinable`, so it is specialised for the wave type in the module that
//   uses it: unspecialised generic code looks up type metadata at run time, which made a broadcast
//   about 40 times slower (Benchmarks/README.md). That is why the lock's C calls must be visible to
//   inlinable code, and so why the C library is imported `public`ly (it is not re-exported). Code
//   that runs unspecialised (`deinit`, `dispose()`) avoids generic helpers for the same reason.
// - Every lock is a stripe of one table shared by all pairs and listeners (`ReceiverLock`).

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
/// Ownership: the pair's receiver holds the pair's state and its listeners; the transmitter and
/// every receiver derived from it hold that receiver (a transmitter keeps its receiver alive). A
/// listener is also the disposable `listen` returns, and it holds its handler but never the pair.
/// When the transmitter and all receivers are gone, the pair's receiver disposes every listener, so
/// a handler that captures its own disposable is no cycle that leaks:
///
/// ```
/// Transmitter ──▶ Receiver (state) ──▶ listener (the Disposable) ──▶ handler ──▶ what it captures
///   derived Receiver ──▶ │                  ▲                                          │
///                                           └───── maybe (broken by dispose) ◀─────────┘
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

    /// What a listener is: called with each wave.
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
        /// The pair's receiver, which holds the pair's state: a transmitter keeps its receiver
        /// alive (a `weak` reference to the receiver stays non-`nil` while the transmitter lives).
        @usableFromInline let receiver: Receiver

        @inlinable init(receiver: Receiver) { self.receiver = receiver }

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
            // What the state let go of into `delivery` is released here, after unlocking, before the
            // next call: the wave a `.warm` pair overwrote before the first one (it is no longer kept
            // once the new one is), a delivered wave before the next's; the last when this returns.
            let lock = receiver.lock
            var delivery = Delivery(wave: wave)
            var next = lock.withLock { receiver.state.broadcast(&delivery) }
            while next != .done {
                delivery.finished = nil
                if next == .call { delivery.call() } else { delivery.handler = nil }
                next = lock.withLock { receiver.state.advance(&delivery) }
            }
        }
    }

    /// Starts one listener of a derived receiver and returns what stops it.
    @usableFromInline typealias Attach = (@escaping Handler) -> any Disposable

    /// A pair's state, in the pair's receiver (a derived receiver's is empty and unused). Only ever
    /// touched under `lock`, which also makes the exclusivity check redundant.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var state: State
    /// A derived receiver (an operator's) attaches to its upstream; a pair's receiver has none.
    /// Immutable and only ever called, never changed, so sharing it across threads is safe; it
    /// is `nonisolated(unsafe)` only because operators' closures are not `@Sendable` (handlers
    /// and operators are ordinary closures by design: see the threading contract).
    @usableFromInline nonisolated(unsafe) let attach: Attach?

    @inlinable init(limit: Int = 0, attach: Attach? = nil) { (state, self.attach) = (State(limit: limit), attach) }

    /// This pair's stripe of the library's lock table, shared with its listeners.
    @inlinable var lock: ReceiverLock { ReceiverLock(for: self) }

    // The transmitter and every derived receiver hold the pair's receiver, so this runs once they
    // are all gone: it disposes every listener, which releases the handlers even when a handler
    // holds its own disposable.
    deinit {
        let listeners = lock.withLock { state.listeners }
        for index in 0..<listeners.count { listeners[index].dispose() }  // (not `indices`: see the top)
    }

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
        let limit = if case .warm(let count) = strategy { count } else { strategy == .hot ? 0 : Int.max }
        guard limit >= 0 else { fatalError("Receiver.Strategy.warm(upTo:) needs a count of 0 or more, got \(limit)") }
        let receiver = Receiver(limit: limit)
        return (Transmitter(receiver: receiver), receiver)
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
    /// - Parameters:
    ///   - handler: Called with each wave; calls never overlap.
    ///   - isolation: The caller's actor, filled in by Swift; leave it out.
    ///   - fileID: The caller's file, filled in by Swift; leave it out.
    ///   - line: The caller's line, filled in by Swift; leave it out.
    /// - Returns: What stops the listener. After its `dispose()` returns, `handler` is not called
    ///   again, and it is released.
    /// - Complexity: Amortised O(1), plus the replay.
    @inlinable @discardableResult
    public func listen(
        to handler: @escaping Handler, isolation: (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line
    ) -> any Disposable {
        #if RECEIVER_DIAGNOSTICS  // debug builds: the actor check and leak detection (Diagnostics.swift)
        let handler = ReceiverDiagnostics.listening(handler, isolation, fileID, line)
        #endif
        if let attach { return attach(handler) }
        let lock = lock, listener = Listener(lock: lock, handler: handler)
        var pending = lock.withLock { state.add(listener) }
        // No lock per replayed wave: nothing can dispose this listener before it is returned
        // below. Waves broadcast meanwhile are held for it, then handed over.
        while !pending.isEmpty {
            pending.forEach(handler)
            pending = lock.withLock { listener.takeHeld() }
        }
        return listener
    }

    /// One listener: its handler and what is held for it, and the disposable that stops it. Its
    /// fields are only touched under its pair's lock, which it shares. `@unchecked Sendable`: that
    /// lock is what makes `dispose()` safe from any thread.
    @usableFromInline final class Listener: Disposable, @unchecked Sendable {
        @usableFromInline let lock: ReceiverLock
        // Its first live wave's number; its handler, nil once disposed and while lent; the live waves
        // held for it while `listen` replays.
        @exclusivity(unchecked) @usableFromInline var since: UInt64 = 0, handler: Handler?, held: [Wave]?

        /// What `since` becomes when it is disposed: later than any wave, so none is handed to it.
        @inlinable static var disposed: UInt64 { .max }

        @inlinable init(lock: ReceiverLock, handler: @escaping Handler) { (self.lock, self.handler) = (lock, handler) }

        /// The live waves held while `listen` replayed; when there are none left, it is live from
        /// now on and the delivering thread calls it. Called under the lock.
        @inlinable func takeHeld() -> [Wave] {
            defer { held = held?.isEmpty == false ? [] : nil }
            return held ?? []
        }

        /// Takes the handler and the held waves out under the lock and releases them after. If the
        /// handler is lent out for a call, the delivering thread releases it when that call returns.
        /// The pair drops the disposed listener when it next sweeps. (Unspecialised: see the top.)
        @usableFromInline func dispose() {
            var taken: (Handler?, [Wave]?) = (nil, nil)
            lock.withLock { (since, taken, handler, held) = (Self.disposed, (handler, held), nil, nil) }
            _ = taken  // released here, after unlocking
        }
    }

    /// What the delivering thread holds between two locked sections: the wave it delivers, the
    /// handler lent to it for its next call, and a wave the state let go of (`finished`: one
    /// delivered, or the one a `.warm` pair overwrote), which it releases after unlocking (see the
    /// top). A transition only moves things into its empty fields, so it releases nothing under the lock.
    @usableFromInline struct Delivery {
        @usableFromInline var wave: Wave, handler: Handler?, finished: Wave?
        @inlinable init(wave: Wave) { self.wave = wave }

        /// Calls the lent handler, if any. A method, so that the handler is borrowed for the call,
        /// not copied out (a retain and a release).
        @inlinable func call() { handler?(wave) }

        /// Swaps two handlers. Not `swap(_:_:)`: a generic function sees a closure at another
        /// abstraction than a generic type's field keeps it at, so each move would wrap the closure
        /// in one more re-abstraction thunk.
        @inlinable static func exchange(_ a: inout Handler?, _ b: inout Handler?) { (a, b) = (b, a) }
    }

    /// What the delivering thread does after a transition, once it has unlocked: `call`
    /// `delivery.handler`, then advance; `release` what `delivery` holds (a disposed listener's
    /// handler, a wave), then advance; or stop, `done`: nothing is left to deliver, or another
    /// thread delivers it.
    @usableFromInline enum Next { case call, release, done }

    /// Everything a pair knows, changed only under its lock, by transitions that move what they
    /// hand out or let go of into the delivering thread's `Delivery` (see the top).
    @usableFromInline struct State {
        @usableFromInline let limit: Int  // how many waves to keep: 0 for hot, Int.max for cold
        @usableFromInline var kept: [Wave] = [], oldest = 0  // once `kept` is full it is a ring starting at `oldest`
        // In the order they joined, disposed ones among them until `sweep(sparingLent:)`; `foundDisposed`
        // once a delivery passed a disposed one since.
        @usableFromInline var listeners: [Listener] = [], foundDisposed = false
        // Waves broadcast (the next one's sequence number); while a thread delivers, the wave's sequence
        // number and the next listener to look at. When the lock is free meanwhile, the handler out for
        // a call is `listeners[cursor - 1]`'s.
        @usableFromInline var waveCount: UInt64 = 0, isDelivering = false, sequence: UInt64 = 0, cursor = 0
        // Waves broadcast during a delivery, not yet delivered, from `head` on: the adapter's
        // `DrainQueue`, inline (`enqueue`, and `takeQueued` for `popFirst()`). A wave leaves the queue by
        // being moved out of its slot, so clearing the drained queue releases nothing; drained, it
        // keeps its buffer for the next burst unless that grew past 64 waves.
        @usableFromInline var queue: [Wave?] = [], head = 0

        @inlinable init(limit: Int) { self.limit = limit }

        /// Keeps `delivery.wave` as the strategy says; then either queues it (a delivery is in
        /// progress) or starts delivering it, lending `delivery` the first handler to call.
        @inlinable mutating func broadcast(_ delivery: inout Delivery) -> Next {
            if limit > 0 { keep(&delivery) }
            waveCount &+= 1  // (wrapping arithmetic where it cannot overflow: no overflow check)
            guard !isDelivering else {
                enqueue(delivery.wave)
                return .done
            }
            (isDelivering, sequence, cursor) = (true, waveCount &- 1, 0)
            return advance(&delivery)
        }

        /// Keeps `delivery.wave` for replay; once the ring is full, the oldest kept wave moves to
        /// `finished`.
        @inlinable @inline(never) mutating func keep(_ delivery: inout Delivery) {
            guard kept.count == limit else { return kept.append(delivery.wave) }
            (kept[oldest], delivery.finished, oldest) = (delivery.wave, kept[oldest], (oldest + 1) % limit)
        }

        /// Queues a wave broadcast during a delivery (`append`).
        @inlinable @inline(never) mutating func enqueue(_ wave: Wave) { queue.append(wave) }

        /// Takes back the handler lent for the call just made, if any (if the call's listener was
        /// disposed meanwhile, the handler stays in `delivery`, to be released after unlocking), then
        /// lends `delivery` the next listener's handler for the current wave. Once the wave has reached
        /// everyone, moves it to `finished` and goes on with the next queued one (handing back to the
        /// delivering thread first if it already let go of one).
        @inlinable mutating func advance(_ delivery: inout Delivery) -> Next {
            if delivery.handler != nil {
                let called = listeners[cursor &- 1]
                guard called.since != Listener.disposed else { return .release }
                assert(called.handler == nil)
                Delivery.exchange(&called.handler, &delivery.handler)
            }
            while true {
                while cursor < listeners.count {
                    let listener = listeners[cursor]
                    cursor &+= 1
                    if listener.since > sequence {  // joined after this wave, or disposed
                        if listener.since == Listener.disposed { foundDisposed = true }
                    } else if listener.held != nil {  // still replaying: held for it
                        listener.held!.append(delivery.wave)
                    } else {
                        assert(delivery.handler == nil && listener.handler != nil)
                        Delivery.exchange(&delivery.handler, &listener.handler)
                        return .call
                    }
                }
                if foundDisposed { sweep(sparingLent: false) }
                guard head < queue.count else {
                    if head > 0 { clearQueue() }
                    (isDelivering, head) = (false, 0)
                    return .done
                }
                if delivery.finished != nil { return .release }  // released first, then back here
                takeQueued(&delivery)
            }
        }

        /// The next queued wave becomes `delivery.wave`, the one it delivered moves to `finished`
        /// (`popFirst()`). This, `clearQueue`, `enqueue`, `keep` and `sweep` are out of line: kept
        /// out of `broadcast` and `advance`, these less frequent paths let them inline.
        @inlinable @inline(never) mutating func takeQueued(_ delivery: inout Delivery) {
            (delivery.wave, delivery.finished) = (queue[head].take()!, delivery.wave)
            (sequence, cursor, head) = (sequence &+ 1, 0, head &+ 1)
        }

        /// Empties the drained queue: only moved-out slots are left, so this releases nothing.
        @inlinable @inline(never) mutating func clearQueue() { queue.removeAll(keepingCapacity: head <= 64) }

        /// Adds `listener` (last in delivery order) and returns what it is replayed.
        @inlinable mutating func add(_ listener: Listener) -> [Wave] {
            // A sweep when the buffer is full: amortised O(1) per listener.
            if !listeners.isEmpty, listeners.count == listeners.capacity { sweep(sparingLent: isDelivering) }
            // Unless the ring has wrapped, `kept` is in order: the replay shares its buffer, no copy.
            let replay = kept.isEmpty ? [] : oldest == 0 ? kept : Array(kept[oldest...] + kept[..<oldest])
            (listener.since, listener.held) = (waveCount, replay.isEmpty ? nil : [])
            listeners.append(listener)
            return replay
        }

        /// Drops disposed listeners (they hold nothing any more), keeping `cursor` on the same
        /// listener. While a delivery is in progress (`sparingLent`), `listeners[cursor - 1]`, whose
        /// handler may be out for a call, stays: the delivering thread gives the handler back to it.
        @inlinable @inline(never) mutating func sweep(sparingLent: Bool) {
            let spared = sparingLent ? cursor &- 1 : -1
            var kept = 0, keptBeforeCursor = 0
            for index in listeners.indices where listeners[index].since != Listener.disposed || index == spared {
                if index < cursor { keptBeforeCursor &+= 1 }
                listeners.swapAt(kept, index)
                kept &+= 1
            }
            listeners.removeLast(listeners.count &- kept)
            (cursor, foundDisposed) = (keptBeforeCursor, false)
        }
    }
}

extension Receiver: Sendable where Wave: Sendable {}
extension Receiver.Transmitter: Sendable where Wave: Sendable {}

/// A lock from the library's lock table: a fixed set of mutexes, padded apart, that every pair,
/// listener and operator shares by the address of the object it guards (the technique of the
/// Objective-C runtime's side tables). A pair so costs no lock of its own: a `pthread_mutex_t` is
/// 40 bytes, more than a small pair's whole state.
///
/// It is safe because no code holds a lock while it takes another or calls user code: each
/// locked section is a short state change. Two objects sharing a stripe only ever wait for one
/// such section.
///
/// The table is written as the adapter's `StripedLock` writes its own (this file is vendored alone,
/// so it keeps a copy): a global of 64 zero stripes. Zero is an unlocked lock word —
/// `os_unfair_lock`'s initial value on Apple platforms, `PTHREAD_MUTEX_INITIALIZER` in glibc and
/// musl — so the table needs no initialisation, and a global made of constants is laid out by the
/// compiler: finding it is an address, not the `swift_once` call of a lazily made global.
@usableFromInline struct ReceiverLock: @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline typealias Primitive = os_unfair_lock
    #else
    @usableFromInline typealias Primitive = pthread_mutex_t
    #endif

    /// One stripe: a lock word (at most 48 bytes), alone in its 64 bytes (a cache line) so that
    /// threads locking different stripes do not contend for a line. Eight stripes make a row, eight
    /// rows the table.
    @usableFromInline struct Stripe {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
    }
    @usableFromInline struct Row {
        var stripes = (Stripe(), Stripe(), Stripe(), Stripe(), Stripe(), Stripe(), Stripe(), Stripe())
    }
    @usableFromInline struct Table { var rows = (Row(), Row(), Row(), Row(), Row(), Row(), Row(), Row()) }
    /// Only ever reached through lock words at fixed addresses inside it (a stored global never
    /// moves), so the exclusivity check, which would see every lock as a write of the table, is off.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) static var table = Table()

    /// The address of `&table`, taken by a pointer conversion rather than an `inout` access, which
    /// the thread sanitizer would count as a write of the whole table by every thread that locks.
    @inlinable static func address(_ table: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer { table }

    @usableFromInline let word: UnsafeMutablePointer<Primitive>

    /// The stripe for `object`, picked from its address's bits by a multiplicative hash.
    @inlinable init(for object: AnyObject) {
        let address = UInt(bitPattern: ObjectIdentifier(object))
        let stripe = Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> (UInt.bitWidth - 6))
        word = (Self.address(&Self.table) + stripe * 64).assumingMemoryBound(to: Primitive.self)
    }

    /// Runs `body` while holding the lock. `body` must not call user code or take another lock.
    @inlinable @inline(__always) func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(word)
        defer { os_unfair_lock_unlock(word) }
        #else
        pthread_mutex_lock(word)
        defer { pthread_mutex_unlock(word) }
        #endif
        return try body()
    }
}
