import LabCore

/// `reference`: the published implementation's one-ply AI, the documented Quortex CPU
/// (rule book, "The reference implementation's AI"). Deterministic.
///
/// Candidates (the published AI's filter): the legal placements on cells that are on the
/// start edge of some seat in play, next to a cell on such an edge, or next to an
/// occupied cell; a cell that is only next to another rim cell is not one. The rule book
/// says nothing of a position where the filter leaves no legal placement (the published
/// game has no pass); the mover must place, so the AI then scores every legal placement.
/// Score after the placement, for the AI: +100000 when its side is among the winners,
/// -200000 when anyone else wins; otherwise, with a = its shortest route (empty cells on
/// a route from its own edge to the opposite edge) and e = the smallest such route of
/// any other player (not team-aware): both infinite 0, a infinite -100000, e infinite
/// -75000, else -2a^2 + e^2, minus 50000 more when e = 1. Best score wins; ties go to
/// the lowest rotation, then the canonical cell order.
public final class QuortexReferenceAI: Strategy {
    public typealias G = QuortexGame

    public init() {}

    public func chooseAction(_ observation: QuortexObservation, legal: ActionBuffer) -> Int {
        let setup = observation.setup
        let board = setup.board
        let viewpoint = PlacementEffect.Viewpoint(observation)
        let type = Int(observation.tile)

        let allowedCells = observation.referenceCells
        var anyCandidate = false
        for i in 0..<legal.count where allowedCells & (CellSet(1) << (legal[i] / 6)) != 0 { anyCandidate = true; break }
        let filter = anyCandidate ? allowedCells : board.allCells

        return observation.withPosition { t, cells, empty in
            t.fitsOneWord ? Self.best(of: legal, filter: filter, type: type, t, cells, empty: empty, as: UInt64.self, setup: setup,
                                      viewpoint: viewpoint)
                : Self.best(of: legal, filter: filter, type: type, t, cells, empty: empty, as: CellSet.self, setup: setup,
                            viewpoint: viewpoint)
        }
    }

    /// The best-scoring placement of `legal` on the cells of `filter`, the graph's sets
    /// read as `S` (64 bits on a board that fits one word).
    @inline(__always)
    private static func best<S: CellBits>(of legal: ActionBuffer, filter: CellSet, type: Int, _ t: BoardTables,
                                          _ cells: UnsafePointer<UInt8>, empty: CellSet, as _: S.Type, setup: QuortexSetup,
                                          viewpoint: PlacementEffect.Viewpoint) -> Int {
        Junctions.build(t, cells, empty: empty, as: S.self) { graph in
            var best = legal[0]
            var bestScore = Int.min
            var bestKey = Int.max
            var endsCell = -1
            var ends = CellEnds(t, cells, cell: legal[0] / 6)
            for i in 0..<legal.count {
                let action = legal[i]
                let cell = action / 6, rotation = action % 6
                guard filter & (CellSet(1) << cell) != 0 else { continue }
                if cell != endsCell { ends = CellEnds(t, cells, cell: cell); endsCell = cell }
                let links = Links(cell: cell, code: type * 6 + rotation, ends: ends, partner: t.partner)
                let score = PlacementEffect.of(links, cell: cell, graph: graph, setup: setup, viewpoint: viewpoint).referenceScore
                let key = rotation * 128 + cell
                if score > bestScore || (score == bestScore && key < bestKey) {
                    best = action
                    bestScore = score
                    bestKey = key
                }
            }
            return best
        }
    }

    /// The evaluation of a non-winning position (nil = no route).
    public static func score(a: Int?, e: Int?) -> Int {
        switch (a, e) {
        case (nil, nil): return 0
        case (nil, _): return -100_000
        case (_, nil): return -75_000
        case let (a?, e?): return -2 * a * a + e * e - (e == 1 ? 50_000 : 0)
        }
    }
}

extension QuortexObservation {
    /// The cells the reference AI considers (the published AI's filter): on the start
    /// edge of a seat in play, or next to an occupied cell.
    var referenceCells: CellSet {
        let board = setup.board
        var near: CellSet = 0
        var occupied = occupied
        while occupied != 0 { near |= board.neighbourSets[occupied.trailingZeroBitCount]; occupied &= occupied &- 1 }
        return setup.referenceCandidateCells | near
    }

    @inline(__always)
    func withPosition<R>(_ body: (BoardTables, UnsafePointer<UInt8>, CellSet) -> R) -> R {
        QuortexBoard.withPosition(setup.board, cells: cells, occupied: occupied, body)
    }
}

/// What placing a tile on a cell does, as the reference AI measures it (and Quortex's
/// policy features, versions 3 and 4, describe each action by).
enum PlacementEffect {
    /// It completes a flow: the observer's side's (`mine`), another's (`other`), or both.
    case completes(mine: Bool, other: Bool)
    /// Otherwise a, the observer's shortest route after it, and e, the shortest of the other
    /// players' (empty cells on a route from the edge to the opposite edge; not team-aware);
    /// nil when there is none.
    case routes(a: Int?, e: Int?)

    /// The reference AI's score of the placement: +100000 when it completes the observer's
    /// flow, -200000 when it completes only another's, else ``QuortexReferenceAI/score(a:e:)``.
    var referenceScore: Int {
        switch self {
        case .completes(let mine, _): mine ? 100_000 : -200_000
        case .routes(let a, let e): QuortexReferenceAI.score(a: a, e: e)
        }
    }

    /// Whose effect: the observer's side, its edge's axis, and a bit per axis of the others.
    struct Viewpoint {
        let mySide: Int, myAxis: Int, otherAxes: Int

        init(_ observation: QuortexObservation) {
            let setup = observation.setup, me = observation.seat
            mySide = setup.sideOfSeat[me]
            myAxis = setup.edges[me] % 3
            var others = 0
            for s in 0..<setup.seatCount where s != me { others |= 1 << (setup.edges[s] % 3) }
            otherAxes = others
        }
    }

    /// The effect of `links` (the tile as placed on `cell`) from `viewpoint`.
    /// The graph's empty cells are the position's.
    static func of<S: CellBits>(_ links: borrowing Links, cell: Int, graph: JunctionGraph<S>, setup: QuortexSetup,
                                viewpoint: Viewpoint) -> PlacementEffect {
        let (mySide, myAxis, otherAxes) = (viewpoint.mySide, viewpoint.myAxis, viewpoint.otherAxes)
        let completed = links.completedAxes & setup.liveAxes
        if completed != 0 {
            var mine = false, other = false
            for side in setup.sideAxis.indices where completed & (1 << setup.sideAxis[side]) != 0 {
                if side == mySide { mine = true } else { other = true }
            }
            return .completes(mine: mine, other: other)
        }
        let allowed = graph.empty & ~S.bit(cell)
        let touching = links.cellsTouchingEdges()
        func route(_ axis: Int) -> Int? {
            graph.distance(from: graph.touching(axis) | S(truncatingIfNeeded: touching[axis]),
                           to: (graph.touching(axis + 3) | S(truncatingIfNeeded: touching[axis + 3])) & allowed,
                           allowed: allowed)
        }
        return graph.withLinks(links) {
            let a = route(myAxis)
            var e: Int?
            for axis in 0..<3 where otherAxes & (1 << axis) != 0 {
                let d = axis == myAxis ? a : route(axis)
                if let d, d < (e ?? .max) { e = d }
            }
            return .routes(a: a, e: e)
        }
    }
}
