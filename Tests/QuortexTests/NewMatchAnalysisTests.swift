import LabCore
import Testing
@testable import Quortex

/// A new match starts from routes its board found once (`QuortexBoard.emptyWitnesses`)
/// instead of searching them; and a match's `flow_cells` figure comes from the flow
/// followed without building its path. Both must be what the full work gives.
@Suite("Quortex: a new match's analysis and the completed flow's cells")
struct NewMatchAnalysisTests {
    static let layouts: [(radius: Int, seats: Int, edges: String?)] = [
        (1, 2, nil), (2, 2, nil), (3, 2, nil), (3, 3, nil), (3, 4, nil), (3, 5, nil), (3, 6, nil),
        (4, 2, nil), (6, 2, nil), (3, 2, "0,3"), (3, 4, "0,3,4,5"), (1, 3, nil),
    ]

    func game(_ layout: (radius: Int, seats: Int, edges: String?)) throws -> QuortexGame {
        var settings = [(key: "radius", value: String(layout.radius))]
        if let edges = layout.edges { settings.append((key: "edges", value: edges)) }
        return try QuortexGame(rules: try QuortexRules(settings: settings), seatCount: layout.seats)
    }

    @Test("a new match's legality analysis equals one searched from scratch", arguments: 0..<layouts.count)
    func newMatchAnalysis(_ index: Int) throws {
        let game = try game(Self.layouts[index])
        for seed in UInt64(0)..<12 {
            let fresh = game.newMatch(seed: seed)
            guard !fresh.isTerminal else { continue }
            var searched = fresh
            searched.rebuildGraph()
            searched.analyseTurn()
            #expect(fresh.legalCells.sameElements(searched.legalCells), "layout \(index), seed \(seed): legal cells")
            #expect(fresh.essential.sameElements(searched.essential), "layout \(index), seed \(seed): essential cells")
            #expect(fresh.witnessA.sameElements(searched.witnessA) && fresh.witnessB.sameElements(searched.witnessB),
                    "layout \(index), seed \(seed): routes")
        }
    }

    @Test("a finished match's flow cells are the cells of its completed flow, for every seat", arguments: 0..<layouts.count)
    func flowCells(_ index: Int) throws {
        let game = try game(Self.layouts[index])
        var buffer = ActionBuffer()
        var flows = 0
        for seed in UInt64(0)..<40 {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: seed &+ 100)
            while !state.isTerminal {
                state.legalActions(into: &buffer)
                state.apply(buffer[rng.uniform(buffer.count)])
            }
            for seat in 0..<game.seatCount {
                let path = state.completedFlow(of: seat)
                let cells = path.map { $0.reduce(CellSet(0)) { $0 | CellSet(1) << $1.cell } }
                #expect(state.completedFlowCells(of: seat) == cells, "layout \(index), seed \(seed), seat \(seat)")
                if path != nil { flows += 1 }
            }
        }
        #expect(flows > 0, "no completed flow in 40 random matches: the case is not exercised")
    }
}
