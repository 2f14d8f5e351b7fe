import Evaluators
import LabCore
import Quortex

/// Quortex in the registry.
struct QuortexEntry: GameEntry {
    let name = QuortexGame.name
    let summary = "Quortex: hex tile placement; join your edge to the opposite one (2-6 players, teams from 4)"
    let seatRange = QuortexSetup.seatRange
    let knobs = QuortexRules.knobs
    let documentedCPU = "reference"
    var seatStatNames: [String] { QuortexState.seatStatNames }
    /// The win type (flow, tie or constraint: the end reason under its rule-book name),
    /// then the seat's figures.
    var tournamentColumns: [String] { ["win_type"] + seatStatNames }

    func tournamentColumns(_ report: MatchReport, seat: Int) -> [String] {
        [report.outcome.endReason] + report.seatStats[seat].map(String.init)
    }

    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError) { _ = try QuortexRules(settings: rules) }

    /// The game's own strategies, then search over them (`mcts`, `mcts-perfect`).
    static let entries: [StrategyEntry<QuortexGame>] = baseEntries + SearchEntries.entries(base: baseEntries, models: models)
        + [ModelEntries.greedy(models)]

    static let models = ModelSupport<QuortexGame>(defaultModel: "configs/models/quortex-mlp.model") { QuortexFeatures(board: $0.setup.board) }

    static let baseEntries: [StrategyEntry<QuortexGame>] = [
        StrategyEntry(name: "random", summary: "uniform over the legal placements") { _, _ in
            { context in UniformRandomStrategy<QuortexGame>(seed: context.seed) }
        },
        StrategyEntry(name: "reference", summary: "the published implementation's one-ply AI (deterministic)") { _, _ in
            { _ in QuortexReferenceAI() }
        },
    ]

    var strategies: [StrategyInfo] { Self.entries.map(\.info) }

    func train(_ request: TrainingRequest, rules: [(key: String, value: String)], mapPath: String?, seats: Int,
               log: @escaping @Sendable (String) -> Void) throws(InputError) -> ValueModel {
        let game = try QuortexGame(rules: try QuortexRules(settings: rules), seatCount: seats)
        let teachers = try resolve(request.teachers, in: Self.entries, game: game)
        return Self.models.train(game, teachers, request, log)
    }

    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable {
        let rules = try QuortexRules(settings: setup.rules)
        let game = try QuortexGame(rules: rules, seatCount: setup.players.count)
        let factories = try resolve(setup.players, in: Self.entries, game: game)
        let s = game.setup
        let seats = (0..<s.seatCount).map { "P\($0) edge \(s.edges[$0])" }.joined(separator: ", ")
        let sides = (0..<s.sideAxis.count).map { side in
            "{" + s.seats(ofSide: side).map { "P\($0)" }.joined(separator: ",") + "} joins edges \(s.sideAxis[side])-\(s.sideAxis[side] + 3)"
        }.joined(separator: "; ")
        let warnings = s.opposedSoloSeats.map { a, b in
            "P\(a) (edge \(s.edges[a])) and P\(b) (edge \(s.edges[b])) play alone on opposite edges: every path between them is a tie"
        }
        return Table(game: game, players: setup.players,
                     setupLines: ["board radius \(rules.radius) (\(s.board.cells.count) cells), bag \(rules.bag.map(String.init).joined(separator: ","))",
                                  "seats: \(seats); turn order \(s.turnOrder.map { "P\($0)" }.joined(separator: " "))", "sides: \(sides)"],
                     warnings: warnings,
                     loop: playLoop(game, factories))
    }
}
