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
    /// Junctions linked to each empty cell.
    private let adjacency: UnsafeMutablePointer<CellSet>
    /// Empty cells reaching a port of each edge.
    private let edges: UnsafeMutablePointer<CellSet>
    /// Search scratch: levels, then the separator search's stack.
    private let work: UnsafeMutablePointer<CellSet>
    let empty: CellSet
    let cellCount: Int

    /// Lends `body` scratch storage sized to the board. Each piece is a temporary
    /// allocation of at most 1 KiB up to radius 4 (61 cells), which Swift keeps on the
    /// stack: no heap allocation and no zeroing per turn.
    @inline(__always)
    static func withScratch<R>(cells: Int, _ body: (UnsafeMutablePointer<CellSet>, UnsafeMutablePointer<CellSet>, UnsafeMutablePointer<CellSet>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: CellSet.self, capacity: cells) { adjacency in
            withUnsafeTemporaryAllocation(of: CellSet.self, capacity: 6) { edges in
                withUnsafeTemporaryAllocation(of: CellSet.self, capacity: cells &+ 3) { work in
                    body(adjacency.baseAddress!, edges.baseAddress!, work.baseAddress!)
                }
            }
        }
    }

    /// Builds the graph of a position and hands it to `body`.
    /// - Complexity: O(empty cells x 6 x chain length); no heap allocation up to radius 4.
    @inline(__always)
    static func build<R>(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet, _ body: (Junctions) -> R) -> R {
        withScratch(cells: t.cellCount) { adjacency, edges, work in
            body(Junctions(adjacency: adjacency, edges: edges, work: work, t, cells, empty: empty))
        }
    }

    /// Hands `body` the graph kept in `store`.
    @inline(__always)
    static func build<R>(_ store: JunctionStore, cells cellCount: Int, empty: CellSet, _ body: (Junctions) -> R) -> R {
        withScratch(cells: cellCount) { adjacency, edges, work in
            // Only the empty cells' entries are ever read.
            withUnsafeBytes(of: store.adjacency) { raw in
                let kept = raw.bindMemory(to: CellSet.self)
                var rest = empty
                while rest != 0 {
                    let c = rest.trailingZeroBitCount
                    rest &= rest &- 1
                    adjacency[c] = kept[c]
                }
            }
            withUnsafeBytes(of: store.touching) { raw in
                let kept = raw.bindMemory(to: CellSet.self)
                for e in 0..<6 { edges[e] = kept[e] }
            }
            return body(Junctions(adjacency: adjacency, edges: edges, work: work, empty: empty, cellCount: cellCount))
        }
    }

    private init(adjacency: UnsafeMutablePointer<CellSet>, edges: UnsafeMutablePointer<CellSet>, work: UnsafeMutablePointer<CellSet>,
                 empty: CellSet, cellCount: Int) {
        self.adjacency = adjacency
        self.edges = edges
        self.work = work
        self.empty = empty
        self.cellCount = cellCount
    }

    private init(adjacency: UnsafeMutablePointer<CellSet>, edges: UnsafeMutablePointer<CellSet>, work: UnsafeMutablePointer<CellSet>,
                 _ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet) {
        self.init(adjacency: adjacency, edges: edges, work: work, empty: empty, cellCount: t.cellCount)
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

    /// Junctions linked to empty cell `cell`.
    @inline(__always) func adjacent(_ cell: Int) -> CellSet { adjacency[cell] }

    /// Empty cells reaching a port of `edge`.
    @inline(__always) func touching(_ edge: Int) -> CellSet { edges[edge] }

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
    func distance(from sources: CellSet, to targets: CellSet, allowed: CellSet, extra: borrowing Links) -> Int? {
        var reach = sources & allowed
        var frontier = reach
        var level = 1
        while frontier != 0 {
            if frontier & targets != 0 { return level }
            var next: CellSet = 0
            var f = frontier
            while f != 0 {
                let x = f.trailingZeroBitCount
                f &= f &- 1
                next |= adjacency[x]
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
            while f != 0 { let x = f.trailingZeroBitCount; f &= f &- 1; next |= adjacency[x] }
            next &= allowed & ~reach
            reach |= next
            frontier = next
        }
        return reach
    }

    /// Empty cells on every route from edge `axis` to edge `axis + 3` (placing a tile
    /// anywhere else cannot cut that route off), or nil when there is no route at all.
    ///
    /// One depth-first search (Hopcroft-Tarjan low points) from a virtual source joined
    /// to every cell touching the start edge, with a virtual sink joined to every cell
    /// touching the target edge: a cell separates them exactly when one of its search
    /// children has a low point no higher than the cell and holds the sink in its subtree.
    /// - Complexity: O(cells + links); no heap allocation.
    func essentialCells(axis: Int) -> CellSet? {
        essentialCellsAndWitness(axis: axis).map(\.essential)
    }

    /// ``essentialCells(axis:)``, with a witness when there are none: the cells of two
    /// routes that share no cell. A later placement off the witness leaves both routes
    /// standing (it only removes links to its own cell), so no cell becomes essential.
    func essentialCellsAndWitness(axis: Int) -> (essential: CellSet, witness: CellSet)? {
        let sources = touching(axis) & empty, targets = touching(axis &+ 3) & empty
        // Quick exit, the usual case on an open board: a shortest route, then a second
        // one that shares no cell with it.
        guard let first = shortestRoute(from: sources, to: targets, allowed: empty) else { return nil }
        let elsewhere = empty & ~first
        if let second = shortestRoute(from: sources & elsewhere, to: targets & elsewhere, allowed: elsewhere) {
            return (0, first | second)
        }
        return (separators(sources: sources, targets: targets), 0)
    }

    /// The cells of one shortest route from `sources` to `targets` within `allowed`.
    /// - Complexity: one breadth-first search and a walk back through its levels.
    func shortestRoute(from sources: CellSet, to targets: CellSet, allowed: CellSet) -> CellSet? {
        let levels = work
        var reached = sources & allowed, frontier = reached, depth = 0
        while frontier != 0 && frontier & targets == 0 && depth < cellCount {
            levels[depth] = frontier
            depth &+= 1
            var next: CellSet = 0
            var f = frontier
            while f != 0 { let x = f.trailingZeroBitCount; f &= f &- 1; next |= adjacency[x] }
            next &= allowed & ~reached
            reached |= next
            frontier = next
        }
        guard frontier & targets != 0 else { return nil }
        var cell = (frontier & targets).trailingZeroBitCount
        var route = CellSet(1) << cell
        var i = depth &- 1
        while i >= 0 {
            cell = (levels[i] & adjacency[cell]).trailingZeroBitCount
            route |= CellSet(1) << cell
            i &-= 1
        }
        return route
    }

    /// The exact search behind ``essentialCells(axis:)``.
    private func separators(sources: CellSet, targets: CellSet) -> CellSet {
        // Vertices: cells 0..<cellCount, the virtual sink, the virtual root.
        let sink = cellCount, root = cellCount &+ 1
        let stackRest = work
        return withUnsafeTemporaryAllocation(of: Int16.self, capacity: 5 &* (cellCount &+ 2)) { scratch in
            let n = cellCount &+ 2
            let disc = scratch.baseAddress!, low = disc + n, parent = disc + 2 &* n, stackVertex = disc + 3 &* n
            let flags = disc + 4 &* n  // bit 0: subtree holds the sink; bit 1: sink edge not yet followed
            var visited: CellSet = 0
            var sinkSeen = false
            var essential: CellSet = 0
            disc[root] = 0; low[root] = 0; parent[root] = -1; flags[root] = 0
            stackVertex[0] = Int16(root); stackRest[0] = sources
            var depth = 1
            var time: Int16 = 1
            while depth > 0 {
                let top = depth &- 1
                let v = Int(stackVertex[top])
                var next = -1
                if flags[v] & 2 != 0 {
                    flags[v] &= ~2
                    next = sink
                } else if stackRest[top] != 0 {
                    next = stackRest[top].trailingZeroBitCount
                    stackRest[top] &= stackRest[top] &- 1
                }
                if next >= 0 {
                    let seen = next == sink ? sinkSeen : visited & (CellSet(1) << next) != 0
                    if seen {
                        if next != Int(parent[v]) { low[v] = min(low[v], disc[next]) }
                        continue
                    }
                    // Discover `next` as a child of v.
                    disc[next] = time; low[next] = time; time &+= 1
                    parent[next] = Int16(v)
                    stackVertex[depth] = Int16(next)
                    if next == sink {
                        sinkSeen = true
                        flags[sink] = 1
                        stackRest[depth] = targets
                    } else {
                        let bit = CellSet(1) << next
                        visited |= bit
                        // A source cell also links back to the virtual source.
                        if v != root && sources & bit != 0 { low[next] = 0 }
                        stackRest[depth] = adjacency[next] & empty
                        flags[next] = targets & bit != 0 ? 2 : 0
                    }
                    depth &+= 1
                    continue
                }
                // v is finished: hand its low point to its parent; p separates v's
                // subtree from the root's side when v's low point is not above p.
                depth = top
                let p = Int(parent[v])
                guard p >= 0 else { break }
                low[p] = min(low[p], low[v])
                if flags[v] & 1 != 0 {
                    flags[p] |= 1
                    if p < cellCount && low[v] >= disc[p] { essential |= CellSet(1) << p }
                }
            }
            return sinkSeen ? essential : 0
        }
    }

}

/// The junction graph kept with a position and updated placement by placement, so a
/// turn does not rebuild it: placing a tile removes one junction and adds its links.
struct JunctionStore: Sendable {
    var adjacency = InlineArray<128, CellSet>(repeating: 0)
    var touching = InlineArray<6, CellSet>(repeating: 0)

    init() {}

    /// The graph of a position, built from scratch.
    init(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, empty: CellSet) {
        var store = JunctionStore()
        Junctions.build(t, cells, empty: empty) { graph in
            var rest = empty
            while rest != 0 {
                let c = rest.trailingZeroBitCount
                rest &= rest &- 1
                store.adjacency[c] = graph.adjacent(c)
            }
            for e in 0..<6 { store.touching[e] = graph.touching(e) }
        }
        self = store
    }

    /// The graph after a tile goes on empty `cell` with `links` (computed before the
    /// placement, from the cell's ends).
    /// - Complexity: O(junctions linked to `cell` + 3).
    mutating func place(cell: Int, links: borrowing Links) {
        let bit = CellSet(1) << cell
        withUnsafeMutableBytes(of: &adjacency) { raw in
            let adj = raw.bindMemory(to: CellSet.self)
            var linked = adj[cell]
            while linked != 0 {
                let x = linked.trailingZeroBitCount
                linked &= linked &- 1
                adj[x] &= ~bit
            }
            adj[cell] = 0
            links.forEach { x, y in
                guard x != cell, y != cell else { return }
                if x < Junctions.portBase && y < Junctions.portBase {
                    if x != y {
                        adj[x] |= CellSet(1) << y
                        adj[y] |= CellSet(1) << x
                    }
                }
            }
        }
        for e in 0..<6 { touching[e] &= ~bit }
        links.forEach { x, y in
            if x < Junctions.portBase && y >= Junctions.portBase { touching[y &- Junctions.portBase] |= CellSet(1) << x }
            if y < Junctions.portBase && x >= Junctions.portBase { touching[x &- Junctions.portBase] |= CellSet(1) << y }
        }
    }
}

/// What placing a tile on an empty cell does to the graph: the cell stops being a
/// junction and each of its channels links the two things at its ends. At most three
/// links; a link between two ports on opposite edges is a completed flow.
struct Links: ~Copyable {
    /// Link ends: a cell index, or `Junctions.portBase + edge`.
    private var a = InlineArray<3, Int16>(repeating: 0)
    private var b = InlineArray<3, Int16>(repeating: 0)
    /// The cell's sides the two ends are reached through.
    private var sideA = InlineArray<3, Int8>(repeating: 0)
    private var sideB = InlineArray<3, Int8>(repeating: 0)
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
                    sideA[count] = Int8(s)
                    sideB[count] = Int8(p)
                    count &+= 1
                    break
                }
                side = ends.entering[p]
                used |= 1 << side
            }
        }
    }

    /// Calls `body` with the two ends of each link.
    @inline(__always)
    func forEach(_ body: (Int, Int) -> Void) {
        for i in 0..<count { body(Int(a[i]), Int(b[i])) }
    }

    /// Calls `body` with the cell's two sides each link leaves by.
    @inline(__always)
    func forEachSides(_ body: (Int, Int) -> Void) {
        for i in 0..<count { body(Int(sideA[i]), Int(sideB[i])) }
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
