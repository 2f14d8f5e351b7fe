import LabCore

/// The six sides of a hex cell and the direction across each (rule book, "Board").
/// Side d of a cell faces side d + 3 of the neighbour across it.
public enum HexSide {
    /// (row, col) steps: 0 SW (-1, 0); 1 W (0, -1); 2 NW (+1, -1); 3 NE (+1, 0);
    /// 4 E (0, +1); 5 SE (-1, +1).
    public static let steps: [(row: Int, col: Int)] = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)]
    public static let names = ["SW", "W", "NW", "NE", "E", "SE"]

    @inlinable public static func opposite(_ side: Int) -> Int { (side + 3) % 6 }
}

/// A set of cells as a fixed-size bitset (board cells in canonical order, at most 128).
public typealias CellSet = UInt128

/// Board geometry of radius R, built once and shared read-only: cells in canonical
/// order, neighbour and port tables (rule book, "Board" and "Board edges and their ports").
public final class QuortexBoard: Sendable {
    public let radius: Int
    /// Cells in canonical order: row ascending from -R to R, then col ascending.
    public let cells: [(row: Int, col: Int)]
    /// `neighbour[cell * 6 + side]`: the cell across `side`, or -1 off the board.
    public let neighbour: [Int]
    /// `portEdge[cell * 6 + side]`: the board edge owning that rim side, or -1.
    public let portEdge: [Int]
    /// Cells with a rim side owned by each edge.
    public let edgeCells: [CellSet]
    /// Cells on any board edge.
    public let rimCells: CellSet
    /// Neighbours of each cell as a set.
    public let neighbourSets: [CellSet]
    public let allCells: CellSet
    /// The same tables as raw pointers for the hot loops (allocated once, freed in deinit).
    let tables: BoardTables
    /// The junction graph of the empty board, copied into every new match.
    let emptyGraph: JunctionStore
    /// Per axis, the two cell-disjoint routes the first turn's legality analysis finds on
    /// the empty board (`Junctions.essentialCellsAndWitness`), or (0, 0) when every
    /// route shares a cell: a new match starts from them, as if it had searched.
    let emptyWitnesses: InlineArray<3, (CellSet, CellSet)>

    /// The largest radius the fixed-size bitsets hold (127 cells).
    public static let maxRadius = 6

    /// Cells of a board of radius `radius`: 1 + 3R(R + 1).
    public static func cellCount(radius: Int) -> Int { 1 + 3 * radius * (radius + 1) }

    public init(radius: Int) {
        precondition((1...Self.maxRadius).contains(radius), "radius out of range")
        self.radius = radius
        var cells: [(row: Int, col: Int)] = []
        for row in -radius...radius {
            for col in -radius...radius where abs(row + col) <= radius {
                cells.append((row, col))
            }
        }
        self.cells = cells
        func index(_ row: Int, _ col: Int) -> Int {
            cells.firstIndex { $0.row == row && $0.col == col } ?? -1
        }
        var neighbour = [Int](repeating: -1, count: cells.count * 6)
        for (c, cell) in cells.enumerated() {
            for d in 0..<6 {
                neighbour[c * 6 + d] = index(cell.row + HexSide.steps[d].row, cell.col + HexSide.steps[d].col)
            }
        }
        self.neighbour = neighbour

        // Edge membership and outward sides (rule book): e0 row=-R {SW, SE}; e1 col=+R
        // {SE, E}; e2 row+col=+R {E, NE}; e3 row=+R {NW, NE}; e4 col=-R {W, NW};
        // e5 row+col=-R {SW, W}. A side outward for edges k and k+1 goes to k+1.
        let outward: [[Int]] = [[0, 5], [5, 4], [4, 3], [2, 3], [1, 2], [0, 1]]
        func onEdge(_ e: Int, _ cell: (row: Int, col: Int)) -> Bool {
            switch e {
            case 0: cell.row == -radius
            case 1: cell.col == radius
            case 2: cell.row + cell.col == radius
            case 3: cell.row == radius
            case 4: cell.col == -radius
            default: cell.row + cell.col == -radius
            }
        }
        var portEdge = [Int](repeating: -1, count: cells.count * 6)
        var edgeCells = [CellSet](repeating: 0, count: 6)
        for (c, cell) in cells.enumerated() {
            for d in 0..<6 where neighbour[c * 6 + d] < 0 {
                let claims = (0..<6).filter { onEdge($0, cell) && outward[$0].contains(d) }
                precondition(!claims.isEmpty && claims.count <= 2, "rim side without an edge")
                // Two claims are neighbouring edges k and k+1: the side goes to k+1.
                let owner = claims.count == 1 || (claims[1] + 1) % 6 == claims[0] ? claims[0] : claims[1]
                portEdge[c * 6 + d] = owner
                edgeCells[owner] |= CellSet(1) << c
            }
        }
        self.portEdge = portEdge
        self.edgeCells = edgeCells
        rimCells = edgeCells.reduce(0, |)
        neighbourSets = (0..<cells.count).map { c in
            (0..<6).reduce(CellSet(0)) { set, d in neighbour[c * 6 + d] >= 0 ? set | CellSet(1) << neighbour[c * 6 + d] : set }
        }
        allCells = cells.count == 128 ? .max : (CellSet(1) << cells.count) - 1
        tables = BoardTables(neighbour: neighbour, portEdge: portEdge, neighbourSets: neighbourSets, cellCount: cells.count)
        let noTiles = [UInt8](repeating: QuortexState.emptyCell, count: cells.count)
        emptyGraph = noTiles.withUnsafeBufferPointer { [tables, allCells] in JunctionStore(tables, $0.baseAddress!, empty: allCells) }
        var graph = emptyGraph
        var witnesses = InlineArray<3, (CellSet, CellSet)>(repeating: (0, 0))
        graph.withGraph(cells: cells.count, empty: allCells) { junctions, _ in
            for axis in 0..<3 {
                if let found = junctions.essentialCellsAndWitness(axis: axis) { witnesses[axis] = found.routes }
            }
        }
        emptyWitnesses = witnesses
    }

