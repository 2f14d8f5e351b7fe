import LabCore
import Testing
import TicTacToe
@testable import LabCatalog

/// The generic catalog entry: what a game gets from one line, with and without its
/// optional parts.
@Suite("A game in one catalog line")
struct CatalogEntryTests {
    @Test("without an encoder: random, the searches and external bots, no learned players and no learning; its own strategies come first")
    func withoutEncoder() throws {
        let own = StrategyEntry<TicTacToeGame>(name: "corner", summary: "a strategy of the game's own (a uniform stand-in)") { _, _ in
            { context in UniformRandomStrategy<TicTacToeGame>(seed: context.seed) }
        }
        let entry = CatalogEntry(TicTacToeGame.self, documentedCPU: "corner", strategies: [own])
        #expect(entry.strategies.map(\.name) == ["random", "corner", "mcts", "mcts-perfect", "external"])
        #expect(entry.learning == nil && entry.documentedCPU == "corner" && entry.name == "tictactoe" && entry.seatRange == 2...2)
        let table = try entry.makeTable(TableSetup(players: [StrategySpec(name: "corner"), StrategySpec(name: "mcts")]))
        var buffer = ActionBuffer()
        #expect(table.play(seed: 1, buffer: &buffer, trace: nil).outcome.turns >= 5)
        #expect(table.setupLines == ["board 3 x 3, standard rules"])
        #expect(throws: InputError.self) { _ = try entry.makeTable(TableSetup(players: [StrategySpec(name: "alphazero"), StrategySpec(name: "random")])) }
        #expect(throws: InputError("rule size=4: tictactoe has no rule knobs (it is the standard 3 x 3 game)")) { try entry.checkRules([("size", "4")]) }
    }

    @Test("with an encoder: alphazero and policy on the game's shipped model, and a learning")
    func withEncoder() throws {
        let entry = try #require(try Catalog.game(named: "tictactoe") as? CatalogEntry<TicTacToeGame>)
        #expect(entry.strategies.map(\.name) == ["random", "mcts", "mcts-perfect", "alphazero", "policy", "external"])
        #expect(entry.learning != nil && entry.documentedCPU == "random")
        let model = try #require(entry.strategies.first { $0.name == "alphazero" }?.parameters.first { $0.name == "model" })
        #expect(model.summary.contains("configs/models/learned/tictactoe.model, compiled into oplab"))
    }
}
