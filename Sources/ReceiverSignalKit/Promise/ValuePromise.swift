/// A current value that is set directly: `get()` sends the current value, then every new one.
///
/// ```swift
/// let count = ValuePromise(0, ignoreRepeated: true)
/// count.get().start(next: { print($0) })   // prints 0
/// count.set(1)                             // prints 1
/// count.set(1)                             // prints nothing: equal to the current value
/// ```
///
/// The promise keeps the current value itself. While `get()` has live subscriptions it also keeps
/// a `.warm(upTo: 1)` pair, whose kept wave is the current value: made at the first start, let go
/// of when the last subscription is disposed (most promises are never listened to, and a screen's
/// promises are listened to only while it shows them), and made again at the next start. So
/// reading the current value is synchronous, from any thread and from inside a handler:
/// `var v: Int?; count.get().start(next: { v = $0 }).dispose()`. (If other threads `set` at the
/// same moment, a newer value may also reach the handler, on their thread, before `dispose()`:
/// keep such a read in an ``Atomic``. On a promise nobody listens to, such a read makes the pair
/// and lets it go again.)
///
/// The signal `get()` returns, and each of its subscriptions until it is disposed, keep the
/// promise alive, as in SwiftSignalKit.
///
/// > Note: Values are sent in the order they were stored, also when several threads `set` at the
/// > same moment: a `set` made while another thread is sending stores its value and leaves it to
/// > that thread to send, and one made from a handler is queued after the value being delivered,
/// > FIFO. So subscribers end at the current value, and a new start replays it.
/// > SwiftSignalKit delivers a re-entrant `set` nested: with
/// > subscribers a and b, and a calling `set(2)` when it gets 1, SwiftSignalKit gives
/// > `a 1, a 2, b 2, b 1`; this gives `a 1, b 1, a 2, b 2`.
///
/// > Note: With `ignoreRepeated`, `set` compares the new value with the current one (outside any
/// > lock: `==` is your code) and drops an equal one, so the current value stays the object that
/// > was stored first, as in SwiftSignalKit. If another `set` stored a value meanwhile, it compares
/// > again with that one, so no subscriber is ever sent a value equal to the one before it.
public final class ValuePromise<T: Equatable> {
    // Every stored `var` is only touched under the object's stripe of the lock table
    // (`StripedLock`), which also makes the exclusivity check redundant; so the promise is
    // `Sendable` when `T` is (the extension below).

    /// The current value: `nil` only before the first `set` of a promise made without one.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var value: T?
    /// Whether a value equal to the current one is ignored.
    ///
    /// ```swift
    /// ValuePromise(1, ignoreRepeated: true).ignoreRepeated   // true
    /// ```
    public let ignoreRepeated: Bool
    /// Counts the stores, so that what was read before unlocking (a value compared with `==`, the
    /// value a first start fed its new pair) can be checked to be still current.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var version: UInt32 = 0
    /// The pair and what goes with it, only while `get()` has live subscriptions.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var listened: Listened?

    /// What a promise keeps while it is listened to: its pair, how many subscriptions listen to it,
    /// and who sends. Its `var`s are touched only under the promise's stripe (it is never shared
    /// between promises).
    @usableFromInline final class Listened {
        @usableFromInline let transmitter: Receiver<T>.Transmitter
        @usableFromInline let receiver: Receiver<T>
        /// The live subscriptions: when the last is disposed, the promise lets go of this object.
        @exclusivity(unchecked) @usableFromInline var subscriptions = 0
        /// Who sends, and the values stored meanwhile by other threads, which it sends next: so
        /// values go into the pair in the order they were stored.
        @exclusivity(unchecked) @usableFromInline var sending = Serializer<T>()
        /// The thread that sends (`Platform.currentThread`), while one does.
        @exclusivity(unchecked) @usableFromInline var sender: UInt = 0

        @inlinable init(_ value: T?) {
            (transmitter, receiver) = Receiver<T>.make(with: .warm(upTo: 1))
            if let value { transmitter.broadcast(value) }  // no listener yet: no user code runs
        }
    }

    /// Makes a promise whose current value is `value`.
    ///
    /// ```swift
    /// let promise = ValuePromise(1, ignoreRepeated: true)
    /// ```
    ///
    /// - Parameters:
    ///   - value: The current value.
    ///   - ignoreRepeated: Whether setting a value equal to the current one is ignored.
    @inlinable public init(_ value: T, ignoreRepeated: Bool = false) {
        self.ignoreRepeated = ignoreRepeated
        self.value = value
    }

    /// Makes a promise without a current value.
    ///
    /// ```swift
    /// let promise = ValuePromise<Int>(ignoreRepeated: true)
    /// ```
    ///
    /// - Parameter ignoreRepeated: Whether setting a value equal to the current one is ignored.
    @inlinable public init(ignoreRepeated: Bool = false) {
        self.ignoreRepeated = ignoreRepeated
    }

