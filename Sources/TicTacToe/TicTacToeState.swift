import LabCore

/// One tic-tac-toe match in progress: each seat's marks as 9 bits (bit = cell, row by row
/// from the top left), the turn and how the match ended. A plain value, copied by memcpy;
/// nothing is hidden.
public struct TicTacToeState: GameState, Sendable, Equatable {
    public typealias Observation = TicTacToeObservation

    /// The cells of the board.
    public static let cells = 9
    /// The eight lines of three: rows, columns, diagonals, as cell masks.
    public static let lines: [UInt16] = [0b000_000_111, 0b000_111_000, 0b111_000_000, 0b001_001_001, 0b010_010_010, 0b100_100_100,
                                         0b100_010_001, 0b001_010_100]
    /// Each seat's mark: `X` moves first.
    public static let marks = ["X", "O"]

    /// Seat 0's and seat 1's marks.
    public private(set) var marks0: UInt16 = 0
    public private(set) var marks1: UInt16 = 0
    private var turns: UInt8 = 0
    private var winner: Int8 = -1
    public private(set) var endReason = TicTacToeEndReason.none

    /// The empty board, seat 0 to move.
    public init() {}

    public var seatCount: Int { 2 }
    public var currentSeat: Int { Int(turns & 1) }
    public var isTerminal: Bool { endReason != .none }
    public var turn: Int { Int(turns) }
    /// One action per cell.
    public var actionSpaceSize: Int { Self.cells }

    public func observation(for seat: Int) -> TicTacToeObservation { TicTacToeObservation(seat: seat, position: self) }

    /// The marks of `seat`.
    public func marks(of seat: Int) -> UInt16 { seat == 0 ? marks0 : marks1 }
    /// The seat whose mark is on `cell`, or nil for an empty cell.
    public func seat(at cell: Int) -> Int? {
        let bit = UInt16(1) << UInt16(cell)
        return marks0 & bit != 0 ? 0 : marks1 & bit != 0 ? 1 : nil
    }
    /// The seat that made three in a row (nil while running and after a draw).
    public var winningSeat: Int? { winner < 0 ? nil : Int(winner) }

    /// Whether `marks` hold a line of three.
    public static func hasLine(_ marks: UInt16) -> Bool { lines.contains { marks & $0 == $0 } }

    /// The empty cells, ascending; none once the match is over.
    public func legalActions(into buffer: inout ActionBuffer) {
        let free = ~(marks0 | marks1)
        buffer.fill(upTo: Self.cells) { out in
            var n = 0
            guard endReason == .none else { return 0 }
            for cell in 0..<Self.cells where free & (1 << UInt16(cell)) != 0 {
                out[n] = Int32(cell)
                n += 1
            }
            return n
        }
    }

    /// Marks cell `action` for the mover; three in a row wins, else the ninth mark ends the
    /// match drawn.
    /// - Precondition: the match runs and the cell is empty.
    public mutating func apply(_ action: Int) {
        precondition(endReason == .none && (0..<Self.cells).contains(action) && seat(at: action) == nil, "tictactoe: not a legal mark")
        let bit = UInt16(1) << UInt16(action)
        let won: Bool
        if turns & 1 == 0 {
            marks0 |= bit
            won = Self.hasLine(marks0)
        } else {
            marks1 |= bit
            won = Self.hasLine(marks1)
        }
        if won {
            winner = Int8(turns & 1)
            endReason = .threeInARow
        } else if turns == 8 {
            endReason = .boardFull
        }
        turns += 1
    }

    /// Places [1, 2] or [2, 1] after three in a row, [1, 1] after a full board.
    public var outcome: Outcome? {
        switch endReason {
        case .none: nil
        case .threeInARow: Outcome(places: winner == 0 ? [1, 2] : [2, 1], endReason: endReason.name, turns: turn)
        case .boardFull: Outcome(places: [1, 1], endReason: endReason.name, turns: turn)
        }
    }

    /// Terminal: 1 for the winner, 0 for the loser, 0.5 each after a draw; before: 0.5.
    public func searchValue(of seat: Int) -> Double {
        endReason == .threeInARow ? (Int(winner) == seat ? 1 : 0) : 0.5
    }

    public static let seatStatNames = ["marks"]
    public func seatStats(_ seat: Int) -> [Int] { [marks(of: seat).nonzeroBitCount] }

    /// `mark r1c2`: row 1, column 2 (from 0, top left), cell 5.
    public func describe(_ action: Int) -> String { TicTacToeGame.text(of: action) }

    /// `X | marks 3`.
    public func traceDetail(seat: Int) -> String { "\(Self.marks[seat]) | marks \(marks(of: seat).nonzeroBitCount)" }

    /// The board as three lines, top row first: `X`, `O` or `.` per cell.
    public func renderBoard() -> String? {
        (0..<3).map { row in (0..<3).map { seat(at: row * 3 + $0).map { Self.marks[$0] } ?? "." }.joined(separator: " ") }
            .joined(separator: "\n")
    }

    /// The first broken invariant: marks only on the board, never two on a cell; seat 0
    /// with as many marks as seat 1 or one more, their sum the turn; the end agreeing with
    /// the board (a winner holds a line and made the last mark, a draw fills the board).
    public func invariantViolation() -> String? {
        if (marks0 | marks1) >> 9 != 0 { return "marks outside the board" }
        if marks0 & marks1 != 0 { return "a cell holds marks of both seats" }
        let count0 = marks0.nonzeroBitCount, count1 = marks1.nonzeroBitCount
        if count0 + count1 != turn { return "\(count0 + count1) marks after \(turn) turns" }
        if count0 != count1 + turn % 2 { return "seat 0 has \(count0) marks and seat 1 \(count1) after \(turn) turns" }
        let line0 = Self.hasLine(marks0), line1 = Self.hasLine(marks1)
        switch endReason {
        case .none:
            if line0 || line1 { return "a running match with three in a row" }
            if turn >= Self.cells { return "a running match with a full board" }
        case .threeInARow:
            guard let seat = winningSeat, seat == 0 ? line0 : line1 else { return "winner \(winner) has no line" }
            if seat != (turn - 1) % 2 { return "winner \(seat) did not make the last mark" }
            if line0 && line1 { return "both seats have a line" }
        case .boardFull:
            if turn != Self.cells || line0 || line1 || winner != -1 { return "a draw without a full board, or with a line" }
        }
        return nil
    }
}

/// What a seat sees of a tic-tac-toe match: all of it.
public struct TicTacToeObservation: GameObservation, Sendable {
    public typealias State = TicTacToeState
    public let seat: Int
    public let position: TicTacToeState

    public init(seat: Int, position: TicTacToeState) {
        self.seat = seat
        self.position = position
    }

    /// Marks made so far.
    public var turn: Int { position.turn }

    /// The position itself: nothing is hidden.
    public func sampleState(using rng: inout LabRandom) -> TicTacToeState { position }
}

extension TicTacToeGame {
    /// `mark rRcC` for the action (cell) 3R + C.
    static func text(of action: Int) -> String { "mark r\(action / 3)c\(action % 3)" }
}
