import Evaluators
import LabCore
import Pictures
import Quortex
import Search
import Tournament

/// Quortex in the registry.
struct QuortexEntry: GameEntry {
    let name = QuortexGame.name
    let summary = "Quortex: hex tile placement; join your edge to the opposite one (2-6 players, teams from 4)"
    let seatRange = QuortexSetup.seatRange
    let knobs = QuortexRules.knobs
    let documentedCPU = "reference"
    var boardDrawing: (any BoardCountDrawing)? { QuortexBoardDrawing() }
    var seatStatNames: [String] { QuortexState.seatStatNames }
    /// The win type (flow, tie or constraint: the end reason under its rule-book name),
    /// then the seat's figures.
    var tournamentColumns: [String] { ["win_type"] + seatStatNames }

    func appendTournamentFields(_ report: MatchReport, seat: Int, to record: inout MatchRecord) {
        record.appendField(report.outcome.endReason)
        for value in report.seatStats[seat] { record.appendField(value) }
    }

    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError) { _ = try QuortexRules(settings: rules) }

    /// The game's own strategies, then search over them (`mcts`, `mcts-perfect`), the
    /// learned model's greedy player, and bots over the player protocol (`external`).
    static let entries: [StrategyEntry<QuortexGame>] = baseEntries
        + SearchEntries.entries(base: baseEntries, models: models, defaults: searchDefaults)
        + [ModelEntries.greedy(models)] + LearnedEntries.entries(learned) + [ExternalEntry.entry(for: QuortexGame.self)]

    /// Learned policy-value models (`oplab learn quortex`), read through the value models' encoder.
    /// `alphazero` mixes 8 playouts into each leaf's value: the tile draws make one
    /// network value a noisy judge; and searches 40 simulations, under the tuned `mcts`'s
    /// time a move (see docs/learning.md).
    static let learned = LearnedSupport<QuortexGame>(shipped: ShippedModel.learned(for: QuortexGame.name), decisive: true, rollouts: 8,
                                                     sims: 40) {
        QuortexPolicyFeatures(board: $0.setup.board)
    }

    /// `mcts` defaults for Quortex: no rollouts, every leaf scored by the game's estimate,
    /// which random rollouts only blur (measured against `reference`: docs/strategies.md).
    static let searchDefaults = MCTSSettings(rolloutDepth: 0)

    static let models = ModelSupport<QuortexGame>(shipped: .quortex) { QuortexFeatures(board: $0.setup.board) }

    static let baseEntries: [StrategyEntry<QuortexGame>] = [
        StrategyEntry(name: "random", summary: "uniform over the legal placements") { _, _ in
            { context in UniformRandomStrategy<QuortexGame>(seed: context.seed) }
        },
        StrategyEntry(name: "reference", summary: "the published implementation's one-ply AI (deterministic)") { _, _ in
            { _ in QuortexReferenceAI() }
        },
    ]

    var strategies: [StrategyInfo] { Self.entries.map(\.info) }

    var learning: (any GameLearning)? {
        Learner<QuortexGame, QuortexPolicyFeatures>(makeGame: { rules, _, seats throws(InputError) in
            try QuortexGame(rules: try QuortexRules(settings: rules.map { ($0.key, $0.value) }), seatCount: seats)
        }, encoder: { QuortexPolicyFeatures(board: $0.setup.board) }, decisive: Self.learned.decisive, teachers: { specs, game throws(InputError) in
            try StrategyLookup.teachers(try specs.map { text throws(InputError) in try StrategySpec.parse(text) }, in: Self.entries, game: game)
        })
    }
    var trains: Bool { true }

    func train(_ request: TrainingRequest, rules: [(key: String, value: String)], mapPath: String?, seats: Int,
               log: @escaping @Sendable (String) -> Void) throws(InputError) -> ValueModel {
        let game = try QuortexGame(rules: try QuortexRules(settings: rules), seatCount: seats)
        let teachers = try StrategyLookup.teachers(request.teachers, in: Self.entries, game: game)
        return Self.models.train(game, teachers, request, log)
    }

    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable {
        let rules = try QuortexRules(settings: setup.rules)
        let game = try QuortexGame(rules: rules, seatCount: setup.players.count)
        let factories = try StrategyLookup.resolve(setup.players, in: Self.entries, game: game, setup: setup)
        let s = game.setup
        let seats = (0..<s.seatCount).map { "P\($0) edge \(s.edges[$0])" }.joined(separator: ", ")
        let sides = (0..<s.sideAxis.count).map { side in
            "{" + s.seats(ofSide: side).map { "P\($0)" }.joined(separator: ",") + "} joins edges \(s.sideAxis[side])-\(s.sideAxis[side] + 3)"
        }.joined(separator: "; ")
        let warnings = rules.warnings + s.opposedSoloSeats.map { a, b in
            "P\(a) (edge \(s.edges[a])) and P\(b) (edge \(s.edges[b])) play alone on opposite edges: every path between them is a tie"
        }
        return Table(game: game, players: setup.players,
                     setupLines: ["board radius \(rules.radius) (\(s.board.cells.count) cells), bag \(rules.bag.map(String.init).joined(separator: ","))",
                                  "seats: \(seats); turn order \(s.turnOrder.map { "P\($0)" }.joined(separator: " "))", "sides: \(sides)"],
                     warnings: warnings,
                     loop: playLoop(game, factories), boardCounts: Self.boardCounts(s.board),
                     marks: { state, seat in
                         let marks = state.tournamentMarks(of: seat)
                         return [marks.placed, marks.flow]
                     },
                     figureNames: seatStatNames, draw: QuortexGame.scene(of:))
    }

    /// A tournament's `cells.csv`: per cell and entrant, the tiles the entrant placed
    /// there (`placed_cells`) and the matches in which the cell lay on the completed
    /// flow of a seat the entrant played that finished first (`flow_cells`).
    static func boardCounts(_ board: QuortexBoard) -> BoardCountsSpec {
        BoardCountsSpec(file: "cells.csv", elementName: "cell", elementColumns: ["cell", "row", "col"],
                        elements: board.cells.enumerated().map { [String($0.offset), String($0.element.row), String($0.element.col)] },
                        counts: [.init(name: "placed", column: "placed_cells"),
                                 .init(name: "winning_flow", column: "flow_cells", firstPlaceOnly: true)])
    }
}
