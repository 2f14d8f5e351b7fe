import Tournament

/// The board section: where on the rail map entrants built (`railroads.csv`), or where
/// on the Quortex board they placed tiles and where winning flows ran (`cells.csv`).
/// Drawn with ``RailMapDrawing`` and ``HexBoardDrawing``; absent when neither file is.
extension ReportPage {
    /// Width of a full-width map.
    static let mapWidth = 900.0
    /// Width of a board drawn two to a row, and of a per-entrant board.
    static let boardWidth = 460.0, smallBoardWidth = 300.0

    func board() -> String {
        var out = ""
        if let use = folder.railroads { out += railSection(use) }
        if let use = folder.cells { out += cellSection(use) }
        return out
    }

    // MARK: Rail

    func railSection(_ use: ResultsFolder.RailroadUse) -> String {
        let map = use.map
        let totals = use.built.map { $0.reduce(0, +) }
        let most = totals.max() ?? 0
        func describe(_ r: Int) -> String {
            let road = map.railroads[r]
            let ends = "\(map.cities[road.from].name) - \(map.cities[road.to].name)"
            let lane = map.railroads.contains { $0.lane != road.lane && Set([$0.from, $0.to]) == Set([road.from, road.to]) }
                ? ", lane \(road.lane + 1) of 2" : ""
            let per = use.built[r].enumerated().map { "\(name($0)) \(Charts.grouped($1))" }.joined(separator: ", ")
            return "\(ends) (\(road.length) \(road.colour)\(lane)): built in \(Charts.grouped(totals[r])) matches (\(per))"
        }
        let grey = "#d0d0d0"
        let frequency = RailMapDrawing.svg(map, width: Self.mapWidth, id: "map-built") { r in
            guard most > 0, totals[r] > 0 else { return .init(stroke: grey, width: 1.5, title: describe(r)) }
            let t = Double(totals[r]) / Double(most)
            return .init(stroke: SVG.heat(t), width: 1.5 + 6 * t, title: describe(r))
        }
        let builders = RailMapDrawing.svg(map, width: Self.mapWidth, id: "map-builder") { r in
            guard most > 0, totals[r] > 0, let top = use.built[r].indices.max(by: { (use.built[r][$0], $1) < (use.built[r][$1], $0) }) else {
                return .init(stroke: grey, width: 1.5, title: describe(r))
            }
            let tie = use.built[r].filter { $0 == use.built[r][top] }.count > 1 ? "; a tie, the first listed shown" : ""
            let t = Double(totals[r]) / Double(most)
            return .init(stroke: SVG.seatColour(top), width: 2 + 5 * t, title: describe(r) + "; most often by \(name(top))\(tie)")
        }
        var heatKey = "<div class=\"key\">"
        for t in [0.0, 0.25, 0.5, 0.75, 1] {
            heatKey += "<span class=\"swatch\" style=\"background:\(SVG.heat(t))\"></span>"
        }
        heatKey += " built in 0 ... \(Charts.grouped(most)) matches (grey: never)</div>"
        var builderKey = "<div class=\"key\">"
        for e in order {
            builderKey += "<span class=\"swatch\" style=\"background:\(SVG.seatColour(e))\"></span>\(SVG.escape(name(e))) "
        }
        builderKey += "</div>"
        let content = "<figure>\(frequency)<figcaption>How often each railroad was built, over all entrants (darker and wider = more).</figcaption>\(heatKey)</figure>\n"
            + "<figure>\(builders)<figcaption>Who built each railroad most often (width = how often it was built at all).</figcaption>\(builderKey)</figure>"
        return section("board", "The map", "Where on the map do the entrants build, and whose railroads are which?",
                       "<div class=\"maps\">" + content + "</div>")
    }

    // MARK: Quortex

    func cellSection(_ use: ResultsFolder.CellUse) -> String {
        let board = use.board
        let placed = use.placed.map { $0.reduce(0, +) }
        let flows = use.winningFlow.map { $0.reduce(0, +) }
        func per(_ counts: [Int]) -> String { counts.enumerated().map { "\(name($0)) \(Charts.grouped($1))" }.joined(separator: ", ") }
        func heat(_ count: Int, _ most: Int) -> String { most > 0 && count > 0 ? SVG.heat(Double(count) / Double(most)) : "#f4f4f4" }
        func at(_ c: Int) -> String { "cell \(c) (row \(board.cells[c].row), col \(board.cells[c].col))" }
        let mostPlaced = placed.max() ?? 0, mostFlow = flows.max() ?? 0
        let placedBoard = HexBoardDrawing.svg(board, width: Self.boardWidth, id: "board-placed") { c in
            .init(fill: heat(placed[c], mostPlaced), title: "\(at(c)): \(Charts.grouped(placed[c])) tiles placed (\(per(use.placed[c])))",
                  label: placed[c] > 0 ? Self.short(placed[c]) : nil)
        }
        let flowBoard = HexBoardDrawing.svg(board, width: Self.boardWidth, id: "board-flows") { c in
            .init(fill: heat(flows[c], mostFlow),
                  title: "\(at(c)): on the winner's completed flow in \(Charts.grouped(flows[c])) matches (\(per(use.winningFlow[c])))",
                  label: flows[c] > 0 ? Self.short(flows[c]) : nil)
        }
        var content = "<div class=\"maps\">"
        content += "<figure>\(placedBoard)<figcaption>Tiles placed on each cell, over all entrants (darker = more).</figcaption></figure>\n"
        content += "<figure>\(flowBoard)<figcaption>Matches in which each cell lay on the winner's completed flow.</figcaption></figure>"
        content += "</div>\n"
        let entrants = run.entrants.count
        if entrants <= 6 {
            // One scale for every entrant's board, so they compare.
            let most = use.placed.joined().max() ?? 0
            content += "<h3>Per entrant: tiles placed (one colour scale)</h3>\n<div class=\"maps\">"
            for e in order {
                let small = HexBoardDrawing.svg(board, width: Self.smallBoardWidth, id: "board-placed-\(e)") { c in
                    .init(fill: heat(use.placed[c][e], most), title: "\(name(e)), \(at(c)): \(Charts.grouped(use.placed[c][e])) tiles placed")
                }
                content += "<figure>\(small)<figcaption>\(SVG.escape(name(e)))</figcaption></figure>"
            }
            content += "</div>"
        }
        return section("board", "The board", "Where on the board do the entrants place tiles, and where do winning flows run?", content)
    }

    /// A count short enough for a cell: 987, 12k, 3.4M.
    static func short(_ count: Int) -> String {
        switch count {
        case ..<1000: String(count)
        case ..<10_000: FixedPoint.text(Double(count) / 1000, digits: 1) + "k"
        case ..<1_000_000: String(count / 1000) + "k"
        default: FixedPoint.text(Double(count) / 1_000_000, digits: 1) + "M"
        }
    }
}
