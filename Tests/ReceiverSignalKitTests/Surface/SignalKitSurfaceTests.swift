import Dispatch
import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

// Proves, by compiling, that ReceiverSignalKit declares every public declaration of SwiftSignalKit
// (249 of them, in 26 source files) with the same shape: names, argument labels, defaults,
// observable generic parameter names and return types. Each declaration is used the way client
// code uses it, with explicit types, so a wrong shape is a compile error. The sections below are
// SwiftSignalKit's source files, numbered (`// MARK: - 12 Signal_Combine.swift`), and each use's
// comment numbers its declaration within that section: `// 12.3` is section 12's third.
// SignalKitClientShapeTests.swift compiles client code as SwiftSignalKit apps write it.
//
// Foundation is deliberately not imported (only its NSObject class), so `Timer` is SwiftSignalKit's.
import class Foundation.NSObject

// MARK: - Generic parameter names (observable in `where` clauses)

// A client's constrained extension names the generic parameter: these compile only if each type's
// parameter has SwiftSignalKit's name.
extension Atomic where T == Int { fileprivate var surfaceT: Int { with { $0 } } }  // 1.3
extension Weak where T == SurfaceObject { fileprivate var surfaceT: SurfaceObject? { value } }  // 2.1
extension Bag where T == Int { fileprivate var surfaceT: [T] { copyItems() } }  // 2.4
extension SparseBag where T == Int { fileprivate var surfaceT: Bool { isEmpty } }  // 2.15
extension DisposableDict where T == String { fileprivate func surfaceT(_ key: T) { set(nil, forKey: key) } }  // 3.21
extension Multicast where T == Int { fileprivate var surfaceT: Int { 0 } }  // 5.1
extension MulticastPromise where T == Int { fileprivate var surfaceT: T? { value } }  // 5.4
extension Promise where T == Int { fileprivate var surfaceT: Signal<T, NoError> { self.get() } }  // 7.1
extension ValuePromise where T == Int { fileprivate var surfaceT: Signal<T, NoError> { self.get() } }  // 7.8
extension QueueLocalObject where T == SurfaceObject { fileprivate var surfaceT: Queue { queue } }  // 9.1
extension Signal where T == Int, E == Void { fileprivate var surfaceTE: Signal<T, E> { self } }  // 10.7
extension RestartOrMapErrorCondition where E == String {
    fileprivate var surfaceE: E? {
        if case .error(let e) = self { return e }
        return nil
    }
}  // 11.7
extension SignalEvent where T == Int, E == Void {
    fileprivate var surfaceTE: T? {
        if case .Next(let v) = self { return v }
        return nil
    }
}  // 15.1
extension Passthrough where T == Int {
    fileprivate var surfaceT: T? {
        if case .Some(let v) = self { return v }
        return nil
    }
}  // 17.3
extension Subscriber where T == Int, E == Void { fileprivate func surfaceTE(_ value: T) { putNext(value) } }  // 21.1
extension ValuePipe where T == Int { fileprivate func surfaceT(_ value: T) { putNext(value) } }  // 24.1
extension SignalFeedbackLoopState where T == Int {
    fileprivate var surfaceT: T? {
        if case .loop(let v) = self { return v }
        return nil
    }
}  // 26.1

/// A class for the `AnyObject`-constrained generics.
private final class SurfaceObject {
    let id: Int
    init(id: Int) { self.id = id }
}

/// The one ThreadPool of this file: its threads never exit.
private let surfacePool = ThreadPool(threadCount: 1, threadPriority: 0.1)

/// An operator in `DefaultPrecedence`, to show that `|>` binds tighter (10.4).
infix operator <+>
private func <+> (lhs: Int, rhs: Int) -> Int { lhs + rhs }

/// An operator declared in SwiftSignalKit's precedence group: compiles only if `PipeRight` exists (10.4).
infix operator <| : PipeRight
private func <| (lhs: Int, rhs: Int) -> Int { lhs - rhs }

/// The values a start of `signal` sends synchronously (also for SignalKitClientShapeTests).
func surfaceValues<T, E>(_ signal: Signal<T, E>) -> [T] {
    var values: [T] = []
    signal.start(next: { values.append($0) }).dispose()
    return values
}

@Suite(.detectingLeaks) struct SignalKitSurfaceTests {
    private let s = Signal<Int, Void>.single(1)

    // MARK: - 1 Atomic.swift

    @Test func atomic() throws {
        let lockError: AtomicLockError = .isLocked  // 1.1, 1.2
        let _: any Error = lockError  // 1.1 conforms to Error
        let atomic: Atomic<Int> = Atomic(value: 1)  // 1.3, 1.4
        let text: String = atomic.with { (value: Int) -> String in "\(value)" }  // 1.5
        let _: ((Int) -> String) -> String = atomic.with
        let tried: String = try atomic.tryWith { "\($0)" }  // 1.6
        let _: ((Int) -> String) throws -> String = atomic.tryWith
        let modified: Int = atomic.modify { $0 + 1 }  // 1.7
        let _: ((Int) -> Int) -> Int = atomic.modify
        let old: Int = atomic.swap(5)  // 1.8
        let _: (Int) -> Int = atomic.swap
        #expect(text == "1" && tried == "1" && modified == 2 && old == 2 && atomic.surfaceT == 5)
        let inside: Bool = atomic.with { _ in (try? atomic.tryWith { _ in 0 }) == nil }
        #expect(inside)
    }

    // MARK: - 2 Bag.swift

