import ConnectFour
import LabCore
import Testing

/// Shared set-up for the Connect Four tests: positions from moves or pictures, legal
/// actions as arrays, and a plain grid that finds fours by walking every line (the
/// oracle the bitboard is checked against).
enum C4 {
    static let game = ConnectFourGame()

    /// The position after dropping discs into `columns` in turn from the empty board.
    static func play(_ columns: [Int]) -> ConnectFourState {
        var state = game.newMatch(seed: 0)
        for column in columns { state.apply(column) }
        return state
    }

    static func legal(_ state: ConnectFourState) -> [Int] {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return buffer.actions
    }

    /// A running position from a picture (top row first), checked sound: invariants
    /// intact, not over, `mover` to move.
    static func position(_ rows: [String], mover: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> ConnectFourState {
        let state = ConnectFourState(picture: rows)
        try #require(state.invariantViolation() == nil, "picture: \(state.invariantViolation() ?? "")", sourceLocation: sourceLocation)
        try #require(!state.isTerminal, "the picture is already over", sourceLocation: sourceLocation)
        try #require(state.currentSeat == mover, sourceLocation: sourceLocation)
        return state
    }
}

/// The board as a plain grid, `cells[column][row]` the seat or nil: fours found by
/// walking every line of four cells in each of the four directions.
struct Grid {
    var cells = [[Int?]](repeating: [Int?](repeating: nil, count: 6), count: 7)

    init() {}

    init(_ state: ConnectFourState) {
        for column in 0..<7 { for row in 0..<6 { cells[column][row] = state.seat(column: column, row: row) } }
    }

    var heights: [Int] { cells.map { column in column.firstIndex(of: nil) ?? 6 } }

    mutating func drop(_ column: Int, seat: Int) {
        cells[column][heights[column]] = seat
    }

    /// Whether `seat` holds four in a line, every line walked cell by cell.
    func hasFour(_ seat: Int) -> Bool {
        for column in 0..<7 {
            for row in 0..<6 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let line = (0..<4).map { (column + dc * $0, row + dr * $0) }
                    if line.allSatisfy({ (0..<7).contains($0.0) && (0..<6).contains($0.1) && cells[$0.0][$0.1] == seat }) { return true }
                }
            }
        }
        return false
    }
}
