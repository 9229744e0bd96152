/// Disposes everything put in it when it is deinitialised: ties subscriptions to an owner's
/// lifetime.
///
/// ```swift
/// final class ProfileViewModel {
///     private let bag = DisposeBag()
///     init(name: Receiver<String>) {
///         name.listen { print($0) }.disposed(by: bag)
///     }
/// }   // releasing the view model disposes the subscription
/// ```
///
/// > Note: Thread-safe. Handlers that capture the bag's owner strongly keep it alive (and so the
/// > bag): capture it `weak`.
public final class DisposeBag: Sendable {
    /// Only touched under `ReceiverLock(for: self)`.
    nonisolated(unsafe) private var members: [any Disposable] = []

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = DisposeBag()
    /// ```
    public init() {}

    // The members are taken out under the lock and disposed after it, in insertion order.
    deinit {
        let all = ReceiverLock(for: self).withLock { members }
        all.forEach { $0.dispose() }
    }

    /// Keeps `disposable` until the bag is deinitialised.
    func insert(_ disposable: any Disposable) { ReceiverLock(for: self).withLock { members.append(disposable) } }
}

extension Disposable {
    /// Puts this disposable in `bag`, which disposes it when the bag is deinitialised.
    ///
    /// ```swift
    /// receiver.listen(to: show).disposed(by: bag)
    /// ```
    ///
    /// - Parameter bag: The bag that owns this disposable from now on.
    public func disposed(by bag: DisposeBag) { bag.insert(self) }
}
