import LabCore
import Pictures
import Tournament

/// A set-up table that plays matches from seeds; safe to share between threads (each
/// match makes its own strategies).
public protocol MatchTable: Sendable {
    var seatCount: Int { get }
    var players: [StrategySpec] { get }
    /// Lines describing the set-up (map, rules), for headers.
    var setupLines: [String] { get }
    /// Allowed but questionable set-ups, for the user to see (e.g. opposed solo seats).
    var warnings: [String] { get }
    /// What a tournament counts per board element (railroads, cells); nil for none.
    var boardCounts: BoardCountsSpec? { get }
    /// Plays the match with match seed `seed` (the deal and the strategies) like
    /// ``play(seed:buffer:trace:)`` and keeps every step for a replay page: the game's
    /// drawing (``ReplayDrawing``), or the move list of a game without one; `label` is
    /// the seed the user gave.
    func replay(seed: UInt64, label: UInt64, buffer: inout ActionBuffer,
                trace: ((TraceEvent) -> Void)?) -> (report: MatchReport, replay: ReplayScene)
    /// Plays the match dealt from `seed`, its strategies seeded from `strategySeed`
    /// (nil: from `seed` too) and told its number `match`; `render` draws the final board
    /// into the report; `timer`, when given, records each decision's time.
    func play(seed: UInt64, strategySeed: UInt64?, match: Int, render: Bool, buffer: inout ActionBuffer,
              trace: ((TraceEvent) -> Void)?, timer: DecisionTimer?) -> MatchReport
}

extension MatchTable {
    /// Plays the match with match seed `seed` (the deal and the strategies), drawing the
    /// final board.
    public func play(seed: UInt64, buffer: inout ActionBuffer, trace: ((TraceEvent) -> Void)?) -> MatchReport {
        play(seed: seed, strategySeed: nil, match: 0, render: true, buffer: &buffer, trace: trace, timer: nil)
    }
}
