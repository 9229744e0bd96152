/// An object that lives on one ``Queue``: made there, used there, released there — SwiftSignalKit's
/// `QueueLocalObject`.
///
/// ```swift
/// final class Cache { var items: [String: Data] = [:] }
///
/// let cache = QueueLocalObject(queue: Queue(name: "cache"), generate: { Cache() })
/// cache.with { $0.items["a"] = data }                 // on the cache's queue
/// let count = cache.syncWith { $0.items.count }       // waits for the queue
/// ```
///
/// Because every access to the object happens on its queue, the object needs no lock of its own,
/// provided the queue is serial (a ``Queue`` made with `init(name:qos:)` is).
public final class QueueLocalObject<T: AnyObject>: Sendable {
    /// Holds the object; it is only ever read or written on `queue`. A box of its own, so that
    /// `deinit` hands the object to the queue without reading it on the releasing thread.
    private final class Slot {
        var value: T?
    }

    /// The queue the object lives on.
    ///
    /// ```swift
    /// cache.queue.async { /* next to the cache */ }
    /// ```
    public let queue: Queue
    // Its value is only touched on `queue`, which serialises the accesses (the same contract as
    // `Queue.async`'s closures); hence `nonisolated(unsafe)`, and `Sendable` for the object.
    private nonisolated(unsafe) let slot = Slot()

    /// Makes the object on `queue` with `generate`: at once if already on `queue`, otherwise
    /// asynchronously (everything queued after this sees the object).
    ///
    /// ```swift
    /// let state = QueueLocalObject(queue: queue, generate: { SearchState() })
    /// ```
    ///
    /// - Parameters:
    ///   - queue: Where the object is made, used and released.
    ///   - generate: Makes the object; runs on `queue`.
    public init(queue: Queue, generate: @escaping () -> T) {
        self.queue = queue
        let slot = slot
        queue.async { slot.value = generate() }
    }

    deinit {
        let slot = slot
        queue.async { slot.value = nil }
    }

    /// The object, read directly. Call it only on the object's queue (asserted in debug builds).
    ///
    /// ```swift
    /// queue.async {
    ///     let state = object.unsafeGet()
    /// }
    /// ```
    ///
    /// - Returns: The object, or `nil` if it has not been made yet.
    public func unsafeGet() -> T? {
        assert(queue.isCurrent(), "QueueLocalObject.unsafeGet() called off its queue")
        return slot.value
    }

    /// Runs `f` with the object on its queue: at once if already on it, otherwise asynchronously.
    ///
    /// ```swift
    /// state.with { $0.query = "swift" }
    /// ```
    ///
    /// - Parameter f: The work; it keeps this `QueueLocalObject` alive until it ran.
    public func with(_ f: @escaping (T) -> Void) {
        queue.async {
            if let value = self.slot.value { f(value) }
        }
    }

    /// Runs `f` with the object on its queue, waits for it, and returns its result.
    ///
    /// ```swift
    /// let query = state.syncWith { $0.query }
    /// ```
    ///
    /// - Parameter f: The work.
    /// - Returns: What `f` returned.
    public func syncWith<R>(_ f: @escaping (T) -> R) -> R {
        var result: R?
        queue.sync { result = f(slot.value!) }
        return result!
    }

    /// A signal whose every start calls `f` with the object and the start's subscriber, on the
    /// object's queue (`|> runOn(queue)`). If this `QueueLocalObject` is gone by then, the start
    /// sends nothing.
    ///
    /// ```swift
    /// let results: Signal<[String], NoError> = state.signalWith { state, subscriber in
    ///     subscriber.putNext(state.results)
    ///     subscriber.putCompletion()
    ///     return EmptyDisposable
    /// }
    /// ```
    ///
    /// - Parameter f: The generator, given the object; runs on the object's queue.
    /// - Returns: A signal that holds this `QueueLocalObject` weakly.
    public func signalWith<R, E>(_ f: @escaping (T, Subscriber<R, E>) -> any Disposable) -> Signal<R, E> {
        Signal { [weak self] subscriber in
            guard let value = self?.slot.value else { return EmptyDisposable }
            return f(value, subscriber)
        } |> runOn(queue)
    }
}
