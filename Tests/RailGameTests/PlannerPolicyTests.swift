import LabCore
import Testing
@testable import RailGame

/// ``RailPlanner/policy(_:legal:focus:missionDraw:hoard:rainbows:pace:into:)``: the
/// planner's decision written as a distribution, which the learned players read as a
/// feature, agrees with the decisions the planner samples.
@Suite("The planner's policy")
struct PlannerPolicyTests {
    typealias Knobs = (focus: Double, missionDraw: Double, hoard: Double, rainbows: Double, pace: Double)

    static let knobs: [Knobs] = [
        (RailPlanner.defaultFocus, RailPlanner.defaultMissionDraw, RailPlanner.defaultHoard, RailPlanner.defaultRainbows, RailPlanner.defaultPace),
        (1, 0.6, 1, 1, 1),
        (0.3, 0.5, 0.5, 0.5, 0.5),
        (0, 1, 0, 0, 1),
    ]

    static func policy(_ observation: RailObservation, _ legal: ActionBuffer, _ k: Knobs) -> [Float] {
        var p = [Float](repeating: .nan, count: RailAction.spaceSize(railroads: observation.map.railroads.count))
        p.withUnsafeMutableBufferPointer {
            RailPlanner.policy(observation, legal: legal, focus: k.focus, missionDraw: k.missionDraw, hoard: k.hoard,
                               rainbows: k.rainbows, pace: k.pace, into: $0)
        }
        return p
    }

    @Test("a distribution over the legal actions, holding every action the planner plays, at the frequencies it plays them",
          arguments: 0..<4)
    func distributionMatchesTheDecisions(setting: Int) throws {
        let k = Self.knobs[setting]
        let states = try CPUTests.decisionStates(40, seats: 2, prepare: { _ in }, keep: { _ in true })
        var buffer = ActionBuffer()
        let draws = 400
        var compared = 0
        for (i, state) in states.enumerated() {
            let observation = state.observation(for: state.currentSeat)
            state.legalActions(into: &buffer)
            let p = Self.policy(observation, buffer, k)
            #expect(abs(p.reduce(0, +) - 1) < 1e-5, "state \(i): the probabilities add up to \(p.reduce(0, +))")
            for a in p.indices where p[a] > 0 { #expect(buffer.contains(a), "state \(i): action \(a) has \(p[a]) yet is not legal") }
            let planner = RailPlanner(seed: UInt64(100 + i), focus: k.focus, missionDraw: k.missionDraw, hoard: k.hoard,
                                      rainbows: k.rainbows, pace: k.pace)
            var counts = [Int: Int]()
            for _ in 0..<draws { counts[planner.chooseAction(observation, legal: buffer), default: 0] += 1 }
            for a in counts.keys { #expect(p[a] > 0, "state \(i): the planner played \(a), which the policy gives 0") }
            for a in p.indices where p[a] > 0 {
                let gap = abs(Float(counts[a] ?? 0) / Float(draws) - p[a])
                compared += 1
                // 400 draws: a standard deviation of at most 0.025.
                #expect(gap < 0.12, "state \(i): action \(a) played \(counts[a] ?? 0) of \(draws), the policy says \(p[a])")
            }
        }
        try #require(compared >= 40, "only \(compared) frequencies compared")
    }

    @Test("the tuned planner's policy: a mission draw at 0.6 when it holds fewer than 2 and may draw one")
    func tunedMissionDraw() throws {
        let states = try CPUTests.decisionStates(600, seats: 2, prepare: { _ in }, keep: { _ in true })
        var buffer = ActionBuffer()
        var checked = 0
        for state in states {
            let observation = state.observation(for: state.currentSeat)
            state.legalActions(into: &buffer)
            guard buffer.contains(RailAction.drawMission), observation.activeMissions.count < 2 else { continue }
            let p = Self.policy(observation, buffer, Self.knobs[1])
            #expect(abs(p[RailAction.drawMission] - 0.6) < 1e-6 || (p[RailAction.drawMission] == 1 && buffer.count == 1))
            checked += 1
        }
        try #require(checked >= 10, "only \(checked) states to check")
    }
}
