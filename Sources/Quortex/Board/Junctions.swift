/// The viability graph of a position, contracted (rule book, "Legal placement").
///
/// The graph's nodes are (cell, side). An empty cell links all six of its sides, so it
/// contracts to one junction; a placed tile links its sides in pairs, so a run of
/// channels through placed tiles contracts to one link between the two things at its
/// ends: junctions, or ports of a board edge. A route from edge e to edge e + 3 exists
/// in the (cell, side) graph exactly when one exists in this graph of empty cells, and
/// the number of junctions on it is the number of empty cells the route needs. Every
/// set of cells is a 128-bit bitset, so searches are a few word operations per cell.
struct Junctions {
    /// Scratch storage, on the stack for the duration of ``build(_:_:empty:_:)``:
    /// `[0, 128)` junctions linked to each empty cell, `[128, 134)` the empty cells
    /// reaching a port of each edge, `[134, 264)` subtree sets of the separator search,
    /// then per axis and cell the two sides an essential cell keeps apart.
    private let storage: UnsafeMutablePointer<CellSet>
    let empty: CellSet

    static let subtreeBase = 134
    static let sidesBase = 264
    static let capacity = sidesBase + 3 * 2 * 128

    /// Builds the graph of a position and hands it to `body`.
    /// - Complexity: O(empty cells x 6 x chain length); no heap allocation.
    @inline(__always)
    static func build<R>(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet, _ body: (Junctions) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CellSet.self, capacity: capacity) { buffer in
            let graph = Junctions(storage: buffer.baseAddress!, t, cells, empty: empty)
            return body(graph)
        }
    }

    private init(storage: UnsafeMutablePointer<CellSet>, _ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet) {
        self.storage = storage
        self.empty = empty
        for e in 0..<6 { storage[128 &+ e] = 0 }
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
                storage[128 &+ rim.trailingZeroBitCount] |= bit
                rim &= rim &- 1
            }
            if t.neighbourSets[c] & ~empty != 0 {
                for d in 0..<6 {
                    let n = Int(t.neighbour[c &* 6 &+ d])
                    guard n >= 0, cells[n] != QuortexState.emptyCell else { continue }
                    let end = Self.follow(t, cells, from: c, side: d).end
                    if end >= Self.portBase { storage[end &- Self.portBase &+ 128] |= bit } else { links |= CellSet(1) << end }
                }
            }
            storage[c] = links & ~bit
        }
    }

    /// Junctions linked to empty cell `cell`.
    @inline(__always) func adjacent(_ cell: Int) -> CellSet { storage[cell] }

    /// Empty cells reaching a port of `edge`.
    @inline(__always) func touching(_ edge: Int) -> CellSet { storage[128 &+ edge] }

    /// Ends at or above this are ports: `portBase + edge`.
    static let portBase = 128

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

    /// Cells reachable from `sources` through `allowed` cells, with up to three extra
    /// links (`extra`), stopping early once a cell of `targets` is reached.
    /// - Returns: the number of junctions on a shortest route, or nil when none.
    /// - Complexity: O(cells) word operations.
    @inline(__always)
    func distance(from sources: CellSet, to targets: CellSet, allowed: CellSet, extra: borrowing Links,
                  settled: CellSet = 0) -> Int? {
        var reach = sources & allowed
        // Cells in `settled` are known to be closed under the graph's own links: only the
        // extra links lead out of them.
        var frontier = reach & ~settled
        if settled != 0, extra.count > 0 { frontier |= extra.neighbours(of: settled) & allowed & ~reach; reach |= frontier }
        var level = 1
        while frontier != 0 {
            if frontier & targets != 0 { return level }
            var next: CellSet = 0
            var f = frontier
            while f != 0 {
                let x = f.trailingZeroBitCount
                f &= f &- 1
                next |= storage[x]
            }
            if extra.count > 0 { next |= extra.neighbours(of: frontier) }
            next &= allowed & ~reach
            reach |= next
            frontier = next
            level &+= 1
        }
        return nil
    }

    /// Every cell reachable from `sources` within `allowed`.
    /// - Complexity: O(cells) word operations.
    func reach(from sources: CellSet, allowed: CellSet) -> CellSet {
        var reach = sources & allowed
        var frontier = reach
        while frontier != 0 {
            var next: CellSet = 0
            var f = frontier
            while f != 0 { let x = f.trailingZeroBitCount; f &= f &- 1; next |= storage[x] }
            next &= allowed & ~reach
            reach |= next
            frontier = next
        }
        return reach
    }

    /// Empty cells on every route from edge `axis` to edge `axis + 3` (placing a tile
    /// anywhere else cannot cut that route off), empty when there is no route. For each
    /// essential cell it also records the cells the two edges still reach without it
    /// (``startSide(axis:cell:)``, ``targetSide(axis:cell:)``).
    ///
    /// One depth-first search (Hopcroft-Tarjan low points) from a virtual source joined
    /// to every cell touching the start edge, with a virtual sink joined to every cell
    /// touching the target edge: a cell separates them exactly when one of its search
    /// children has a low point no higher than the cell and holds the sink in its subtree.
    /// - Complexity: O(cells + links); no heap allocation.
    func essentialCells(axis: Int) -> CellSet {
        let sources = touching(axis) & empty, targets = touching(axis &+ 3) & empty
        let sink = 128, root = 129
        return withUnsafeTemporaryAllocation(of: Int16.self, capacity: 4 * 130) { scratch in
            let disc = scratch.baseAddress!, low = disc + 130, parent = disc + 260, hasSink = disc + 390
            let subtree = storage + Self.subtreeBase
            var visited: CellSet = 0
            var sinkSeen = false
            var time: Int16 = 0
            // Explicit stack of (vertex, neighbours not yet looked at).
            var stackVertex = InlineArray<131, Int16>(repeating: 0)
            var stackRest = InlineArray<131, CellSet>(repeating: 0)
            var stackSink = InlineArray<131, Bool>(repeating: false)
            var depth = 0
            var clear = empty
            while clear != 0 {
                let c = clear.trailingZeroBitCount
                clear &= clear &- 1
                storage[Self.sidesBase &+ axis &* 256 &+ c] = 0
            }
            func discover(_ v: Int, from p: Int) {
                disc[v] = time; low[v] = time; time &+= 1
                parent[v] = Int16(p)
                hasSink[v] = v == sink ? 1 : 0
                stackVertex[depth] = Int16(v)
                if v == root {
                    stackRest[depth] = sources; stackSink[depth] = false
                } else if v == sink {
                    subtree[sink] = 0
                    stackRest[depth] = targets; stackSink[depth] = false
                } else {
                    // A source cell also links back to the virtual source.
                    if p != root && sources & (CellSet(1) << v) != 0 { low[v] = disc[root] }
                    subtree[v] = CellSet(1) << v
                    stackRest[depth] = storage[v] & empty
                    stackSink[depth] = targets & (CellSet(1) << v) != 0
                }
                depth &+= 1
            }
            discover(root, from: -1)
            var essential: CellSet = 0
            while depth > 0 {
                let v = Int(stackVertex[depth &- 1])
                var next = -1
                if stackSink[depth &- 1] {
                    stackSink[depth &- 1] = false
                    next = sink
                } else if stackRest[depth &- 1] != 0 {
                    next = stackRest[depth &- 1].trailingZeroBitCount
                    stackRest[depth &- 1] &= stackRest[depth &- 1] &- 1
                }
                if next >= 0 {
                    let seen = next == sink ? sinkSeen : visited & (CellSet(1) << next) != 0
                    if !seen {
                        if next == sink { sinkSeen = true } else { visited |= CellSet(1) << next }
                        discover(next, from: v)
                    } else if next != Int(parent[v]) {
                        low[v] = min(low[v], disc[next])
                    }
                    continue
                }
                // v is finished: hand its low point and subtree to its parent.
                depth &-= 1
                let p = Int(parent[v])
                guard p >= 0 else { break }
                low[p] = min(low[p], low[v])
                if hasSink[v] != 0 { hasSink[p] = 1 }
                if p != root { subtree[p] |= subtree[v] }
                if p < 128 && low[v] >= disc[p] {
                    // p cuts v's subtree off from the source side.
                    if hasSink[v] != 0 {
                        essential |= CellSet(1) << p
                        storage[Self.sidesBase &+ axis &* 256 &+ 128 &+ p] = subtree[v]
                    }
                    storage[Self.sidesBase &+ axis &* 256 &+ p] |= subtree[v]
                }
            }
            guard sinkSeen else { return 0 }
            // The start side of an essential cell: everything reached, less the cell and
            // every subtree it cuts off (recorded above, accumulated in the start slot).
            var rest = essential
            while rest != 0 {
                let p = rest.trailingZeroBitCount
                rest &= rest &- 1
                let cutOff = storage[Self.sidesBase &+ axis &* 256 &+ p]
                storage[Self.sidesBase &+ axis &* 256 &+ p] = visited & ~(CellSet(1) << p) & ~cutOff
            }
            return essential
        }
    }

    /// Cells the start edge of `axis` reaches without essential cell `cell`.
    @inline(__always) func startSide(axis: Int, cell: Int) -> CellSet { storage[Self.sidesBase &+ axis &* 256 &+ cell] }

    /// Cells the target edge of `axis` reaches without essential cell `cell`.
    @inline(__always) func targetSide(axis: Int, cell: Int) -> CellSet { storage[Self.sidesBase &+ axis &* 256 &+ 128 &+ cell] }
}

