import LabCore

/// Quortex's feature encoder (version 1): one seat's observation as numbers for a
/// learned value model. Everything in Quortex is public but the bag's order, which the
/// observation does not hold; the encoder reads the observation only.
///
/// Sides (a solo player or a team) are relative to the observer: "side +0" is its own,
/// then the others in side order after it, padded to 3 sides; seats likewise, padded to
/// 6. For a board of N cells the vector has 16N + 79 values, in this order:
/// 1. **Cells** (N × 16), seen from the observer's edge: the board is turned (one of its
///    12 rotations and reflections) so that the observer's edge is edge 0 and the next
///    seats' edges fall on the lowest numbers (seat 1 of a 2-player game, on edge 2, sees
///    the board mirrored so its opponent is on edge 2 too). Then in canonical cell order
///    of the turned board: empty (1/0), then the tile's channels as the 15 possible side
///    pairs {0,1}, {0,2}, ..., {4,5} of the turned board (1 for the three pairs the
///    placed tile joins). A tile type and rotation give exactly one such pattern, and
///    rotations that join the same pairs (the same move) give the same one. Every seat
///    thus sees its own position the same way, which halves what a model must learn.
/// 2. **Sides** (3 × 15): for sides +0..+2, in this order: present (1/0); still viable,
///    a route exists (1/0); the shortest route's empty cells [÷ (2R + 1), the empty
///    board's route] (the reference AI's measure; 2 when none); for each of its two edges
///    (edge a, then a + 3, for the side's axis a), the flow reach: how deep into the board
///    the flows entering from that edge's ports get through placed tiles, in rows
///    [(deepest row + 1) ÷ (2R + 1); 0 when no flow enters a tile], then the cells on
///    those flows [÷ N]; completed (1/0, only at the end); the route's count again,
///    one-hot over 1, 2, ..., 6 and 7 or more (all 0 when none), so each distance from
///    completing gets a weight of its own.
/// 3. **Drawn tile** (4): the type the mover holds, one-hot (all 0 when none).
/// 4. **Bag** (4): tiles of each type still in the bag [÷ that type's starting count].
/// 5. **Seats** (6 + 6 + 6 + 5): the observer's own seat number (0 moves first), one-hot;
///    the relative seat to move, one-hot; tiles placed by each relative seat [÷ N]; the
///    seat count (2-6), one-hot.
/// 6. **Clock** (3): turns played [÷ N]; the observer plays in a team (1/0); the
///    observer's edge's axis is shared with another solo seat (1/0).
public struct QuortexFeatures: FeatureEncoder {
    public typealias Observation = QuortexObservation

    public static let gameName = QuortexGame.name
    public static let featureVersion = 1
    static let sides = 3
    static let seats = 6
    static let perSide = 15

    public let board: QuortexBoard
    /// Whether the board is turned to the observer's edge (the value models' way); a
    /// policy's actions are ids of the board as it lies, so ``QuortexPolicyFeatures``
    /// leaves it unturned.
    let turned: Bool
    /// The board's 12 symmetries (6 rotations, each with or without a reflection): for
    /// symmetry g, side d goes to `sideMap[g][d]`, edge e to `edgeMap[g][e]` and cell c to
    /// `cellMap[g][c]`.
    let sideMap: [[Int]]
    let edgeMap: [[Int]]
    let cellMap: [[Int]]

    public init(board: QuortexBoard) { self.init(board: board, turned: true) }

