import LabCore
import Testing
import TicTacToe
@testable import LabCatalog

/// The learned tic-tac-toe model that ships (configs/models/learned/tictactoe.model, from
/// the `oplab learn tictactoe` command in docs/learning.md) plays perfectly: `alphazero` at
/// its default knobs, as either seat and against every possible opponent, always chooses a
/// move that keeps the position's game-theoretic value (minimax over the whole game tree).
@Suite("Tic-tac-toe, learned")
struct TicTacToeLearnedTests {
    /// The mover's value of every position (1 win, 0 draw, -1 loss with perfect play), by
    /// the seats' marks.
    final class Solver {
        var values: [UInt32: Int] = [:]

        func value(_ state: TicTacToeState) -> Int {
            if let outcome = state.outcome {
                // The mover of a finished match is the seat after the last one to mark.
                return outcome.places[state.currentSeat] < outcome.places[1 - state.currentSeat] ? 1
                    : outcome.places[state.currentSeat] == outcome.places[1 - state.currentSeat] ? 0 : -1
            }
            let key = UInt32(state.marks0) | UInt32(state.marks1) << 16
            if let known = values[key] { return known }
            var best = -2
            for action in Self.legal(state) {
                var next = state
                next.apply(action)
                best = max(best, -value(next))
            }
            values[key] = best
            return best
        }

        static func legal(_ state: TicTacToeState) -> [Int] {
            var buffer = ActionBuffer()
            state.legalActions(into: &buffer)
            return (0..<buffer.count).map { buffer[$0] }
        }

        /// Every position reachable from the empty board, the match still running.
        func positions() -> [TicTacToeState] {
            var seen: Set<UInt32> = [], found: [TicTacToeState] = []
            func visit(_ state: TicTacToeState) {
                guard !state.isTerminal, seen.insert(UInt32(state.marks0) | UInt32(state.marks1) << 16).inserted else { return }
                found.append(state)
                for action in Self.legal(state) {
                    var next = state
                    next.apply(action)
                    visit(next)
                }
            }
            visit(TicTacToeState())
            return found
        }
    }

    /// Plays `spec` as `seat` against every possible opponent: at its own turns it moves as
    /// it chooses, at the opponent's every legal move is followed. Returns the positions
    /// where it lost value (moved from a win to a draw or loss, or from a draw to a loss)
    /// and how many of its decisions were checked.
    static func mistakes(of spec: String, seat: Int, solver: Solver) throws -> (mistakes: [String], decisions: Int) {
        let entry = try #require(try Catalog.game(named: "tictactoe") as? CatalogEntry<TicTacToeGame>)
        let game = TicTacToeGame()
        let factory = try StrategyLookup.resolve(try StrategySpec.parse(spec), in: entry.entries, game: game)
        var mistakes: [String] = [], decisions = 0
        var seen: Set<UInt32> = []
        func visit(_ state: TicTacToeState) {
            guard !state.isTerminal, seen.insert(UInt32(state.marks0) | UInt32(state.marks1) << 16).inserted else { return }
            if state.currentSeat == seat {
                let strategy = factory(StrategyContext(game: game, seat: seat, seed: 7))
                var legal = ActionBuffer()
                state.legalActions(into: &legal)
                let action = strategy.chooseAction(state.observation(for: seat), legal: legal)
                var next = state
                next.apply(action)
                decisions += 1
                if -solver.value(next) != solver.value(state) {
                    mistakes.append("\(state.renderBoard()!.replacingOccurrences(of: "\n", with: " / ")): \(state.describe(action))")
                }
                visit(next)
            } else {
                for action in Solver.legal(state) {
                    var next = state
                    next.apply(action)
                    visit(next)
                }
            }
        }
        visit(TicTacToeState())
        return (mistakes, decisions)
    }

    @Test("alphazero (default knobs, the shipped model) plays perfectly: as either seat, against every possible opponent, it never gives up value")
    func perfectPlay() throws {
        let solver = Solver()
        for seat in 0..<2 {
            let (mistakes, decisions) = try Self.mistakes(of: "alphazero", seat: seat, solver: solver)
            #expect(decisions > 50)
            #expect(mistakes.isEmpty, "seat \(seat): \(mistakes.count) of \(decisions) decisions lose value, e.g. \(mistakes.prefix(3))")
        }
    }

    @Test("the check finds a player that gives up value: random loses value as either seat")
    func checkFindsMistakes() throws {
        let solver = Solver()
        for seat in 0..<2 {
            #expect(try Self.mistakes(of: "random", seat: seat, solver: solver).mistakes.count > 10)
        }
        #expect(solver.positions().count == 4_520, "the positions either seat can reach, the match running")
    }

    @Test("the solver: the empty board is a draw, and a position with a double threat wins for the mover")
    func solver() {
        let solver = Solver()
        #expect(solver.value(TicTacToeState()) == 0)
        var state = TicTacToeState()
        for cell in [0, 3, 1, 4] { state.apply(cell) }  // X to move, two in the top row
        #expect(solver.value(state) == 1)
    }
}