/// What placing a tile on an empty cell does to the graph: the cell stops being a
/// junction and each of its channels links the two things at its ends. At most three
/// links; a link between two ports on opposite edges is a completed flow.
struct Links: ~Copyable {
    /// Link ends: a cell index, or `Junctions.portBase + edge`.
    private var a = InlineArray<3, Int16>(repeating: 0)
    private var b = InlineArray<3, Int16>(repeating: 0)
    private(set) var count = 0

    init() {}

    /// The links made by tile `code` on `cell`, whose six sides lead to `ends` (from
    /// ``Junctions/follow(_:_:from:side:)`` before the placement; a chain may come back
    /// to `cell` itself, which the channels then continue).
    init(cell: Int, code: Int, ends: borrowing CellEnds, partner: UnsafeMutablePointer<UInt8>) {
        var used: UInt8 = 0
        for s in 0..<6 where used & (1 << s) == 0 && ends.end[s] != cell {
            used |= 1 << s
            var side = s
            while true {
                let p = Int(partner[code &* 6 &+ side])
                used |= 1 << p
                if ends.end[p] != cell {
                    a[count] = Int16(ends.end[s])
                    b[count] = Int16(ends.end[p])
                    count &+= 1
                    break
                }
                side = ends.entering[p]
                used |= 1 << side
            }
        }
    }

