// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (SwiftSignalKit's own names, kept so that its client code compiles.)
/// A disposable that does nothing: for generators with nothing to stop.
///
/// ```swift
/// let signal = Signal<Int, NoError> { subscriber in
///     subscriber.putNext(1)
///     subscriber.putCompletion()
///     return EmptyDisposable
/// }
/// ```
public let EmptyDisposable: any Disposable = EmptyDisposableObject()

/// The one instance behind ``EmptyDisposable``.
final class EmptyDisposableObject: Disposable {
    func dispose() {}
}
