/// A weak reference in a box, SwiftSignalKit's `Weak`: to keep objects in collections without
/// keeping them alive.
///
/// ```swift
/// var controller: Controller? = Controller()
/// let box = Weak(controller!)
/// box.value     // the controller
/// controller = nil
/// box.value     // nil
/// ```
public final class Weak<T: AnyObject> {
    private weak let object: T?

    /// The object, or `nil` once it is gone.
    ///
    /// ```swift
    /// box.value?.refresh()
    /// ```
    public var value: T? { object }

    /// Refers to `value` without keeping it alive.
    ///
    /// ```swift
    /// let box = Weak(self)
    /// ```
    ///
    /// - Parameter value: The object to refer to.
    public init(_ value: T) {
        object = value
    }
}

extension Weak: Sendable where T: Sendable {}
