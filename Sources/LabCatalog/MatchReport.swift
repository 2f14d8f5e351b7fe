import LabCore

/// What a finished match reports, game-neutrally.
public struct MatchReport: Sendable {
    public var outcome: Outcome
    /// Per seat, the figures named by ``GameEntry/seatStatNames``.
    public var seatStats: [[Int]]
    /// A text drawing of the final position, for games with a board.
    public var board: String?
    /// Per seat, per count of the table's ``MatchTable/boardCounts``, the board elements
    /// the seat marked (bit i: element i). Empty without board counts.
    public var marks: [[UInt128]] = []
}