    init(board: QuortexBoard, turned: Bool) {
        self.board = board
        self.turned = turned
        var sides: [[Int]] = [], edges: [[Int]] = [], cells: [[Int]] = []
        let step = HexSide.steps
        // Edge e owns the outward sides -e and -e - 1 (mod 6).
        func edgeOf(_ a: Int, _ b: Int) -> Int { (0..<6).first { e in Set([(6 - e) % 6, (11 - e) % 6]) == Set([a, b]) }! }
        for reflect in [false, true] {
            for shift in 0..<6 {
                let sigma = (0..<6).map { d in ((reflect ? 3 - d : d) + shift + 12) % 6 }
                // The linear map of the axial coordinates that takes step d to step sigma(d).
                let (r0, c0) = (-step[sigma[0]].row, -step[sigma[0]].col)
                let (r1, c1) = (-step[sigma[1]].row, -step[sigma[1]].col)
                for d in 0..<6 {
                    precondition(step[d].row * r0 + step[d].col * r1 == step[sigma[d]].row
                                 && step[d].row * c0 + step[d].col * c1 == step[sigma[d]].col, "not a hex symmetry")
                }
                sides.append(sigma)
                edges.append((0..<6).map { e in edgeOf(sigma[(6 - e) % 6], sigma[(11 - e) % 6]) })
                cells.append(board.cells.map { cell in
                    board.index(row: cell.row * r0 + cell.col * r1, col: cell.row * c0 + cell.col * c1)!
                })
            }
        }
        sideMap = sides
        edgeMap = edges
        cellMap = cells
    }

    /// The symmetry that turns the observer's edge to edge 0 and, among the two that do,
    /// the one that puts the next seats' edges (in seat order) on the lower numbers.
    func orientation(_ setup: QuortexSetup, observer: Int) -> Int {
        var best = 0
        var bestKey: [Int]? = nil
        for g in 0..<12 where edgeMap[g][setup.edges[observer]] == 0 {
            let key = (1..<setup.seatCount).map { edgeMap[g][setup.edges[(observer + $0) % setup.seatCount]] }
            if bestKey == nil || key.lexicographicallyPrecedes(bestKey!) {
                best = g
                bestKey = key
            }
        }
        return best
    }

    var cellCount: Int { board.cells.count }
    public var featureCount: Int { 16 * cellCount + 79 }
    public var layoutKey: String { "radius=\(board.radius) cells=\(cellCount)" }

    /// The 15 side pairs in order, and the index of each pair (a * 6 + b, a < b).
    static let pairs: [(Int, Int)] = (0..<6).flatMap { a in (a + 1..<6).map { (a, $0) } }
    static let pairIndex: [Int] = {
        var table = [Int](repeating: -1, count: 36)
        for (i, p) in pairs.enumerated() { table[p.0 * 6 + p.1] = i; table[p.1 * 6 + p.0] = i }
        return table
    }()

    public var featureNames: [String] {
        var names: [String] = []
        for c in 0..<cellCount {
            let cell = board.name(c)
            names.append("cell\(cell).empty")
            names += Self.pairs.map { "cell\(cell).pair\($0.0)\($0.1)" }
        }
        for s in 0..<Self.sides {
            names += ["side+\(s).present", "side+\(s).viable", "side+\(s).route", "side+\(s).reachA", "side+\(s).flowCellsA",
                      "side+\(s).reachB", "side+\(s).flowCellsB", "side+\(s).completed",
                     ] + (1...7).map { "side+\(s).routeIs\($0)" }
        }
        names += (0..<4).map { "drawn.type\($0)" } + (0..<4).map { "bag.type\($0)" }
        names += (0..<Self.seats).map { "seat\($0)" } + (0..<Self.seats).map { "toMove.seat+\($0)" } + (0..<Self.seats).map { "placed.seat+\($0)" }
        names += (2...6).map { "seats.\($0)" }
        names += ["turn", "inTeam", "sharedAxis"]
        return names
    }

