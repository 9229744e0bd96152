#if !canImport(Darwin)
public import Synchronization
#endif

/// A current value that is set directly: `get()` sends the current value, then every new one.
///
/// ```swift
/// let count = ValuePromise(0, ignoreRepeated: true)
/// count.get().start(next: { print($0) })   // prints 0
/// count.set(1)                             // prints 1
/// count.set(1)                             // prints nothing: equal to the current value
/// ```
///
/// Built on a `.warm(upTo: 1)` pair, made at the first start of `get()`: until then the promise
/// keeps the current value itself (one object: most promises are never listened to), then the
/// pair's kept wave is the current value. So reading it is synchronous, from any thread and from
/// inside a handler: `var v: Int?; count.get().start(next: { v = $0 }).dispose()`. (If other
/// threads `set` at the same moment, a newer value may also reach the handler, on their thread,
/// before `dispose()`: keep such a read in an ``Atomic``.)
///
/// The signal `get()` returns, and each of its subscriptions until it is disposed, keep the
/// promise alive, as in SwiftSignalKit.
///
/// > Note: A `set` made while a subscriber is being delivered to (from its handler, or from
/// > another thread) is queued and delivered after the current value, FIFO. SwiftSignalKit
/// > delivers it nested: with subscribers a and b, and a calling `set(2)` when it gets 1,
/// > SwiftSignalKit gives `a 1, a 2, b 2, b 1`; this gives `a 1, b 1, a 2, b 2`, so every
/// > subscriber sees the values in the order they were set.
///
/// > Note: With `ignoreRepeated`, `set` compares the new value with the current one (outside any
/// > lock: `==` is your code) and drops an equal one, so the current value stays the object that
/// > was stored first, as in SwiftSignalKit. Two threads setting at the same moment can both pass
/// > that check; each subscriber also drops a value equal to the last one it received, so even
/// > then nobody sees a repeat.
public final class ValuePromise<T: Equatable> {
    // Every stored `var` is only touched under the object's stripe of the lock table
    // (`StripedLock`), which also makes the exclusivity check redundant; so the promise is
    // `Sendable` when `T` is (the extension below). (The order of the stored properties packs a
    // `ValuePromise<Int>` into 56 bytes.)

    /// The current value until the pair is made. After it, the pair keeps the current value, and
    /// this is a copy only when `ignoreRepeated` (for `set` to compare with); `nil` otherwise.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var value: T?
    /// Whether a value equal to the current one is ignored.
    ///
    /// ```swift
    /// ValuePromise(1, ignoreRepeated: true).ignoreRepeated   // true
    /// ```
    public let ignoreRepeated: Bool
    /// Counts the `set`s, so that a first start can tell that one came while it made the pair.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var version: UInt32 = 0
    /// The pair, made at the first start of `get()` and kept from then on.
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var transmitter: Receiver<T>.Transmitter?
    @exclusivity(unchecked) @usableFromInline nonisolated(unsafe) var receiver: Receiver<T>?
    #if !canImport(Darwin)
    /// The transmitter's address once the pair is made (stored after it, releasing), so that a
    /// `set` without `ignoreRepeated`, and a start, find it with one load instead of a lock round
    /// trip. On Apple platforms, whose deployment targets predate `Synchronization`, they take the
    /// lock.
    @usableFromInline let published = Synchronization.Atomic<UInt>(0)
    #endif

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
        // The stripe is found after the fast path below, which needs no lock.
        if ignoreRepeated {
            guard StripedLock(for: self).withLock({ self.value }) != value else { return }  // dropped
        } else {
            #if !canImport(Darwin)
            let address = published.load(ordering: .acquiring)
            if address != 0 {  // the pair keeps the value: nothing to store here
                let transmitter = Unmanaged<Receiver<T>.Transmitter>.fromOpaque(UnsafeRawPointer(bitPattern: address)!)
                return transmitter._withUnsafeGuaranteedRef { $0.broadcast(value) }
            }
            #endif
        }
        let lock = StripedLock(for: self)
        var replaced: T? = value
        // Unretained: once made, the pair is kept as long as the promise, which is alive here.
        let transmitter = lock.withLock { () -> Unmanaged<Receiver<T>.Transmitter>? in
            version &+= 1
            guard let transmitter = self.transmitter else {
                swap(&self.value, &replaced)
                return nil
            }
            if ignoreRepeated { swap(&self.value, &replaced) }
            return Unmanaged.passUnretained(transmitter)
        }
        // The replaced value is released after unlocking, before the new one is delivered (its
        // copy in the pair when the pair lets go of it).
        replaced = nil
        transmitter?._withUnsafeGuaranteedRef { $0.broadcast(value) }
    }

    /// The pair's receiver, unretained (once made, the pair is kept as long as the promise); the
    /// first call makes the pair, with the current value as its kept wave.
    @inlinable @inline(__always) func listened() -> Unmanaged<Receiver<T>> {
        #if !canImport(Darwin)
        // A made pair is found without the lock: `receiver` is stored before the releasing store
        // of `published` that this load acquires, and never changes after it.
        if published.load(ordering: .acquiring) != 0 { return Unmanaged.passUnretained(receiver.unsafelyUnwrapped) }
        #endif
        return listenedOrMade()
    }

    /// `listened()` under the lock: the made pair's receiver, or a pair made now.
    @inlinable @inline(never) func listenedOrMade() -> Unmanaged<Receiver<T>> {
        let lock = StripedLock(for: self)
        while true {
            // One lock round trip: the made pair's receiver, or what making one needs (the value
            // is copied only while there is no pair).
            let (receiver, value, version) = lock.withLock { () -> (Unmanaged<Receiver<T>>?, T?, UInt32) in
                if let receiver = self.receiver { return (Unmanaged.passUnretained(receiver), nil, 0) }
                return (nil, self.value, self.version)
            }
            if let receiver { return receiver }
            // Made and fed outside the lock, where nobody else sees it yet (a broadcast to no
            // listener runs no user code); it is kept only if no `set` came meanwhile.
            let (transmitter, made) = Receiver<T>.make(with: .warm(upTo: 1))
            if let value { transmitter.broadcast(value) }
            var moved: T?
            let kept = lock.withLock { () -> Bool in
                guard self.receiver == nil, self.version == version else { return false }
                (self.transmitter, self.receiver) = (transmitter, made)
                #if !canImport(Darwin)
                published.store(
                    UInt(bitPattern: Unmanaged.passUnretained(transmitter).toOpaque()), ordering: .releasing)
                #endif
                if !ignoreRepeated { swap(&self.value, &moved) }  // the pair keeps it now
                return true
            }
            _ = moved  // released here, after unlocking
            if kept { return Unmanaged.passUnretained(made) }
            // Another start made the pair first, or a `set` came: the pair made here is let go of
            // (it has no listener), and the next round looks again.
        }
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
            self.listened()._withUnsafeGuaranteedRef { receiver in
                guard self.ignoreRepeated else {
                    return receiver.listen { value in withExtendedLifetime(self) { next?(value) } }
                }
                var last: T?
                return receiver.listen { value in
                    withExtendedLifetime(self) {
                        guard value != last else { return }
                        last = value
                        next?(value)
                    }
                }
            }
        })
    }
}

extension ValuePromise: Sendable where T: Sendable {}
