import LabCore
import Quortex
import Testing
@testable import Search

/// `alphazero`'s playouts (``GumbelSettings/rollouts``): each evaluated leaf's value is
/// (1 - mix) · the network's + mix · the mean of the playouts' values.
@Suite("Search playouts mixed into leaf values")
struct SearchPlayoutTests {
    /// Runs one search of `settings` from a Quortex position with `model`; returns, for
    /// each evaluated leaf below the root, its state and the value it was given for its mover.
    func leaves(_ settings: GumbelSettings, value: Float, seed: UInt64 = 11) throws -> [(state: QuortexState, prior: Double)] {
        var truth = try Q.game(seats: 2).newMatch(seed: seed)
        var rng = LabRandom(seed: seed)
        for _ in 0..<6 { let legal = Q.legal(truth); truth.apply(legal[rng.uniform(legal.count)]) }
        let view = truth.observation(for: truth.currentSeat)
        let model = FlatQuortexModel(actions: truth.actionSpaceSize, value: value)
        let search = GumbelSearch(model: model, settings: settings)
        var legal = ActionBuffer()
        truth.legalActions(into: &legal)
        search.begin(state: truth, seat: truth.currentSeat, legal: legal, rng: LabRandom(seed: 12),
                     sample: { rng in view.sampleState(using: &rng) })
        var out: [(node: Int, state: QuortexState)] = []
        while !search.pending.isEmpty {
            out += search.pending.filter { $0.node != 0 }.map { ($0.node, $0.state) }
            let n = search.pending.count
            search.resume(logits: [Float](repeating: 0, count: n * model.actionCount), values: [Float](repeating: value, count: n * 2))
        }
        #expect(search.isDone)
        return out.map { ($0.state, search.prior(ofNode: $0.node)) }
    }

    @Test("without playouts a leaf's value is the network's")
    func networkAlone() throws {
        let found = try leaves(GumbelSettings(simulations: 16, considered: 4, rollouts: 0), value: 0.3)
        #expect(!found.isEmpty)
        for leaf in found { #expect(abs(leaf.prior - 0.3) < 1e-6) }
    }

    @Test("playouts of no actions value the leaf by the game's estimate, mixed with weight mix")
    func estimateMixedIn() throws {
        for mix in [1.0, 0.5, 0.25] {
            let found = try leaves(GumbelSettings(simulations: 16, considered: 4, rollouts: 3, rolloutDepth: 0, mix: mix), value: 0.3)
            #expect(!found.isEmpty)
            for leaf in found {
                // The estimate reads the board only, so every re-dealt playout gives the leaf's own.
                let estimate = leaf.state.searchValue(of: leaf.state.currentSeat)
                #expect(abs(leaf.prior - ((1 - mix) * 0.3 + mix * estimate)) < 1e-6, "mix \(mix)")
            }
        }
    }

    @Test("playouts to the end are valued by their outcomes and averaged; they meet different draws")
    func playoutsToTheEnd() throws {
        let found = try leaves(GumbelSettings(simulations: 16, considered: 4, rollouts: 4, rolloutDepth: 10_000, mix: 1), value: 0.3)
        #expect(!found.isEmpty)
        var between = 0
        for leaf in found {
            // Four outcomes of shares 0, 1/2 or 1: a multiple of 1/8.
            let eighths = leaf.prior * 8
            #expect(abs(eighths - eighths.rounded()) < 1e-9)
            if leaf.prior > 0 && leaf.prior < 1 { between += 1 }
        }
        // Re-dealt draws and random play: some leaves' playouts disagree.
        #expect(between > 0)
    }
}