    public func encode(_ o: QuortexObservation, into f: UnsafeMutableBufferPointer<Float>) {
        precondition(f.count == featureCount, "quortex features: \(featureCount) values, buffer holds \(f.count)")
        let setup = o.setup
        precondition(setup.board === board, "quortex features: the observation is of another board")
        let n = cellCount
        let nf = Float(n)
        let rows = Float(2 * board.radius + 1)
        for i in 0..<f.count { f[i] = 0 }
        var at = 0
        // 1. Cells, seen from the observer's edge (turned to edge 0).
        let g = turned ? orientation(setup, observer: o.seat) : 0
        let sigma = sideMap[g], image = cellMap[g]
        for c in 0..<n {
            let code = o.cells[c]
            let block = at + 16 * image[c]
            if code == QuortexState.emptyCell {
                f[block] = 1
            } else {
                for side in 0..<6 {
                    let other = QuortexTile.partner[Int(code) * 6 + side]
                    if side < other { f[block + 1 + Self.pairIndex[sigma[side] * 6 + sigma[other]]] = 1 }
                }
            }
        }
        at += 16 * n
        // 2. Sides.
        let me = o.seat
        let mySide = setup.sideOfSeat[me]
        let sideCount = setup.sideAxis.count
        o.withPosition { t, cells, empty in
            Junctions.build(t, cells, empty: empty) { graph in
                for k in 0..<min(Self.sides, sideCount) {
                    let side = (mySide + k) % sideCount
                    let axis = setup.sideAxis[side]
                    let base = at + k * Self.perSide
                    f[base] = 1
                    let route = graph.distance(from: graph.touching(axis), to: graph.touching(axis + 3), allowed: empty)
                    f[base + 1] = route == nil ? 0 : 1
                    f[base + 2] = route.map { Float($0) / rows } ?? 2
                    for (j, edge) in [axis, axis + 3].enumerated() {
                        let (deepest, flowCells) = Self.flowReach(t, cells, board: board, from: edge)
                        f[base + 3 + 2 * j] = deepest < 0 ? 0 : Float(deepest + 1) / Float(2 * board.radius + 1)
                        f[base + 4 + 2 * j] = Float(flowCells) / nf
                    }
                    f[base + 7] = o.winners & (1 << side) != 0 ? 1 : 0
                    if let route { f[base + 8 + min(route, 7) - 1] = 1 }
                }
            }
        }
        at += Self.sides * Self.perSide
        // 3. Drawn tile; 4. bag.
        if o.tile >= 0 { f[at + Int(o.tile)] = 1 }
        at += 4
        for type in 0..<4 { f[at + type] = Float(o.remaining[type]) / Float(max(1, setup.bag[type])) }
        at += 4
        // 5. Seats.
        let seatCount = setup.seatCount
        f[at + me] = 1
        at += Self.seats
        if !o.isOver { f[at + (setup.turnOrder[Int(o.slot)] - me + seatCount) % seatCount] = 1 }
        at += Self.seats
        for k in 0..<min(Self.seats, seatCount) { f[at + k] = Float(o.placedBySeat[(me + k) % seatCount]) / nf }
        at += Self.seats
        f[at + seatCount - 2] = 1
        at += 5
        // 6. Clock.
        f[at] = Float(o.turns) / nf
        f[at + 1] = setup.seats(ofSide: mySide).count > 1 ? 1 : 0
        f[at + 2] = (0..<sideCount).contains { $0 != mySide && setup.sideAxis[$0] == setup.sideAxis[mySide] } ? 1 : 0
        at += 3
        precondition(at == featureCount, "quortex features: wrote \(at) values")
    }

    /// How far the flows entering from `edge`'s ports get through placed tiles: the
    /// deepest row reached, counted from the edge (0: its own rim row; -1: no flow
    /// enters a tile), and the number of distinct cells on those flows.
    static func flowReach(_ t: BoardTables, _ cells: UnsafePointer<UInt8>, board: QuortexBoard, from edge: Int) -> (deepest: Int, cells: Int) {
        var seen: CellSet = 0
        var deepest = -1
        var rim = board.edgeCells[edge]
        while rim != 0 {
            let start = rim.trailingZeroBitCount
            rim &= rim &- 1
            for d in 0..<6 where Int(t.port[start &* 6 &+ d]) == edge {
                var c = start, entering = d
                while cells[c] != QuortexState.emptyCell {
                    seen |= CellSet(1) << c
                    deepest = max(deepest, depth(board, cell: c, from: edge))
                    let exit = Int(t.partner[Int(cells[c]) &* 6 &+ entering])
                    let next = Int(t.neighbour[c &* 6 &+ exit])
                    if next < 0 { break }
                    c = next
                    entering = exit < 3 ? exit + 3 : exit - 3
                }
            }
        }
        return (deepest, seen.nonzeroBitCount)
    }

