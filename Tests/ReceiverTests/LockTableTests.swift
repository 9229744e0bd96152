import Testing

@testable import Receiver

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The core's lock table (`ReceiverLock`) needs no initialisation because its zero bytes are
/// unlocked lock words on this platform; these tests pin that, its layout (64 stripes, a cache line
/// each) and that objects spread over every stripe. The adapter's `StripedLock` has the same tests.
@Suite struct LockTableTests {
    @Test func theTableIsSixtyFourZeroStripesOfACacheLineEach() {
        #expect(MemoryLayout<ReceiverLock.Stripe>.stride == 64)
        #expect(MemoryLayout<ReceiverLock.Primitive>.size <= 64)
        #expect(MemoryLayout<ReceiverLock.Table>.size == 64 * 64)
        #expect(withUnsafeBytes(of: ReceiverLock.Table()) { $0.allSatisfy { $0 == 0 } })
    }

    @Test func aZeroLockWordIsUnlocked() {
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        defer { bytes.deallocate() }
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: 64)
        let word = bytes.bindMemory(to: ReceiverLock.Primitive.self, capacity: 1)
        #if canImport(Darwin)
        #expect(os_unfair_lock_trylock(word))
        #expect(!os_unfair_lock_trylock(word))  // it was taken
        os_unfair_lock_unlock(word)
        #else
        #expect(pthread_mutex_trylock(word) == 0)
        #expect(pthread_mutex_trylock(word) != 0)  // it was taken
        pthread_mutex_unlock(word)
        #endif
    }

    @Test func objectsSpreadOverEveryStripe() {
        let objects = (0..<4096).map { _ in Receiver<Int>.make().1 }
        let table = UInt(bitPattern: ReceiverLock.address(&ReceiverLock.table))
        var stripes = Set<UInt>()
        for object in objects {
            let offset = UInt(bitPattern: ReceiverLock(for: object).word) - table
            #expect(offset % 64 == 0 && offset < 64 * 64, "offset \(offset)")
            stripes.insert(offset / 64)
        }
        #expect(stripes.count == 64)
    }
}
