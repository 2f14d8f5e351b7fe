import LabCore
import Quortex
import Testing

/// The Quortex feature encoder (``QuortexFeatures``, version 1). Expected values come from
/// the rule book's tile table, a plain route search (``RuleBookOracle``) and counts made
/// by hand, never from the encoder's own output.
@Suite("Quortex features")
struct QuortexFeatureTests {
    // MARK: Helpers

    /// The features of `view`; the buffer starts as NaN so an unwritten value shows.
    static func features(_ view: QuortexObservation) -> [Float] {
        let encoder = QuortexFeatures(board: view.setup.board)
        var out = [Float](repeating: .nan, count: encoder.featureCount)
        out.withUnsafeMutableBufferPointer { encoder.encode(view, into: $0) }
        return out
    }

    /// Feature values by name.
    struct Named {
        let values: [Float]
        let index: [String: Int]

        init(_ view: QuortexObservation) {
            values = QuortexFeatureTests.features(view)
            let names = QuortexFeatures(board: view.setup.board).featureNames
            index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        }

        subscript(_ name: String) -> Float {
            guard let i = index[name] else { Issue.record("no feature \(name)"); return .nan }
            return values[i]
        }

        /// The 16 values of a cell: empty, then the 15 side pairs.
        func cell(_ row: Int, _ col: Int) -> [Float] {
            let base = index["cell(\(row),\(col)).empty"]!
            return Array(values[base..<(base + 16)])
        }
    }

    /// Rule book, "Tiles": the pairs of each type at rotation 0.
    static let ruleBookPairs: [[(Int, Int)]] = [
        [(0, 2), (1, 4), (3, 5)],
        [(0, 5), (1, 3), (2, 4)],
        [(0, 5), (1, 4), (2, 3)],
        [(0, 5), (1, 2), (3, 4)],
    ]

    /// The pairs of `type` at `rotation` (side s becomes s + r mod 6), each low side first.
    static func pairs(type: Int, rotation: Int) -> Set<[Int]> {
        Set(ruleBookPairs[type].map { [($0.0 + rotation) % 6, ($0.1 + rotation) % 6].sorted() })
    }

    /// Random matches of `seats` seats: every position before the end.
    static func randomPositions(seats: Int, seed: UInt64, edges: [Int]? = nil) throws -> [QuortexState] {
        let game = try edges.map { try Q.game(edges: $0) } ?? Q.game(seats: seats)
        var state = game.newMatch(seed: seed)
        var rng = LabRandom(seed: seed &+ 100)
        var out: [QuortexState] = []
        while !state.isTerminal {
            out.append(state)
            let legal = Q.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
        return out
    }

    /// Expects the eight side values of the encoding for `observer` to match the oracle's
    /// routes: present, viable, route ÷ (2R + 1) or 2 for every side, zeros past the last.
    static func expectSides(_ state: QuortexState, observer: Int, oracle: RuleBookOracle, sourceLocation: SourceLocation = #_sourceLocation) {
        let setup = state.setup
        let f = Named(state.observation(for: observer))
        let codes = Q.codes(state)
        let sideCount = setup.sideAxis.count
        let rows = Float(2 * setup.board.radius + 1)
        for k in 0..<3 {
            let what = "\(setup.seatCount) seats, turn \(state.turn), observer \(observer), side+\(k)"
            guard k < sideCount else {
                for name in ["present", "viable", "route", "reachA", "flowCellsA", "reachB", "flowCellsB", "completed"] + (1...7).map({ "routeIs\($0)" }) {
                    #expect(f["side+\(k).\(name)"] == 0, "\(what).\(name)", sourceLocation: sourceLocation)
                }
                continue
            }
            let axis = setup.sideAxis[(setup.sideOfSeat[observer] + k) % sideCount]
            let route = oracle.routeLength(codes, axis: axis)
            #expect(f["side+\(k).present"] == 1, "\(what).present", sourceLocation: sourceLocation)
            #expect(f["side+\(k).viable"] == (route == nil ? 0 : 1), "\(what).viable", sourceLocation: sourceLocation)
            #expect(f["side+\(k).route"] == route.map { Float($0) / rows } ?? 2, "\(what).route: oracle \(String(describing: route))",
                    sourceLocation: sourceLocation)
            for d in 1...7 {
                let bin = route.map { min($0, 7) == d } ?? false
                #expect(f["side+\(k).routeIs\(d)"] == (bin ? 1 : 0), "\(what).routeIs\(d)", sourceLocation: sourceLocation)
            }
        }
    }

