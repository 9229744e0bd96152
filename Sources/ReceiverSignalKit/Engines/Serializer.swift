/// One thread at a time delivers; the others leave what they bring for it.
///
/// The thread that finds nobody delivering becomes the deliverer and delivers at once; any other
/// thread, and the deliverer itself when a handler sends more, only appends to `waiting`, and the
/// deliverer takes from it, oldest first, until it is empty. So deliveries never overlap and never
/// nest, and they come in the order they were admitted. Its owner keeps it under its own lock (or
/// on its own queue), beside the rest of its state, and delivers after unlocking:
///
/// ```swift
/// guard lock.withLock({ serializer.admit(event) }) else { return }   // queued for the deliverer
/// var next: Event? = event
/// while let event = next {
///     deliver(event)
///     next = lock.withLock { serializer.next() }
/// }
/// ```
///
/// Used by the subscriber, both `deliverOn` lanes, `combineLatest` and the flattening operators.
/// (The core, `Receiver.swift`, keeps its own copy of the pattern: it is vendored alone.)
@usableFromInline struct Serializer<Element> {
    /// What waits for the deliverer, oldest first: empty whenever nobody delivers.
    @usableFromInline var waiting: DrainQueue<Element>
    /// Whether a thread is delivering: it alone takes from `waiting`.
    @usableFromInline var isDelivering: Bool

    // (No default values: a stored property's default is a call an inlined initialiser does not
    // see through.)
    @inlinable init() { (waiting, isDelivering) = (DrainQueue(), false) }

    /// A thread brings `element`. Returns `true` if it is to deliver it now (nobody was
    /// delivering: it is the deliverer from now on); otherwise `element` waits for the deliverer.
    /// `element` is made only if it has to wait.
    @inlinable @inline(__always) mutating func admit(_ element: @autoclosure () -> Element) -> Bool {
        guard !isDelivering else {
            waiting.append(element())
            return false
        }
        isDelivering = true
        return true
    }

    /// A thread brings `element`, to be delivered after every element of `earlier` (moved in,
    /// oldest first, leaving `earlier` empty). Returns what the caller is to deliver now — the
    /// oldest of them — if nobody was delivering; otherwise `nil`, and they all wait.
    @inlinable mutating func admit(_ element: Element, after earlier: inout DrainQueue<Element>) -> Element? {
        guard let oldest = earlier.popFirst() else { return admit(element) ? element : nil }
        let isDeliverer = admit(oldest)
        waiting.append(contentsOf: &earlier)
        waiting.append(element)
        return isDeliverer ? oldest : nil
    }

    /// The deliverer has delivered: the oldest waiting element, moved out, or `nil`, and nobody
    /// delivers any more.
    @inlinable @inline(__always) mutating func next() -> Element? {
        guard let element = waiting.popFirst() else {
            isDelivering = false
            return nil
        }
        return element
    }

    /// The deliverer stops before it has delivered everything (its owner ended): what waits, for
    /// the caller to release after unlocking.
    @inlinable mutating func stop() -> DrainQueue<Element> {
        isDelivering = false
        return waiting.takeAll()
    }
}
