import Foundation
import Pictures

/// A hex board as SVG: pointy-top cells, north up, each filled by the caller; rim sides
/// of coloured board edges stroked.
public enum HexBoardDrawing {
    /// How one cell is drawn.
    public struct CellStyle: Sendable {
        /// CSS colour of the cell.
        public var fill: String
        /// The tooltip (`<title>`).
        public var title: String
        /// Short text drawn in the cell centre (e.g. a count), nil for none.
        public var label: String?

        public init(fill: String, title: String, label: String? = nil) {
            self.fill = fill
            self.title = title
            self.label = label
        }
    }

    /// Where cells and their sides lie in the drawing (geometry of ``HexBoardPicture``):
    /// the centre of (row, col) is `col` steps east plus `row` steps at 60°, a step being
    /// √3 × ``size``; side d's midpoint lies at angle 240° − 60° d from the centre.
    public struct Layout: Sendable {
        /// Hex radius (centre to corner) in px.
        public let size: Double
        /// Drawing width in px.
        public let width: Double
        /// Drawing height in px.
        public let height: Double
        let cells: [HexBoardPicture.Cell]
        let left: Double
        let top: Double

        /// The layout fitting `board`'s cells into `width` px.
        init(_ board: HexBoardPicture, width: Double) {
            let width = max(width, 1)
            let margin = max(4, width / 80)
            cells = board.cells
            let units = board.cells.map(Layout.unitCentre)
            let minX = (units.map(\.x).min() ?? 0) - 3.0.squareRoot() / 2, maxX = (units.map(\.x).max() ?? 0) + 3.0.squareRoot() / 2
            let minY = (units.map(\.y).min() ?? 0) - 1, maxY = (units.map(\.y).max() ?? 0) + 1
            size = max(width - 2 * margin, 1) / (maxX - minX)
            self.width = width
            height = (maxY - minY) * size + 2 * margin
            left = margin - minX * size
            top = margin - minY * size
        }

        /// The centre of a cell for hex radius 1, y down.
        static func unitCentre(_ cell: HexBoardPicture.Cell) -> (x: Double, y: Double) {
            (3.0.squareRoot() * (Double(cell.col) + Double(cell.row) / 2), -1.5 * Double(cell.row))
        }

        /// The centre of cell `cell` (an index into the board's cells).
        public func centre(of cell: Int) -> (x: Double, y: Double) {
            guard cells.indices.contains(cell) else { return (left, top) }
            let unit = Layout.unitCentre(cells[cell])
            return (left + unit.x * size, top + unit.y * size)
        }

        /// The midpoint of side `side` (0...5, as in ``HexBoardPicture``) of cell `cell`.
        public func sidePoint(cell: Int, side: Int) -> (x: Double, y: Double) {
            point(cell: cell, angle: 240 - 60 * Double(side), distance: size * 3.0.squareRoot() / 2)
        }

        /// Corner `k` (0...5) of cell `cell`, at angle 30° + 60° k (k = 1 is the top).
        func corner(cell: Int, _ k: Int) -> (x: Double, y: Double) {
            point(cell: cell, angle: 30 + 60 * Double(k), distance: size)
        }

        /// The two corners bounding side `side` of cell `cell`.
        func sideEnds(cell: Int, side: Int) -> ((x: Double, y: Double), (x: Double, y: Double)) {
            let angle = 240 - 60 * Double(side)
            return (point(cell: cell, angle: angle - 30, distance: size), point(cell: cell, angle: angle + 30, distance: size))
        }

        /// The point at `angle` degrees (counter-clockwise from east) and `distance` px
        /// from the cell's centre.
        func point(cell: Int, angle: Double, distance: Double) -> (x: Double, y: Double) {
            let c = centre(of: cell), radians = angle * .pi / 180
            return (c.x + distance * cos(radians), c.y - distance * sin(radians))
        }

        /// The hexagon of cell `cell` as a `points` attribute.
        func polygon(cell: Int) -> String {
            (0..<6).map { k in
                let p = corner(cell: cell, k)
                return SVG.number(p.x) + "," + SVG.number(p.y)
            }.joined(separator: " ")
        }
    }

    /// The board as one `<svg>` element `width` px wide.
    ///
    /// Every cell is a `<polygon class="cell" data-cell="INDEX" data-row data-col>`
    /// (pointy-top hexes, north up, per the geometry documented in ``HexBoardPicture``)
    /// filled by `style(index)`, with its label, if any, in the centre; when the board has
    /// ports, each port's rim side is stroked (`<line class="port" data-edge>`) in
    /// `edgeColours[edge]` when given. `extra` is markup appended inside the svg after
    /// cells and ports (place it with the ``Layout`` it is given). `id` becomes the svg's
    /// id. The svg carries no `xmlns`: it is meant for inline HTML.
    public static func svg(_ board: HexBoardPicture, width: Double, id: String, style: (Int) -> CellStyle,
                           edgeColours: [Int: String] = [:], extra: (Layout) -> String = { _ in "" }) -> String {
        let layout = Layout(board, width: width)
        var body = SVG.title("Board of radius \(board.radius)")
        body += "<g class=\"cells\" stroke=\"#999\" stroke-width=\"1\">"
        var labels = ""
        for index in board.cells.indices {
            let look = style(index)
            body += SVG.element("polygon", [
                ("class", "cell"), ("data-cell", String(index)),
                ("data-row", String(board.cells[index].row)), ("data-col", String(board.cells[index].col)),
                ("points", layout.polygon(cell: index)), ("fill", look.fill),
            ], SVG.title(look.title))
            if let label = look.label {
                let c = layout.centre(of: index)
                labels += SVG.element("text", [
                    ("class", "cell-label"), ("x", SVG.number(c.x)), ("y", SVG.number(c.y)),
                    ("fill", SVG.textColour(on: look.fill)),
                ], SVG.escape(label))
            }
        }
        body += "</g>"
        if !labels.isEmpty {
            body += "<g class=\"cell-labels\" font-size=\"\(SVG.number(0.42 * layout.size))\" text-anchor=\"middle\" "
                + "dominant-baseline=\"central\" pointer-events=\"none\">" + labels + "</g>"
        }
        let ports = board.ports.filter { edgeColours[$0.edge] != nil && board.cells.indices.contains($0.cell) }
        if !ports.isEmpty {
            body += "<g class=\"ports\" stroke-width=\"\(SVG.number(max(3, 0.14 * layout.size)))\" stroke-linecap=\"round\">"
            for port in ports {
                let (a, b) = layout.sideEnds(cell: port.cell, side: port.side)
                body += SVG.element("line", [
                    ("class", "port"), ("data-edge", String(port.edge)),
                    ("x1", SVG.number(a.x)), ("y1", SVG.number(a.y)), ("x2", SVG.number(b.x)), ("y2", SVG.number(b.y)),
                    ("stroke", edgeColours[port.edge] ?? "#999"),
                ])
            }
            body += "</g>"
        }
        body += extra(layout)
        return SVG.element("svg", [
            ("id", id), ("class", "hex-board"), ("width", SVG.number(layout.width)), ("height", SVG.number(layout.height)),
            ("viewBox", "0 0 \(SVG.number(layout.width)) \(SVG.number(layout.height))"),
            ("font-family", "sans-serif"), ("role", "img"),
        ], body)
    }
}
