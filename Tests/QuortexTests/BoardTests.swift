import Quortex
import Testing

/// Rule book, "Board" and "Board edges and their ports".
@Suite("Board geometry")
struct BoardTests {
    static let board = QuortexBoard(radius: 3)

    /// `(-3,0) SW` style name of a port.
    static func name(_ board: QuortexBoard, _ port: (cell: Int, side: Int)) -> String {
        "\(board.name(port.cell)) \(HexSide.names[port.side])"
    }

    @Test func radiusThreeBoardHasItsThirtySevenCellsInCanonicalOrder() {
        let expected = [
            "(-3,0)", "(-3,1)", "(-3,2)", "(-3,3)",
            "(-2,-1)", "(-2,0)", "(-2,1)", "(-2,2)", "(-2,3)",
            "(-1,-2)", "(-1,-1)", "(-1,0)", "(-1,1)", "(-1,2)", "(-1,3)",
            "(0,-3)", "(0,-2)", "(0,-1)", "(0,0)", "(0,1)", "(0,2)", "(0,3)",
            "(1,-3)", "(1,-2)", "(1,-1)", "(1,0)", "(1,1)", "(1,2)",
            "(2,-3)", "(2,-2)", "(2,-1)", "(2,0)", "(2,1)",
            "(3,-3)", "(3,-2)", "(3,-1)", "(3,0)",
        ]
        let board = Self.board
        #expect(board.cells.indices.map(board.name) == expected)
        #expect(board.index(row: 0, col: 0) == 18)
        #expect(board.index(row: 3, col: 1) == nil)
        #expect(board.index(row: -4, col: 2) == nil)
    }

    @Test("a board of radius R has 1 + 3R(R+1) cells and 2R + 1 ports per edge", arguments: 1...QuortexBoard.maxRadius)
    func boardOfRadiusRHasItsCellsAndPorts(radius: Int) {
        let board = QuortexBoard(radius: radius)
        #expect(board.cells.count == 1 + 3 * radius * (radius + 1))
        for edge in 0..<6 { #expect(board.ports(of: edge).count == 2 * radius + 1, "edge \(edge)") }
    }

    @Test func sidesAreNumberedFromSouthWestWithTheRuleBooksSteps() {
        #expect(HexSide.names == ["SW", "W", "NW", "NE", "E", "SE"])
        #expect(HexSide.steps.map { [$0.row, $0.col] } == [[-1, 0], [0, -1], [1, -1], [1, 0], [0, 1], [-1, 1]])
        #expect((0..<6).map(HexSide.opposite) == [3, 4, 5, 0, 1, 2])
    }

    @Test func neighbourAcrossEachSideIsOneStepAwayOrOffTheBoard() {
        let board = Self.board
        let steps = [(-1, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1)]
        for (c, cell) in board.cells.enumerated() {
            for d in 0..<6 {
                let expected = board.index(row: cell.row + steps[d].0, col: cell.col + steps[d].1) ?? -1
                #expect(board.neighbour[c * 6 + d] == expected, "\(board.name(c)) side \(HexSide.names[d])")
            }
        }
    }

    @Test func sideDFacesSideDPlusThreeOfTheNeighbour() {
        let board = Self.board
        for c in board.cells.indices {
            for d in 0..<6 where board.neighbour[c * 6 + d] >= 0 {
                let n = board.neighbour[c * 6 + d]
                #expect(board.neighbour[n * 6 + (d + 3) % 6] == c, "\(board.name(c)) side \(HexSide.names[d])")
            }
        }
    }

    static let ruleBookPorts: [[String]] = [
        ["(-3,0) SW", "(-3,0) SE", "(-3,1) SW", "(-3,1) SE", "(-3,2) SW", "(-3,2) SE", "(-3,3) SW"],
        ["(-3,3) SE", "(-3,3) E", "(-2,3) SE", "(-2,3) E", "(-1,3) SE", "(-1,3) E", "(0,3) SE"],
        ["(0,3) E", "(0,3) NE", "(1,2) E", "(1,2) NE", "(2,1) E", "(2,1) NE", "(3,0) E"],
        ["(3,-3) NE", "(3,-2) NW", "(3,-2) NE", "(3,-1) NW", "(3,-1) NE", "(3,0) NW", "(3,0) NE"],
        ["(0,-3) NW", "(1,-3) W", "(1,-3) NW", "(2,-3) W", "(2,-3) NW", "(3,-3) W", "(3,-3) NW"],
        ["(-3,0) W", "(-2,-1) SW", "(-2,-1) W", "(-1,-2) SW", "(-1,-2) W", "(0,-3) SW", "(0,-3) W"],
    ]

    @Test("the R = 3 ports of each edge are the rule book's table", arguments: 0..<6)
    func radiusThreePortsOfEachEdgeAreTheRuleBooksTable(edge: Int) {
        let board = Self.board
        let ports = board.ports(of: edge)
        #expect(ports.count == 7)
        #expect(Set(ports.map { Self.name(board, $0) }) == Set(Self.ruleBookPorts[edge]))
        #expect(ports.map(\.cell) == ports.map(\.cell).sorted(), "listed in canonical cell order")
        for port in ports { #expect(board.portEdge[port.cell * 6 + port.side] == edge) }
    }

    @Test("every rim side is owned by exactly one edge; inner sides by none", arguments: 1...QuortexBoard.maxRadius)
    func everyRimSideIsOwnedByExactlyOneEdge(radius: Int) {
        let board = QuortexBoard(radius: radius)
        var owners = [Int](repeating: 0, count: board.cells.count * 6)
        for edge in 0..<6 { for port in board.ports(of: edge) { owners[port.cell * 6 + port.side] += 1 } }
        for node in owners.indices {
            let rim = board.neighbour[node] < 0
            #expect(owners[node] == (rim ? 1 : 0), "\(board.name(node / 6)) side \(HexSide.names[node % 6])")
            #expect((board.portEdge[node] >= 0) == rim)
        }
        #expect(owners.reduce(0, +) == 6 * (2 * radius + 1))
    }

    @Test func edgeCellsAreTheCellsOnEachEdgesLine() {
        let board = Self.board
        let onEdge: [(Int, Int) -> Bool] = [{ r, _ in r == -3 }, { _, c in c == 3 }, { r, c in r + c == 3 },
                                            { r, _ in r == 3 }, { _, c in c == -3 }, { r, c in r + c == -3 }]
        for edge in 0..<6 {
            for (c, cell) in board.cells.enumerated() {
                let member = board.edgeCells[edge] & (CellSet(1) << c) != 0
                #expect(member == onEdge[edge](cell.row, cell.col), "edge \(edge), \(board.name(c))")
            }
        }
    }

    @Test("the opposite of edge e is e + 3: a half turn of the board maps one's ports onto the other's", arguments: 0..<6)
    func oppositeEdgeIsEPlusThree(edge: Int) throws {
        let board = Self.board
        let turned = try board.ports(of: edge).map { port in
            let cell = board.cells[port.cell]
            return Self.name(board, (try Q.cell(board, -cell.row, -cell.col), HexSide.opposite(port.side)))
        }
        #expect(Set(turned) == Set(board.ports(of: (edge + 3) % 6).map { Self.name(board, $0) }))
    }
}
