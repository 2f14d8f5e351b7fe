import LabCore
import Pictures

/// The replay: the 7 x 6 grid, each disc in its seat's colour from the step that
/// dropped it, and the winning four ringed from the last step. Made from the actions
/// alone (a column per action), so it shows exactly the match that was played.
extension ConnectFourGame: ReplayDrawing {
    /// Size in px of one cell of the drawn grid, and the margin around it.
    static let cellSize = 64.0, pictureMargin = 8.0

    public static func scene(of match: MatchReplay<ConnectFourGame>) -> ReplayScene {
        let (columns, rows) = (Bitboard.columns, Bitboard.rows)
        let width = Double(columns) * cellSize + 2 * pictureMargin, height = Double(rows) * cellSize + 2 * pictureMargin
        func centre(_ column: Int, _ row: Int) -> (x: String, y: String) {
            (SVG.number(pictureMargin + (Double(column) + 0.5) * cellSize),
             SVG.number(pictureMargin + (Double(rows - 1 - row) + 0.5) * cellSize))
        }
        let radius = SVG.number(cellSize * 0.4)
        var svg = SVG.element("rect", [("x", "0"), ("y", "0"), ("width", SVG.number(width)), ("height", SVG.number(height)),
                                        ("rx", "12"), ("fill", "#c9ced6")])
        for column in 0..<columns {
            for row in 0..<rows {
                let c = centre(column, row)
                svg += SVG.element("circle", [("cx", c.x), ("cy", c.y), ("r", radius), ("fill", "#ffffff")],
                                   SVG.title("column \(column), row \(row + 1)"))
            }
        }
        // Where each disc landed, and whose it is.
        var owner = Array(repeating: -1, count: columns * rows)
        var heights = Array(repeating: 0, count: columns)
        svg += "<g class=\"discs\">"
        for (step, event) in match.events.enumerated() where (0..<columns).contains(event.action) && heights[event.action] < rows {
            let (column, row, seat) = (event.action, heights[event.action], event.before.currentSeat)
            heights[column] += 1
            owner[row * columns + column] = seat
            let c = centre(column, row)
            svg += SVG.element("circle", [
                ("class", "disc"), ("data-step", String(step)), ("data-seat", String(seat)),
                ("cx", c.x), ("cy", c.y), ("r", radius), ("fill", SVG.seatColour(seat)),
            ], SVG.title("Seat \(seat) (\(ConnectFourState.marks[seat])): column \(column), row \(row + 1), step \(step + 1)"))
        }
        svg += "</g>"
        let line = winningLine(owner, columns: columns, rows: rows)
        let last = match.events.count - 1
        if !line.isEmpty {
            svg += "<g class=\"win\" data-step=\"\(last)\" fill=\"none\" stroke=\"#111\" stroke-width=\"4\">"
            for (column, row) in line {
                let c = centre(column, row)
                svg += SVG.element("circle", [("cx", c.x), ("cy", c.y), ("r", SVG.number(cellSize * 0.44))])
            }
            svg += "</g>"
        }
        let picture = SVG.element("svg", [
            ("width", SVG.number(width)), ("height", SVG.number(height)),
            ("viewBox", "0 0 \(SVG.number(width)) \(SVG.number(height))"), ("id", "replay-board"),
        ], svg)
        let notes = match.seats.indices.map { seat -> [ReplayScene.Note] in
            let won = !line.isEmpty && owner[line[0].row * columns + line[0].column] == seat
            return [ReplayScene.Note(text: "Plays \(ConnectFourState.marks[seat])", step: -1,
                                     outcome: won ? "four in a row" : nil, outcomeStep: last)]
        }
        return ReplayScene(title: "Connect Four replay, seed \(match.seed)",
                           summary: "\(match.seats.count) seats · \(match.events.count) discs · ended: \(match.outcome.endReason)",
                           picture: picture, pictureWidth: width, pictureHeight: height, seats: match.seats, notes: notes,
                           steps: match.steps)
    }

    /// The first line of four of one seat in `owner` (`owner[row * columns + column]`,
    /// -1 empty), scanning cells bottom row first; empty when there is none.
    static func winningLine(_ owner: [Int], columns: Int, rows: Int) -> [(column: Int, row: Int)] {
        for row in 0..<rows {
            for column in 0..<columns where owner[row * columns + column] >= 0 {
                for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let cells = (0..<4).map { (column: column + $0 * dc, row: row + $0 * dr) }
                    guard cells.allSatisfy({ (0..<columns).contains($0.column) && (0..<rows).contains($0.row) }) else { continue }
                    if cells.allSatisfy({ owner[$0.row * columns + $0.column] == owner[row * columns + column] }) { return cells }
                }
            }
        }
        return []
    }
}
