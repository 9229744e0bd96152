import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// Client code as SwiftSignalKit apps write it, compiled and run: among it the shapes a
// `Signal<T, E: Error>` would break — error types that are not `Error` (`Void`, `NoError`, an app's
// plain enum) in extensions, generic types, typealiases, protocols and helpers. (Every public
// declaration, one by one, is SignalKitSurfaceTests.swift's.)

/// An app error type that does not conform to `Error`: the normal Telegram pattern.
private enum SurfaceLoadError { case network }

/// A client's constrained extension on the error type.
extension Signal where E == Void {
    fileprivate func surfaceClientRetyped() -> Signal<T, String> { self |> mapError { _ in "void" } }
}

/// A generic type storing a signal: its `E` carries no requirement.
private final class SurfaceHolder<T, E> {
    let signal: Signal<T, E>
    init(signal: Signal<T, E>) { self.signal = signal }
}

/// A generic struct storing a signal.
private struct SurfacePair<E> {
    let a: Signal<Int, E>
}

/// A generic class whose method returns a signal.
private final class SurfaceCache<E> {
    func load() -> Signal<Int, E> { .never() }
}

/// A generic typealias of Signal.
private typealias SurfaceSignal<T, E> = Signal<T, E>

/// A protocol whose associated type is a signal's error.
private protocol SurfaceLoader {
    associatedtype Failure
    func load() -> Signal<Int, Failure>
}

private struct SurfaceNetworkLoader: SurfaceLoader {
    func load() -> Signal<Int, SurfaceLoadError> { .fail(.network) }
}

/// A generic function with `E` only in the body's `Signal`.
private func surfaceNeverCount<E>(_: E.Type) -> Int {
    let signal: Signal<Int, E> = .never()
    return surfaceValues(signal).count
}

/// Generic client helpers with `E` inside `Signal`/`Subscriber` in the signature.
private func surfacePassthrough<T, E>(_ signal: Signal<T, E>) -> Signal<T, E> { signal }
private func surfaceMyMap<T, E, R>(_ f: @escaping (T) -> R) -> (Signal<T, E>) -> Signal<R, E> { map(f) }
private func surfaceFeed<T, E>(_ subscriber: Subscriber<T, E>, _ value: T) { subscriber.putNext(value) }

/// `NoError` is uninhabited, so this needs no body. The client shape `{ switch e {} }` compiles
/// too, but swiftc warns "will never be executed" there, exactly as with SwiftSignalKit's
/// `enum NoError {}` (checked with swiftc 6.3.1), so this warning-free file leaves it out.
private func surfaceAbsurd(_ e: NoError) -> Int {}

/// A client conformer that only stores another disposable (allowed with `Disposable: Sendable`).
private final class SurfaceForwarding: Disposable {
    let inner: any Disposable
    init(inner: any Disposable) { self.inner = inner }
    func dispose() { inner.dispose() }
}

/// A view model on the main actor holding a MetaDisposable, with `[weak self]` handlers.
@MainActor private final class SurfaceViewModel {
    let disposable = MetaDisposable()
    private(set) var value = 0
    func load(_ signal: Signal<Int, NoError>) {
        disposable.set(
            signal.start(
                next: { [weak self] value in
                    self?.value = value
                },
                completed: { [weak self] in
                    self?.value += 100
                }))
    }
    deinit { disposable.dispose() }
}

@Suite(.detectingLeaks) struct SignalKitClientShapeTests {
    @Test func errorTypesNeedNotConformToError() {
        let void: Signal<Int, Void> = .fail(())
        let int: Signal<Int, Int> = .fail(1)
        let string: Signal<Int, String> = .fail("e")
        let load: Signal<Int, SurfaceLoadError> = .fail(.network)
        let sink: (Signal<Int, Void>) -> Void = { _ in }
        sink(void)
        let mapped: Signal<Int, Void> = Signal<Int, Void>.single(1) |> map { $0 }
        var errors: [String] = []
        int.start(error: { errors.append("\($0)") })
        string.start(error: { errors.append($0) })
        load.start(error: { errors.append("\($0)") })
        void.surfaceClientRetyped().start(error: { errors.append($0) })
        #expect(errors == ["1", "e", "network", "void"] && surfaceValues(mapped) == [1])
    }

