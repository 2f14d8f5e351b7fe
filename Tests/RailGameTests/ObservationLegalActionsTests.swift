import LabCore
import Testing
import RailGame

/// ``RailObservation/legalActions(into:)``: the mover's legal actions from what it sees
/// are the state's own list, and its draws and buildable railroads (what the CPUs read)
/// are the list's; a seat not to move gets none.
@Suite("Legal actions from an observation")
struct ObservationLegalActionsTests {
    @Test("the mover's observation lists the state's legal actions in the same order, and tells its draws and buildable railroads as the list does; other seats' list nothing", arguments: [2, 3, 4])
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
                    let view = state.observation(for: seat)
                    view.legalActions(into: &fromView)
                    if seat == mover {
                        #expect(fromView.actions == fromState.actions, "seed \(seed), turn \(state.turn)")
                        // What the CPUs read instead of the list: the same draws and railroads.
                        let railroads = fromState.actions.filter(RailAction.isBuild).reduce(UInt128(0)) { $0 | UInt128(1) << RailAction.railroad(of: $1) }
                        #expect(view.buildableRailroads == railroads, "seed \(seed), turn \(state.turn)")
                        #expect(view.mayDrawCard == fromState.actions.contains(RailAction.drawCard))
                        #expect(view.mayDrawMission == fromState.actions.contains(RailAction.drawMission))
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

    /// ``RailState/observe(_:into:)``, the play loop's update of the observation it keeps:
    /// over an observation of the same match it gives ``RailState/observation(for:)``,
    /// and over one of other rules or another map it makes the observation afresh
    /// instead of keeping their rules or map.
    @Test("observe(_:into:) gives observation(for:), also over an observation of other rules or another map")
    func observeIntoGivesTheObservation() throws {
        let game = try Rail.game(seats: 3)
        let otherRules = try Rail.game(seats: 3, ["missionsToWin": "3"]).newMatch(seed: 9).observation(for: 0)
        let otherMap = try RailGame(map: Rail.mapWithMissions(), seatCount: 3).newMatch(seed: 9).observation(for: 0)
        var state = game.newMatch(seed: 4)
        var kept = state.observation(for: 2)
        var rng = LabRandom(seed: 4)
        var buffer = ActionBuffer()
        while !state.isTerminal {
            for seat in 0..<3 {
                state.observe(seat, into: &kept)
                #expect(kept == state.observation(for: seat), "turn \(state.turn), seat \(seat)")
            }
            for var foreign in [otherRules, otherMap] {
                state.observe(state.currentSeat, into: &foreign)
                #expect(foreign == state.observation(for: state.currentSeat), "turn \(state.turn): an observation of another game")
            }
            state.legalActions(into: &buffer)
            state.apply(buffer[rng.uniform(buffer.count)])
        }
        try #require(state.turn > 20)
    }

    /// The observation update keeps an observation's rules only when they are the state's
    /// in every knob: over an observation of rules that differ in any one knob, it makes
    /// the observation afresh (each knob changed alone, every knob of ``RailRules/knobs``).
    @Test("observe(_:into:) tells apart rules that differ in any one knob")
    func observeIntoComparesEveryKnob() throws {
        let changed = ["initialHand": "3", "spentCards": "discard", "completedMissionsOccupySlots": "true",
                       "missionsToWin": "7", "deckExhaustion": "immediate", "turnCap": "500"]
        #expect(Set(changed.keys) == Set(RailRules.knobs.map(\.name)), "one changed value for every knob")
        var state = try Rail.game(seats: 2).newMatch(seed: 3)
        for (key, value) in changed {
            var other = try Rail.game(seats: 2, [key: value]).newMatch(seed: 3).observation(for: 0)
            state.observe(0, into: &other)
            #expect(other == state.observation(for: 0), "\(key)=\(value)")
        }
    }
}