    /// Makes `value` the current value and sends it to every subscriber (unless
    /// `ignoreRepeated` and it equals the current value).
    ///
    /// ```swift
    /// promise.set(2)
    /// ```
    ///
    /// - Parameter value: The new value.
    @inlinable public func set(_ value: T) {
        let lock = StripedLock(for: self)
        var replaced: T? = value
        while true {
            var compared: UInt32?  // with `ignoreRepeated`: the version whose value `value` differs from
            if ignoreRepeated {
                var current: T?
                compared = lock.withLock { () -> UInt32 in
                    current = self.value
                    return version
                }
                guard current != value else { return }  // your `==`, after unlocking: dropped
            }
            // The store, and what this `set` sends: `value` if nobody was sending (it is the sender
            // now); nothing if another thread is (it sends `value` next); if this thread is, from
            // a handler, what waits and `value` at once (the pair only queues them, as it is
            // delivering on this thread). Nothing is sent while nobody listens.
            var isStored = false, earlier = DrainQueue<T>()
            let pair = lock.withLock { () -> Listened? in
                if let compared, compared != version { return nil }  // stored meanwhile: compare again
                isStored = true
                version &+= 1
                swap(&self.value, &replaced)
                guard let listened else { return nil }
                if listened.sending.admit(value) {
                    listened.sender = Platform.currentThread
                } else {
                    guard listened.sender == Platform.currentThread else { return nil }  // queued
                    swap(&earlier, &listened.sending.waiting)  // `value` is the last of them
                }
                return listened
            }
            guard isStored else { continue }
            replaced = nil  // released after unlocking
            guard let pair else { return }
            #if RECEIVER_DIAGNOSTICS
            PromiseSetPause.reached(self)
            #endif
            guard earlier.isEmpty else {
                while let wave = earlier.popFirst() { pair.transmitter.broadcast(wave) }
                return
            }
            var next: T? = value
            while let wave = next {
                pair.transmitter.broadcast(wave)
                next = lock.withLock {
                    let next = pair.sending.next()
                    if next == nil { pair.sender = 0 }
                    return next
                }
            }
            return
        }
    }

    /// Counts a new subscription, making the pair if there is none (fed the current value), and
    /// returns the pair: it stays while the subscription does.
    @inlinable func subscribe() -> Listened {
        let lock = StripedLock(for: self)
        while true {
            // The pair, or what making one needs.
            var value: T?
            let (found, version) = lock.withLock { () -> (Listened?, UInt32) in
                if let listened {
                    listened.subscriptions += 1
                } else {
                    value = self.value
                }
                return (listened, self.version)
            }
            if let found { return found }
            // Made outside the lock, where nobody else sees it yet; kept only if no `set` came
            // meanwhile (else the next round feeds a new one the newer value).
            let made = Listened(value)
            value = nil
            let kept = lock.withLock { () -> Listened? in
                if let listened {  // another start made one first
                    listened.subscriptions += 1
                    return listened
                }
                guard self.version == version else { return nil }
                made.subscriptions = 1
                listened = made
                return made
            }
            if let kept { return kept }
        }
    }

    /// A subscription has been disposed: the last one lets go of the pair, released after
    /// unlocking (the current value stays in the promise).
    @inlinable func unsubscribe() {
        var released: Listened?
        StripedLock(for: self).withLock {
            listened!.subscriptions -= 1
            if listened!.subscriptions == 0 { swap(&listened, &released) }
        }
        _ = released
    }

    /// A signal of the current value (if there is one, sent at start on the starting thread),
    /// then of every new value. It never completes. The signal and each started subscription
    /// keep the promise alive.
    ///
    /// ```swift
    /// promise.get() |> map { "\($0)" }
    /// ```
    ///
    /// - Returns: The signal of the promise's values.
    @inlinable public func get() -> Signal<T, NoError> {
        Signal(start: { next, _, _ in
            let listener = self.subscribe().receiver.listen { value in withExtendedLifetime(self) { next?(value) } }
            return Subscription(self, listener)
        })
    }

    /// One live start of `get()`: disposing it disposes its listener, then tells the promise,
    /// once. It holds the promise until then, as the listener's handler does.
    @usableFromInline final class Subscription: Disposable {
        /// Retained until disposed. Only its `unsubscribe()` (locked) is called through it, so no
        /// `T` crosses threads here: the subscription is `Sendable` whatever `T` is.
        @usableFromInline nonisolated(unsafe) let promise: Unmanaged<ValuePromise>
        @usableFromInline let listener: any Disposable
        /// Only touched under this object's stripe (and in `deinit`, where nothing else can).
        @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var isDisposed = false

        @inlinable init(_ promise: ValuePromise, _ listener: any Disposable) {
            (self.promise, self.listener) = (Unmanaged.passRetained(promise), listener)
        }

        deinit { if !isDisposed { promise.release() } }  // dropped undisposed: the start stays live

        @inlinable func dispose() {
            let isFirst = StripedLock(for: self).withLock { () -> Bool in
                defer { isDisposed = true }
                return !isDisposed
            }
            guard isFirst else { return }
            listener.dispose()
            promise._withUnsafeGuaranteedRef { $0.unsubscribe() }
            promise.release()
        }
    }
}

extension ValuePromise: Sendable where T: Sendable {}