    /// Cells linked to any cell of `cells`.
    @inline(__always)
    func neighbours(of cells: CellSet) -> CellSet {
        var out: CellSet = 0
        for i in 0..<count {
            let x = Int(a[i]), y = Int(b[i])
            guard x < Junctions.portBase && y < Junctions.portBase else { continue }
            if cells & (CellSet(1) << x) != 0 { out |= CellSet(1) << y }
            if cells & (CellSet(1) << y) != 0 { out |= CellSet(1) << x }
        }
        return out
    }

    /// Cells linked to a port of `edge`.
    @inline(__always)
    func cells(touching edge: Int) -> CellSet {
        var out: CellSet = 0
        let port = Junctions.portBase &+ edge
        for i in 0..<count {
            let x = Int(a[i]), y = Int(b[i])
            if x == port && y < Junctions.portBase { out |= CellSet(1) << y }
            if y == port && x < Junctions.portBase { out |= CellSet(1) << x }
        }
        return out
    }

    /// Axes (bit e for edges e and e + 3) joined port to port: completed flows.
    var completedAxes: Int {
        var axes = 0
        for i in 0..<count {
            let x = Int(a[i]) &- Junctions.portBase, y = Int(b[i]) &- Junctions.portBase
            if x >= 0 && y >= 0 && (x &- y == 3 || y &- x == 3) { axes |= 1 << (x % 3) }
        }
        return axes
    }
}

/// Where each side of an empty cell leads (see ``Junctions/follow(_:_:from:side:)``).
struct CellEnds: ~Copyable {
    var end = InlineArray<6, Int>(repeating: 0)
    var entering = InlineArray<6, Int>(repeating: 0)

    init(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, cell: Int) {
        for d in 0..<6 {
            let f = Junctions.follow(t, cells, from: cell, side: d)
            end[d] = f.end
            entering[d] = f.enteringSide
        }
    }
}
