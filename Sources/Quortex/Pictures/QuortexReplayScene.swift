import Pictures

/// The Quortex replay: the empty board with each seat's edge in its colour; each placed
/// tile, faintly tinted with its placer's colour and showing its three channels, from its
/// step; each seat's completed flow as a thick line through the channels it runs along,
/// from the step that completed it.
extension QuortexReplay {
    /// Tile type names, type 0...3 (rule book, "Tiles").
    static let tileNames = ["no sharps", "one sharp", "two sharps", "three sharps"]
    /// Width in px of the drawn board.
    static let pictureWidth = 640.0

    /// The replay page's scene of this match.
    public var scene: ReplayScene {
        let replay = self
        let board = replay.board
        let lastStep = replay.steps.count - 1
        var placedAt: [Int: Int] = [:]
        for placement in replay.placements { placedAt[placement.cell] = placement.step }
        var edgeColours: [Int: String] = [:]
        for (seat, edge) in replay.seatEdges.enumerated().reversed() { edgeColours[edge] = SVG.seatColour(seat) }
        func flowStep(_ flow: [QuortexReplay.FlowCell]) -> Int { flow.compactMap { placedAt[$0.cell] }.max() ?? lastStep }

        let picture = HexBoardDrawing.svg(board, width: Self.pictureWidth, id: "replay-board", style: { index in
            .init(fill: "#f3f3f3", title: "Cell \(index) (row \(board.cells[index].row), col \(board.cells[index].col))")
        }, edgeColours: edgeColours, extra: { layout in
            var out = "<g class=\"tiles\">"
            for placement in replay.placements where board.cells.indices.contains(placement.cell) {
                let name = Self.tileNames.indices.contains(placement.tileType) ? Self.tileNames[placement.tileType] : "type \(placement.tileType)"
                var tile = SVG.title("Cell \(placement.cell): \(name), rotation \(placement.rotation), placed by seat \(placement.seat)"
                    + " at step \(placement.step + 1)")
                tile += SVG.element("polygon", [
                    ("points", layout.polygon(cell: placement.cell)), ("fill", SVG.seatColour(placement.seat)),
                    ("fill-opacity", "0.18"), ("stroke", "none"),
                ])
                for channel in placement.channels where channel.count == 2 {
                    tile += SVG.element("path", [
                        ("class", "channel"), ("d", "M" + Self.through(layout, cell: placement.cell, from: channel[0], to: channel[1])),
                    ])
                }
                out += SVG.element("g", [
                    ("class", "tile"), ("data-cell", String(placement.cell)), ("data-seat", String(placement.seat)),
                    ("data-step", String(placement.step)), ("fill", "none"), ("stroke", "#555"),
                    ("stroke-width", SVG.number(max(1.5, 0.08 * layout.size))),
                ], tile)
            }
            out += "</g><g class=\"flows\" fill=\"none\" stroke-linecap=\"round\" stroke-linejoin=\"round\">"
            for (seat, flow) in replay.flows.enumerated() {
                let cells = flow.filter { board.cells.indices.contains($0.cell) }
                guard let first = cells.first else { continue }
                let start = layout.sidePoint(cell: first.cell, side: first.entering)
                var d = "M" + SVG.number(start.x) + "," + SVG.number(start.y)
                for cell in cells {
                    d += " " + Self.through(layout, cell: cell.cell, from: cell.entering, to: cell.exit, move: false)
                }
                out += SVG.element("path", [
                    ("class", "flow"), ("data-seat", String(seat)), ("data-step", String(flowStep(cells))), ("d", d),
                    ("stroke", SVG.seatColour(seat)), ("stroke-width", SVG.number(max(4, 0.22 * layout.size))),
                    ("stroke-opacity", "0.9"),
                ], SVG.title("Seat \(seat)'s connection through \(cells.count) cells"))
            }
            return out + "</g>"
        })

        let notes = replay.seats.indices.map { seat -> [ReplayScene.Note] in
            var lines: [ReplayScene.Note] = []
            if replay.seatEdges.indices.contains(seat) {
                lines.append(.init(text: "Edge \(replay.seatEdges[seat])", step: -1, outcome: nil))
            }
            let flow = replay.flows.indices.contains(seat) ? replay.flows[seat] : []
            lines.append(.init(text: "Connection", step: -1,
                               outcome: flow.isEmpty ? "none" : "through \(flow.count) cells",
                               outcomeStep: flow.isEmpty ? lastStep : flowStep(flow)))
            return lines
        }
        let layout = HexBoardDrawing.Layout(board, width: Self.pictureWidth)
        return ReplayScene(
            title: "Quortex replay: radius \(board.radius), seed \(replay.seed)",
            summary: "\(replay.seats.count) seats · \(replay.steps.count) actions · \(replay.placements.count) tiles placed · "
                + "ended: \(replay.endReason)",
            picture: picture, pictureWidth: layout.width, pictureHeight: layout.height,
            seats: replay.seats, notes: notes, steps: replay.steps)
    }

    /// Path data across `cell` from the midpoint of side `from` to that of side `to`:
    /// straight between opposite sides, otherwise a quadratic curve bending through the
    /// centre. Starts with the `from` point unless `move` is false (the path is already there).
    static func through(_ layout: HexBoardDrawing.Layout, cell: Int, from: Int, to: Int, move: Bool = true) -> String {
        let a = layout.sidePoint(cell: cell, side: from), b = layout.sidePoint(cell: cell, side: to)
        let start = move ? SVG.number(a.x) + "," + SVG.number(a.y) + " " : ""
        let end = SVG.number(b.x) + "," + SVG.number(b.y)
        guard ((from - to) % 6 + 6) % 6 != 3 else { return start + "L" + end }
        let c = layout.centre(of: cell)
        return start + "Q" + SVG.number(c.x) + "," + SVG.number(c.y) + " " + end
    }
}
