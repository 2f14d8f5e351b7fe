/// A set of cells as the graph's searches read it: ``CellSet`` (128 bits, every board), or
/// its low word alone on a board of at most 64 cells (radius 4 and less), where each
/// set operation is one instruction instead of two to nine (a shift of a 128-bit value).
protocol CellBits: FixedWidthInteger, UnsignedInteger, Sendable {}
extension UInt64: CellBits {}
extension UInt128: CellBits {}

extension CellBits {
    /// The set of `cell` alone.
    @inline(__always) static func bit(_ cell: Int) -> Self { Self(1) &<< Self(truncatingIfNeeded: cell) }
}

/// The 128-bit view: what the reference AI, the features and the checks build.
typealias Junctions = JunctionGraph<CellSet>

/// The viability graph of a position, contracted (rule book, "Legal placement").
///
/// The graph's nodes are (cell, side). An empty cell links all six of its sides, so it
/// contracts to one junction; a placed tile links its sides in pairs, so a run of
/// channels through placed tiles contracts to one link between the two things at its
/// ends: junctions, or ports of a board edge. A route from edge e to edge e + 3 exists
/// in the (cell, side) graph exactly when one exists in this graph of empty cells, and
/// the number of junctions on it is the number of empty cells the route needs. Every
/// set of cells is a bitset `S` (``CellBits``), so searches are a few word operations
/// per cell; the rows are kept as ``CellSet``s, which a 64-bit view reads the low word of.
struct JunctionGraph<S: CellBits> {
    /// Junctions linked to each empty cell: row c at byte `16 * c`, a ``CellSet``.
    private let adjacency: UnsafeMutableRawPointer
    /// Empty cells reaching a port of each edge (rows as `adjacency`'s).
    private let edges: UnsafeMutableRawPointer
    /// Search scratch: the levels of a breadth-first search.
    private let work: UnsafeMutablePointer<S>
    let empty: S
    let cellCount: Int

    /// Bytes from one row to the next.
    private static var rowStride: Int { MemoryLayout<CellSet>.stride }

    init(adjacency: UnsafeMutablePointer<CellSet>, edges: UnsafeMutablePointer<CellSet>, work: UnsafeMutablePointer<S>,
         empty: S, cellCount: Int) {
        assert(S.bitWidth == CellSet.bitWidth || (cellCount <= S.bitWidth && UInt16(littleEndian: 1) == 1),
               "a narrow view reads the low word of each row, on a board that fits it")
        self.adjacency = UnsafeMutableRawPointer(adjacency)
        self.edges = UnsafeMutableRawPointer(edges)
        self.work = work
        self.empty = empty
        self.cellCount = cellCount
    }

    /// Junctions linked to empty cell `cell`.
    @inline(__always) func adjacent(_ cell: Int) -> S { adjacency.load(fromByteOffset: cell &* Self.rowStride, as: S.self) }

    /// Junctions linked to any cell of `cells`: the step of every search. Word by word,
    /// as 64-bit bit tricks are half the instructions of 128-bit ones.
    @inline(__always)
    func adjacent(toAny cells: S) -> S {
        var out: S = 0
        var low = UInt64(truncatingIfNeeded: cells)
        while low != 0 { out |= adjacent(low.trailingZeroBitCount); low &= low &- 1 }
        if S.bitWidth > 64 {
            var high = UInt64(truncatingIfNeeded: cells &>> 64)
            while high != 0 { out |= adjacent(64 &+ high.trailingZeroBitCount); high &= high &- 1 }
        }
        return out
    }

    /// Empty cells reaching a port of `edge`.
    @inline(__always) func touching(_ edge: Int) -> S { edges.load(fromByteOffset: edge &* Self.rowStride, as: S.self) }

    /// Ends at or above this are ports: `portBase + edge`.
    @inline(__always) static var portBase: Int { 128 }