    // MARK: Layout

    @Test("The layout has 16N + 79 values (N cells), one unique name each", arguments: [1, 2, 3, 4])
    func layout(radius: Int) throws {
        let game = try Q.game(seats: 2, ["radius": String(radius)])
        let encoder = QuortexFeatures(board: game.setup.board)
        let n = 1 + 3 * radius * (radius + 1)
        #expect(game.setup.board.cells.count == n)
        #expect(encoder.featureCount == 16 * n + 79)
        #expect(encoder.featureNames.count == encoder.featureCount)
        #expect(Set(encoder.featureNames).count == encoder.featureNames.count, "feature names repeat")
        #expect(encoder.layoutKey != QuortexFeatures(board: try Q.game(seats: 2, ["radius": String(radius + 1)]).setup.board).layoutKey)
        #expect(QuortexFeatures.gameName == QuortexGame.name)
    }

    @Test("The policy models' features (version 4) leave the board as it lies: both seats see the same cells, the value models' version turns seat 1's")
    func policyFeaturesUnturned() throws {
        let positions = try Self.randomPositions(seats: 2, seed: 11)
        let state = positions[positions.count / 2]
        let board = state.setup.board
        let policy = QuortexPolicyFeatures(board: board), value = QuortexFeatures(board: board)
        #expect(QuortexPolicyFeatures.featureVersion == 4 && QuortexFeatures.featureVersion == 1)
        #expect(policy.featureCount == value.featureCount + board.cells.count * 6 * 10 && policy.actionFeatures == 10)
        #expect(policy.layoutKey == value.layoutKey && policy.featureNames.count == policy.featureCount)
        func encode<E: FeatureEncoder>(_ e: E, seat: Int) -> [Float] where E.Observation == QuortexObservation {
            var out = [Float](repeating: .nan, count: e.featureCount)
            out.withUnsafeMutableBufferPointer { e.encode(state.observation(for: seat), into: $0) }
            return out
        }
        let cells = 16 * board.cells.count, n = value.featureCount
        // Seat 0 sees its board as it lies in both versions; seat 1's is turned in version 1 only.
        #expect(encode(policy, seat: 0)[..<n] == encode(value, seat: 0)[...])
        #expect(encode(policy, seat: 0)[..<cells] == encode(policy, seat: 1)[..<cells])
        #expect(encode(value, seat: 0)[..<cells] != encode(value, seat: 1)[..<cells])
        // Everything after the cells is the observer's, as in version 1.
        #expect(encode(policy, seat: 1)[cells..<n] == encode(value, seat: 1)[cells...])
    }

