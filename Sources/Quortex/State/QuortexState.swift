import LabCore

/// One Quortex match in progress: the board, the drawn tile, the bag (its order is the
/// only hidden part) and whose turn it is. A value type of fixed size.
public struct QuortexState: GameState {
    public typealias Observation = QuortexObservation

    public let setup: QuortexSetup
    /// Tile code (`type * 6 + rotation`) of each cell in canonical order, or `emptyCell`.
    @usableFromInline var cells = InlineArray<128, UInt8>(repeating: QuortexState.emptyCell)
    @usableFromInline var occupied: CellSet = 0
    /// The shuffled bag; the next tile is `bag[bagCount - 1]`.
    var bag = InlineArray<256, UInt8>(repeating: 0)
    var bagCount: Int16 = 0
    /// Tiles of each type still in the bag (public: the mix and the draws are).
    @usableFromInline var remaining = InlineArray<4, UInt8>(repeating: 0)
    /// The tile the mover drew, or -1 once the match is over before a draw.
    @usableFromInline var tile: Int8 = -1
    /// Position in ``QuortexSetup/turnOrder``.
    @usableFromInline var slot: Int8 = 0
    @usableFromInline var turns: Int32 = 0
    @usableFromInline var placedBySeat = InlineArray<6, UInt8>(repeating: 0)
    /// Who placed each cell's tile (public): bit k of the seat number, one plane per bit.
    @usableFromInline var placers = InlineArray<3, CellSet>(repeating: 0)
    /// Winning sides, one bit each.
    @usableFromInline var winners: UInt8 = 0
    @usableFromInline var reason = QuortexEndReason.none
    /// Per axis, the empty cells every route needs (derived from the board at the draw).
    var essential = InlineArray<3, CellSet>(repeating: 0)
    /// The junction graph of the board, kept up to date placement by placement (the
    /// empty board's until a deal or a sample builds it).
    var graph: JunctionStore
    /// Per axis, two routes sharing no cell, found when it had no essential cell (0: none
    /// known): proof that no cell is essential until a placement lands on one.
    var witnessA = InlineArray<3, CellSet>(repeating: 0)
    var witnessB = InlineArray<3, CellSet>(repeating: 0)
    /// Cells placed since the last analysis.
    var placedSinceAnalysis: CellSet = 0
    /// Per rotation, the cells where the drawn tile may go (derived at the draw; only
    /// distinct rotations are set).
    @usableFromInline var legalCells = InlineArray<6, CellSet>(repeating: 0)
    /// Essential cells whose rotations are not worked out yet (their `legalCells` bits
    /// still 0): only in a random playout's states, whose turns work out a cell when a
    /// draw lands on it (``applyRandomAction(using:buffer:)``); otherwise 0.
    @usableFromInline var unchecked: CellSet = 0

    static let emptyCell: UInt8 = 0xFF

    /// Deals a match: shuffle the bag, then seat 0 draws (rule book, "A turn").
    init(setup: QuortexSetup, seed: UInt64) {
        // Not `self.init(setup:)`: a delegating initialiser built the state in a temporary
        // and copied its 4,464 bytes about four times on the way out.
        self.setup = setup
        graph = setup.board.emptyGraph
        for type in 0..<4 { remaining[type] = UInt8(setup.bag[type]) }
        var rng = LabRandom(seed: seed)
        shuffleRemainingIntoBag(using: &rng)
        // The empty board's routes for every live axis, found once per board: the first
        // analysis then searches only an axis without two disjoint routes.
        for axis in 0..<3 where setup.liveAxes & (1 << axis) != 0 {
            (witnessA[axis], witnessB[axis]) = setup.board.emptyWitnesses[axis]
        }
        startTurn()
    }

    /// An empty board with nothing dealt (the deal and the sampler fill it in).
    init(setup: QuortexSetup) {
        self.setup = setup
        graph = setup.board.emptyGraph
    }

    /// Puts the `remaining` tiles into the bag in a uniformly random order.
    mutating func shuffleRemainingIntoBag(using rng: inout LabRandom) {
        var n = 0
        for type in 0..<4 { for _ in 0..<Int(remaining[type]) { bag[n] = UInt8(type); n += 1 } }
        var i = n - 1
        while i > 0 { bag.swapAt(i, rng.uniform(i + 1)); i -= 1 }
        bagCount = Int16(n)
    }

    // MARK: GameState

    public var seatCount: Int { setup.seatCount }
    @inlinable public var currentSeat: Int { setup.turnOrder[Int(slot)] }
    @inlinable public var isTerminal: Bool { reason != .none }
    public var turn: Int { Int(turns) }
    public var actionSpaceSize: Int { setup.board.cells.count * 6 }

    @inlinable
    public func observation(for seat: Int) -> QuortexObservation {
        // Field by field: passing the whole state to an initialiser copies it first.
        QuortexObservation(seat: seat, setup: setup, cells: cells, occupied: occupied, remaining: remaining, tile: tile, slot: slot,
                           turns: turns, placedBySeat: placedBySeat, placers: placers, winners: winners, reason: reason)
    }

    /// Makes `observation` ``observation(for:)`` of `seat` where it lies (the play loop
    /// keeps one a match): the fields are copied in, and the setup, a shared reference, is
    /// kept; an observation of another setup is made afresh.
    public mutating func observe(_ seat: Int, into observation: inout QuortexObservation) {
        guard observation.setup === setup else {
            observation = self.observation(for: seat)
            return
        }
        observation.seatNumber = seat
        observation.cells = cells
        observation.occupied = occupied
        observation.remaining = remaining
        observation.tile = tile
        observation.slot = slot
        observation.turns = turns
        observation.placedBySeat = placedBySeat
        observation.placers = placers
        observation.winners = winners
        observation.reason = reason
    }

