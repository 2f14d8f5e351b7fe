import LabCore

/// Why a Connect Four match ended: a line of four, or a full board without one (a draw).
public enum ConnectFourEndReason: UInt8, Sendable {
    case none = 0, fourInARow, boardFull

    /// The name in outcomes, traces and the protocol: `none`, `four-in-a-row`, `board-full`.
    public var name: String {
        switch self {
        case .none: "none"
        case .fourInARow: "four-in-a-row"
        case .boardFull: "board-full"
        }
    }
}

/// Connect Four: 7 columns, 6 rows, two seats; seat 0 (`X`) moves first. A move drops a
/// disc into a column that is not full (action = column 0...6); four discs of one seat
/// in a line, horizontal, vertical or diagonal, win; a full board without one is a draw.
///
/// The standard game only: there are no rule knobs and no chance, so every match is
/// the same empty board whatever its seed.
public struct ConnectFourGame: CatalogGame, Sendable {
    public typealias State = ConnectFourState

    /// The registry name.
    public static let name = "connect4"
    public static let summary = "Connect Four: 7 x 6, drop discs, four in a row wins (2 players; the template game)"
    /// Seats the game takes.
    public static let seatRange = 2...2

    public init() {}

    /// The game from `KEY=VALUE` rule settings (there are no knobs, so any setting is an
    /// error) and a seat count (only 2).
    public init(rules settings: [(key: String, value: String)], seatCount: Int) throws(InputError) {
        try Self.checkStandardRules(settings, seatCount: seatCount, standard: "the standard 7 x 6 game")
    }

    public var seatCount: Int { 2 }

    public var setupLines: [String] { ["board 7 x 6, standard rules"] }

    /// The empty board, seat 0 to move (`seed` is unused: the game has no chance).
    public func newMatch(seed: UInt64) -> ConnectFourState { ConnectFourState() }
}
