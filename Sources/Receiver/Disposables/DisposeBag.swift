/// Disposes everything put in it when it is deinitialised: ties subscriptions to an owner's
/// lifetime.
///
/// ```swift
/// final class ProfileViewModel {
///     private let bag = DisposeBag()
///     init(name: Promise<String>) {
///         name.get().start(next: { print($0) }).disposed(by: bag)
///     }
/// }   // releasing the view model disposes the subscription
/// ```
///
/// > Note: Thread-safe. Handlers that capture the bag's owner strongly keep it alive (and so the
/// > bag): capture it `weak`.
public final class DisposeBag: Sendable {
    private let members = DisposableSet()

    /// Makes an empty bag.
    ///
    /// ```swift
    /// let bag = DisposeBag()
    /// ```
    public init() {}

    deinit { members.dispose() }

    /// Keeps `disposable` until the bag is deinitialised.
    func insert(_ disposable: any Disposable) { members.add(disposable) }
}

extension Disposable {
    /// Puts this disposable in `bag`, which disposes it when the bag is deinitialised.
    ///
    /// ```swift
    /// signal.start(next: show).disposed(by: bag)
    /// ```
    ///
    /// - Parameter bag: The bag that owns this disposable from now on.
    public func disposed(by bag: DisposeBag) { bag.insert(self) }
}