    @Test("Each action's features say what placing the drawn tile there does: a win is a win, and the routes are the successor's own, at every rotation (equivalent ones too)",
          arguments: [2, 3, 4])
    func actionFeatures(seats: Int) throws {
        var checked = 0, wins = 0, equivalent = 0
        for state in try Self.randomPositions(seats: seats, seed: UInt64(20 + seats)) where !state.isTerminal {
            let board = state.setup.board
            let policy = QuortexPolicyFeatures(board: board), value = QuortexFeatures(board: board)
            let mover = state.currentSeat
            var f = [Float](repeating: .nan, count: policy.featureCount)
            f.withUnsafeMutableBufferPointer { policy.encode(state.observation(for: mover), into: $0) }
            let actions = f[value.featureCount...].map { $0 }
            var buffer = ActionBuffer()
            state.legalActions(into: &buffer)
            let legal = Set((0..<buffer.count).map { buffer[$0] })
            let tile = try #require(state.drawnTile)
            for id in 0..<(board.cells.count * 6) {
                let phi = Array(actions[(id * 10)..<(id * 10 + 10)])
                // A rotation with the same channels as a lower one is listed as that one,
                // and placing it makes the same position.
                let listed = id - id % 6 + QuortexTile.canonicalRotation(type: tile, id % 6)
                if listed != id && legal.contains(listed) { equivalent += 1 }
                guard legal.contains(listed) else {
                    // An occupied cell (its "empty" input 0, the board as it lies) has none.
                    if f[16 * (id / 6)] == 0 { #expect(phi.allSatisfy { $0 == 0 }) }
                    continue
                }
                var next = state
                next.apply(id)
                let outcome = next.isTerminal ? next.outcome : nil
                let iWin = outcome.map { $0.places[mover] == 1 } ?? false
                if phi[0] == 1 || phi[1] == 1 {
                    #expect(next.isTerminal && (phi[0] == 1) == iWin, "action \(id): completes \(phi[0]), \(phi[1]); outcome \(String(describing: outcome))")
                    wins += 1
                    continue
                }
                guard !next.isTerminal else { continue }  // a constraint win: the next tile fits nowhere
                // The mover's route after the placement, as the successor's own features measure it.
                var after = [Float](repeating: .nan, count: value.featureCount)
                after.withUnsafeMutableBufferPointer { value.encode(next.observation(for: mover), into: $0) }
                let side = 16 * board.cells.count  // side +0's block: present, viable, route ÷ (2R + 1), ...
                let rows = Float(2 * board.radius + 1)
                if after[side + 1] == 1 {
                    let a = (after[side + 2] * rows).rounded()
                    #expect(abs(phi[2] - 1 / (1 + a)) < 1e-5 && phi[5] == 0, "action \(id): 1/(1+a) \(phi[2]), successor's route \(a)")
                } else {
                    #expect(phi[2] == 0 && phi[5] == 1)
                }
                checked += 1
            }
        }
        #expect(checked > 100 && equivalent > 100)
        if seats == 2 { #expect(wins > 0, "some placement completes a flow") }
    }

    @Test("Version 4's verdict: the reference AI's own choice is marked best and 0 below it; the other placements it considers by how far below they score",
          arguments: [11, 12, 13])
    func referenceVerdict(seed: Int) throws {
        var checked = 0, belowSeen = 0
        for state in try Self.randomPositions(seats: 2, seed: UInt64(seed)) where !state.isTerminal {
            let board = state.setup.board
            let policy = QuortexPolicyFeatures(board: board), value = QuortexFeatures(board: board)
            let view = state.observation(for: state.currentSeat)
            var f = [Float](repeating: .nan, count: policy.featureCount)
            f.withUnsafeMutableBufferPointer { policy.encode(view, into: $0) }
            var buffer = ActionBuffer()
            state.legalActions(into: &buffer)
            let chosen = QuortexReferenceAI().chooseAction(view, legal: buffer)
            let at = value.featureCount + chosen * 10
            #expect(f[at + 8] == 1 && f[at + 9] == 0, "turn \(state.turn): the reference's choice \(chosen) reads \(f[at + 8]), \(f[at + 9])")
            for i in 0..<buffer.count where f[value.featureCount + buffer[i] * 10 + 8] == 0 {
                let below = f[value.featureCount + buffer[i] * 10 + 9]
                // 0 only on a cell the reference does not consider.
                #expect(below >= 0 && below <= 1, "turn \(state.turn), action \(buffer[i]): \(below) below the best")
                if below > 0 { belowSeen += 1 }
            }
            checked += 1
        }
        #expect(checked > 10 && belowSeen > 0)
    }

    // MARK: Hidden information

    @Test("Rule book: everything but the bag order is public; a seat's features are the same over every sampled state",
          arguments: [2, 3, 4, 5, 6])
    func sampledStatesEncodeTheSame(seats: Int) throws {
        var rng = LabRandom(seed: 77)
        var differentBags = 0, checked = 0
        for state in try Self.randomPositions(seats: seats, seed: UInt64(30 + seats)) where state.turn % 3 == 0 {
            for seat in 0..<seats {
                let view = state.observation(for: seat)
                let expected = Self.features(view)
                #expect(expected.allSatisfy { $0.isFinite }, "turn \(state.turn), seat \(seat)")
                let sample = view.sampleState(using: &rng)
                if sample.bagOrder != state.bagOrder { differentBags += 1 }
                // The sample differs from the truth in the bag order only: every seat's
                // features agree, not just the observer's.
                for other in 0..<seats {
                    #expect(Self.features(sample.observation(for: other)) == Self.features(state.observation(for: other)),
                            "turn \(state.turn), sampled for seat \(seat), encoded for seat \(other)")
                }
                checked += 1
            }
        }
        #expect(checked >= seats * 3)
        #expect(differentBags > checked / 2, "the samples reorder the bag")
    }

    // MARK: Cells

    @Test("A placed tile's block: not empty, exactly its three pairs; rotations with the same pairs give the same block",
          arguments: 0..<4)
    func tileBlocks(type: Int) throws {
        let game = try Q.game(seats: 2)
        let names = QuortexFeatures(board: game.setup.board).featureNames
        let pairNames = names.filter { $0.hasPrefix("cell(0,0).pair") }
        #expect(pairNames.count == 15)
        var blocks: [Set<[Int]>: [Float]] = [:]
        for rotation in 0..<6 {
            var state = game.newMatch(seed: 5)
            state.place(row: 0, col: 0, type: type, rotation: rotation)
            let f = Named(state.observation(for: 0))
            let expected = Self.pairs(type: type, rotation: rotation)
            #expect(f["cell(0,0).empty"] == 0)
            for a in 0..<6 {
                for b in (a + 1)..<6 {
                    #expect(f["cell(0,0).pair\(a)\(b)"] == (expected.contains([a, b]) ? 1 : 0), "T\(type) r\(rotation) pair \(a)\(b)")
                }
            }
            let block = f.cell(0, 0)
            #expect(block.reduce(0, +) == 3)
            if let same = blocks[expected] {
                #expect(block == same, "T\(type) r\(rotation) joins the same pairs as an earlier rotation")
            } else {
                #expect(!blocks.values.contains(block), "T\(type) r\(rotation): another pattern must give another block")
                blocks[expected] = block
            }
            // Every other cell is empty.
            for (row, col) in game.setup.board.cells where (row, col) != (0, 0) {
                #expect(f.cell(row, col) == [1] + [Float](repeating: 0, count: 15), "(\(row),\(col))")
            }
        }
        // The distinct patterns are the distinct rotations the rules generate.
        #expect(blocks.count == QuortexTile.distinctRotations[type].count)
        #expect(blocks.count == [3, 6, 3, 2][type])
    }

    // MARK: Sides

    @Test("Route: the oracle's fewest empty cells ÷ (2R + 1); on the empty board 1 for every side")
    func emptyBoardRoutes() throws {
        for seats in 2...6 {
            let state = try Q.game(seats: seats).newMatch(seed: 2)
            let sides = state.setup.sideAxis.count
            for observer in 0..<seats {
                let f = Named(state.observation(for: observer))
                for k in 0..<3 {
                    #expect(f["side+\(k).route"] == (k < sides ? 1 : 0), "\(seats) seats, observer \(observer), side+\(k)")
                    #expect(f["side+\(k).viable"] == (k < sides ? 1 : 0))
                }
            }
        }
    }

    @Test("Route and viability equal the rule book's route search at every position of random matches, for every seat",
          arguments: [2, 3, 4, 5, 6])
    func routesMatchTheOracle(seats: Int) throws {
        let positions = try Self.randomPositions(seats: seats, seed: UInt64(40 + seats))
        let oracle = RuleBookOracle(board: positions[0].board)
        for state in positions {
            for observer in 0..<seats { Self.expectSides(state, observer: observer, oracle: oracle) }
        }
    }

    @Test("Sides are relative: side +k of seat 1 in a 3-seat game is side (1 + k) mod 3")
    func relativeSides() throws {
        // Find positions where the three axes' routes all differ, so a wrong order shows.
        var distinct = 0
        for seed in UInt64(1)...4 {
            let positions = try Self.randomPositions(seats: 3, seed: seed)
            let oracle = RuleBookOracle(board: positions[0].board)
            for state in positions {
                let codes = Q.codes(state)
                let routes = (0..<3).map { oracle.routeLength(codes, axis: $0) }
                guard Set(routes.map { $0 ?? -1 }).count == 3 else { continue }
                distinct += 1
                // Seats 0, 1, 2 sit on edges 0, 2, 4: axes 0, 2, 1.
                let f = Named(state.observation(for: 1))
                let rows = Float(7)
                for (k, axis) in [2, 1, 0].enumerated() {
                    #expect(f["side+\(k).route"] == routes[axis].map { Float($0) / rows } ?? 2, "turn \(state.turn), side+\(k)")
                }
            }
        }
        #expect(distinct > 0, "no position told the sides apart")
    }

    @Test("A side with every route cut: viable 0, route 2; a gap in the cut opens a route again")
    func cutSide() throws {
        // Row 0 sealed by three-sharps cuts every axis (it joins two opposite corners).
        let game = try Q.game(edges: [0, 1])
        let sealed = Q.position(game, tiles: Q.sealingRow(), drawn: 0)
        let gap = Q.position(game, tiles: Q.sealingRow(except: [0]), drawn: 0)
        let oracle = RuleBookOracle(board: sealed.board)
        for axis in [0, 1] {
            #expect(oracle.routeLength(Q.codes(sealed), axis: axis) == nil)
            #expect(oracle.routeLength(Q.codes(gap), axis: axis) != nil)
        }
        for observer in 0..<2 {
            let cut = Named(sealed.observation(for: observer)), open = Named(gap.observation(for: observer))
            for k in 0..<2 {
                #expect(cut["side+\(k).present"] == 1)
                #expect(cut["side+\(k).viable"] == 0)
                #expect(cut["side+\(k).route"] == 2)
                #expect(open["side+\(k).viable"] == 1)
                #expect(open["side+\(k).route"] < 2)
            }
            #expect(cut["side+2.present"] == 0)
            Self.expectSides(gap, observer: observer, oracle: oracle)
        }
    }

    @Test("Flow reach: a channel of three tiles from edge 0 reaches row 2 of 7 and covers 3 cells")
    func flowReach() throws {
        let state = Q.position(try Q.game(seats: 2), tiles: Q.column(except: [0, 1, 2, 3]), drawn: 1)
        let f = Named(state.observation(for: 0))
        // Seat 0's side joins edges 0 (A) and 3 (B); the channel runs (-3,0) to (-1,0).
        #expect(f["side+0.reachA"] == Float(3) / 7)
        #expect(f["side+0.flowCellsA"] == Float(3) / 37)
        #expect(f["side+0.reachB"] == 0)
        #expect(f["side+0.flowCellsB"] == 0)
        #expect(f["side+0.completed"] == 0)
    }

    // MARK: Drawn tile, bag, seats, clock

    @Test("Drawn tile: the mover's tile type, one-hot, the same for every observer")
    func drawnTile() throws {
        var state = try Q.game(seats: 3).newMatch(seed: 8)
        for type in 0..<4 {
            state.setDrawnTile(type)
            for observer in 0..<3 {
                let f = Named(state.observation(for: observer))
                for k in 0..<4 { #expect(f["drawn.type\(k)"] == (k == type ? 1 : 0), "T\(type), observer \(observer)") }
            }
        }
    }

    @Test("Bag: tiles of each type left of that type's starting count")
    func bagCounts() throws {
        let game = try Q.game(seats: 2, ["bag": "5,6,7,8"])
        // Three two-sharps and one no-sharps placed, a three-sharps drawn.
        var state = game.newMatch(seed: 4)
        for row in -3...(-1) { state.place(row: row, col: 0, type: 2, rotation: 5) }
        state.place(row: 2, col: -2, type: 0, rotation: 0)
        state.setDrawnTile(3)
        let f = Named(state.observation(for: 1))
        let left: [Float] = [4, 6, 4, 7], start: [Float] = [5, 6, 7, 8]
        for type in 0..<4 { #expect(f["bag.type\(type)"] == left[type] / start[type], "type \(type)") }
    }

    @Test("Seats: own seat number, relative mover and tiles placed, the seat count, the turn, team and shared-axis flags")
    func seatsAndClock() throws {
        // Four hook placements count for the mover, seat 0.
        let two = Q.position(try Q.game(seats: 2), tiles: Q.column(except: [0, 1, 2]), drawn: 1)
        let one = Named(two.observation(for: 1))
        for k in 0..<6 {
            #expect(one["toMove.seat+\(k)"] == (k == 1 ? 1 : 0), "toMove.seat+\(k)")
            #expect(one["placed.seat+\(k)"] == (k == 1 ? Float(4) / 37 : 0), "placed.seat+\(k)")
        }
        for n in 2...6 { #expect(one["seats.\(n)"] == (n == 2 ? 1 : 0)) }
        for s in 0..<6 { #expect(one["seat\(s)"] == (s == 1 ? 1 : 0), "seat\(s) for seat 1") }
        #expect(one["turn"] == Float(4) / 37)
        #expect(one["inTeam"] == 0)
        #expect(one["sharedAxis"] == 0)
        let zero = Named(two.observation(for: 0))
        #expect(zero["toMove.seat+0"] == 1)
        #expect(zero["placed.seat+0"] == Float(4) / 37)

        let teams = Named(try Q.game(seats: 4).newMatch(seed: 1).observation(for: 2))
        #expect(teams["inTeam"] == 1)
        #expect(teams["seats.4"] == 1)
        for s in 0..<6 { #expect(teams["seat\(s)"] == (s == 2 ? 1 : 0), "seat\(s) for seat 2") }
        // Seat 2's turn comes last of 4 (order 0, 1, 2, 3 by edge 0, 1, 3, 4): seat 0 is +2.
        #expect(teams["toMove.seat+2"] == 1)
        let opposed = Named(try Q.game(edges: [0, 3]).newMatch(seed: 1).observation(for: 1))
        #expect(opposed["sharedAxis"] == 1)
        #expect(opposed["inTeam"] == 0)
    }

    // MARK: Orientation

    @Test("Seat 1 of a 2-player game sees the board mirrored (edge 2 onto edge 0): its cells equal seat 0's view of the mirrored position")
    func seatOneSeesTheMirroredBoard() throws {
        let game = try Q.game(seats: 2)
        let board = game.setup.board
        // The reflection that swaps edges 0 and 2 (and 3 and 5) and keeps 1 and 4: side d
        // goes to 3 - d (SW <-> NE, W <-> NW, E <-> SE); cell (row, col) to (-row - col, col).
        func mirrored(_ side: Int) -> Int { (9 - side) % 6 }
        var rng = LabRandom(seed: 31)
        var state = game.newMatch(seed: 31)
        var tiles: [Q.Tile] = []
        var mirror: [Q.Tile] = []
        for _ in 0..<12 where !state.isTerminal {
            let legal = Q.legal(state)
            let action = legal[rng.uniform(legal.count)]
            state.apply(action)
            let cell = board.cells[action / 6]
            let type = state.tileCode(at: action / 6)! / 6, rotation = action % 6
            tiles.append(Q.Tile(row: cell.row, col: cell.col, type: type, rotation: rotation))
            // The mirrored tile: the type and rotation joining the mirrored pairs.
            let want = Set(Self.pairs(type: type, rotation: rotation).map { [mirrored($0[0]), mirrored($0[1])].sorted() })
            let r = try #require((0..<6).first { Self.pairs(type: type, rotation: $0) == want }, "a mirror image of every tile")
            mirror.append(Q.Tile(row: -cell.row - cell.col, col: cell.col, type: type, rotation: r))
        }
        let original = Q.position(game, tiles: tiles, drawn: 0)
        let image = Q.position(game, tiles: mirror, drawn: 0)
        let seat1 = Named(original.observation(for: 1))
        let seat0 = Named(image.observation(for: 0))
        for c in board.cells {
            #expect(seat1.cell(c.row, c.col) == seat0.cell(c.row, c.col), "cell (\(c.row),\(c.col))")
        }
        // And seat 0 of the original sees it unturned: its blocks follow the real tiles.
        let straight = Named(original.observation(for: 0))
        for t in tiles {
            var expected = [Float](repeating: 0, count: 16)
            for pair in Self.pairs(type: t.type, rotation: t.rotation) {
                expected[1 + QuortexFeatureTests.pairOrder.firstIndex(of: pair)!] = 1
            }
            #expect(straight.cell(t.row, t.col) == expected, "tile at (\(t.row),\(t.col))")
        }
    }

    /// The 15 side pairs in the encoder's documented order: {0,1}, {0,2}, ..., {4,5}.
    static let pairOrder: [[Int]] = (0..<6).flatMap { a in ((a + 1)..<6).map { [a, $0] } }
}
