import LabCore

/// One Connect Four match in progress: each seat's discs as a ``Bitboard``, the height
/// of each column, the turn and how the match ended. A plain value of 32 bytes, copied
/// by memcpy; nothing about it is hidden.
public struct ConnectFourState: GameState, Sendable {
    public typealias Observation = ConnectFourObservation

    /// Seat 0's discs (`X`).
    @usableFromInline var discs0: UInt64 = 0
    /// Seat 1's discs (`O`).
    @usableFromInline var discs1: UInt64 = 0
    /// Discs in each column, 0...6: the row the next disc in it lands on.
    @usableFromInline var heights = InlineArray<7, UInt8>(repeating: 0)
    /// Discs dropped so far; seat `turns % 2` moves next.
    @usableFromInline var turns: UInt8 = 0
    /// The seat that made four in a row, or -1.
    @usableFromInline var winner: Int8 = -1
    @usableFromInline var reason = ConnectFourEndReason.none

    /// The empty board, seat 0 to move.
    @inlinable public init() {}

    // MARK: GameState

    public var seatCount: Int { 2 }
    @inlinable public var currentSeat: Int { Int(turns & 1) }
    @inlinable public var isTerminal: Bool { reason != .none }
    @inlinable public var turn: Int { Int(turns) }
    /// One action per column.
    public var actionSpaceSize: Int { Bitboard.columns }

    @inlinable
    public func observation(for seat: Int) -> ConnectFourObservation {
        ConnectFourObservation(seat: seat, position: self)
    }

    /// Made when asked (the play loop asks once per match; search never does): places
    /// [1, 2] or [2, 1] after four in a row, [1, 1] after a full board.
    public var outcome: Outcome? {
        switch reason {
        case .none: nil
        case .fourInARow: Outcome(places: winner == 0 ? [1, 2] : [2, 1], endReason: reason.name, turns: turn)
        case .boardFull: Outcome(places: [1, 1], endReason: reason.name, turns: turn)
        }
    }

    /// Terminal: the match score, 1 for the winner and 0 for the loser, 0.5 each after a
    /// full board. Before the end: 0.5 for both, a neutral estimate (the game has no
    /// cheap evaluation worth its cost; search plays rollouts to the end, at most 42
    /// discs away).
    /// - Complexity: O(1), no allocation.
    @inlinable
    public func searchValue(of seat: Int) -> Double {
        reason == .fourInARow ? (Int(winner) == seat ? 1 : 0) : 0.5
    }

    public static let seatStatNames = ["discs"]
    /// Discs the seat dropped.
    public func seatStats(_ seat: Int) -> [Int] { [discs(of: seat).nonzeroBitCount] }

    // MARK: Public figures

    /// The discs of `seat` as a ``Bitboard``.
    @inlinable public func discs(of seat: Int) -> UInt64 { seat == 0 ? discs0 : discs1 }
    /// Every disc on the board.
    @inlinable public var occupied: UInt64 { discs0 | discs1 }
    /// Discs in `column` (the row the next one lands on).
    @inlinable public func height(of column: Int) -> Int { Int(heights[column]) }
    /// The seat whose disc is on (`column`, `row`), or nil for an empty cell.
    public func seat(column: Int, row: Int) -> Int? {
        let bit = Bitboard.bit(column: column, row: row)
        return discs0 & bit != 0 ? 0 : discs1 & bit != 0 ? 1 : nil
    }
    /// The seat that made four in a row (nil while running and after a draw).
    public var winningSeat: Int? { winner < 0 ? nil : Int(winner) }
    public var endReason: ConnectFourEndReason { reason }
}

extension ConnectFourState: Equatable {
    public static func == (l: Self, r: Self) -> Bool {
        l.discs0 == r.discs0 && l.discs1 == r.discs1 && l.turns == r.turns && l.winner == r.winner && l.reason == r.reason
            && l.heights.sameElements(r.heights)
    }
}
