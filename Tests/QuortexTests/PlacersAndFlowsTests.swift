import LabCore
import Quortex
import Testing

/// Who placed each tile (public in the rule book: everyone sees the placements) and the
/// completed flow of a seat, which the tournament's cells.csv and the replays draw.
@Suite("Placers and flows")
struct PlacersAndFlowsTests {
    @Test("placer(of:) names the seat that placed each tile, for 2 to 6 seats", arguments: [2, 3, 4, 6])
    func placerRecordsTheMover(seats: Int) throws {
        let game = try Q.game(seats: seats)
        var buffer = ActionBuffer()
        for seed in 0..<40 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: Seeds.derive(seed, 7))
            var expected: [Int: Int] = [:]
            while !state.isTerminal {
                state.legalActions(into: &buffer)
                let action = buffer[rng.uniform(buffer.count)]
                expected[action / 6] = state.currentSeat
                state.apply(action)
            }
            for cell in state.board.cells.indices {
                #expect(state.placer(of: cell) == expected[cell], "seed \(seed) cell \(cell)")
            }
            #expect(state.invariantViolation() == nil)
        }
    }

    @Test("a seat's view keeps the placers, and a state sampled from it has the same")
    func observationCarriesPlacers() throws {
        let game = try Q.game(seats: 3)
        var state = game.newMatch(seed: 5)
        var rng = LabRandom(seed: 9)
        var buffer = ActionBuffer()
        for _ in 0..<8 {
            state.legalActions(into: &buffer)
            state.apply(buffer[rng.uniform(buffer.count)])
        }
        let view = state.observation(for: 1)
        let sampled = view.sampleState(using: &rng)
        for cell in state.board.cells.indices { #expect(sampled.placer(of: cell) == state.placer(of: cell), "cell \(cell)") }
        #expect(state.board.cells.indices.contains { state.placer(of: $0) == 2 }, "seat 2 has placed")
    }

    @Test("the winner's completed flow runs channel by channel from a port of its edge to a port of the opposite edge; losers have none")
    func completedFlowIsAChannelPath() throws {
        let game = try Q.game(seats: 2)
        let board = game.setup.board
        var flows = 0
        for seed in 0..<150 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: Seeds.derive(seed, 3))
            Q.playOut(&state, &rng)
            let places = try #require(state.outcome).places
            for seat in 0..<2 {
                let edge = game.setup.edges[seat]
                guard let path = state.completedFlow(of: seat) else {
                    #expect(places[seat] != 1 || state.endReason == .constraint, "seed \(seed): a winner by flow without a flow")
                    continue
                }
                flows += 1
                #expect(places[seat] == 1, "seed \(seed): a flow for a seat that did not win")
                let first = try #require(path.first), last = try #require(path.last)
                #expect(board.portEdge[first.cell * 6 + first.entering] == edge)
                #expect(board.portEdge[last.cell * 6 + last.exit] == (edge + 3) % 6)
                for (k, step) in path.enumerated() {
                    let code = try #require(state.tileCode(at: step.cell), "seed \(seed): a flow through an empty cell")
                    let joined = QuortexTile.pairs(type: code / 6, rotation: code % 6)
                    #expect(joined.contains([min(step.entering, step.exit), max(step.entering, step.exit)]), "seed \(seed) step \(k)")
                    if k + 1 < path.count {
                        #expect(board.neighbour[step.cell * 6 + step.exit] == path[k + 1].cell)
                        #expect(path[k + 1].entering == (step.exit + 3) % 6)
                    }
                }
            }
        }
        #expect(flows > 50, "most random matches end by a flow: \(flows)")
    }
}
