import Foundation
import GameConformance
import LabCore
import Testing
import TicTacToe

/// Tic-tac-toe by its rules: every line of three wins for the seat that makes it, a full
/// board without one is a draw, the conformance suite holds, the features' eight
/// symmetries map a position onto its image, and the protocol objects say what the rules do.
@Suite("Tic-tac-toe")
struct TicTacToeTests {
    static func play(_ cells: [Int]) -> TicTacToeState {
        var state = TicTacToeState()
        for cell in cells { state.apply(cell) }
        return state
    }

    /// Plays the lowest empty cell, found from its observation; says it does not read the
    /// list, and notes the size of each list it is handed.
    final class LowestEmptyCell: Strategy {
        typealias G = TicTacToeGame
        var listSizes: [Int] = []
        var readsLegalActions: Bool { false }
        func chooseAction(_ observation: TicTacToeObservation, legal: ActionBuffer) -> Int {
            listSizes.append(legal.count)
            var own = ActionBuffer()
            observation.position.legalActions(into: &own)
            return own[0]
        }
    }

    @Test("the play loop hands a strategy that does not read the list an empty one, and plays its decisions")
    func aStrategyThatReadsNoListIsHandedNone() {
        let x = LowestEmptyCell(), o = LowestEmptyCell()
        var buffer = ActionBuffer()
        var moves: [Int] = []
        let result = Match.play(TicTacToeGame(), seed: 1, strategies: [x, o], buffer: &buffer) { _, action, _ in moves.append(action) }
        // The lowest empty cell each turn: X takes 0, 2, 4, 6 and completes the diagonal 2-4-6.
        #expect(moves == [0, 1, 2, 3, 4, 5, 6])
        #expect(result.outcome.places == [1, 2])
        #expect(x.listSizes == [0, 0, 0, 0] && o.listSizes == [0, 0, 0])
    }

    @Test func passesTheConformanceSuite() throws {
        try Conformance.check(TicTacToeGame(), budget: Conformance.Budget(matches: 1_000), seed: 9)
    }

    @Test("each of the eight lines wins for X, and for O; the match ends on it")
    func everyLineWins() {
        for line in TicTacToeState.lines {
            let cells = (0..<9).filter { line & (1 << UInt16($0)) != 0 }
            let others = (0..<9).filter { line & (1 << UInt16($0)) == 0 }
            // X takes the line; O answers on cells that hold no line of its own.
            var x = TicTacToeState()
            var oCells = others.makeIterator()
            for (k, cell) in cells.enumerated() {
                x.apply(cell)
                if k < 2 {
                    var o = oCells.next()!
                    while TicTacToeState.hasLine(x.marks(of: 1) | (1 << UInt16(o))) { o = oCells.next()! }
                    x.apply(o)
                }
            }
            #expect(x.isTerminal && x.winningSeat == 0 && x.endReason == .threeInARow && x.turn == 5, "line \(line)")
            #expect(x.outcome?.places == [1, 2])
            var buffer = ActionBuffer()
            x.legalActions(into: &buffer)
            #expect(buffer.count == 0)
            #expect(x.invariantViolation() == nil)
        }
        // O wins on the middle row: X 0, O 3, X 1, O 4, X 8, O 5.
        let o = Self.play([0, 3, 1, 4, 8, 5])
        #expect(o.winningSeat == 1 && o.outcome?.places == [2, 1] && o.searchValue(of: 1) == 1 && o.searchValue(of: 0) == 0)
    }

    @Test("a full board without a line is a draw: places [1, 1], each seat's value 0.5")
    func draw() {
        let state = Self.play([0, 1, 2, 4, 3, 5, 7, 6, 8])
        #expect(state.endReason == .boardFull && state.outcome?.places == [1, 1] && state.winningSeat == nil)
        #expect(state.searchValue(of: 0) == 0.5 && state.seatStats(0) == [5] && state.seatStats(1) == [4])
        #expect(state.renderBoard() == "X O X\nX O O\nO X X")
        #expect(state.invariantViolation() == nil)
    }

    @Test("the legal actions are the empty cells; the mover alternates; rules and seats are checked")
    func legality() throws {
        let state = Self.play([4, 0])
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        #expect((0..<buffer.count).map { buffer[$0] } == [1, 2, 3, 5, 6, 7, 8])
        #expect(state.currentSeat == 0 && state.describe(5) == "mark r1c2")
        #expect(throws: InputError("rule size=4: tictactoe has no rule knobs (it is the standard 3 x 3 game)")) {
            _ = try TicTacToeGame(rules: [("size", "4")], seatCount: 2)
        }
        #expect(throws: InputError("tictactoe takes 2 seats; got 3")) { _ = try TicTacToeGame(rules: [], seatCount: 3) }
    }

    @Test("each symmetry maps a position's features to those of the position played on the image cells")
    func symmetries() {
        let encoder = TicTacToeFeatures()
        let symmetries = encoder.symmetries
        #expect(symmetries.count == 7 && Set(symmetries.map(\.actions)).count == 7)
        func features(_ state: TicTacToeState) -> [Float] {
            var x = [Float](repeating: -1, count: encoder.featureCount)
            x.withUnsafeMutableBufferPointer { encoder.encode(state.observation(for: state.currentSeat), into: $0) }
            return x
        }
        var rng = LabRandom(seed: 3)
        for _ in 0..<30 {
            var moves: [Int] = []
            var state = TicTacToeState()
            var buffer = ActionBuffer()
            for _ in 0..<Int(rng.next() % 7) where !state.isTerminal {
                state.legalActions(into: &buffer)
                let cell = buffer[Int(rng.next() % UInt64(buffer.count))]
                state.apply(cell)
                moves.append(cell)
            }
            let x = features(state)
            for symmetry in symmetries {
                let image = Self.play(moves.map { symmetry.actions[$0] })
                var mapped = [Float](repeating: 0, count: x.count)
                x.withUnsafeBufferPointer { s in mapped.withUnsafeMutableBufferPointer { symmetry.mapFeatures(s.baseAddress!, to: $0.baseAddress!) } }
                #expect(mapped == features(image))
            }
        }
    }

    @Test("the protocol: empty rules, the board's size, actions by cell, row and column, the board top row first")
    func protocolObjects() throws {
        let game = TicTacToeGame()
        func object(_ write: (inout JSONWriter) -> Void) throws -> [String: Any] {
            var json = JSONWriter()
            write(&json)
            return try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        }
        #expect(try object { game.writeProtocolRules(to: &$0) }.isEmpty)
        let setup = try object { game.writeProtocolSetup(to: &$0) }
        #expect(setup["rows"] as? Int == 3 && setup["action_count"] as? Int == 9 && setup["marks"] as? [String] == ["X", "O"])
        let action = try object { game.writeProtocolAction(7, to: &$0) }
        #expect(action["cell"] as? Int == 7 && action["row"] as? Int == 2 && action["col"] as? Int == 1)
        #expect(game.protocolText(of: 7) == "mark r2c1")
        let state = Self.play([4, 0, 8])
        let observation = try object { state.observation(for: 1).writeProtocolObservation(to: &$0) }
        let board = try #require(observation["board"] as? [[Any]])
        #expect(board[0][0] as? Int == 1 && board[1][1] as? Int == 0 && board[2][2] as? Int == 0 && board[0][1] is NSNull)
        #expect(observation["seat"] as? Int == 1 && observation["mover"] as? Int == 1 && observation["reason"] as? String == "none")
    }
}
