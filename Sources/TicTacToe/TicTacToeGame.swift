import LabCore

/// Why a tic-tac-toe match ended: three in a row, or a full board without one (a draw).
public enum TicTacToeEndReason: UInt8, Sendable {
    case none = 0, threeInARow, boardFull

    /// The name in outcomes, traces and the protocol: `none`, `three-in-a-row`, `board-full`.
    public var name: String {
        switch self {
        case .none: "none"
        case .threeInARow: "three-in-a-row"
        case .boardFull: "board-full"
        }
    }
}

/// Tic-tac-toe: a 3 x 3 board, two seats; seat 0 (`X`) moves first. A move marks an empty
/// cell (action = cell 0...8, row by row from the top left); three marks of one seat in a
/// row, column or diagonal win; a full board without one is a draw. Perfect play draws.
///
/// The smallest game of the lab: no knobs, no chance, added as one module and one catalog
/// line (docs/adding-a-game.md).
public struct TicTacToeGame: CatalogGame, Sendable {
    public typealias State = TicTacToeState

    public static let name = "tictactoe"
    public static let summary = "Tic-tac-toe: 3 x 3, three in a row wins, perfect play draws (2 players)"
    public static let seatRange = 2...2

    public init() {}

    /// The game from rule settings (there are no knobs, so any setting is an error) and a
    /// seat count (only 2).
    public init(rules settings: [(key: String, value: String)], seatCount: Int) throws(InputError) {
        try Self.checkStandardRules(settings, seatCount: seatCount, standard: "the standard 3 x 3 game")
    }

    public var seatCount: Int { 2 }
    public var setupLines: [String] { ["board 3 x 3, standard rules"] }

    /// The empty board, seat 0 to move (`seed` is unused: the game has no chance).
    public func newMatch(seed: UInt64) -> TicTacToeState { TicTacToeState() }
}
