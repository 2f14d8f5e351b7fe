/// The junction graph kept with a position and updated placement by placement, so a
/// turn neither follows chains nor rebuilds the graph: placing a tile removes one
/// junction, joins the ends of its channels, and adds their links.
struct JunctionStore: Sendable {
    /// Junctions linked to each empty cell.
    var adjacency = InlineArray<128, CellSet>(repeating: 0)
    /// Empty cells reaching a port of each edge.
    var touching = InlineArray<6, CellSet>(repeating: 0)
    /// `ends[cell * 6 + side]`, for an empty cell: where leaving it by `side` and
    /// following channels through placed tiles leads. ``SideEnd`` encoding. Entries of
    /// occupied cells are stale and never read.
    var ends = InlineArray<768, UInt16>(repeating: 0)

    init() {}

    /// The graph of a position, built from scratch by following every chain.
    init(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet) {
        rebuild(t, cells, empty: empty)
    }

    /// Replaces the graph with the one of a position, in place.
    mutating func rebuild(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet) {
        for e in 0..<6 { touching[e] = 0 }
        for c in 0..<t.cellCount where empty & (CellSet(1) << c) == 0 { adjacency[c] = 0 }
        var rest = empty
        while rest != 0 {
            let c = rest.trailingZeroBitCount
            rest &= rest &- 1
            var links: CellSet = 0
            for d in 0..<6 {
                let f = Junctions.follow(t, cells, from: c, side: d)
                if f.end >= Junctions.portBase {
                    ends[c &* 6 &+ d] = SideEnd.port(f.end &- Junctions.portBase)
                    touching[f.end &- Junctions.portBase] |= CellSet(1) << c
                } else {
                    ends[c &* 6 &+ d] = SideEnd.cell(f.end, entering: f.enteringSide)
                    links |= CellSet(1) << f.end
                }
            }
            adjacency[c] = links & ~(CellSet(1) << c)
        }
    }

    /// Puts tile `code` on empty `cell`: each channel's two ends now lead to each other.
    /// The rows are read and written as `S` (``CellBits``): a 64-bit view only on a board
    /// of at most 64 cells, whose rows' high words stay 0.
    /// - Returns: the axes a flow now joins port to port (bit k for edges k and k + 3).
    /// - Complexity: O(junctions linked to `cell` + 6); no search.
    mutating func place<S: CellBits>(_: S.Type, cell: Int, code: Int, partner: UnsafeMutablePointer<UInt8>) -> Int {
        let bit = S.bit(cell)
        let stride = MemoryLayout<CellSet>.stride
        var completed = 0
        withUnsafeMutableBytes(of: &adjacency) { rawAdjacency in
            withUnsafeMutableBytes(of: &touching) { rawTouching in
                withUnsafeMutableBytes(of: &ends) { rawEnds in
                    let adj = rawAdjacency.baseAddress!, touching = rawTouching.baseAddress!
                    let ends = rawEnds.baseAddress!.assumingMemoryBound(to: UInt16.self)
                    func row(_ p: UnsafeMutableRawPointer, _ i: Int) -> S { p.load(fromByteOffset: i &* stride, as: S.self) }
                    func setRow(_ p: UnsafeMutableRawPointer, _ i: Int, _ value: S) {
                        p.storeBytes(of: value, toByteOffset: i &* stride, as: S.self)
                    }
                    var linked = row(adj, cell)
                    while linked != 0 {
                        let x = linked.trailingZeroBitCount
                        setRow(adj, x, row(adj, x) & ~bit)
                        linked &= linked &- 1
                    }
                    setRow(adj, cell, 0)
                    for e in 0..<6 { setRow(touching, e, row(touching, e) & ~bit) }
                    let base = cell &* 6
                    var used: UInt8 = 0
                    for s in 0..<6 where used & (1 << s) == 0 && SideEnd.target(ends[base &+ s]) != cell {
                        // Walk the channel from side s, through any chain that comes back
                        // into this cell, to the side it finally leaves by.
                        used |= 1 << s
                        var side = s, p = 0
                        while true {
                            p = Int(partner[code &* 6 &+ side])
                            used |= 1 << p
                            let loop = ends[base &+ p]
                            if SideEnd.target(loop) != cell { break }
                            side = SideEnd.entering(loop)
                            used |= 1 << side
                        }
                        let a = ends[base &+ s], b = ends[base &+ p]
                        let x = SideEnd.target(a), y = SideEnd.target(b)
                        if x < Junctions.portBase { ends[x &* 6 &+ SideEnd.entering(a)] = b }
                        if y < Junctions.portBase { ends[y &* 6 &+ SideEnd.entering(b)] = a }
                        switch (x < Junctions.portBase, y < Junctions.portBase) {
                        case (true, true):
                            if x != y {
                                setRow(adj, x, row(adj, x) | S.bit(y))
                                setRow(adj, y, row(adj, y) | S.bit(x))
                            }
                        case (true, false): setRow(touching, y &- Junctions.portBase, row(touching, y &- Junctions.portBase) | S.bit(x))
                        case (false, true): setRow(touching, x &- Junctions.portBase, row(touching, x &- Junctions.portBase) | S.bit(y))
                        case (false, false):
                            let ex = x &- Junctions.portBase, ey = y &- Junctions.portBase
                            if ex &- ey == 3 || ey &- ex == 3 { completed |= 1 << (ex % 3) }
                        }
                    }
                }
            }
        }
        return completed
    }

    /// Lends `body` the kept graph as a ``JunctionGraph`` view with sets of type `S` (a
    /// 64-bit view only on a board of at most 64 cells), and the side ends, without
    /// copying them.
    @inline(__always)
    mutating func withGraph<S: CellBits, R>(cells cellCount: Int, empty: S, _ body: (JunctionGraph<S>, UnsafePointer<UInt16>) -> R) -> R {
        withUnsafeMutableBytes(of: &adjacency) { rawAdjacency in
            withUnsafeMutableBytes(of: &touching) { rawTouching in
                withUnsafeBytes(of: &ends) { rawEnds in
                    withUnsafeTemporaryAllocation(of: S.self, capacity: cellCount &+ 3) { work in
                        let graph = JunctionGraph<S>(adjacency: rawAdjacency.baseAddress!.assumingMemoryBound(to: CellSet.self),
                                                     edges: rawTouching.baseAddress!.assumingMemoryBound(to: CellSet.self),
                                                     work: work.baseAddress!, empty: empty, cellCount: cellCount)
                        return body(graph, rawEnds.baseAddress!.assumingMemoryBound(to: UInt16.self))
                    }
                }
            }
        }
    }
}

/// Where a side of an empty cell leads, in 16 bits: `cell << 3 | enteringSide` for an
/// empty cell entered by that side (possibly the cell itself: a chain that comes back),
/// or `(Junctions.portBase + edge) << 3` for a port of `edge`.
enum SideEnd {
    @inline(__always) static func cell(_ cell: Int, entering side: Int) -> UInt16 { UInt16(cell &<< 3 | side) }
    @inline(__always) static func port(_ edge: Int) -> UInt16 { UInt16((Junctions.portBase &+ edge) &<< 3) }
    /// The cell, or `Junctions.portBase + edge`.
    @inline(__always) static func target(_ end: UInt16) -> Int { Int(end &>> 3) }
    @inline(__always) static func entering(_ end: UInt16) -> Int { Int(end & 7) }
}