    /// Rows between `cell` and board edge `edge` (0 on the edge's rim, 2R across).
    static func depth(_ board: QuortexBoard, cell: Int, from edge: Int) -> Int {
        let (row, col) = board.cells[cell]
        let r = board.radius
        switch edge {
        case 0: return row + r
        case 1: return r - col
        case 2: return r - (row + col)
        case 3: return r - row
        case 4: return col + r
        default: return row + col + r
        }
    }
}

extension QuortexObservation {
    /// Whether the match is over (no mover).
    var isOver: Bool { reason != .none }
}

/// The input of a learned Quortex policy-value model (version 4): ``QuortexFeatures`` with
/// the board as it lies, not turned to the observer's edge, then features of every action.
///
/// A policy's logits are over the game's action ids (cell and rotation on the board as it
/// lies); on a turned board, the same input would ask seat 0 and seat 1 for mirrored ids.
/// The rest of the position (sides, tile, bag, seats, clock) is as in version 1, relative
/// to the observer.
///
/// Then, for each action id (cell × 6 + rotation, in order), 10 values describing the
/// drawn tile placed there, as the reference AI measures a placement: it completes the
/// observer's flow (1/0); it completes another's (1/0); with a the observer's shortest
/// route after it and e the shortest of the others' (empty cells, as in version 1),
/// 1/(1 + a) and 1/(1 + e) (0 when there is none); e = 1 (1/0); a none (1/0); e none
/// (1/0); (e² − 2a²) / (2 (2R + 1)²) when both exist (the reference's score, scaled);
/// then, new in version 4, the reference AI's own verdict: 1 when the reference scores
/// the placement highest (among the cells it considers, and every side keeping a route
/// unless the placement completes a flow: with two seats, exactly the legal placements),
/// and the placement's score below that best [÷ 64, at most 1; 0 on a cell the reference
/// does not consider]. A head with one weight
/// per action feature can thus start from the reference's choice (version 3's scaled
/// score differed by a hundredth between neighbouring placements: a policy imitating the
/// reference from 147,000 of its moves won 26 % of its matches against it).
/// All 0 for an occupied cell, when no tile is drawn, or when the match is over. A
/// network adds their product with one weight vector to every action's logit
/// (``FeatureEncoder/actionFeatures``): it scores each placement by what it does, where a
/// head over action ids cannot generalise from one cell to another (measured: imitating
/// the reference from 147,000 of its moves, a policy without these features won 4 % of
/// its matches against it).
public struct QuortexPolicyFeatures: FeatureEncoder {
    public typealias Observation = QuortexObservation

    public static let gameName = QuortexGame.name
    public static let featureVersion = 4
    static let perAction = 10

    let base: QuortexFeatures

    public init(board: QuortexBoard) { base = QuortexFeatures(board: board, turned: false) }

    public var featureCount: Int { base.featureCount + base.cellCount * 6 * Self.perAction }
    public var actionFeatures: Int { Self.perAction }
    /// One tile code a cell and a few placements of one tile: about 1 feature in 6 is set.
    public var sparseInput: Bool { true }
    public var layoutKey: String { base.layoutKey }
    public var featureNames: [String] {
        base.featureNames + (0..<base.cellCount).flatMap { c in
            (0..<6).flatMap { r in
                ["mineCompletes", "otherCompletes", "myRoute", "otherRoute", "otherOneAway", "myRouteNone", "otherRouteNone", "referenceScore",
                 "referenceBest", "belowReferenceBest"]
                    .map { "action\(base.board.name(c))r\(r).\($0)" }
            }
        }
    }

