import LabCore
import Quortex
import Testing

/// An observation shows everything but the order of the bag; sampling reshuffles it.
@Suite("Information sets")
struct InformationSetTests {
    /// Twelve turns of a 3-seat match of random players.
    static func midGame() throws -> QuortexState {
        var state = try Q.game(seats: 3).newMatch(seed: 21)
        var rng = LabRandom(seed: 22)
        for _ in 0..<12 {
            let legal = Q.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
        try #require(!state.isTerminal)
        return state
    }

    @Test func sampledStatesKeepTheBoardTheDrawnTileAndTheCountsLeft() throws {
        let truth = try Self.midGame()
        var rng = LabRandom(seed: 4)
        for seat in 0..<3 {
            let view = truth.observation(for: seat)
            for _ in 0..<10 {
                let sample = view.sampleState(using: &rng)
                #expect(sample.observation(for: seat) == view)
                #expect(sample.invariantViolation() == nil)
                #expect(Q.codes(sample) == Q.codes(truth))
                #expect(sample.drawnTile == truth.drawnTile)
                #expect((0..<4).map(sample.observation(for: seat).remaining) == (0..<4).map(view.remaining))
                #expect(sample.bagOrder.sorted() == truth.bagOrder.sorted())
                #expect(Q.legal(sample) == Q.legal(truth))
            }
        }
    }

    @Test func sampledStatesDrawTheBagInDifferentOrders() throws {
        let truth = try Self.midGame()
        var rng = LabRandom(seed: 5)
        let view = truth.observation(for: 1)
        let orders = Set((0..<10).map { _ in view.sampleState(using: &rng).bagOrder })
        #expect(orders.count == 10)
    }

    @Test func observationsDoNotShowTheBagOrder() throws {
        let truth = try Self.midGame()
        var rng = LabRandom(seed: 6)
        let sample = truth.observation(for: 0).sampleState(using: &rng)
        #expect(sample.bagOrder != truth.bagOrder)
        for seat in 0..<3 { #expect(sample.observation(for: seat) == truth.observation(for: seat)) }
    }
}