    /// Leaves `cell` through `side` and follows channels through placed tiles to the
    /// first empty cell (its index, and the side the chain enters it by) or off the
    /// board (`portBase + edge`).
    @inline(__always)
    static func follow(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, from cell: Int, side: Int) -> (end: Int, enteringSide: Int) {
        var c = cell, d = side
        while true {
            let n = Int(t.neighbour[c &* 6 &+ d])
            if n < 0 { return (portBase &+ Int(t.port[c &* 6 &+ d]), -1) }
            let entering = d < 3 ? d &+ 3 : d &- 3
            let code = cells[n]
            if code == QuortexState.emptyCell { return (n, entering) }
            d = Int(t.partner[Int(code) &* 6 &+ entering])
            c = n
        }
    }

    /// The number of junctions on a shortest route from `sources` to `targets` through
    /// `allowed` cells, or nil when there is none.
    /// - Complexity: O(cells) word operations.
    @inline(__always)
    func distance(from sources: S, to targets: S, allowed: S) -> Int? {
        var reach = sources & allowed
        var frontier = reach
        var level = 1
        while frontier != 0 {
            if frontier & targets != 0 { return level }
            let next = adjacent(toAny: frontier) & allowed & ~reach
            reach |= next
            frontier = next
            level &+= 1
        }
        return nil
    }

    /// Runs `body` with the junction links of `links` (a tile as placed) added to the
    /// graph, then takes them out again: searches in `body` see the placement's channels
    /// as links. The graph must not be read by anyone else meanwhile.
    @inline(__always)
    func withLinks<R>(_ links: borrowing Links, _ body: () -> R) -> R {
        var rows = InlineArray<6, Int16>(repeating: 0)
        var saved = InlineArray<6, S>(repeating: 0)
        var n = 0
        links.forEach { x, y in
            guard x < Self.portBase && y < Self.portBase else { return }
            rows[n] = Int16(x); saved[n] = adjacent(x); n &+= 1
            rows[n] = Int16(y); saved[n] = adjacent(y); n &+= 1
            setRow(x, adjacent(x) | S.bit(y))
            setRow(y, adjacent(y) | S.bit(x))
        }
        let result = body()
        // Backwards, so that a row saved twice ends as it was first.
        var i = n &- 1
        while i >= 0 { setRow(Int(rows[i]), saved[i]); i &-= 1 }
        return result
    }

    /// Writes row `cell` of the adjacency (a narrow view its low word: the high word of a
    /// board that fits the view is 0).
    @inline(__always)
    private func setRow(_ cell: Int, _ value: S) {
        adjacency.storeBytes(of: value, toByteOffset: cell &* Self.rowStride, as: S.self)
    }

    /// Every cell reachable from `sources` within `allowed`.
    /// - Complexity: O(cells) word operations.
    func reach(from sources: S, allowed: S) -> S {
        var reach = sources & allowed
        var frontier = reach
        while frontier != 0 {
            let next = adjacent(toAny: frontier) & allowed & ~reach
            reach |= next
            frontier = next
        }
        return reach
    }

    /// Empty cells on every route from edge `axis` to edge `axis + 3` (placing a tile
    /// anywhere else cannot cut that route off), or nil when there is no route at all.
    /// - Complexity: two or three breadth-first searches; no heap allocation.
    func essentialCells(axis: Int) -> S? {
        essentialCellsAndWitness(axis: axis).map(\.essential)
    }

