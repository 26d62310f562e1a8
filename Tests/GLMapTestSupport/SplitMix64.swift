/// SplitMix64: a small, fast, seeded random generator, so randomised tests
/// reproduce from their seed (Swift's system generator cannot be seeded).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state (the seed, advanced on every draw).
    public var state: UInt64

    /// A generator seeded with `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform Double in 0 ..< 1 (53 random bits).
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
