import LabCore
import Quortex
import Testing

/// Rule book, "Flows and victory": a match ends by a completed flow (one side: "flow";
/// several at once: "tie") or by constraint, never by filling the board without a result.
@Suite("End of the game")
struct EndOfGameTests {
    @Test("every random match ends by flow, tie or constraint with its invariants intact", arguments: [2, 4])
    func everyRandomMatchEndsByFlowTieOrConstraint(seats: Int) throws {
        let game = try Q.game(seats: seats)
        let setup = game.setup
        let oracle = RuleBookOracle(board: setup.board)
        var reasons: [String: Int] = [:]
        for seed in 0..<250 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: Seeds.derive(seed, 1))
            var broken: String?
            Q.playOut(&state, &rng) { state in
                if broken == nil, let why = state.invariantViolation() { broken = "turn \(state.turn): \(why)" }
            }
            #expect(broken == nil, "seed \(seed): \(broken ?? "")")
            let outcome = try #require(state.outcome, "seed \(seed)")
            reasons[outcome.endReason, default: 0] += 1
            let codes = Q.codes(state)
            let full = !codes.contains(-1)
            switch state.endReason {
            case .flow, .tie:
                // The winners are exactly the sides whose axis a flow joins.
                let completed = oracle.completedAxes(codes)
                let expected = setup.sideAxis.indices.reduce(0) { completed & (1 << setup.sideAxis[$1]) != 0 ? $0 | 1 << $1 : $0 }
                #expect(state.winningSides == expected, "seed \(seed)")
                #expect((state.endReason == .flow) == (expected.nonzeroBitCount == 1), "seed \(seed)")
            case .constraint:
                #expect(!full, "seed \(seed): the board filled up without a completed flow")
                if let drawn = state.drawnTile {
                    #expect(oracle.legalPlacements(codes, type: drawn, liveAxes: setup.liveAxes).isEmpty, "seed \(seed): the drawn tile had a place")
                } else {
                    #expect(state.tilesInBag == 0, "seed \(seed)")
                }
                let mover = setup.sideOfSeat[state.currentSeat]
                #expect(state.winningSides == 1 << mover, "seed \(seed): constraint wins for the mover's side")
            case .none:
                Issue.record("seed \(seed): a finished match with no end reason")
            }
        }
        #expect(reasons.values.reduce(0, +) == 250)
        #expect(Set(reasons.keys).isSubset(of: ["flow", "tie", "constraint"]))
    }

    @Test func theBagOutlastsTheDefaultBoard() {
        #expect(QuortexRules().bag.reduce(0, +) > QuortexBoard(radius: 3).cells.count)
    }
}