    /// ``essentialCells(axis:)``, with a witness when there are none: two routes that
    /// share no cell. A later placement off both leaves them standing (it only removes
    /// links to its own cell), so no cell becomes essential.
    ///
    /// Every essential cell lies on any one route P = p1 ... pL from the start edge's
    /// cells S to the target edge's cells T. One search from S avoiding P either finds a
    /// second route (the witness) or the cells B1 reachable without P. Then P is walked
    /// in order with Bi, the cells reachable from S without pi ... pL: pi is essential
    /// exactly when Bi holds no cell of T, links to no later pj, and no later pj touches
    /// the start edge (each of these is a route around pi, and every route around pi
    /// leaves Bi through one of them). B(i+1) grows from Bi by pi, so the walk is one
    /// search in all.
    /// - Parameters:
    ///   - intact: a route known to stand (one of an earlier witness), or 0.
    ///   - startRegions: where to write, at each essential cell's index, Bi: the cells
    ///     the start edge reaches without the cell (every part of the board without it
    ///     that touches the start edge), for the cell's rotation check.
    /// - Complexity: two or three breadth-first searches; no heap allocation.
    func essentialCellsAndWitness(axis: Int, intact: S = 0,
                                  startRegions: UnsafeMutablePointer<S>? = nil) -> (essential: S, routes: (S, S))? {
        let sources = touching(axis) & empty, targets = touching(axis &+ 3) & empty
        return withUnsafeTemporaryAllocation(of: Int16.self, capacity: cellCount) { scratch in
            let order = scratch.baseAddress!
            // A kept route saves the first search when a second route avoids it.
            if intact != 0 {
                let around = search(from: sources & ~intact, to: targets, allowed: empty & ~intact)
                if around.found { return (0, (intact, around.route)) }
            }
            guard let length = shortestRoute(from: sources, to: targets, allowed: empty, order: order) else { return nil }
            var route: S = 0
            for i in 0..<length { route |= S.bit(Int(order[i])) }
            let around = search(from: sources & ~route, to: targets, allowed: empty & ~route)
            if around.found { return (0, (route, around.route)) }
            // B1 is the whole component searched; walk the route.
            var reached = around.reached, linked = around.linked
            var later = route
            var essential: S = 0
            for i in 0..<length {
                let p = Int(order[i])
                let bit = S.bit(p)
                later &= ~bit
                if reached & targets != 0 { break }
                if linked & later == 0 && sources & later == 0 {
                    essential |= bit
                    startRegions?[p] = reached
                }
                // Grow B(i+1): pi joins when it touches the start edge or links to Bi.
                guard (sources | linked) & bit != 0 else { continue }
                reached |= bit
                linked |= adjacent(p)
                let allowed = empty & ~later
                var frontier = linked & allowed & ~reached
                while frontier != 0 {
                    reached |= frontier
                    let next = adjacent(toAny: frontier)
                    linked |= next
                    frontier = next & allowed & ~reached
                }
            }
            return (essential, (0, 0))
        }
    }

    /// One breadth-first search from `sources` within `allowed`, stopping at the first
    /// level reaching `targets`.
    /// - Returns: whether it reached them and the cells of one shortest route if so;
    ///   otherwise every cell reached and every cell linked to one of them.
    private func search(from sources: S, to targets: S, allowed: S) -> (found: Bool, route: S, reached: S, linked: S) {
        let bfs = levels(from: sources, to: targets, allowed: allowed)
        guard bfs.last & targets != 0 else { return (false, 0, bfs.reached, bfs.linked) }
        var route: S = 0
        walkBack(from: bfs.last & targets, depth: bfs.depth) { route |= S.bit($1) }
        return (true, route, bfs.reached, bfs.linked)
    }

    /// One shortest route from `sources` to `targets` within `allowed`, its cells written
    /// to `order` from the start side.
    /// - Returns: the number of cells, or nil when there is no route.
    private func shortestRoute(from sources: S, to targets: S, allowed: S, order: UnsafeMutablePointer<Int16>) -> Int? {
        let bfs = levels(from: sources, to: targets, allowed: allowed)
        guard bfs.last & targets != 0 else { return nil }
        walkBack(from: bfs.last & targets, depth: bfs.depth) { order[$0] = Int16($1) }
        return bfs.depth &+ 1
    }

