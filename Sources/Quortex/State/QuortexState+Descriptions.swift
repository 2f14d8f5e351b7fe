import LabCore

extension QuortexState {
    /// `(-3,3) T0 r0` (rule book, "Records"; the trace adds the seat).
    public func describe(_ action: Int) -> String {
        "\(setup.board.name(action / 6)) T\(tile) r\(action % 6)"
    }

    /// `edge 0 | placed 4 | drew T2 | bag 31`.
    public func traceDetail(seat: Int) -> String {
        let side = setup.sideOfSeat[seat]
        let partners = setup.seats(ofSide: side).filter { $0 != seat }
        let team = partners.isEmpty ? "" : " (team with \(partners.map { "P\($0)" }.joined(separator: ", ")))"
        return "edge \(setup.edges[seat])\(team) | placed \(placedBySeat[seat]) | bag \(bagCount)" + (isTerminal ? "" : " | next P\(currentSeat) drew T\(tile)")
    }

    /// The board as text, row +R at the top: one character per cell, `.` empty or the
    /// tile type `0`-`3`, offset half a cell per row so the hexagon shows.
    public func renderBoard() -> String? {
        let board = setup.board
        let r = board.radius
        var lines: [String] = []
        for row in stride(from: r, through: -r, by: -1) {
            var chars = [Character](repeating: " ", count: 4 * r + 1)
            for col in -r...r where abs(row + col) <= r {
                let c = board.index(row: row, col: col)!
                let x = 2 * col + row + 2 * r
                chars[x] = cells[c] == Self.emptyCell ? "." : Character(String(Int(cells[c]) / 6))
            }
            lines.append("  " + String(chars).trimmingTrailingSpaces)
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
