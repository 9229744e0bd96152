import Testing

@testable import ReceiverSignalKit

#if canImport(Darwin)
import Darwin
#endif

/// `StripedLock`'s table needs no initialisation because its zero bytes are unlocked lock words on
/// this platform; these tests pin that, its layout (64 stripes, a cache line each) and that objects
/// spread over every stripe. The core's `ReceiverLock` has the same tests.
@Suite struct StripedLockTests {
    @Test func theTableIsSixtyFourZeroStripesOfACacheLineEach() {
        #expect(MemoryLayout<StripedLock.Stripe>.stride == 64)
        #expect(MemoryLayout<LockWord.Primitive>.size <= 64)
        #expect(MemoryLayout<StripedLock.Table>.size == 64 * 64)
        #expect(withUnsafeBytes(of: StripedLock.Table()) { $0.allSatisfy { $0 == 0 } })
    }

    @Test func aZeroLockWordIsUnlocked() {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        let word = bytes.bindMemory(to: LockWord.Primitive.self, capacity: 1)
        #if canImport(Darwin)
        #expect(os_unfair_lock_trylock(word))
        #expect(!os_unfair_lock_trylock(word))  // it was taken
        os_unfair_lock_unlock(word)
        #else
        let (first, second) = (word.pointee.tryLock(), word.pointee.tryLock())
        #expect(first)
        #expect(!second)  // it was taken
        word.pointee.unlock()
        #endif
    }

    @Test func objectsSpreadOverEveryStripe() {
        let objects = (0..<4096).map { _ in ActionDisposable {} }
        let table = UInt(bitPattern: StripedLock.address(&StripedLock.table))
        var stripes = Set<UInt>()
        for object in objects {
            let offset = UInt(bitPattern: StripedLock(for: object).word) - table
            #expect(offset % 64 == 0 && offset < 64 * 64, "offset \(offset)")
            stripes.insert(offset / 64)
        }
        #expect(stripes.count == 64)
    }
}
