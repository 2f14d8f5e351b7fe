import LabCore
import RailGame

/// Train Depot Europe in the registry.
struct RailEntry: GameEntry {
    let name = RailGame.name
    let summary = "Train Depot Europe: 36 cities, 74 cards, missions (rules version 4)"
    let seatRange = RailGame.seatRange
    let knobs = RailRules.knobs
    let documentedCPU = "heuristic"
    var seatStatNames: [String] { RailState.seatStatNames }
    var usesMap: Bool { true }

    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError) { _ = try RailRules(settings: rules) }
    func checkMap(_ path: String?) throws(InputError) { _ = try RailMapFile.load(path: path ?? RailMapFile.defaultPath) }

    /// The game's own strategies, then search over them (`mcts`, `mcts-perfect`).
    static let entries: [StrategyEntry<RailGame>] = baseEntries + SearchEntries.entries(base: baseEntries)

    static let baseEntries: [StrategyEntry<RailGame>] = [
        StrategyEntry(name: "random", summary: "uniform over the legal actions") { _ in
            { context in UniformRandomStrategy<RailGame>(seed: context.seed) }
        },
        StrategyEntry(
            name: "heuristic",
            summary: "the documented CPU (SRS 4.5, 6.1.6): draw a mission with probability p, else build at random, else draw a card",
            parameters: [ParameterSpec("missionProbability", .number(0...1), default: "0.7",
                                       "chance of drawing a mission when it holds fewer than 2")]
        ) { params in
            let p = params.number("missionProbability")
            return { context in RailHeuristicCPU(seed: context.seed, missionProbability: p) }
        },
        StrategyEntry(name: "shipped-cpu", summary: "the app's CPU as shipped: build first, else draw a mission, else a card") { _ in
            { context in RailShippedCPU(seed: context.seed) }
        },
    ]

    var strategies: [StrategyInfo] { Self.entries.map(\.info) }

    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable {
        let rules = try RailRules(settings: setup.rules)
        let path = setup.mapPath ?? RailMapFile.defaultPath
        let map = try RailMapFile.load(path: path)
        let game = try RailGame(map: map, rules: rules, seatCount: setup.players.count)
        let factories = try resolve(setup.players, in: Self.entries)
        let changed = setup.rules.map { "\($0.key)=\($0.value)" }
        return Table(game: game, players: setup.players,
                     setupLines: ["map \(map.name) (\(path)): \(map.cities.count) cities, \(map.railroads.count) railroads",
                                  "rules: " + (changed.isEmpty ? "defaults" : changed.joined(separator: ", "))],
                     loop: playLoop(game, factories))
    }
}
