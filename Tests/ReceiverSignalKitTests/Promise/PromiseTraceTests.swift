import ReceiverSignalKit
import ReceiverSignalKitTesting
import Testing

/// When a promise lets go of a replaced value, compared trace for trace with SwiftSignalKit (see
/// SubscriberTraceTests for the method): before the new value is delivered; and a repeat that
/// `ignoreRepeated` drops is the new object, not the stored one.
@Suite(.detectingLeaks) struct PromiseTraceTests {
    // MARK: Replaced value released late — a promise lets go of it before the new one is delivered

    @Test func aPromiseReleasesItsReplacedValueBeforeDeliveringTheNewOne() {
        let log = History<String>()
        let promise = Promise<Logged>()
        let disposable = promise.get().start(next: { log.record("next \($0.name)") })
        promise.set(.single(Logged("1", log)))
        promise.set(.single(Logged("2", log)))
        #expect(log.recorded == ["next 1", "1 released", "next 2"])
        disposable.dispose()
    }

    @Test func aValuePromiseReleasesItsReplacedValueBeforeDeliveringTheNewOne() {
        let log = History<String>()
        let promise = ValuePromise(LoggedValue(Logged("1", log)))
        let disposable = promise.get().start(next: { log.record("next \($0.logged.name)") })
        promise.set(LoggedValue(Logged("2", log)))
        #expect(log.recorded == ["next 1", "1 released", "next 2"])
        disposable.dispose()
    }

    // MARK: ignoreRepeated keeps the original

    @Test func ignoringARepeatKeepsTheStoredObjectAndDropsTheNewOne() {
        let log = History<String>()
        let original = LoggedValue(Logged("original", log), key: 1)
        let promise = ValuePromise(original, ignoreRepeated: true)
        promise.set(LoggedValue(Logged("duplicate", log), key: 1))
        #expect(log.recorded == ["duplicate released"])
        #expect(current(promise.get())?.logged === original.logged)
    }
}

/// An `Equatable` value around a logged object: equal when the keys are, whatever the object.
struct LoggedValue: Equatable, Sendable {
    let logged: Logged
    let key: Int
    init(_ logged: Logged, key: Int? = nil) { (self.logged, self.key) = (logged, key ?? Int(logged.name) ?? 0) }
    static func == (a: Self, b: Self) -> Bool { a.key == b.key }
}