    public func encode(_ observation: QuortexObservation, into features: UnsafeMutableBufferPointer<Float>) {
        let actions = encodeBase(base, observation, into: features)
        guard observation.tile >= 0, !observation.isOver else { return }
        encodeActions(observation, into: actions)
    }

    /// The values of each placement of the drawn tile on each empty cell.
    private func encodeActions(_ o: QuortexObservation, into f: UnsafeMutableBufferPointer<Float>) {
        let setup = o.setup
        let viewpoint = PlacementEffect.Viewpoint(o)
        let type = Int(o.tile)
        let rows = Float(2 * base.board.radius + 1)
        let k = Self.perAction
        let considered = o.referenceCells
        // A rotation equivalent to a lower one places the same channels: its values are
        // that one's, copied rather than searched again.
        var canonical = InlineArray<6, Int>(repeating: 0)
        for rotation in 0..<6 { canonical[rotation] = QuortexTile.canonicalRotations[type * 6 + rotation] }
        // The reference's score of every placement (nil: not one it may choose), for its verdict.
        withUnsafeTemporaryAllocation(of: Int?.self, capacity: base.cellCount * 6) { scores in
            scores.initialize(repeating: nil)
            o.withPosition { t, cells, empty in Junctions.build(t, cells, empty: empty) { graph in
                var open = empty
                while open != 0 {
                    let cell = open.trailingZeroBitCount
                    open &= open &- 1
                    let ends = CellEnds(t, cells, cell: cell)
                    for rotation in 0..<6 {
                        let at = (cell * 6 + rotation) * k
                        let same = canonical[rotation]
                        if same != rotation {
                            let from = (cell * 6 + same) * k
                            for i in 0..<k { f[at + i] = f[from + i] }
                            scores[cell * 6 + rotation] = scores[cell * 6 + same]
                            continue
                        }
                        let links = Links(cell: cell, code: type * 6 + rotation, ends: ends, partner: t.partner)
                        let a: Int?, e: Int?
                        let effect = PlacementEffect.of(links, cell: cell, graph: graph, setup: setup, viewpoint: viewpoint)
                        switch effect {
                        case .completes(let mine, let other):
                            if mine { f[at] = 1 }
                            if other { f[at + 1] = 1 }
                            scores[cell * 6 + rotation] = effect.referenceScore
                            continue
                        case .routes(let routeA, let routeE):
                            (a, e) = (routeA, routeE)
                        }
                        if let a { f[at + 2] = 1 / Float(1 + a) } else { f[at + 5] = 1 }
                        if let e { f[at + 3] = 1 / Float(1 + e) } else { f[at + 6] = 1 }
                        if e == 1 { f[at + 4] = 1 }
                        if let a, let e {
                            f[at + 7] = Float(e * e - 2 * a * a) / (2 * rows * rows)
                            scores[cell * 6 + rotation] = effect.referenceScore
                        }
                    }
                }
            } }
            Self.writeVerdict(scores, considered: considered, perAction: k, into: f)
        }
    }

    /// The reference's verdict (the last two values of each placement) from its scores:
    /// the best among the cells it considers, or among all when none of those has a
    /// placement it may choose.
    private static func writeVerdict(_ scores: UnsafeMutableBufferPointer<Int?>, considered: CellSet, perAction k: Int,
                                     into f: UnsafeMutableBufferPointer<Float>) {
        var best = Int.min, bestAnywhere = Int.min
        for id in scores.indices {
            guard let score = scores[id] else { continue }
            bestAnywhere = max(bestAnywhere, score)
            if considered & (CellSet(1) << (id / 6)) != 0 { best = max(best, score) }
        }
        let filter = best > Int.min
        if !filter { best = bestAnywhere }
        guard best > Int.min else { return }
        for id in scores.indices {
            guard let score = scores[id], !filter || considered & (CellSet(1) << (id / 6)) != 0 else { continue }
            let at = id * k
            if score == best { f[at + 8] = 1 }
            f[at + 9] = Float(min(best - score, 64)) / 64
        }
    }

}
