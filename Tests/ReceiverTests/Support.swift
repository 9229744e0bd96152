import Receiver
@_exported import TestSupport

/// A disposable that counts its `dispose()` calls (not idempotent on purpose: a second call shows).
final class CountingDisposable: DisposeCounter, Disposable, @unchecked Sendable {}

let allStrategies: [Receiver<Int>.Strategy] = [.hot, .warm(upTo: 2), .cold]
