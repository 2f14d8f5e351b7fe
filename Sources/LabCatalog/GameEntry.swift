import Evaluators
import LabCore
import Pictures
import Tournament

/// One game as the harness and the command line see it: no game types leak out.
public protocol GameEntry: Sendable {
    var name: String { get }
    var summary: String { get }
    var seatRange: ClosedRange<Int> { get }
    var knobs: [RuleKnob] { get }
    var strategies: [StrategyInfo] { get }
    /// The game's documented CPU, the rating anchor.
    var documentedCPU: String { get }
    /// Per-seat figures a finished match reports.
    var seatStatNames: [String] { get }
    /// Whether a table takes a map file (``TableSetup/mapPath``).
    var usesMap: Bool { get }
    /// Checks rule settings alone (knob names and values).
    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError)
    /// Checks the map a table would load (`path`, or the game's default).
    func checkMap(_ path: String?) throws(InputError)
    /// Checks the map file at `path` against the rules, finding every problem rather
    /// than the first; nil for a game that takes no map.
    func checkMapFile(_ path: String) -> MapCheck?
    /// Checks the setup (rules, map, seat count, every strategy) and makes a table.
    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable
    /// Names of the game's own per-seat columns in a tournament's `matches.csv`.
    var tournamentColumns: [String] { get }
    /// Trains a value model by self-play of `request.teacher` on a table with these
    /// rules, map and seat count (`setup.players` is ignored but for its count). A game
    /// without a feature encoder refuses (the default).
    func train(_ request: TrainingRequest, rules: [(key: String, value: String)], mapPath: String?, seats: Int,
               log: @escaping @Sendable (String) -> Void) throws(InputError) -> ValueModel
    /// Adds those columns' values for `seat` of a finished match to `record`.
    func appendTournamentFields(_ report: MatchReport, seat: Int, to record: inout MatchRecord)
    /// Whether the game trains value models (has a feature encoder).
    var trains: Bool { get }
    /// The game's picture of a tournament's board counts (the report's board section);
    /// nil for none.
    /// How `oplab learn` learns a policy-value model of this game (nil: it does not).
    var learning: (any GameLearning)? { get }
    var boardDrawing: (any BoardCountDrawing)? { get }
}

extension GameEntry {
    public var usesMap: Bool { false }
    public func checkMap(_ path: String?) throws(InputError) {}
    public func checkMapFile(_ path: String) -> MapCheck? { nil }
    public func train(_ request: TrainingRequest, rules: [(key: String, value: String)], mapPath: String?, seats: Int,
                      log: @escaping @Sendable (String) -> Void) throws(InputError) -> ValueModel {
        throw InputError("\(name) has no feature encoder, so no value model to train; games that train: "
            + Catalog.games.filter(\.trains).map(\.name).joined(separator: ", "))
    }
    /// A game trains only when its entry says so (and implements ``train(_:rules:mapPath:seats:log:)``).
    public var trains: Bool { false }
    public var tournamentColumns: [String] { seatStatNames }
    public func appendTournamentFields(_ report: MatchReport, seat: Int, to record: inout MatchRecord) {
        for value in report.seatStats[seat] { record.appendField(value) }
    }
    public var learning: (any GameLearning)? { nil }
    public var boardDrawing: (any BoardCountDrawing)? { nil }

    /// The seats a tournament's table may have: the game's ``seatRange`` from 2 up (a
    /// match of one seat, rail's solitaire, has no opponent to beat: it would count every
    /// match a win).
    public var tournamentSeats: ClosedRange<Int> { max(2, seatRange.lowerBound)...max(2, seatRange.upperBound) }
}
