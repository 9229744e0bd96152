// The choices behind both model-based tests' random programs (Tests/ReceiverTests/Model and
// Tests/ReceiverSignalKitTests/Model). Plain Swift with no import, so the fuzz target
// (Tests/Fuzz) compiles it beside the models.

/// Where a generated program's choices come from: a seeded generator, or a fuzzer's bytes.
///
/// ```swift
/// var choices = SeededChoices(seed: 42)
/// let die = choices.next(6) + 1
/// ```
public protocol ModelChoices {
    /// A number in `0..<bound` (`bound` ≥ 1).
    mutating func next(_ bound: Int) -> Int
}

/// SplitMix64: small, fast, and the same on every platform, so a seed reproduces anywhere.
public struct SeededChoices: ModelChoices {
    var state: UInt64

    /// The choices of seed `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number of the sequence, in `0..<bound`.
    public mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}

/// One byte per choice; zeros once the bytes run out, which makes programs end early.
public struct ByteChoices: ModelChoices {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Choices read from `bytes`, which must outlive them.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The next byte modulo `bound`; 0 once the bytes run out, or for a `bound` of 1.
    public mutating func next(_ bound: Int) -> Int {
        guard bound > 1, position < bytes.count else { return 0 }
        defer { position += 1 }
        return Int(bytes[position]) % bound
    }
}