    @Test func bag() {
        let object = SurfaceObject(id: 1)
        let weak: Weak<SurfaceObject> = Weak(object)  // 2.1, 2.3
        let _: SurfaceObject? = weak.value  // 2.2
        #expect(weak.surfaceT === object)

        let bag: Bag<Int> = Bag()  // 2.4, 2.6
        let index: Bag<Int>.Index = bag.add(10)  // 2.5, 2.7
        let _: Int = index  // 2.5 Index == Int
        let _: (Int) -> Bag<Int>.Index = bag.add
        let got: Int? = bag.get(index)  // 2.8
        let _: (Int) -> Int? = bag.get
        bag.add(20)
        let items: [Int] = bag.copyItems()  // 2.11
        let pairs: [(Bag<Int>.Index, Int)] = bag.copyItemsWithIndices()  // 2.12
        let first: (Bag<Int>.Index, Int)? = bag.first  // 2.14
        bag.remove(index)  // 2.9
        let _: (Int) -> Void = bag.remove
        bag.removeAll()  // 2.10
        let empty: Bool = bag.isEmpty  // 2.13
        #expect(got == 10 && items == [10, 20] && pairs.map(\.0) == [0, 1] && first?.1 == 10 && empty)
        #expect(bag.add(30) == 2)

        let sparse: SparseBag<Int> = SparseBag()  // 2.15, 2.17
        let _: any Sequence<Int> = sparse  // 2.15 Sequence
        let key: SparseBag<Int>.Index = sparse.add(7)  // 2.16, 2.18
        let _: Int = key
        let sparseGot: Int? = sparse.get(key)  // 2.19
        var iterated: [Int] = []
        for value in sparse { iterated.append(value) }
        let iterator: AnyIterator<Int> = sparse.makeIterator()  // 2.23
        _ = iterator
        sparse.remove(key)  // 2.20
        sparse.add(8)
        sparse.removeAll()  // 2.21
        let sparseEmpty: Bool = sparse.isEmpty  // 2.22
        #expect(sparseGot == 7 && iterated == [7] && sparseEmpty && sparse.surfaceT)

        let counter: CounterBag = CounterBag()  // 2.24, 2.25
        let token: Int = counter.add()  // 2.26
        counter.remove(token)  // 2.27
        let counterEmpty: Bool = counter.isEmpty  // 2.28
        #expect(token == 1 && counterEmpty)
    }

    // MARK: - 3 Disposable.swift

    @Test func disposables() {
        let action: ActionDisposable = ActionDisposable(action: {})  // 3.8, 3.9
        let disposable: any Disposable = action
        let _: AnyObject = disposable  // 3.1 class-bound
        disposable.dispose()  // 3.2
        action.dispose()  // 3.10

        let strict: StrictDisposable = StrictDisposable(EmptyDisposable, file: "File.swift", line: 1)  // 3.3, 3.4
        strict.dispose()  // 3.5
        let strictDefaults = StrictDisposable(EmptyDisposable)  // 3.4 (our defaults: a superset)
        strictDefaults.dispose()
        let wrapped: any Disposable = ActionDisposable {}.strict()  // 3.6 defaults omitted
        wrapped.dispose()
        let wrappedExplicit: any Disposable = ActionDisposable {}.strict(file: "File.swift", line: 2)  // 3.6
        wrappedExplicit.dispose()
        let empty: any Disposable = EmptyDisposable  // 3.7
        empty.dispose()

        let meta: MetaDisposable = MetaDisposable()  // 3.11, 3.12
        var disposed = 0
        meta.set(ActionDisposable { disposed += 1 })  // 3.13
        meta.set(nil)
        let _: ((any Disposable)?) -> Void = meta.set
        meta.dispose()  // 3.14

        let set: DisposableSet = DisposableSet()  // 3.15, 3.16
        let entry = ActionDisposable { disposed += 10 }
        set.add(entry)  // 3.17
        set.remove(entry)  // 3.18
        set.add(ActionDisposable { disposed += 100 })
        set.add(entry)
        set.removeLast()  // 3.19
        set.dispose()  // 3.20

        let dict: DisposableDict<String> = DisposableDict()  // 3.21, 3.22
        dict.set(ActionDisposable { disposed += 1000 }, forKey: "k")  // 3.23
        dict.set(nil, forKey: "other")
        let _: ((any Disposable)?, String) -> Void = dict.set(_:forKey:)
        dict.surfaceT("none")
        dict.dispose()  // 3.24
        #expect(disposed == 1101)
    }

    // MARK: - 4 Lock.swift

    @Test func lock() throws {
        let lock: Lock = Lock()  // 4.1, 4.2
        var ran = 0
        lock.locked { ran += 1 }  // 4.3
        let _: (() -> Void) -> Void = lock.locked
        try lock.throwingLocked { ran += 1 }  // 4.4
        let _: (() throws -> Void) throws -> Void = lock.throwingLocked
        #expect(throws: AtomicLockError.self) { try lock.throwingLocked { throw AtomicLockError.isLocked } }
        #expect(ran == 2)
    }

    // MARK: - 5 Multicast.swift

    @Test func multicast() {
        let multicast: Multicast<Int> = Multicast()  // 5.1, 5.2
        let shared: Signal<Int, NoError> = multicast.get(key: "k", signal: .single(3))  // 5.3
        #expect(surfaceValues(shared) == [3] && multicast.surfaceT == 0)

        let promise: MulticastPromise<Int> = MulticastPromise()  // 5.4, 5.8
        let subscribers: Bag<(Int) -> Void> = promise.subscribers  // 5.5
        let lock: Lock = promise.lock  // 5.6
        promise.value = 4  // 5.7 (settable)
        let value: Int? = promise.value
        lock.locked {}
        #expect(subscribers.isEmpty && value == 4 && promise.surfaceT == 4)
    }

    // MARK: - 7 Promise.swift

    @Test func promises() {
        let promise: Promise<Int> = Promise()  // 7.1, 7.5
        var deinits = 0
        promise.onDeinit = { deinits += 1 }  // 7.2
        let _: (() -> Void)? = promise.onDeinit
        promise.set(.single(1))  // 7.6
        let _: (Signal<Int, NoError>) -> Void = promise.set
        let got: Signal<Int, NoError> = promise.get()  // 7.7
        #expect(surfaceValues(got) == [1] && surfaceValues(promise.surfaceT) == [1])
        let lazy: Promise<Int> = Promise(initializeOnFirstAccess: .single(2))  // 7.3
        let lazyNil = Promise<Int>(initializeOnFirstAccess: nil)
        let valued: Promise<Int> = Promise(5)  // 7.4
        #expect(
            surfaceValues(lazy.get()) == [2] && surfaceValues(lazyNil.get()) == [] && surfaceValues(valued.get()) == [5]
        )

