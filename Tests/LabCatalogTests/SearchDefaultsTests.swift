import LabCatalog
import LabCore
import Testing

/// Each game's `mcts` defaults are its own, measured against its documented CPU
/// (docs/strategies.md): Quortex searches without rollouts, rail rolls out 60 actions.
@Suite("Search defaults per game")
struct SearchDefaultsTests {
    /// The `mcts` and `mcts-perfect` defaults `oplab strategies GAME` lists, by parameter.
    func defaults(_ game: String, _ strategy: String) throws -> [String: String] {
        let entry = try Catalog.game(named: game)
        let info = try #require(entry.strategies.first { $0.name == strategy }, "\(game) \(strategy)")
        return Dictionary(uniqueKeysWithValues: info.parameters.map { ($0.name, $0.defaultValue) })
    }

    @Test("The catalog lists Quortex's search defaults (rolloutDepth 0) and rail's (rolloutDepth 60)",
          arguments: ["mcts", "mcts-perfect"])
    func listedDefaults(_ strategy: String) throws {
        let quortex = try defaults("quortex", strategy)
        #expect(quortex["rolloutDepth"] == "0")
        #expect(quortex["iterations"] == "800" && quortex["c"] == "1.4" && quortex["rollout"] == "random" && quortex["millis"] == "0")
        let rail = try defaults("rail", strategy)
        #expect(rail["rolloutDepth"] == "60")
        #expect(rail["iterations"] == "800" && rail["c"] == "1.4" && rail["rollout"] == "random" && rail["millis"] == "0")
    }

    /// The actions of the match dealt from `seed` with `players`, in order.
    func actions(_ game: String, _ players: [String], seed: UInt64) throws -> [String] {
        let table = try Catalog.game(named: game).makeTable(TableSetup(players: players.map { try StrategySpec.parse($0) }))
        var buffer = ActionBuffer()
        var trace: [String] = []
        _ = table.play(seed: seed, buffer: &buffer) { trace.append("\($0.seat) \($0.action)") }
        return trace
    }

    @Test("A Quortex mcts made with no rolloutDepth searches without rollouts: it plays as rolloutDepth=0, not 60",
          arguments: ["mcts", "mcts-perfect"])
    func quortexSearchesWithoutRollouts(_ strategy: String) throws {
        for seed: UInt64 in [3, 4] {
            let plain = try actions("quortex", ["\(strategy)(iterations=40)", "random"], seed: seed)
            let noRollouts = try actions("quortex", ["\(strategy)(iterations=40, rolloutDepth=0)", "random"], seed: seed)
            let rollouts = try actions("quortex", ["\(strategy)(iterations=40, rolloutDepth=60)", "random"], seed: seed)
            #expect(plain == noRollouts, "seed \(seed)")
            #expect(plain != rollouts, "seed \(seed)")
        }
    }
}

/// `alphazero` mixes playouts into its leaves' values on Quortex only (docs/learning.md):
/// the default is the game's, and naming it changes nothing.
@Suite("alphazero's playouts per game")
struct AlphaZeroRolloutDefaultsTests {
    func defaults(_ game: String) throws -> [String: String] {
        let entry = try Catalog.game(named: game)
        let info = try #require(entry.strategies.first { $0.name == "alphazero" }, "\(game)")
        return Dictionary(uniqueKeysWithValues: info.parameters.map { ($0.name, $0.defaultValue) })
    }

    @Test("Quortex lists rollouts 8 and sims 40, the other games 0 and 32; every game depth 10 and mix 0.75")
    func listed() throws {
        let quortex = try defaults("quortex")
        #expect(quortex["rollouts"] == "8" && quortex["sims"] == "40")
        for game in ["rail", "connect4", "tictactoe"] {
            let listed = try defaults(game)
            #expect(listed["rollouts"] == "0" && listed["sims"] == "32", "\(game)")
        }
        for game in ["quortex", "rail", "connect4", "tictactoe"] {
            let listed = try defaults(game)
            #expect(listed["rolloutDepth"] == "10" && listed["mix"] == "0.75", "\(game)")
        }
    }

    func actions(_ players: [String], seed: UInt64) throws -> [String] {
        let table = try Catalog.game(named: "quortex").makeTable(TableSetup(players: players.map { try StrategySpec.parse($0) }))
        var buffer = ActionBuffer()
        var trace: [String] = []
        _ = table.play(seed: seed, buffer: &buffer) { trace.append("\($0.seat) \($0.action)") }
        return trace
    }

    /// Expects `plain` (a knob left out) to play as `named` against `random` on seeds 3 and
    /// 4, and `other` to play otherwise on at least one of them.
    func expect(_ plain: String, playsAs named: String, notAs other: String,
                sourceLocation: SourceLocation = #_sourceLocation) throws {
        var differs = false
        for seed: UInt64 in [3, 4] {
            let played = try actions([plain, "random"], seed: seed)
            #expect(played == (try actions([named, "random"], seed: seed)), "seed \(seed)", sourceLocation: sourceLocation)
            if played != (try actions([other, "random"], seed: seed)) { differs = true }
        }
        #expect(differs, "\(plain) and \(other) play alike on both seeds", sourceLocation: sourceLocation)
    }

    @Test("A Quortex alphazero with no sims plays as sims=40, not 32")
    func quortexSearchesFortyEight() throws {
        try expect("alphazero(rollouts=1, rolloutDepth=2)", playsAs: "alphazero(sims=40, rollouts=1, rolloutDepth=2)",
                   notAs: "alphazero(sims=32, rollouts=1, rolloutDepth=2)")
    }

    @Test("A Quortex alphazero with no rollouts plays as rollouts=8; rollouts=0 (the network alone) plays otherwise")
    func quortexPlaysWithPlayouts() throws {
        try expect("alphazero(sims=8)", playsAs: "alphazero(sims=8, rollouts=8, rolloutDepth=10, mix=0.75)",
                   notAs: "alphazero(sims=8, rollouts=0)")
    }
}
