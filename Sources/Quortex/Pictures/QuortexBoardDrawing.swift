import LabCore
import Pictures

/// The report's board section, from a tournament's `cells.csv`: where the entrants placed
/// tiles and where winning flows ran, over all entrants and (up to six) per entrant.
public struct QuortexBoardDrawing: BoardCountDrawing {
    public let game = QuortexGame.name
    public let file = "cells.csv"
    public let describes = "per cell and entrant: tiles placed, winning flows"
    public let columns = ["cell", "row", "col", "entrant", "placed", "winning_flow"]

    /// Width of a board drawn two to a row, and of a per-entrant board.
    static let boardWidth = 460.0, smallBoardWidth = 300.0

    public init() {}

    public func section(_ file: BoardCountFile) throws(InputError) -> BoardSection {
        let board = try Self.board(file)
        let (usePlaced, useFlows) = (file.counts("placed"), file.counts("winning_flow"))
        let placed = usePlaced.map { $0.reduce(0, +) }
        let flows = useFlows.map { $0.reduce(0, +) }
        func name(_ entrant: Int) -> String { file.entrants[entrant] }
        func per(_ counts: [Int]) -> String { counts.enumerated().map { "\(name($0)) \(SVG.grouped($1))" }.joined(separator: ", ") }
        func heat(_ count: Int, _ most: Int) -> String { most > 0 && count > 0 ? SVG.heat(Double(count) / Double(most)) : "#f4f4f4" }
        func at(_ c: Int) -> String { "cell \(c) (row \(board.cells[c].row), col \(board.cells[c].col))" }
        let mostPlaced = placed.max() ?? 0, mostFlow = flows.max() ?? 0
        let placedBoard = HexBoardDrawing.svg(board, width: Self.boardWidth, id: "board-placed") { c in
            .init(fill: heat(placed[c], mostPlaced), title: "\(at(c)): \(SVG.grouped(placed[c])) tiles placed (\(per(usePlaced[c])))",
                  label: placed[c] > 0 ? SVG.short(placed[c]) : nil)
        }
        let flowBoard = HexBoardDrawing.svg(board, width: Self.boardWidth, id: "board-flows") { c in
            .init(fill: heat(flows[c], mostFlow),
                  title: "\(at(c)): on the winner's completed flow in \(SVG.grouped(flows[c])) matches (\(per(useFlows[c])))",
                  label: flows[c] > 0 ? SVG.short(flows[c]) : nil)
        }
        var content = "<div class=\"maps\">"
        content += "<figure>\(placedBoard)<figcaption>Tiles placed on each cell, over all entrants (darker = more).</figcaption></figure>\n"
        content += "<figure>\(flowBoard)<figcaption>Matches in which each cell lay on the winner's completed flow.</figcaption></figure>"
        content += "</div>\n"
        if file.entrants.count <= 6 {
            // One scale for every entrant's board, so they compare.
            let most = usePlaced.joined().max() ?? 0
            content += "<h3>Per entrant: tiles placed (one colour scale)</h3>\n<div class=\"maps\">"
            for e in file.order {
                let small = HexBoardDrawing.svg(board, width: Self.smallBoardWidth, id: "board-placed-\(e)") { c in
                    .init(fill: heat(usePlaced[c][e], most), title: "\(name(e)), \(at(c)): \(SVG.grouped(usePlaced[c][e])) tiles placed")
                }
                content += "<figure>\(small)<figcaption>\(SVG.escape(name(e)))</figcaption></figure>"
            }
            content += "</div>"
        }
        return BoardSection(heading: "The board", question: "Where on the board do the entrants place tiles, and where do winning flows run?",
                            content: content)
    }

    /// The board the file describes: cells by their `cell` number, radius the largest
    /// distance from the centre, no ports.
    static func board(_ file: BoardCountFile) throws(InputError) -> HexBoardPicture {
        var cells: [HexBoardPicture.Cell] = []
        for c in file.elements.indices {
            cells.append(.init(row: try file.int("row", of: c), col: try file.int("col", of: c)))
        }
        let radius = cells.map { max(abs($0.row), abs($0.col), abs($0.row + $0.col)) }.max() ?? 0
        return HexBoardPicture(radius: radius, cells: cells, ports: [])
    }
}
