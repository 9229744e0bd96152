// Operators on `Receiver`, written against the core's `listen(to:)`. Each is lazy and per
// listener: a listener of the derived receiver gets its own upstream listener and state, so the
// upstream's strategy carries over (a late listener of `cold.map(f)` gets every mapped wave) and
// disposing it disposes the upstream listener. No lock: calls to one listener never overlap.
// `@inlinable`, so that a chain is specialised for its wave types where it is used.

extension Receiver {
    /// Transforms each wave.
    ///
    /// ```swift
    /// receiver.map { $0 * 10 }.listen { print($0) }
    /// transmitter.broadcast(1)   // prints 10
    /// ```
    ///
    /// - Parameter transform: Called once per wave per listener, on the delivering thread.
    /// - Returns: A receiver of the transformed waves.
    @inlinable public func map<U>(_ transform: @escaping (Wave) -> U) -> Receiver<U> {
        Receiver<U> { handler in self.listen { handler(transform($0)) } }
    }

    /// Passes on only the waves for which `isIncluded` returns `true`.
    ///
    /// ```swift
    /// receiver.filter { $0.isMultiple(of: 2) }.listen { print($0) }
    /// // broadcast 1, 2, 3, 4   prints 2, 4
    /// ```
    ///
    /// - Parameter isIncluded: Decides, per wave, whether it is passed on.
    /// - Returns: A receiver of the included waves.
    @inlinable public func filter(_ isIncluded: @escaping (Wave) -> Bool) -> Receiver<Wave> {
        Receiver { handler in self.listen { if isIncluded($0) { handler($0) } } }
    }

    /// Pairs each wave with the one before it, as seen by that listener.
    ///
    /// ```swift
    /// receiver.withPrevious().listen { print($0) }
    /// // broadcast 1, 2, 3   prints (nil, 1), (Optional(1), 2), (Optional(2), 3)
    /// ```
    ///
    /// - Returns: A receiver of `(previous, current)` pairs; each listener's first wave pairs with `nil`.
    @inlinable public func withPrevious() -> Receiver<(Wave?, Wave)> {
        Receiver<(Wave?, Wave)> { handler in
            var previous: Wave?
            return self.listen { wave in
                defer { previous = wave }
                handler((previous, wave))
            }
        }
    }

    /// Drops the first `count` waves each listener would receive (replayed ones included).
    ///
    /// ```swift
    /// receiver.skip(count: 2).listen { print($0) }
    /// // broadcast 1, 2, 3   prints 3
    /// ```
    ///
    /// - Parameter count: How many waves to drop; `0` passes every wave.
    /// - Returns: A receiver of the waves after the first `count`.
    /// - Precondition: `count` is 0 or more.
    @inlinable public func skip(count: Int) -> Receiver<Wave> {
        guard count >= 0 else { fatalError("Receiver.skip(count:) needs a count of 0 or more, got \(count)") }
        return Receiver { handler in
            var remaining = count
            return self.listen { wave in
                guard remaining == 0 else {
                    remaining -= 1
                    return
                }
                handler(wave)
            }
        }
    }

    /// Passes on the first `count` waves each listener receives, then disposes its upstream
    /// listener.
    ///
    /// ```swift
    /// receiver.take(count: 2).listen { print($0) }
    /// // broadcast 1, 2, 3   prints 1, 2
    /// ```
    ///
    /// - Parameter count: How many waves to pass on; `0` passes none.
    /// - Returns: A receiver of at most `count` waves per listener.
    /// - Precondition: `count` is 0 or more.
    @inlinable public func take(count: Int) -> Receiver<Wave> {
        guard count >= 0 else { fatalError("Receiver.take(count:) needs a count of 0 or more, got \(count)") }
        return Receiver { handler in
            // The upstream disposable arrives only after `listen` returns, but the count may run
            // out during the replay inside it, or on another thread: hand it over under a lock.
            let upstream = TakeState(remaining: count)
            let disposable = self.listen { wave in
                let (passes, finished) = upstream.lock.withLock { () -> (Bool, (any Disposable)?) in
                    guard upstream.remaining > 0 else { return (false, nil) }
                    upstream.remaining -= 1
                    return (true, upstream.remaining == 0 ? upstream.disposable.take() : nil)
                }
                if passes { handler(wave) }
                finished?.dispose()
            }
            let finished = upstream.lock.withLock { () -> (any Disposable)? in
                guard upstream.remaining > 0 else { return disposable }
                upstream.disposable = disposable
                return nil
            }
            finished?.dispose()
            return disposable
        }
    }

    /// Drops a wave when `isEquivalent` says it repeats the last wave passed on.
    ///
    /// ```swift
    /// receiver.skipRepeats { $0.id == $1.id }.listen { print($0) }
    /// ```
    ///
    /// - Parameter isEquivalent: Whether two consecutive waves count as the same.
    /// - Returns: A receiver without consecutive repeats, per listener.
    @inlinable public func skipRepeats(by isEquivalent: @escaping (Wave, Wave) -> Bool) -> Receiver<Wave> {
        Receiver { handler in
            var last: Wave?
            return self.listen { wave in
                if let last, isEquivalent(last, wave) { return }
                last = wave
                handler(wave)
            }
        }
    }
}

extension Receiver where Wave: Equatable {
    /// Drops a wave equal to the last wave passed on.
    ///
    /// ```swift
    /// receiver.skipRepeats().listen { print($0) }
    /// // broadcast 1, 1, 2, 2, 3, 1   prints 1, 2, 3, 1
    /// ```
    ///
    /// - Returns: A receiver without consecutive duplicates, per listener.
    @inlinable public func skipRepeats() -> Receiver<Wave> {
        skipRepeats(by: ==)
    }
}

extension Receiver {
    /// Drops `nil` waves and unwraps the others.
    ///
    /// ```swift
    /// let (transmitter, receiver) = Receiver<Int?>.make()
    /// receiver.skipNil().listen { print($0) }
    /// // broadcast 1, nil, 2   prints 1, 2
    /// ```
    ///
    /// - Returns: A receiver of the non-`nil` waves, unwrapped.
    @inlinable public func skipNil<Wrapped>() -> Receiver<Wrapped> where Wave == Wrapped? {
        Receiver<Wrapped> { handler in self.listen { if let wave = $0 { handler(wave) } } }
    }
}

extension Receiver where Wave: Hashable {
    /// Passes each distinct wave on once, per listener: a wave seen before is dropped.
    ///
    /// ```swift
    /// receiver.uniqueValues().listen { print($0) }
    /// // broadcast 1 2 1 3 1 3 2 -> prints 1 2 3
    /// ```
    ///
    /// Each listener remembers every distinct wave it has passed on, so memory grows with the number
    /// of distinct waves: use it on small domains (states, identifiers of a session).
    ///
    /// - Returns: A receiver of the first occurrence of each wave.
    /// - Complexity: O(1) per wave, amortised.
    @inlinable public func uniqueValues() -> Receiver<Wave> {
        Receiver { handler in
            var seen = Set<Wave>()
            return self.listen { wave in
                if seen.insert(wave).inserted { handler(wave) }
            }
        }
    }
}

extension Receiver {
    /// What one listener of `take(count:)` counts, and its upstream disposable once `listen` has
    /// returned it. Only touched under `lock`.
    @usableFromInline final class TakeState: @unchecked Sendable {
        @usableFromInline var remaining: Int, disposable: (any Disposable)?
        @inlinable var lock: ReceiverLock { ReceiverLock(for: self) }
        @inlinable init(remaining: Int) { self.remaining = remaining }
    }
}
