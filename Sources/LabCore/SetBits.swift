/// The n-th member of a bit set: what a uniform draw among a set's members names (rail's
/// buildable railroads, Quortex's legal cells and a tile's distinct rotations).
public enum SetBits {
    /// The index of the `n`-th set bit of `word` (from 0), which has more than `n`: its
    /// lower set bits cleared one by one (a draw's `n` is mostly small; halving by bit
    /// counts measured slower).
    @inlinable @inline(__always)
    public static func index(ofSetBit n: Int, in word: UInt64) -> Int {
        var w = word
        for _ in 0..<n { w &= w &- 1 }
        return w.trailingZeroBitCount
    }

    /// The index of the `n`-th set bit of `set` (from 0), which has more than `n`: in the
    /// low word, or in the high word past the low word's members.
    @inlinable @inline(__always)
    public static func index(ofSetBit n: Int, in set: UInt128) -> Int {
        let low = UInt64(truncatingIfNeeded: set), lowCount = low.nonzeroBitCount
        return n < lowCount ? index(ofSetBit: n, in: low) : 64 &+ index(ofSetBit: n &- lowCount, in: UInt64(truncatingIfNeeded: set &>> 64))
    }
}
