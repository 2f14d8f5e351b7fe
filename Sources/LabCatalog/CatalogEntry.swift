import LabCore
import Pictures

/// A game listed from what it says of itself (``CatalogGame``), one line in
/// ``Catalog/games``: `random`, search over it (`mcts`, `mcts-perfect`), the learned
/// players `alphazero` and `policy` when it has a feature encoder (with its shipped model,
/// `configs/models/learned/GAME.model`, when there is one), and external bots.
///
/// The optional parts: the game's own strategies (listed before `random`'s searches run
/// over them), a documented CPU other than `random`, a feature encoder, a replay picture.
/// Rail and Quortex, with maps, value models and board counts, keep entries of their own.
struct CatalogEntry<G: CatalogGame & ProtocolGame>: GameEntry {
    let name = G.name
    let summary = G.summary
    let seatRange = G.seatRange
    let knobs = G.knobs
    let documentedCPU: String
    var seatStatNames: [String] { G.State.seatStatNames }
    let entries: [StrategyEntry<G>]
    let learning: (any GameLearning)?
    private let draw: (@Sendable (MatchReplay<G>) -> ReplayScene)?

    /// A game without a feature encoder.
    init(_: G.Type, documentedCPU: String = "random", strategies own: [StrategyEntry<G>] = [],
         draw: (@Sendable (MatchReplay<G>) -> ReplayScene)? = nil) {
        let base = Self.base(own)
        entries = base + SearchEntries.entries(base: base) + [ExternalEntry.entry(for: G.self)]
        learning = nil
        self.documentedCPU = documentedCPU
        self.draw = draw
    }

    /// A game with a feature encoder: `oplab learn` learns it, and `alphazero` and `policy`
    /// play its models (`decisive`: the game ends on a winning move, so searches take one
    /// when they see it).
    init<E: FeatureEncoder>(_: G.Type, documentedCPU: String = "random", strategies own: [StrategyEntry<G>] = [],
                            draw: (@Sendable (MatchReplay<G>) -> ReplayScene)? = nil,
                            decisive: Bool = false, encoder: @escaping @Sendable (G) -> E) where E.Observation == G.State.Observation {
        let base = Self.base(own)
        let support = LearnedSupport<G>(shipped: ShippedModel.learned(for: G.name), decisive: decisive, encoder: encoder)
        let entries = base + SearchEntries.entries(base: base) + LearnedEntries.entries(support) + [ExternalEntry.entry(for: G.self)]
        self.entries = entries
        learning = Learner<G, E>(makeGame: { rules, _, seats throws(InputError) in
            try G(rules: rules.map { ($0.key, $0.value) }, seatCount: seats)
        }, encoder: encoder, decisive: decisive, teachers: { specs, game throws(InputError) in
            try StrategyLookup.teachers(try specs.map { text throws(InputError) in try StrategySpec.parse(text) }, in: entries, game: game)
        })
        self.documentedCPU = documentedCPU
        self.draw = draw
    }

    /// The game's own strategies and `random` (unless it has its own).
    private static func base(_ own: [StrategyEntry<G>]) -> [StrategyEntry<G>] {
        let random = StrategyEntry<G>(name: "random", summary: "uniform over the legal actions") { _, _ in
            { context in UniformRandomStrategy<G>(seed: context.seed) }
        }
        return own.contains { $0.name == "random" } ? own : [random] + own
    }

    var strategies: [StrategyInfo] { entries.map(\.info) }

    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError) {
        _ = try G(rules: rules, seatCount: G.seatRange.lowerBound)
    }

    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable {
        let game = try G(rules: setup.rules, seatCount: setup.players.count)
        let factories = try StrategyLookup.resolve(setup.players, in: entries, game: game, setup: setup)
        return Table(game: game, players: setup.players, setupLines: game.setupLines,
                     loop: playLoop(game, factories), figureNames: seatStatNames, draw: draw)
    }
}