    /// Breadth-first search level by level (levels 0..<depth kept in `work`), stopping at
    /// the first level that holds a target or when nothing new is reached.
    /// - Returns: the number of kept levels, the last level, every cell reached, and
    ///   every cell linked to a searched level.
    @inline(__always)
    private func levels(from sources: S, to targets: S, allowed: S) -> (depth: Int, last: S, reached: S, linked: S) {
        var reached = sources & allowed, frontier = reached, depth = 0, linked: S = 0
        while frontier != 0 && frontier & targets == 0 {
            work[depth] = frontier
            depth &+= 1
            var next = adjacent(toAny: frontier)
            linked |= next
            next &= allowed & ~reached
            reached |= next
            frontier = next
        }
        return (depth, frontier, reached, linked)
    }

    /// Walks a shortest route back from a cell of `end` (level `depth`) through the kept
    /// levels, calling `body` with each level and its cell.
    @inline(__always)
    private func walkBack(from end: S, depth: Int, _ body: (Int, Int) -> Void) {
        var cell = end.trailingZeroBitCount
        body(depth, cell)
        var i = depth &- 1
        while i >= 0 {
            cell = (work[i] & adjacent(cell)).trailingZeroBitCount
            body(i, cell)
            i &-= 1
        }
    }
}

extension JunctionGraph where S == CellSet {
    /// Builds the graph of a position and hands it to `body`.
    /// - Complexity: O(empty cells x 6 x chain length); no heap allocation up to radius 4.
    @inline(__always)
    static func build<R>(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet, _ body: (Junctions) -> R) -> R {
        build(t, cells, empty: empty, as: CellSet.self, body)
    }

    /// ``build(_:_:empty:_:)``, its sets read as `V` (a 64-bit view only on a board that
    /// fits one word, ``BoardTables/fitsOneWord``). The rows, the edges and the search's
    /// levels are temporary allocations of at most 1 KiB each up to radius 4 (61 cells),
    /// which Swift keeps on the stack: no heap allocation and no zeroing.
    @inline(__always)
    static func build<V: CellBits, R>(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet, as _: V.Type,
                                      _ body: (JunctionGraph<V>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CellSet.self, capacity: t.cellCount) { adjacency in
            withUnsafeTemporaryAllocation(of: CellSet.self, capacity: 6) { edges in
                withUnsafeTemporaryAllocation(of: V.self, capacity: t.cellCount &+ 3) { work in
                    Self.fill(adjacency: adjacency.baseAddress!, edges: edges.baseAddress!, t, cells, empty: empty)
                    return body(JunctionGraph<V>(adjacency: adjacency.baseAddress!, edges: edges.baseAddress!, work: work.baseAddress!,
                                                 empty: V(truncatingIfNeeded: empty), cellCount: t.cellCount))
                }
            }
        }
    }

    /// Writes the graph of a position into `adjacency` and `edges`.
    private static func fill(adjacency: UnsafeMutablePointer<CellSet>, edges: UnsafeMutablePointer<CellSet>,
                             _ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet) {
        for e in 0..<6 { edges[e] = 0 }
        var rest = empty
        while rest != 0 {
            let c = rest.trailingZeroBitCount
            rest &= rest &- 1
            let bit = CellSet(1) << c
            // Empty neighbours are linked directly; rim sides are ports; only sides facing
            // placed tiles need a chain followed.
            var links = t.neighbourSets[c] & empty
            var rim = t.rimEdges[c]
            while rim != 0 {
                edges[rim.trailingZeroBitCount] |= bit
                rim &= rim &- 1
            }
            if t.neighbourSets[c] & ~empty != 0 {
                for d in 0..<6 {
                    let n = Int(t.neighbour[c &* 6 &+ d])
                    guard n >= 0, cells[n] != QuortexState.emptyCell else { continue }
                    let end = Self.follow(t, cells, from: c, side: d).end
                    if end >= Self.portBase { edges[end &- Self.portBase] |= bit } else { links |= CellSet(1) << end }
                }
            }
            adjacency[c] = links & ~bit
        }
    }
}
