/// The four tile types and their channels (rule book, "Tiles").
///
/// A tile joins its six sides in three pairs. At rotation r, rotation-0 side s becomes
/// side (s + r) mod 6. A placed tile is coded `type * 6 + rotation` (0-23).
public enum QuortexTile {
    public static let typeCount = 4
    public static let names = ["no sharps", "one sharp", "two sharps", "three sharps"]

    /// Pairs at rotation 0: 0 {0,2}{1,4}{3,5}; 1 {0,5}{1,3}{2,4}; 2 {0,5}{1,4}{2,3};
    /// 3 {0,5}{1,2}{3,4}.
    public static let pairsAtRotation0: [[(Int, Int)]] = [
        [(0, 2), (1, 4), (3, 5)],
        [(0, 5), (1, 3), (2, 4)],
        [(0, 5), (1, 4), (2, 3)],
        [(0, 5), (1, 2), (3, 4)],
    ]

    /// `partner[code * 6 + side]`: the side joined to `side` by tile `code`.
    public static let partner: [Int] = {
        var table = [Int](repeating: 0, count: 24 * 6)
        for type in 0..<4 {
            for r in 0..<6 {
                for (a, b) in pairsAtRotation0[type] {
                    let (x, y) = ((a + r) % 6, (b + r) % 6)
                    table[(type * 6 + r) * 6 + x] = y
                    table[(type * 6 + r) * 6 + y] = x
                }
            }
        }
        return table
    }()

    /// The pairs of `type` at rotation `r`, normalised (each pair low side first, sorted).
    public static func pairs(type: Int, rotation r: Int) -> [[Int]] {
        pairsAtRotation0[type].map { [($0.0 + r) % 6, ($0.1 + r) % 6].sorted() }.sorted { $0[0] < $1[0] }
    }

    /// The rotations of each type that give distinct pairs, lowest first: each distinct
    /// placement is generated once (3, 6, 3, 2 rotations).
    public static let distinctRotations: [[Int]] = (0..<4).map { type in
        var seen: [[[Int]]] = []
        var out: [Int] = []
        for r in 0..<6 {
            let p = pairs(type: type, rotation: r)
            if !seen.contains(p) { seen.append(p); out.append(r) }
        }
        return out
    }

    /// ``distinctRotations`` as bitmasks (bit r for rotation r).
    public static let distinctRotationMasks: [Int] = distinctRotations.map { $0.reduce(0) { $0 | 1 << $1 } }

    /// ``distinctRotationMasks``' entry for `type` (0-3), read from a constant: the play
    /// loop's turns ask for it several times, and a global array is a lazy initialiser's
    /// check and a bounds check each time. Byte t holds type t's mask (tested equal).
    @inlinable @inline(__always)
    public static func distinctRotationMask(_ type: Int) -> Int { (0x0307_3F07 &>> (type &* 8)) & 0xFF }

    /// ``canonicalRotation(type:_:)`` of every tile code (`type * 6 + rotation`).
    public static let canonicalRotations: [Int] = (0..<24).map { canonicalRotation(type: $0 / 6, $0 % 6) }

    /// The lowest rotation giving the same pairs as `rotation` (the canonical one).
    public static func canonicalRotation(type: Int, _ rotation: Int) -> Int {
        let p = pairs(type: type, rotation: rotation)
        return (0..<6).first { pairs(type: type, rotation: $0) == p }!
    }
}