        let valuePromise: ValuePromise<Int> = ValuePromise(1, ignoreRepeated: true)  // 7.8, 7.10
        let ignores: Bool = valuePromise.ignoreRepeated  // 7.9
        let defaulted = ValuePromise(1)  // 7.10 default omitted
        let empty: ValuePromise<Int> = ValuePromise(ignoreRepeated: true)  // 7.11
        let emptyDefaulted = ValuePromise<Int>()  // 7.11 default omitted
        valuePromise.set(2)  // 7.12
        let _: (Int) -> Void = valuePromise.set
        let values: Signal<Int, NoError> = valuePromise.get()  // 7.13
        #expect(ignores && !defaulted.ignoreRepeated && empty.ignoreRepeated && !emptyDefaulted.ignoreRepeated)
        #expect(surfaceValues(values) == [2] && surfaceValues(emptyDefaulted.surfaceT) == [])
    }

    // MARK: - 8 Queue.swift

    @Test func queues() {
        let main: Queue = Queue.mainQueue()  // 8.1, 8.3
        let _: () -> Queue = Queue.mainQueue
        let concurrentDefault: Queue = Queue.concurrentDefaultQueue()  // 8.4
        let background: Queue = Queue.concurrentBackgroundQueue()  // 8.5
        let wrapped: Queue = Queue(queue: DispatchQueue(label: "surface"))  // 8.6
        let dispatchQueue: DispatchQueue = wrapped.queue  // 8.2
        let serial: Queue = Queue()  // 8.7 defaults omitted
        let named = Queue(name: "surface.named")
        let full = Queue(name: "surface.full", qos: .userInitiated)
        let current: Bool = serial.isCurrent()  // 8.8
        var order: [String] = []
        serial.sync { order.append("sync \(serial.isCurrent())") }  // 8.10
        let _: (() -> Void) -> Void = serial.sync
        serial.async {}  // 8.9
        let _: (@escaping () -> Void) -> Void = serial.async
        named.justDispatch {}  // 8.11
        full.justDispatchWithQoS(qos: .utility) {}  // 8.12
        full.after(0.0) {}  // 8.13
        let _: (Double, @escaping () -> Void) -> Void = full.after
        _ = (main, concurrentDefault, background, dispatchQueue)
        #expect(!current && order == ["sync true"] && !wrapped.isCurrent())
    }

    // MARK: - 9 QueueLocalObject.swift

    @Test func queueLocalObject() {
        let queue = Queue(name: "surface.local")
        let local: QueueLocalObject<SurfaceObject> = QueueLocalObject(
            queue: queue, generate: { SurfaceObject(id: 9) })  // 9.1, 9.3
        let owner: Queue = local.queue  // 9.2
        var unsafe: Int?
        owner.sync { unsafe = local.unsafeGet()?.id }  // 9.4
        local.with { (_: SurfaceObject) in }  // 9.5
        let id: Int = local.syncWith { $0.id }  // 9.6
        let signal: Signal<Int, Void> = local.signalWith {
            (object: SurfaceObject, subscriber: Subscriber<Int, Void>) -> any Disposable in  // 9.7
            subscriber.putNext(object.id)
            return EmptyDisposable
        }
        _ = signal
        #expect(unsafe == 9 && id == 9 && local.surfaceT === queue)
    }

    // MARK: - 10 Signal.swift

    @Test func signal() async {
        // An uninhabited parameter needs no body (`switch value {}` also compiles, with the same
        // "will never be executed" warning as for SwiftSignalKit's `enum NoError {}`).
        func absurd(_ value: NoValue) -> Int {}  // 10.1
        func absurdError(_ error: NoError) -> Int {}  // 10.2 (a typealias of Never)
        _ = (absurd, absurdError)
        let same: Int = identity(a: 3)  // 10.3
        let _: (String) -> String = identity
        #expect(same == 3)
        #expect(surfaceValues(s |> map(identity)) == [1])
        let grouped: Int = 1 <+> 2 |> { $0 * 10 }  // 10.4 higherThan DefaultPrecedence
        let leftToRight: Int = 10 <| 3 <| 2  // 10.4 left associative, in PipeRight
        let piped: String = 1 |> { $0 + 1 } |> { "\($0)" }  // 10.5, 10.6
        let _: (Int, (Int) -> String) -> String = (|>)
        #expect(grouped == 21 && leftToRight == 5 && piped == "2")

        let made: Signal<Int, Void> = Signal { (subscriber: Subscriber<Int, Void>) -> any Disposable in  // 10.7, 10.8
            subscriber.putNext(1)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let _: (@escaping (Subscriber<Int, Void>) -> any Disposable) -> Signal<Int, Void> = Signal<Int, Void>.init
        var log: [String] = []
        let started: any Disposable = made.start(
            next: { log.append("next \($0)") }, error: { _ in log.append("error") },
            completed: { log.append("completed") })  // 10.9
        started.dispose()
        made.start()  // 10.9 defaults omitted, result discarded
        let _: (((Int) -> Void)?, ((()) -> Void)?, (() -> Void)?) -> any Disposable = made.start(next:error:completed:)
        let standalone: any Disposable = made.startStandalone(
            next: { log.append("standalone \($0)") }, error: { _ in }, completed: {})  // 10.10
        standalone.dispose()
        made.startStandalone()
        let _: (((Int) -> Void)?, ((()) -> Void)?, (() -> Void)?) -> any Disposable = made.startStandalone(
            next:error:completed:)
        let strict: any Disposable = made.startStrict(
            next: { _ in }, error: { _ in }, completed: {}, file: "File.swift", line: 3)  // 10.11
        strict.dispose()
        let strictDefaults: any Disposable = made.startStrict()
        strictDefaults.dispose()
        let _: (((Int) -> Void)?, ((()) -> Void)?, (() -> Void)?, String, Int) -> any Disposable = made.startStrict(
            next:error:completed:file:line:)
        #expect(log == ["next 1", "completed", "standalone 1"])

        let single: Signal<Int, Void> = .single(1)  // 10.12
        let complete: Signal<Int, Void> = .complete()  // 10.13
        let fail: Signal<Int, Void> = .fail(())  // 10.14
        let never: Signal<Int, Void> = .never()  // 10.15
        let _: (Int) -> Signal<Int, Void> = Signal<Int, Void>.single
        let _: (String) -> Signal<Int, String> = Signal<Int, String>.fail
        var failed = false
        fail.start(error: { _ in failed = true })
        #expect(surfaceValues(single) == [1] && surfaceValues(complete) == [] && surfaceValues(never) == [] && failed)

        let first: Int = await Signal<Int, NoError>.single(7).get()  // 10.16
        #expect(first == 7)
    }

    // MARK: - 11 Signal_Catch.swift

    @Test func catching() {
        let caught: (Signal<Int, Void>) -> Signal<Int, String> = `catch` { (_: Void) -> Signal<Int, String> in
            .single(2)
        }  // 11.1
        #expect(surfaceValues(Signal<Int, Void>.fail(()) |> caught) == [2])
        let restarted: Signal<Int, Void> = restart(Signal<Int, Void>.fail(()))  // 11.2
        let recursed: (Signal<Int, Void>) -> Signal<Int, Void> = recurse(nil)  // 11.3
        let _: (Signal<Int, Void>) -> Signal<Int, Void> = recurse(1)
        let queue = Queue(name: "surface.retry")
        let retried: (Signal<Int, Void>) -> Signal<Int, NoError> = retry(1.0, maxDelay: 5.0, onQueue: queue)  // 11.4
        let retriedIf: (Signal<Int, String>) -> Signal<Int, String> = retry(  // 11.5
            retryOnError: { (_: String) in false }, delayIncrement: 1.0, maxDelay: 5.0, maxRetries: nil, onQueue: queue
        )
        let _: (Signal<Int, String>) -> Signal<Int, String> = retry(
            retryOnError: { _ in true }, delayIncrement: 1.0, maxDelay: 5.0, maxRetries: 0, onQueue: queue)
        let restartedIfError: Signal<Int, NoError> = restartIfError(Signal<Int, Void>.single(1))  // 11.6
        let restartCase: RestartOrMapErrorCondition<String> = .restart  // 11.7, 11.8
        let errorCase: RestartOrMapErrorCondition<String> = .error("e")  // 11.9
        let mapped: (Signal<Int, Void>) -> Signal<Int, String> = restartOrMapError(condition: {
            (_: Void) -> RestartOrMapErrorCondition<String> in .error("mapped")
        })  // 11.10
        var mappedError: String?
        (Signal<Int, Void>.fail(()) |> mapped).start(error: { mappedError = $0 })
        _ = (restarted, recursed, retried, retriedIf)
        #expect(
            surfaceValues(restartedIfError) == [1] && restartCase.surfaceE == nil && errorCase.surfaceE == "e"
                && mappedError == "mapped")
    }

    // MARK: - 12 Signal_Combine.swift

    @Test func combining() {
        let a = Signal<Int, Void>.single(1)
        let b = Signal<String, Void>.single("b")
        let c = Signal<Bool, Void>.single(true)
        let pair: Signal<(Int, String), Void> = combineLatest(queue: nil, a, b)  // 12.1
        let pairDefault: Signal<(Int, String), Void> = combineLatest(a, b)
        let seeded: Signal<(Int, String), Void> = combineLatest(queue: nil, a, 0, b, "")  // 12.2
        let seededDefault: Signal<(Int, String), Void> = combineLatest(a, 0, b, "")
        let triple: Signal<(Int, String, Bool), Void> = combineLatest(a, b, c)  // 12.3 (order of the elements)
        #expect(surfaceValues(pair).map { "\($0.0)\($0.1)" } == ["1b"] && surfaceValues(pairDefault).count == 1)
        #expect(
            surfaceValues(seeded).map { "\($0.0)\($0.1)" } == ["0", "1", "1b"]
                && surfaceValues(seededDefault).count == 3)
        #expect(surfaceValues(triple).map { "\($0.0)\($0.1)\($0.2)" } == ["1btrue"])
        let onQueue: Signal<(Int, String), Void> = combineLatest(queue: Queue(name: "surface.combine"), a, b)
        _ = onQueue
        let c3: Signal<(Int, Int, Int), Void> = combineLatest(queue: nil, s, s, s)  // 12.3
        _ = c3
        let c4: Signal<(Int, Int, Int, Int), Void> = combineLatest(queue: nil, s, s, s, s)  // 12.4
        _ = c4
        let c5: Signal<(Int, Int, Int, Int, Int), Void> = combineLatest(queue: nil, s, s, s, s, s)  // 12.5
        _ = c5
        let c6: Signal<(Int, Int, Int, Int, Int, Int), Void> = combineLatest(queue: nil, s, s, s, s, s, s)  // 12.6
        _ = c6
        // 12.7
        let c7: Signal<(Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(queue: nil, s, s, s, s, s, s, s)
        _ = c7
        let c8: Signal<(Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s)  // 12.8
        _ = c8
        let c9: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s, s)  // 12.9
        _ = c9
        let c10: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s, s, s)  // 12.10
        _ = c10
        let c11: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s, s, s, s)  // 12.11
        _ = c11
        let c12: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.12
        _ = c12
        let c13: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.13
        _ = c13
        let c14: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> = combineLatest(
            queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.14
        _ = c14
        let c15: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> =
            combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.15
        _ = c15
        let c16: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> =
            combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.16
        _ = c16
        let c17: Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> =
            combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.17
        _ = c17
        let c18:
            Signal<(Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void> =
                combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.18
        _ = c18
        let c19:
            Signal<
                (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int), Void
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.19
        _ = c19
        let c20:
            Signal<
                (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int),
                Void
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.20
        _ = c20
        let c21:
            Signal<
                (
                    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                    Int
                ), Void
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.21
        _ = c21
        let c22:
            Signal<
                (
                    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                    Int, Int
                ), Void
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.22
        _ = c22
        let c23:
            Signal<
                (
                    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                    Int, Int, Int
                ), Void
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.23
        _ = c23
        let c24:
            Signal<
                (
                    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                    Int, Int, Int, Int
                ), Void
                // 12.24
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)
        _ = c24
        let c25:
            Signal<
                (
                    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                    Int, Int, Int, Int, Int
                ), Void
                // 12.25
            > = combineLatest(queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)
        _ = c25
        let c26:
            Signal<
                (
                    Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int,
                    Int, Int, Int, Int, Int, Int
                ), Void
            > = combineLatest(
                queue: nil, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s)  // 12.26
        _ = c26
        let many: Signal<[Int], Void> = combineLatest(queue: nil, [a, a, a])  // 12.27
        let manyDefault: Signal<[Int], Void> = combineLatest([Signal<Int, Void>]())
        #expect(surfaceValues(many) == [[1, 1, 1]] && surfaceValues(manyDefault) == [[]])
        #expect(surfaceValues(c26).count == 1)
    }

    // MARK: - 13 Signal_Dispatch.swift

    @Test func dispatching() {
        let queue = Queue(name: "surface.dispatch")
        let delivered: (Signal<Int, Void>) -> Signal<Int, Void> = deliverOn(queue)  // 13.1
        // 13.2 (not started: nothing drains the main queue here)
        let onMain: Signal<Int, Void> = s |> deliverOnMainQueue
        let onPool: (Signal<Int, Void>) -> Signal<Int, Void> = deliverOn(surfacePool)  // 13.3
        let runs: (Signal<Int, Void>) -> Signal<Int, Void> = runOn(queue)  // 13.4
        let runsOnPool: (Signal<Int, Void>) -> Signal<Int, Void> = runOn(surfacePool)  // 13.5
        let _: Signal<Int, Void> = s |> deliverOn(queue) |> runOn(queue)
        _ = (delivered, onMain, onPool, runsOnPool)
        var values: [Int] = []
        queue.sync { values = surfaceValues(s |> runs |> delivered) }
        #expect(values == [1])
    }

    // MARK: - 14 Signal_Mapping.swift

    @Test func mapping() {
        let mapped: (Signal<Int, Void>) -> Signal<String, Void> = map { (value: Int) -> String in "\(value)" }  // 14.1
        let filtered: (Signal<Int, Void>) -> Signal<Int, Void> = filter { $0 > 0 }  // 14.2
        let optionalMap: (Signal<Int?, Void>) -> Signal<String?, Void> = flatMap { (value: Int) -> String in "\(value)"
        }  // 14.3
        let errorMapped: (Signal<Int, Void>) -> Signal<Int, String> = mapError { (_: Void) -> String in "e" }  // 14.4
        let cast: (Signal<Int, NoError>) -> Signal<Int, Void> = castError(Void.self)  // 14.5
        let distinct: Signal<Int, Void> =
            Signal<Int, Void> { subscriber in  // 14.6 (without parentheses)
                [1, 1, 2, 2, 1].forEach(subscriber.putNext)
                return EmptyDisposable
            } |> distinctUntilChanged
        let distinctBy: (Signal<Int, Void>) -> Signal<Int, Void> = distinctUntilChanged(isEqual: { $0 == $1 })  // 14.7
        #expect(surfaceValues(s |> mapped) == ["1"] && surfaceValues(s |> filtered) == [1])
        #expect(surfaceValues(Signal<Int?, Void>.single(nil) |> optionalMap) == [nil])
        #expect(surfaceValues(s |> errorMapped) == [1] && surfaceValues(Signal<Int, NoError>.single(4) |> cast) == [4])
        #expect(surfaceValues(distinct) == [1, 2, 1] && surfaceValues(s |> distinctBy) == [1])
    }

    // MARK: - 15 Signal_Materialize.swift

    @Test func materializing() {
        let next: SignalEvent<Int, Void> = .Next(1)  // 15.1, 15.2
        let error: SignalEvent<Int, Void> = .Error(())  // 15.3
        let completion: SignalEvent<Int, Void> = .Completion  // 15.4
        let events: Signal<SignalEvent<Int, Void>, NoError> = dematerialize(signal: s)  // 15.5
        let back: Signal<Int, Void> = materialize(signal: events)  // 15.6
        _ = (error, completion)
        #expect(next.surfaceTE == 1 && surfaceValues(events).count == 2 && surfaceValues(back) == [1])
    }

    // MARK: - 16 Signal_Meta.swift

    @Test func meta() {
        let nested = Signal<Signal<Int, Void>, Void>.single(s)
        let latest: Signal<Int, Void> = nested |> switchToLatest  // 16.1
        let queued: Signal<Int, Void> = nested |> queue  // 16.2
        let throttledSignal: Signal<Int, Void> = nested |> throttled  // 16.3
        let _: Signal<Int, Void> = switchToLatest(nested)
        let mapped: (Signal<Int, Void>) -> Signal<String, Void> = mapToSignal { (value: Int) -> Signal<String, Void> in
            .single("\(value)")
        }  // 16.4
        let ignored: Signal<Never, Void> = s |> ignoreValues  // 16.5
        let promoted: (Signal<Int, NoError>) -> Signal<String, Void> = mapToSignalPromotingError {
            (value: Int) -> Signal<String, Void> in .single("\(value)")
        }  // 16.6
        let toQueue: (Signal<Int, Void>) -> Signal<Int, Void> = mapToQueue { .single($0) }  // 16.7
        let toThrottled: (Signal<Int, Void>) -> Signal<Int, Void> = mapToThrottled { .single($0) }  // 16.8
        let followed: (Signal<Int, Void>) -> Signal<Int, Void> = then(.single(2))  // 16.9
        let deferredSignal: Signal<Int, Void> = deferred { () -> Signal<Int, Void> in .single(3) }  // 16.10
        // 16.11 (not started: it prints)
        let measured: (Signal<Int, Void>) -> Signal<Int, Void> = debug_measureTimeToFirstEvent(label: "surface")
        _ = measured
        #expect(surfaceValues(latest) == [1] && surfaceValues(queued) == [1] && surfaceValues(throttledSignal) == [1])
        #expect(surfaceValues(s |> mapped) == ["1"] && surfaceValues(ignored).isEmpty)
        #expect(surfaceValues(Signal<Int, NoError>.single(5) |> promoted) == ["5"])
        #expect(surfaceValues(s |> toQueue) == [1] && surfaceValues(s |> toThrottled) == [1])
        #expect(surfaceValues(s |> followed) == [1, 2] && surfaceValues(deferredSignal) == [3])
    }

    // MARK: - 17 Signal_Reduce.swift

    @Test func reducing() {
        let two = Signal<Int, Void> { subscriber in
            subscriber.putNext(1)
            subscriber.putNext(2)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let summed: (Signal<Int, Void>) -> Signal<Int, Void> = reduceLeft(
            value: 0, f: { (sum: Int, value: Int) -> Int in sum + value })  // 17.1
        let emitting: (Signal<Int, Void>) -> Signal<Int, Void> = reduceLeft(
            value: 0,
            f: { (sum: Int, value: Int, emit: (Int) -> Void) -> Int in  // 17.2
                emit(value)
                return sum + value
            })
        let none: Passthrough<Int> = .None  // 17.3, 17.4
        let some: Passthrough<Int> = .Some(1)  // 17.5
        let generated: (Signal<Int, Void>) -> Signal<Int, Void> = reduceLeft(
            0,
            generator: { (sum: Int, value: Int) -> Signal<(Int, Passthrough<Int>), Void> in  // 17.6
                .single((sum + value, .None))
            })
        #expect(
            surfaceValues(two |> summed) == [3] && surfaceValues(two |> emitting) == [1, 2, 3]
                && surfaceValues(two |> generated) == [3])
        #expect(none.surfaceT == nil && some.surfaceT == 1)
    }

    // MARK: - 18 Signal_Single.swift

    @Test func singleFunctions() {
        let one: Signal<Int, Void> = single(1, Void.self)  // 18.1
        let failing: Signal<Int, String> = fail(Int.self, "e")  // 18.2
        let completing: Signal<Int, Void> = complete(Int.self, Void.self)  // 18.3
        let silent: Signal<Int, Void> = never(Int.self, Void.self)  // 18.4
        let _: Signal<Int, Void> = ReceiverSignalKit.single(1, Void.self)  // qualified, as when a name is shadowed
        var failure: String?
        failing.start(error: { failure = $0 })
        #expect(
            surfaceValues(one) == [1] && failure == "e" && surfaceValues(completing) == []
                && surfaceValues(silent) == [])
    }

    // MARK: - 19 Signal_Take.swift

    @Test func taking() {
        let three = Signal<Int, Void> { subscriber in
            [1, 2, 3].forEach(subscriber.putNext)
            subscriber.putCompletion()
            return EmptyDisposable
        }
        let first: (Signal<Int, Void>) -> Signal<Int, Void> = take(1)  // 19.1
        let lastValue: Signal<Int, Void> = three |> takeLast  // 19.2
        let action: SignalTakeAction = SignalTakeAction(passthrough: true, complete: false)  // 19.3, 19.6
        let passthrough: Bool = action.passthrough  // 19.4
        let complete: Bool = action.complete  // 19.5
        let until: (Signal<Int, Void>) -> Signal<Int, Void> = take(until: { (value: Int) -> SignalTakeAction in  // 19.7
            SignalTakeAction(passthrough: true, complete: value == 2)
        })
        let optionalLast: Signal<Int?, Void> = last(signal: three)  // 19.8
        #expect(passthrough && !complete)
        #expect(
            surfaceValues(three |> first) == [1] && surfaceValues(lastValue) == [3]
                && surfaceValues(three |> until) == [1, 2])
        #expect(surfaceValues(optionalLast) == [3])
    }

    // MARK: - 20 Signal_Timing.swift

    @Test func timing() {
        let queue = Queue(name: "surface.timing")
        let delayed: (Signal<Int, Void>) -> Signal<Int, Void> = delay(1.0, queue: queue)  // 20.1
        // 20.2 default omitted
        let suspendAware: (Signal<Int, Void>) -> Signal<Int, Void> = suspendAwareDelay(10.0, queue: queue)
        let suspendAwareGranular: (Signal<Int, Void>) -> Signal<Int, Void> = suspendAwareDelay(
            10.0, granularity: 2.0, queue: queue)
        // 20.3
        let timedOut: (Signal<Int, Void>) -> Signal<Int, Void> = timeout(1.0, queue: queue, alternate: .single(2))
        _ = (delayed, suspendAware, suspendAwareGranular)
        #expect(surfaceValues(s |> timedOut) == [1])
    }

    // MARK: - 21 Subscriber.swift

    @Test func subscriber() {
        var log: [String] = []
        let subscriber: Subscriber<Int, Void> = Subscriber(  // 21.1, 21.2
            next: { log.append("next \($0)") }, error: { _ in log.append("error") },
            completed: { log.append("completed") }
        )
        let described: any CustomStringConvertible = subscriber  // 21.1
        let description: String = subscriber.description  // 21.3
        subscriber.keepAlive(SurfaceObject(id: 21))  // 21.7
        subscriber.putNext(1)  // 21.4
        subscriber.surfaceTE(2)
        subscriber.putCompletion()  // 21.6
        let _: (Int) -> Void = subscriber.putNext
        let failing = Subscriber<Int, Void>()  // 21.2 defaults omitted
        failing.putError(())  // 21.5
        let _: (()) -> Void = failing.putError
        _ = described
        #expect(!description.isEmpty && log == ["next 1", "next 2", "completed"])
    }

    // MARK: - 22 ThreadPool.swift

    @Test func threadPool() {
        let pool: ThreadPool = surfacePool  // 22.10, 22.11 (ThreadPool(threadCount: 1, threadPriority: 0.1) above)
        let _: NSObject = pool  // 22.10 an NSObject (not @objc: Linux)
        let lane: ThreadPoolQueue = pool.nextQueue()  // 22.6, 22.13
        let laneMade: ThreadPoolQueue = ThreadPoolQueue(threadPool: pool)  // 22.7
        let equal: Bool = lane == lane && !(lane == laneMade)  // 22.9
        let _: any Equatable = lane  // 22.6 Equatable
        let ran = DispatchSemaphore(value: 0)
        let inPool = Atomic<Bool>(value: false)
        let task: ThreadPoolTask = ThreadPoolTask { (state: ThreadPoolTaskState) in  // 22.1, 22.3, 22.4
            let cancelled: Atomic<Bool> = state.cancelled  // 22.2
            _ = inPool.swap(!cancelled.with { $0 } && pool.isCurrentThreadInPool())  // 22.14
            ran.signal()
        }
        lane.addTask(task)  // 22.8
        let waited = ran.wait(timeout: .now() + 10)
        let skipped = ThreadPoolTask { _ in }
        skipped.cancel()  // 22.5
        pool.addTask(skipped)  // 22.12
        laneMade.addTask(ThreadPoolTask { _ in })
        #expect(equal && waited == .success && inPool.with { $0 } && !pool.isCurrentThreadInPool())
    }

    // MARK: - 23 Timer.swift

    @Test func timer() {
        let queue = Queue(name: "surface.timer")
        let fired = DispatchSemaphore(value: 0)
        // 23.1, 23.2
        let timer: Timer = Timer(timeout: 0.0, repeat: false, completion: { fired.signal() }, queue: queue)
        let passed: ReceiverSignalKit.Timer = ReceiverSignalKit.Timer(
            timeout: 10.0, repeat: true, completion: { (_: Timer) in }, queue: queue)  // 23.3
        timer.start()  // 23.4
        let waited = fired.wait(timeout: .now() + 10)
        passed.invalidate()  // 23.5
        timer.invalidate()
        #expect(waited == .success)
    }

    // MARK: - 24 ValuePipe.swift

    @Test func valuePipe() {
        let pipe: ValuePipe<Int> = ValuePipe()  // 24.1, 24.2
        let signal: Signal<Int, NoError> = pipe.signal()  // 24.3
        var values: [Int] = []
        let started = signal.start(next: { values.append($0) })
        pipe.putNext(1)  // 24.4
        pipe.surfaceT(2)
        started.dispose()
        #expect(values == [1, 2])
    }

    // MARK: - 25 Signal_SideEffects.swift

    @Test func sideEffects() {
        var log: [String] = []
        let traced: Signal<Int, Void> =
            s
            |> beforeNext { (value: Int) -> String in
                log.append("before \(value)")
                return ""
            }  // 25.1
            |> afterNext { (value: Int) in log.append("after \(value)") }  // 25.2
            |> beforeStarted { log.append("started") }  // 25.3
            |> beforeCompleted { log.append("before completed") }  // 25.4
            |> afterCompleted { log.append("after completed") }  // 25.5
            |> afterDisposed { () -> Int in
                log.append("disposed")
                return 0
            }  // 25.6
        let _: (Signal<Int, Void>) -> Signal<Int, Void> = beforeNext { (_: Int) in }
        let stated: Signal<Int, Void> = withState(
            s, { 10 }, next: { (value: Int, state: Int) in log.append("state \(value + state)") },  // 25.7
            error: { (_: Void, _: Int) in }, completed: { (_: Int) in },
            disposed: { (_: Int) in log.append("state disposed") })
        let statedDefaults: Signal<Int, Void> = withState(s, { 0 })
        #expect(surfaceValues(traced) == [1] && surfaceValues(stated) == [1] && surfaceValues(statedDefaults) == [1])
        #expect(
            log == [
                "started", "before 1", "after 1", "before completed", "after completed", "disposed", "state 11",
                "state disposed",
            ])
    }

    // MARK: - 26 Signal_Loop.swift

    @Test func loop() {
        let initial: SignalFeedbackLoopState<Int> = .initial  // 26.1, 26.2
        let looped: SignalFeedbackLoopState<Int> = .loop(1)  // 26.3
        let loop: Signal<String, Void> = feedbackLoop(  // 26.4
            once: { (_: SignalFeedbackLoopState<Int>) -> Signal<Int, Void>? in nil },
            reduce: { (a: Int, _: Int) -> Int in a }
        )
        var completed = false
        loop.start(completed: { completed = true })
        #expect(initial.surfaceT == nil && looped.surfaceT == 1 && completed)
    }

    // MARK: - Rows as function values

    // Each declaration taken as a function value of its exact SwiftSignalKit type: a closure
    // parameter that became `@Sendable`, lost `@escaping`, or a return type that changed fails here.
    @Test func functionTypes() {
        typealias S = Signal<Int, Void>
        let queue = Queue(name: "surface.types")
        let local = QueueLocalObject(queue: queue, generate: { SurfaceObject(id: 0) })
        // 23.2
        let _: (Double, Bool, @escaping () -> Void, Queue) -> Timer = Timer.init(timeout:repeat:completion:queue:)
        let _: (Double, Bool, @escaping (Timer) -> Void, Queue) -> Timer = Timer.init(
            timeout:repeat:completion:queue:)  // 23.3
        let _: (@escaping (ThreadPoolTaskState) -> Void) -> ThreadPoolTask = ThreadPoolTask.init  // 22.4
        let _: (ThreadPoolQueue, ThreadPoolQueue) -> Bool = (==)  // 22.9
        let _: (Queue, @escaping () -> SurfaceObject) -> QueueLocalObject<SurfaceObject> = QueueLocalObject.init(
            queue:generate:)  // 9.3
        let _: (@escaping (SurfaceObject) -> Void) -> Void = local.with  // 9.5
        let _: (@escaping (SurfaceObject) -> Int) -> Int = local.syncWith  // 9.6
        let _: (@escaping (SurfaceObject, Subscriber<Int, Void>) -> any Disposable) -> S = local.signalWith  // 9.7
        let _: (DispatchQoS, @escaping () -> Void) -> Void = queue.justDispatchWithQoS(qos:_:)  // 8.12
        let _: (@escaping () -> Void) -> Void = queue.justDispatch  // 8.11
        let _: (@escaping () -> Void) -> ActionDisposable = ActionDisposable.init(action:)  // 3.9
        let _: (any Disposable, String, Int) -> StrictDisposable = StrictDisposable.init(_:file:line:)  // 3.4
        let _: (String, Signal<Int, NoError>) -> Signal<Int, NoError> = Multicast<Int>().get(key:signal:)  // 5.3
        let _: (Signal<Int, NoError>?) -> Promise<Int> = Promise.init(initializeOnFirstAccess:)  // 7.3
        let _: (Int, Bool) -> ValuePromise<Int> = ValuePromise.init(_:ignoreRepeated:)  // 7.10
        let _: (Bool) -> ValuePromise<Int> = ValuePromise.init(ignoreRepeated:)  // 7.11
        let _: () -> Signal<Int, NoError> = ValuePipe<Int>().signal  // 24.3
        let _: (((Int) -> Void)?, ((()) -> Void)?, (() -> Void)?) -> Subscriber<Int, Void> = Subscriber.init(
            next:error:completed:)  // 21.2
        let _: (AnyObject) -> Void = Subscriber<Int, Void>().keepAlive  // 21.7
        let _: (Int) -> Int = identity(a:)  // 10.3
        let _: (@escaping (()) -> Signal<Int, String>) -> (S) -> Signal<Int, String> = `catch`  // 11.1
        let _: (S) -> S = restart  // 11.2
        let _: (Int?) -> (S) -> S = recurse  // 11.3
        let _: (Double, Double, Queue) -> (S) -> Signal<Int, NoError> = retry(_:maxDelay:onQueue:)  // 11.4
        let _: (@escaping (()) -> Bool, Double, Double, Int?, Queue) -> (S) -> S = retry(
            retryOnError:delayIncrement:maxDelay:maxRetries:onQueue:)  // 11.5
        let _: (S) -> Signal<Int, NoError> = restartIfError  // 11.6
        let _: (@escaping (()) -> RestartOrMapErrorCondition<String>) -> (S) -> Signal<Int, String> = restartOrMapError(
            condition:)  // 11.10
        let _: (Queue?, S, Signal<String, Void>) -> Signal<(Int, String), Void> = combineLatest(queue:_:_:)  // 12.1
        let _: (Queue?, S, Int, Signal<String, Void>, String) -> Signal<(Int, String), Void> = combineLatest(
            queue:_:_:_:_:)  // 12.2
        let _: (Queue?, [S]) -> Signal<[Int], Void> = combineLatest(queue:_:)  // 12.27
        let _: (Queue) -> (S) -> S = deliverOn  // 13.1
        let _: (S) -> S = deliverOnMainQueue  // 13.2
        let _: (ThreadPool) -> (S) -> S = deliverOn  // 13.3
        let _: (Queue) -> (S) -> S = runOn  // 13.4
        let _: (ThreadPool) -> (S) -> S = runOn  // 13.5
        let _: (@escaping (Int) -> String) -> (S) -> Signal<String, Void> = map  // 14.1
        let _: (@escaping (Int) -> Bool) -> (S) -> S = filter  // 14.2
        let _: (@escaping (Int) -> String) -> (Signal<Int?, Void>) -> Signal<String?, Void> = flatMap  // 14.3
        let _: (@escaping (()) -> String) -> (S) -> Signal<Int, String> = mapError  // 14.4
        let _: (String.Type) -> (Signal<Int, NoError>) -> Signal<Int, String> = castError  // 14.5
        let _: (S) -> S = distinctUntilChanged  // 14.6
        let _: (@escaping (Int, Int) -> Bool) -> (S) -> S = distinctUntilChanged(isEqual:)  // 14.7
        let _: (S) -> Signal<SignalEvent<Int, Void>, NoError> = dematerialize(signal:)  // 15.5
        let _: (Signal<SignalEvent<Int, Void>, NoError>) -> S = materialize(signal:)  // 15.6
        let _: (Signal<S, Void>) -> S = switchToLatest  // 16.1
        let _: (Signal<S, Void>) -> S = ReceiverSignalKit.queue  // 16.2
        let _: (Signal<S, Void>) -> S = throttled  // 16.3
        let _: (@escaping (Int) -> Signal<String, Void>) -> (S) -> Signal<String, Void> = mapToSignal  // 16.4
        let _: (S) -> Signal<Never, Void> = ignoreValues  // 16.5
        let _: (@escaping (Int) -> Signal<String, Void>) -> (Signal<Int, NoError>) -> Signal<String, Void> =
            mapToSignalPromotingError  // 16.6
        let _: (@escaping (Int) -> Signal<String, Void>) -> (S) -> Signal<String, Void> = mapToQueue  // 16.7
        let _: (@escaping (Int) -> Signal<String, Void>) -> (S) -> Signal<String, Void> = mapToThrottled  // 16.8
        let _: (S) -> (S) -> S = then  // 16.9
        let _: (@escaping () -> S) -> S = deferred  // 16.10
        let _: (String) -> (S) -> S = debug_measureTimeToFirstEvent(label:)  // 16.11
        let _: (Int, @escaping (Int, Int) -> Int) -> (S) -> S = reduceLeft(value:f:)  // 17.1
        let _: (Int, @escaping (Int, Int, (Int) -> Void) -> Int) -> (S) -> S = reduceLeft(value:f:)  // 17.2
        let _: (Int, @escaping (Int, Int) -> Signal<(Int, Passthrough<Int>), Void>) -> (S) -> S = reduceLeft(
            _:generator:)  // 17.6
        let _: (Int, Void.Type) -> S = single  // 18.1
        let _: (Int.Type, ()) -> S = fail  // 18.2
        let _: (Int.Type, Void.Type) -> S = complete  // 18.3
        let _: (Int.Type, Void.Type) -> S = never  // 18.4
        let _: (Int) -> (S) -> S = take  // 19.1
        let _: (S) -> S = takeLast  // 19.2
        let _: (Bool, Bool) -> SignalTakeAction = SignalTakeAction.init(passthrough:complete:)  // 19.6
        let _: (@escaping (Int) -> SignalTakeAction) -> (S) -> S = take(until:)  // 19.7
        let _: (S) -> Signal<Int?, Void> = last(signal:)  // 19.8
        let _: (Double, Queue) -> (S) -> S = delay(_:queue:)  // 20.1
        let _: (Double, Double, Queue) -> (S) -> S = suspendAwareDelay(_:granularity:queue:)  // 20.2
        let _: (Double, Queue, S) -> (S) -> S = timeout(_:queue:alternate:)  // 20.3
        let _: (@escaping (Int) -> String) -> (S) -> S = beforeNext  // 25.1
        let _: (@escaping (Int) -> String) -> (S) -> S = afterNext  // 25.2
        let _: (@escaping () -> Void) -> (S) -> S = beforeStarted  // 25.3
        let _: (@escaping () -> Void) -> (S) -> S = beforeCompleted  // 25.4
        let _: (@escaping () -> Void) -> (S) -> S = afterCompleted  // 25.5
        let _: (@escaping () -> String) -> (S) -> S = afterDisposed  // 25.6
        let _:
            (
                S, @escaping () -> String, @escaping (Int, String) -> Void, @escaping ((), String) -> Void,
                @escaping (String) -> Void, @escaping (String) -> Void
            ) -> S = withState  // 25.7
        let _: (@escaping (SignalFeedbackLoopState<Int>) -> S?, @escaping (Int, Int) -> Int) -> Signal<String, Void> =
            feedbackLoop(once:reduce:)  // 26.4
    }
}
