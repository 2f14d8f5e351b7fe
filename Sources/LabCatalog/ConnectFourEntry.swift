import ConnectFour
import LabCore

/// Connect Four in the registry: the smallest complete entry, the template for a new
/// game (docs/adding-a-game.md). Everything else (tournaments, reports, replays, search,
/// the player protocol) works from what the game module and this entry supply.
struct ConnectFourEntry: GameEntry {
    let name = ConnectFourGame.name
    let summary = "Connect Four: 7 x 6, drop discs, four in a row wins (2 players; the template game)"
    let seatRange = ConnectFourGame.seatRange
    let knobs = ConnectFourGame.knobs
    /// No published CPU: `random` anchors the ratings.
    let documentedCPU = "random"
    var seatStatNames: [String] { ConnectFourState.seatStatNames }

    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError) {
        _ = try ConnectFourGame(rules: rules, seatCount: ConnectFourGame.seatRange.lowerBound)
    }

    /// `random`, then search over it (`mcts`, `mcts-perfect`), then bots over the player
    /// protocol (`external`).
    static let entries: [StrategyEntry<ConnectFourGame>] = baseEntries + SearchEntries.entries(base: baseEntries)
        + LearnedEntries.entries(learned) + [ExternalEntry.entry(for: ConnectFourGame.self)]

    /// Learned policy-value models (`oplab learn connect4`), read through the board encoder.
    static let learned = LearnedSupport<ConnectFourGame>(shipped: .connect4, decisive: true) { _ in ConnectFourFeatures() }

    static let baseEntries: [StrategyEntry<ConnectFourGame>] = [
        StrategyEntry(name: "random", summary: "uniform over the columns that are not full") { _, _ in
            { context in UniformRandomStrategy<ConnectFourGame>(seed: context.seed) }
        },
    ]

    var strategies: [StrategyInfo] { Self.entries.map(\.info) }

    var learning: (any GameLearning)? {
        Learner<ConnectFourGame, ConnectFourFeatures>(makeGame: { rules, _, seats throws(InputError) in
            try ConnectFourGame(rules: rules.map { ($0.key, $0.value) }, seatCount: seats)
        }, encoder: { _ in ConnectFourFeatures() }, decisive: Self.learned.decisive, teachers: { specs, game throws(InputError) in
            try self.teachers(try specs.map { text throws(InputError) in try StrategySpec.parse(text) }, in: Self.entries, game: game)
        })
    }

    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable {
        let game = try ConnectFourGame(rules: setup.rules, seatCount: setup.players.count)
        let factories = try resolve(setup.players, in: Self.entries, game: game, setup: setup)
        return Table(game: game, players: setup.players, setupLines: ["board 7 x 6, standard rules"],
                     loop: playLoop(game, factories), figureNames: seatStatNames, draw: ConnectFourGame.scene(of:))
    }
}
