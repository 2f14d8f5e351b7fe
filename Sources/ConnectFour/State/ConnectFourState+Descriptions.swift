import LabCore

extension ConnectFourState {
    /// `drop c3`: a disc into column 3, columns numbered 0...6 from the left as the
    /// action ids are (the protocol's `text` is the same).
    public func describe(_ action: Int) -> String { ConnectFourGame.text(of: action) }

    /// `X | discs 5`: the seat's mark and the discs it dropped.
    public func traceDetail(seat: Int) -> String {
        "\(Self.marks[seat]) | discs \(discs(of: seat).nonzeroBitCount)"
    }

    /// The board as text: the top row (the sixth) first, `X` for seat 0, `O` for seat 1,
    /// `.` for an empty cell, cells one space apart, and a last line numbering the
    /// columns 0...6 as the actions do.
    ///
    ///     . . . . . . .
    ///     . . . . . . .
    ///     . . . . . . .
    ///     . . . . . . .
    ///     . . O . . . .
    ///     . . X X . . .
    ///     0 1 2 3 4 5 6
    public func renderBoard() -> String? {
        var lines: [String] = []
        for row in stride(from: Bitboard.rows - 1, through: 0, by: -1) {
            lines.append((0..<Bitboard.columns).map { column in seat(column: column, row: row).map { Self.marks[$0] } ?? "." }
                .joined(separator: " "))
        }
        lines.append((0..<Bitboard.columns).map(String.init).joined(separator: " "))
        return lines.joined(separator: "\n")
    }

    /// Each seat's mark on the board: `X` moves first.
    public static let marks = ["X", "O"]
}

extension ConnectFourGame {
    /// `drop cN` for the action (column) N.
    static func text(of action: Int) -> String { "drop c\(action)" }
}