    public var outcome: Outcome? {
        guard isTerminal else { return nil }
        let keys = (0..<seatCount).map { winners & (1 << setup.sideOfSeat[$0]) != 0 ? 1 : 0 }
        return Outcome(places: Outcome.places(fromKeys: keys), endReason: reason.name, turns: turn)
    }

    /// Terminal: 1/k when the seat's side is among k winning seats, else 0. Before: the
    /// seat's share of 1/d over the seats, d being the empty cells its side's shortest
    /// route still needs (the reference AI's measure): the closer to a flow, the larger.
    /// - Complexity: one junction graph and one search per seat.
    public func searchValue(of seat: Int) -> Double {
        guard isTerminal else {
            return withUnsafeTemporaryAllocation(of: Double.self, capacity: seatCount) { values in
                estimates(into: values)
                return values[seat]
            }
        }
        var firsts = 0
        for s in 0..<seatCount where winners & (1 << setup.sideOfSeat[s]) != 0 { firsts += 1 }
        return winners & (1 << setup.sideOfSeat[seat]) != 0 ? 1 / Double(firsts) : 0
    }

    /// Every seat's ``searchValue(of:)`` with one route search a seat.
    public func searchValues(into values: inout [Double]) {
        if isTerminal {
            for seat in 0..<seatCount { values[seat] = searchValue(of: seat) }
        } else {
            values.withUnsafeMutableBufferPointer { estimates(into: $0) }
        }
    }

    /// ``searchValues(into:)`` reading the kept junction graph where it lies (no copy).
    public mutating func searchValuesInPlace(into values: inout [Double]) {
        guard !isTerminal else { return searchValues(into: &values) }
        let (setup, occupied) = (setup, occupied)
        values.withUnsafeMutableBufferPointer { Self.estimates(&graph, setup: setup, occupied: occupied, into: $0) }
    }

    /// The estimate of a running match: each seat's 1 / (empty cells on its shortest
    /// route) (0.001 without one), as a share of the seats' total.
    /// - Complexity: a copy of the kept junction graph (reading a field of the borrowed
    ///   state copies it anyway; not a rebuild) and one search a seat.
    private func estimates(into values: UnsafeMutableBufferPointer<Double>) {
        var kept = graph
        Self.estimates(&kept, setup: setup, occupied: occupied, into: values)
    }

    /// The estimates on junction graph `store`, searched where it lies.
    private static func estimates(_ store: inout JunctionStore, setup: QuortexSetup, occupied: CellSet,
                                  into values: UnsafeMutableBufferPointer<Double>) {
        let empty = setup.board.allCells & ~occupied
        store.withGraph(cells: setup.board.tables.cellCount, empty: empty) { graph, _ in
            var total = 0.0
            for s in 0..<setup.seatCount {
                let axis = setup.edges[s] % 3
                let d = graph.distance(from: graph.touching(axis), to: graph.touching(axis + 3) & empty, allowed: empty)
                values[s] = d.map { 1 / Double(max($0, 1)) } ?? 0.001
                total += values[s]
            }
            for s in 0..<setup.seatCount { values[s] /= total }
        }
    }

    public static let seatStatNames = ["tiles_placed"]
    public func seatStats(_ seat: Int) -> [Int] { [Int(placedBySeat[seat])] }

    // MARK: Public figures

    /// The drawn tile's type, or nil when the match ended before a draw.
    public var drawnTile: Int? { tile < 0 ? nil : Int(tile) }
    /// The tile the mover drew (its type + 1; 0 when none): the draw a search keeps apart.
    public var chanceOutcome: Int { Int(tile) + 1 }
    public var endReason: QuortexEndReason { reason }
    /// Tile code on `cell` (type * 6 + rotation), or nil when empty.
    public func tileCode(at cell: Int) -> Int? { cells[cell] == Self.emptyCell ? nil : Int(cells[cell]) }
    /// The seat that placed the tile on `cell`, or nil when it is empty.
    public func placer(of cell: Int) -> Int? {
        guard occupied & (CellSet(1) << cell) != 0 else { return nil }
        var seat = 0
        for bit in 0..<3 where placers[bit] & (CellSet(1) << cell) != 0 { seat |= 1 << bit }
        return seat
    }

    /// The cells whose tiles `seat` placed.
    /// - Complexity: O(1).
    @inline(__always)
    public func cells(placedBy seat: Int) -> CellSet {
        var set = occupied
        for bit in 0..<3 { set &= seat & (1 << bit) != 0 ? placers[bit] : ~placers[bit] }
        return set
    }

    /// Records that `seat` placed the tile on `cell`.
    @inlinable
    mutating func markPlacer(_ seat: Int, cell: Int) {
        for bit in 0..<3 where seat & (1 << bit) != 0 { placers[bit] |= CellSet(1) << cell }
    }
    public var tilesInBag: Int { Int(bagCount) }
    /// Sides that won (bit per side).
    public var winningSides: Int { Int(winners) }
    public var board: QuortexBoard { setup.board }
}

extension QuortexState {
    /// Builds the junction graph from the board (after a deal, a sample or a test set-up).
    mutating func rebuildGraph() {
        let empty = setup.board.allCells & ~occupied
        let t = setup.board.tables
        withUnsafeBytes(of: cells) { raw in
            graph.rebuild(t, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), empty: empty)
        }
        witnessA = InlineArray(repeating: 0)
        witnessB = InlineArray(repeating: 0)
    }

    /// Action code of placing the drawn tile on `cell` at `rotation`.
    @inlinable public static func action(cell: Int, rotation: Int) -> Int { cell * 6 + rotation }
}