    deinit { tables.free() }

    /// Index of cell (row, col), or nil off the board.
    public func index(row: Int, col: Int) -> Int? {
        cells.firstIndex { $0.row == row && $0.col == col }
    }

    /// The ports of `edge` as (cell, side) pairs in canonical cell order.
    public func ports(of edge: Int) -> [(cell: Int, side: Int)] {
        var out: [(cell: Int, side: Int)] = []
        for c in cells.indices { for d in 0..<6 where portEdge[c * 6 + d] == edge { out.append((c, d)) } }
        return out
    }

    /// Runs `body` with the tables, a pointer to a board's cells and its empty set.
    @inline(__always)
    static func withPosition<R>(_ board: QuortexBoard, cells: InlineArray<128, UInt8>, occupied: CellSet,
                                _ body: (BoardTables, UnsafePointer<UInt8>, CellSet) -> R) -> R {
        let empty = board.allCells & ~occupied
        let tables = board.tables
        return withUnsafeBytes(of: cells) { raw in
            body(tables, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), empty)
        }
    }

    /// `(-3,3)` style name of a cell.
    public func name(_ cell: Int) -> String { "(\(cells[cell].row),\(cells[cell].col))" }
}

/// Neighbour, port and channel tables as raw pointers: read in the legality search
/// without retains, copies or bounds checks.
struct BoardTables: @unchecked Sendable {
    // Immutable after init; owned by the board, which frees them.
    let neighbour: UnsafeMutablePointer<Int16>
    let port: UnsafeMutablePointer<Int8>
    let partner: UnsafeMutablePointer<UInt8>
    /// `partnerMask[code * 64 + sides]`: the sides tile `code` joins to a set of sides.
    let partnerMask: UnsafeMutablePointer<UInt8>
    /// Neighbours of each cell as a set.
    let neighbourSets: UnsafeMutablePointer<CellSet>
    /// Edges owning a rim side of each cell, one bit per edge.
    let rimEdges: UnsafeMutablePointer<UInt8>
    let cellCount: Int

    /// Whether the board's cell sets fit one 64-bit word (radius 4 and less): the turn's
    /// searches then read them as `UInt64` (``CellBits``) instead of ``CellSet``.
    @inline(__always) var fitsOneWord: Bool { cellCount <= UInt64.bitWidth }

    init(neighbour n: [Int], portEdge: [Int], neighbourSets sets: [CellSet], cellCount: Int) {
        self.cellCount = cellCount
        neighbour = .allocate(capacity: n.count)
        port = .allocate(capacity: n.count)
        partner = .allocate(capacity: QuortexTile.partner.count)
        partnerMask = .allocate(capacity: 24 * 64)
        neighbourSets = .allocate(capacity: cellCount)
        rimEdges = .allocate(capacity: cellCount)
        for c in 0..<cellCount {
            neighbourSets[c] = sets[c]
            rimEdges[c] = 0
            for d in 0..<6 where portEdge[c * 6 + d] >= 0 { rimEdges[c] |= UInt8(1) << portEdge[c * 6 + d] }
        }
        for i in n.indices {
            neighbour[i] = Int16(n[i])
            port[i] = Int8(portEdge[i])
        }
        for i in QuortexTile.partner.indices { partner[i] = UInt8(QuortexTile.partner[i]) }
        for code in 0..<24 {
            for sides in 0..<64 {
                var mask = 0
                for d in 0..<6 where sides & (1 << d) != 0 { mask |= 1 << QuortexTile.partner[code * 6 + d] }
                partnerMask[code * 64 + sides] = UInt8(mask)
            }
        }
    }

    func free() {
        neighbour.deallocate()
        port.deallocate()
        partner.deallocate()
        partnerMask.deallocate()
        neighbourSets.deallocate()
        rimEdges.deallocate()
    }
}
