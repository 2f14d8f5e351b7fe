import LabCore
import Quortex
import Testing
@testable import Search

/// The tile a Quortex mover draws after a move is chance: a search keeps the positions
/// after one move but different draws apart, each with its own evaluation and replies.
@Suite("Search at Quortex's chance")
struct SearchChanceTests {
    @Test("a state's chance outcome is the tile its mover drew (type + 1), 0 when none")
    func chanceOutcomeIsTheDrawnTile() throws {
        var state = try Q.game(seats: 2).newMatch(seed: 3)
        var rng = LabRandom(seed: 4)
        var seen = Set<Int>()
        while !state.isTerminal {
            #expect(state.chanceOutcome == (state.drawnTile.map { $0 + 1 } ?? 0))
            seen.insert(state.chanceOutcome)
            let legal = Q.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
        #expect(seen.count > 1)
        #expect(state.chanceOutcome == (state.drawnTile.map { $0 + 1 } ?? 0))
    }

    @Test("each simulation's leaf is the child for the tile drawn in its sample; a move's visits are the sum over its draws")
    func childrenAreKeyedByTheDraw() throws {
        let truth = try Q.game(seats: 2).newMatch(seed: 11)
        let view = truth.observation(for: truth.currentSeat)
        let model = FlatQuortexModel(actions: truth.actionSpaceSize, value: 0.5)
        let search = GumbelSearch(model: model, settings: GumbelSettings(simulations: 96, considered: 2))
        var legal = ActionBuffer()
        truth.legalActions(into: &legal)
        search.begin(state: truth, seat: truth.currentSeat, legal: legal, rng: LabRandom(seed: 12),
                     sample: { rng in view.sampleState(using: &rng) })
        var leaves = 0
        while !search.pending.isEmpty {
            for leaf in search.pending where leaf.node != 0 {
                // The node evaluated holds the position of the tile drawn in that sample.
                #expect(search.chance(ofNode: leaf.node) == leaf.state.chanceOutcome)
                leaves += 1
            }
            let n = search.pending.count
            let logits = [Float](repeating: 0, count: n * model.actionCount)
            let values = [Float](repeating: 0.5, count: n * 2)
            search.resume(logits: logits, values: values)
        }
        #expect(search.isDone && leaves > 0)
        let visited = search.rootVisits.filter { $0.value > 0 }
        try #require(visited.count == 2)
        for (action, visits) in visited {
            let children = search.rootChildren(of: action)
            // 48 samples of a bag of four tile types meet more than one draw.
            #expect(children.count > 1)
            #expect(children.values.reduce(0, +) == visits)
            #expect(children.keys.allSatisfy { (1...4).contains($0) })
        }
    }
}
