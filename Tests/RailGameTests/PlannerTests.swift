import Foundation
import LabCore
import Testing
@testable import RailGame

/// `planner`: each knob does what it says, on varied states from random play.
@Suite("The planner CPU")
struct PlannerTests {
    static func states() throws -> [RailState] {
        try CPUTests.decisionStates(300, seats: 2, prepare: { _ in }, keep: { _ in true })
    }

    @Test("focus 1: whenever a route railroad is buildable, it builds one; every wanted railroad is unowned")
    func focusBuildsOnTheRoute() throws {
        let planner = RailPlanner(seed: 3, focus: 1, missionDraw: 0, hoard: 0)
        var buffer = ActionBuffer()
        var checked = 0
        for state in try Self.states() {
            let observation = state.observation(for: state.currentSeat)
            let wanted = planner.routeRailroads(observation)
            for r in 0..<observation.map.railroads.count where wanted >> UInt128(r) & 1 == 1 {
                #expect(observation.owner(of: r) == nil, "railroad \(r) is owned yet wanted")
            }
            state.legalActions(into: &buffer)
            let buildable = (0..<buffer.count).contains { RailAction.isBuild(buffer[$0]) && wanted >> UInt128(RailAction.railroad(of: buffer[$0])) & 1 == 1 }
            guard buildable else { continue }
            let action = planner.chooseAction(observation, legal: buffer)
            #expect(RailAction.isBuild(action) && wanted >> UInt128(RailAction.railroad(of: action)) & 1 == 1)
            #expect(buffer.contains(action), "a legal action")
            checked += 1
        }
        try #require(checked >= 20, "only \(checked) states with a buildable route railroad")
    }

    @Test("missionDraw 1 draws a mission whenever it holds fewer than 2 and may; missionDraw 0 only when nothing else is legal")
    func missionDraw() throws {
        var buffer = ActionBuffer()
        let eager = RailPlanner(seed: 4, focus: 0, missionDraw: 1, hoard: 0)
        let never = RailPlanner(seed: 4, focus: 0, missionDraw: 0, hoard: 0)
        var eagerDraws = 0
        for state in try Self.states() {
            let observation = state.observation(for: state.currentSeat)
            state.legalActions(into: &buffer)
            let legal = (0..<buffer.count).map { buffer[$0] }
            let active = observation.activeMissions.count
            if legal.contains(RailAction.drawMission) && active < 2 {
                #expect(eager.chooseAction(observation, legal: buffer) == RailAction.drawMission)
                eagerDraws += 1
            }
            if never.chooseAction(observation, legal: buffer) == RailAction.drawMission {
                #expect(!legal.contains(where: RailAction.isBuild) && !legal.contains(RailAction.drawCard))
            }
        }
        try #require(eagerDraws >= 5, "only \(eagerDraws) states to check")
    }

    @Test("hoard 1: with a route wanted but nothing on it buildable, it draws a card rather than build elsewhere")
    func hoardDrawsCards() throws {
        let planner = RailPlanner(seed: 5, focus: 1, missionDraw: 0, hoard: 1)
        var buffer = ActionBuffer()
        var checked = 0
        for state in try Self.states() {
            let observation = state.observation(for: state.currentSeat)
            let wanted = planner.routeRailroads(observation)
            state.legalActions(into: &buffer)
            let onRoute = (0..<buffer.count).contains { RailAction.isBuild(buffer[$0]) && wanted >> UInt128(RailAction.railroad(of: buffer[$0])) & 1 == 1 }
            guard wanted != 0, !onRoute, buffer.contains(RailAction.drawCard) else { continue }
            #expect(planner.chooseAction(observation, legal: buffer) == RailAction.drawCard)
            checked += 1
        }
        try #require(checked >= 10, "only \(checked) states to check")
    }

    @Test("rainbows 1: an off-route build that would spend rainbow cards is put off for a card draw; rainbows 0 builds it")
    func rainbowsKeepsWildCards() throws {
        // No missions wanted (focus 0) and no mission draws: every build is off-route.
        var buffer = ActionBuffer()
        var kept = 0, spent = 0
        for state in try Self.states() {
            let observation = state.observation(for: state.currentSeat)
            state.legalActions(into: &buffer)
            guard buffer.contains(RailAction.drawCard) else { continue }
            // Fresh planners with one seed per state: both draw the same railroad.
            let keeper = RailPlanner(seed: 6, focus: 0, missionDraw: 0, hoard: 0, rainbows: 1)
            let spender = RailPlanner(seed: 6, focus: 0, missionDraw: 0, hoard: 0, rainbows: 0)
            let built = spender.chooseAction(observation, legal: buffer)
            guard RailAction.isBuild(built) else { continue }
            let rainbowsSpent = RailPlanner.spendsRainbows(built, observation)
            let pay = RailAction.payColour(of: built)
            let length = observation.map.railroads[RailAction.railroad(of: built)].length
            #expect(rainbowsSpent == (pay == RailColour.rainbow || observation.cards(pay) < length))
            // The same seed draws the same railroad: the keeper puts it off exactly when it spends rainbows.
            let choice = keeper.chooseAction(observation, legal: buffer)
            if rainbowsSpent {
                #expect(choice == RailAction.drawCard)
                kept += 1
            } else {
                #expect(choice == built)
                spent += 1
            }
        }
        try #require(kept >= 5 && spent >= 5, "only \(kept) states with rainbows to keep and \(spent) without")
    }

    @Test("pace 0 draws a card whenever it may; pace 1 plays as the other knobs say")
    func paceDrawsCards() throws {
        var buffer = ActionBuffer()
        var drawn = 0, other = 0
        for state in try Self.states() {
            let observation = state.observation(for: state.currentSeat)
            state.legalActions(into: &buffer)
            let slow = RailPlanner(seed: 7, pace: 0).chooseAction(observation, legal: buffer)
            let planned = RailPlanner(seed: 7, pace: 1).chooseAction(observation, legal: buffer)
            let eager = RailPlanner(seed: 7).chooseAction(observation, legal: buffer)
            #expect(planned == eager, "pace 1 is the default")
            if buffer.contains(RailAction.drawCard) {
                #expect(slow == RailAction.drawCard)
                if planned != RailAction.drawCard { other += 1 }
                drawn += 1
            } else {
                #expect(slow == planned, "without a card to draw the slow planner plays as planned")
            }
        }
        try #require(drawn >= 20 && other >= 5, "only \(drawn) states with a card to draw, \(other) where the planner would not")
    }

    @Test("the same seed and observation give the same choice")
    func deterministic() throws {
        let states = try Self.states()
        let a = CPUTests.choices(RailPlanner(seed: 9), states, decisions: 500)
        let b = CPUTests.choices(RailPlanner(seed: 9), states, decisions: 500)
        #expect(a.map(\.action) == b.map(\.action))
    }
}
