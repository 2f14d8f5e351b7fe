import LabCore
import Testing
import RailGame

/// ``RailObservation/legalActions(into:)``: the mover's legal actions from what it sees
/// are the state's own list; a seat not to move gets none.
@Suite("Legal actions from an observation")
struct ObservationLegalActionsTests {
    @Test("the mover's observation lists the state's legal actions in the same order; other seats' list nothing", arguments: [2, 3, 4])
    func sameAsTheState(seats: Int) throws {
        let game = try Rail.game(seats: seats)
        var fromState = ActionBuffer(), fromView = ActionBuffer()
        var compared = 0, builds = 0
        for seed in 0..<6 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: 1000 + seed)
            let planner = RailPlanner(seed: seed)
            while !state.isTerminal {
                state.legalActions(into: &fromState)
                let mover = state.currentSeat
                for seat in 0..<seats {
                    state.observation(for: seat).legalActions(into: &fromView)
                    if seat == mover {
                        #expect(fromView.actions == fromState.actions, "seed \(seed), turn \(state.turn)")
                    } else {
                        #expect(fromView.isEmpty, "seed \(seed), turn \(state.turn): seat \(seat) is not to move")
                    }
                }
                compared += 1
                if fromState.actions.contains(where: RailAction.isBuild) { builds += 1 }
                // Half the turns as the planner (routes, full hands), half at random.
                let action = rng.chance(0.5) ? planner.chooseAction(state.observation(for: mover), legal: fromState)
                                             : fromState[rng.uniform(fromState.count)]
                state.apply(action)
            }
            state.observation(for: 0).legalActions(into: &fromView)
            #expect(fromView.isEmpty, "a finished match has no legal actions")
        }
        try #require(compared > 500 && builds > 100, "\(compared) turns, \(builds) with builds")
    }
}