    @Test func genericTypesStoreSignalsWithAnyErrorType() {
        let holder = SurfaceHolder<Int, Void>(signal: .single(1))
        let pair = SurfacePair<SurfaceLoadError>(a: .single(2))
        let cached: Signal<Int, String> = SurfaceCache<String>().load()
        let aliased: SurfaceSignal<Int, SurfaceLoadError> = .single(3)
        let loaded: Signal<Int, SurfaceLoadError> = SurfaceNetworkLoader().load()
        var loadError: SurfaceLoadError?
        loaded.start(error: { loadError = $0 })
        let passed: Signal<Int, Void> = surfacePassthrough(holder.signal)
        let myMapped: Signal<String, Void> = passed |> surfaceMyMap { "\($0)" }
        #expect(surfaceValues(passed) == [1] && surfaceValues(pair.a) == [2] && surfaceValues(aliased) == [3])
        #expect(surfaceValues(myMapped) == ["1"] && surfaceValues(cached).isEmpty && loadError == .network)
        #expect(surfaceNeverCount(Void.self) == 0 && surfaceNeverCount(SurfaceLoadError.self) == 0)
    }

    @Test func disposablesAsTypes() {
        let signal = Signal<Int, NoError>.single(1)
        let _ = signal.start()
        let d: any Disposable = signal.start()
        let list: [any Disposable] = [d, EmptyDisposable, SurfaceForwarding(inner: d)]
        var optional: (any Disposable)? = nil
        optional = list.last
        optional?.dispose()
        list.forEach { $0.dispose() }
        #expect(optional != nil)
    }

    @Test func implicitlyUnwrappedHandlers() {
        var log: [String] = []
        let next: ((Int) -> Void)! = { log.append("next \($0)") }
        let error: ((()) -> Void)! = nil
        let completed: (() -> Void)! = { log.append("completed") }
        Signal<Int, Void>.single(1).start(next: next, error: error, completed: completed)
        Signal<Int, Void>.single(2).start(next: next, error: nil, completed: nil)
        let subscriber = Subscriber<Int, Void>(next: next, error: error, completed: completed)
        surfaceFeed(subscriber, 3)
        subscriber.putCompletion()
        #expect(log == ["next 1", "completed", "next 2", "next 3", "completed"])
    }

    @Test func noError() {
        let result: Result<Int, NoError> = .success(1)
        let none: NoError? = nil
        let signal: Signal<Int, NoError> = .single(2)
        var values: [Int] = []
        signal.start(next: { values.append($0) }, error: { _ in }, completed: {})
        _ = surfaceAbsurd
        #expect(result.get() == 1 && none == nil && values == [2])
    }

    @Test func chainsWithoutTypeAnnotations() {
        // Telegram style: no annotations, tuples destructured by two-parameter closures.
        let name = Signal<String, NoError>.single("a")
        let count = Signal<Int, NoError>.single(2)
        var log: [String] = []
        let chain =
            combineLatest(name, count)
            |> map { name, count -> String in "\(name)\(count)" }
            |> filter { !$0.isEmpty }
            |> distinctUntilChanged
            |> mapToSignal { text -> Signal<String, NoError> in .single(text + "!") }
            |> take(1)
            |> afterDisposed { log.append("disposed") }
        let disposable = chain.start(next: { log.append($0) }, completed: { log.append("completed") })
        disposable.dispose()
        let errors =
            Signal<Int, NoError>.single(1)
            |> castError(String.self)
            |> mapToSignal { value -> Signal<Int, String> in value > 0 ? .fail("positive") : .single(value) }
            |> `catch` { error -> Signal<Int, NoError> in .single(error.count) }
            |> then(.single(0))
        errors.start(next: { log.append("\($0)") })
        #expect(log == ["a2!", "completed", "disposed", "8", "0"])
    }

    @MainActor @Test func mainActorViewModel() {
        let model = SurfaceViewModel()
        model.load(.single(5))
        #expect(model.value == 105)
        model.disposable.dispose()
    }
}
