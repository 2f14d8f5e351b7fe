/// Seeded randomness for the lab.
///
/// Every random draw in a match comes from a generator seeded from
/// (master seed, match index, seat, purpose). ``Seeds`` derives those seeds with
/// SplitMix64 mixing; ``LabRandom`` (xoshiro256**) plays with them. Nothing in the
/// library reads a clock or the system's entropy.

/// SplitMix64: a tiny generator used to derive seeds and to fill xoshiro's state.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    @inlinable public init(seed: UInt64) { state = seed }

    @inlinable public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The SplitMix64 finaliser: a bijective avalanche of 64 bits.
    @inlinable public static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// What a derived seed is for; part of the derivation so streams never collide.
public enum SeedPurpose: UInt64, Sendable {
    /// The deal: shuffles and anything the game itself randomises.
    case deal = 1
    /// A strategy's own choices.
    case strategy = 2
    /// Information-set sampling inside a search.
    case sampling = 3
    /// Anything else a tool needs (training splits, bootstrap resampling).
    case auxiliary = 4
}

/// Seed derivation: (master, match, seat, purpose) -> an independent 64-bit seed.
public enum Seeds {
    /// Derives a seed from a master seed and up to three coordinates.
    /// - Complexity: O(1).
    @inlinable
    public static func derive(_ master: UInt64, _ a: UInt64, _ b: UInt64 = 0, _ c: UInt64 = 0) -> UInt64 {
        var h = SplitMix64.mix(master &+ 0x632B_E59B_D9B4_E019)
        h = SplitMix64.mix(h ^ (a &* 0x9E37_79B9_7F4A_7C15 &+ 0x1))
        h = SplitMix64.mix(h ^ (b &* 0xC2B2_AE3D_27D4_EB4F &+ 0x2))
        h = SplitMix64.mix(h ^ (c &* 0x1656_67B1_9E37_79F9 &+ 0x3))
        return h
    }

    /// The seed of match `match` of a run with master seed `master` (the deal).
    @inlinable
    public static func match(_ master: UInt64, match: UInt64) -> UInt64 {
        derive(master, match, 0, SeedPurpose.deal.rawValue)
    }

    /// The seed of the strategy in `seat` of the match whose seed is `matchSeed`.
    @inlinable
    public static func strategy(_ matchSeed: UInt64, seat: Int) -> UInt64 {
        derive(matchSeed, UInt64(seat) &+ 1, SeedPurpose.strategy.rawValue)
    }
}

/// xoshiro256**: the lab's playing generator. Fast, 256 bits of state, value type.
public struct LabRandom: RandomNumberGenerator, Sendable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// Seeds the four words from SplitMix64, as the xoshiro authors recommend.
    @inlinable public init(seed: UInt64) {
        var sm = SplitMix64(seed: seed)
        s0 = sm.next(); s1 = sm.next(); s2 = sm.next(); s3 = sm.next()
    }

    @inlinable public mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }

    /// A uniform integer in `0..<bound` (Lemire's method, unbiased).
    /// Fixed here rather than taken from the standard library so results never change
    /// with a toolchain.
    /// - Precondition: `bound > 0`.
    @inlinable public mutating func uniform(_ bound: Int) -> Int {
        precondition(bound > 0, "uniform(_:) needs a positive bound")
        let n = UInt64(bound)
        var m = next().multipliedFullWidth(by: n)
        if m.low < n {
            let threshold = (0 &- n) % n
            while m.low < threshold {
                m = next().multipliedFullWidth(by: n)
            }
        }
        return Int(m.high)
    }

    /// A uniform double in [0, 1) with 53 random bits.
    @inlinable public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with probability `p`.
    @inlinable public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// Fisher-Yates shuffle of a buffer, using ``uniform(_:)``.
    @inlinable public mutating func shuffle<T>(_ buffer: UnsafeMutableBufferPointer<T>) {
        var i = buffer.count - 1
        while i > 0 {
            let j = uniform(i + 1)
            buffer.swapAt(i, j)
            i -= 1
        }
    }
}
