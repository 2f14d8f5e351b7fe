import LabCore
import Quortex
import Testing

/// The scenarios of the published implementation's tests (rule book, "Legal placement"
/// and "Flows and victory"), set up directly, the decisive placement played as a move.
@Suite("Published scenarios")
struct PublishedScenarioTests {
    /// The two-sharps column on (r, 0) with the tile on (`last`, 0) still to come, seat 0
    /// to move holding a two-sharps tile.
    static func columnBut(_ last: Int, edges: [Int]) throws -> QuortexState {
        Q.position(try Q.game(edges: edges), tiles: Q.column(except: [last]), drawn: 2)
    }

    @Test func twoSharpsAtRotationFiveJoinSouthWestToNorthEast() {
        #expect(QuortexTile.pairs(type: 2, rotation: 5).contains([0, 3]))
    }

    @Test("a column missing one tile is a running position nobody has won", arguments: -3...3)
    func columnMissingOneTileIsARunningPositionNobodyHasWon(last: Int) throws {
        let state = try Self.columnBut(last, edges: [0, 1])
        #expect(!state.isTerminal)
        #expect(state.winningSides == 0)
        #expect(state.outcome == nil)
        #expect(state.invariantViolation() == nil)
    }

    @Test("completing the column is legal and wins on whichever cell it ends", arguments: -3...3)
    func completingTheColumnIsLegalAndWins(last: Int) throws {
        var state = try Self.columnBut(last, edges: [0, 1])
        #expect(state.isLegal(row: last, col: 0, rotation: 5))
        state.apply(state.action(row: last, col: 0, rotation: 5))
        #expect(state.isTerminal)
        #expect(state.outcome?.places == [1, 2])
        #expect(state.outcome?.endReason == "flow")
    }

    @Test func aChannelFromEdgeZeroToEdgeThreeWinsForTheEdgeZeroPlayerAlone() throws {
        var state = try Self.columnBut(3, edges: [0, 1])
        state.apply(state.action(row: 3, col: 0, rotation: 5))
        #expect(state.endReason == .flow)
        #expect(state.winningSides == 1 << 0)
        #expect(state.outcome == Outcome(places: [1, 2], endReason: "flow", turns: 7))
    }

    @Test func aChannelJoiningTwoOpposedSoloPlayersIsATie() throws {
        var state = try Self.columnBut(3, edges: [0, 3])
        state.apply(state.action(row: 3, col: 0, rotation: 5))
        #expect(state.endReason == .tie)
        #expect(state.outcome?.places == [1, 1])
        #expect(state.outcome?.endReason == "tie")
    }

    @Test func aChannelFromEdgeZeroToEdgeThreeWinsForTheTeamOfThoseEdges() throws {
        let game = try Q.game(edges: [0, 1, 3, 4])
        #expect(game.teams == [0, 1, 0, 1])
        var state = Q.position(game, tiles: Q.column(except: [3]), drawn: 2)
        state.apply(state.action(row: 3, col: 0, rotation: 5))
        #expect(state.outcome?.places == [1, 3, 1, 3])
        #expect(state.outcome?.endReason == "flow")
    }

    // MARK: Row 0 sealed by three-sharps (players on edges 0 and 3)

    /// Three-sharps at rotation 0 on row 0 but (0, 0): every route from edge 0 to edge 3
    /// now runs through (0, 0).
    static func rowButCentre(drawn: Int) throws -> QuortexState {
        Q.position(try Q.game(edges: [0, 3]), tiles: Q.sealingRow(except: [0]), drawn: drawn)
    }

    @Test func rowOfThreeSharpsLeavesTheCentreTheOnlyWayThrough() throws {
        let state = try Self.rowButCentre(drawn: 3)
        #expect(state.invariantViolation() == nil)
        let codes = Q.codes(state)
        #expect(QuortexState.plainRoute(board: state.board, codes: codes, axis: 0))
        var blocked = codes
        blocked[try Q.cell(state.board, 0, 0)] = 3 * 6 + 0
        #expect(!QuortexState.plainRoute(board: state.board, codes: blocked, axis: 0))
    }

    @Test func threeSharpsThatWouldSealRowZeroIsIllegal() throws {
        let state = try Self.rowButCentre(drawn: 3)
        #expect(!state.isLegal(row: 0, col: 0, rotation: 0))
        #expect(state.isLegal(row: 0, col: 0, rotation: 1), "the other rotation links south to north")
    }

    @Test func noSharpsAwayFromTheGapIsLegal() throws {
        let state = try Self.rowButCentre(drawn: 0)
        #expect(state.isLegal(row: -1, col: 1, rotation: 0))
    }

    /// The published implementation fills all of row 0 and finds no legal placement.
    /// Such a board cannot arise in play (the last tile of the row is illegal), but the
    /// fast path must still refuse every placement that does not complete a flow.
    @Test func noPlacementIsLegalOnceRowZeroIsSealed() throws {
        var state = Q.position(try Q.game(edges: [0, 3]), tiles: Q.sealingRow(), drawn: 0)
        #expect(state.invariantViolation() != nil, "a sealed board is not a running position")
        for type in 0..<4 {
            state.setDrawnTile(type)
            #expect(state.plainLegalActions().isEmpty, "T\(type)")
            #expect(Q.legal(state).isEmpty, "T\(type)")
        }
    }

    @Test func theNextDrawerWinsByConstraintOnceRowZeroIsSealed() throws {
        var state = Q.position(try Q.game(edges: [0, 3]), tiles: Q.sealingRow(), drawn: 0)
        state.passTurn()
        #expect(state.endReason == .constraint)
        #expect(state.outcome?.places == [2, 1])
    }

    // MARK: Empty board

    @Test("on an empty board every cell and distinct rotation is legal", arguments: 0..<4)
    func onAnEmptyBoardEveryCellAndDistinctRotationIsLegal(type: Int) throws {
        for seats in QuortexSetup.seatRange {
            var state = try Q.game(seats: seats).newMatch(seed: 1)
            state.setDrawnTile(type)
            let all = state.board.cells.indices.flatMap { cell in QuortexTile.distinctRotations[type].map { cell * 6 + $0 } }
            #expect(Q.legal(state) == all, "\(seats) seats")
        }
    }

    @Test func anOccupiedCellIsNeverLegal() throws {
        let game = try Q.game(seats: 4)
        var rng = LabRandom(seed: 12)
        var checked = 0
        for seed in 0..<20 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            Q.playOut(&state, &rng) { state in
                guard !state.isTerminal else { return }
                for action in Q.legal(state) {
                    #expect(state.tileCode(at: action / 6) == nil, "\(state.describe(action)) at turn \(state.turn)")
                }
                checked += 1
            }
        }
        #expect(checked > 300)
    }
}
