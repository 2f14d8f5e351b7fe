import LabCore
import Testing
@testable import RailGame

/// The rail policy features (``RailPolicyFeatures``, version 2): the value features, then
/// per action the tuned planner's verdict and what a build does. Expected values come from
/// the planner's policy, the map and the routes, each computed here apart from the encoder.
@Suite("Rail policy features")
struct RailPolicyFeatureTests {
    static let perAction = 6

    static func encode<E: FeatureEncoder>(_ encoder: E, _ view: E.Observation) -> [Float] {
        var out = [Float](repeating: .nan, count: encoder.featureCount)
        out.withUnsafeMutableBufferPointer { encoder.encode(view, into: $0) }
        return out
    }

    /// Mid-match states of 2- and 3-seat matches played by the planner and at random.
    static func states() throws -> [RailState] {
        var states: [RailState] = []
        for seats in [2, 3] {
            let game = try Rail.game(seats: seats)
            var buffer = ActionBuffer()
            for seed in 0..<4 as Range<UInt64> {
                var state = game.newMatch(seed: 50 + seed)
                var rng = LabRandom(seed: seed)
                let planner = RailPlanner(seed: seed, focus: 1, missionDraw: 0.6, hoard: 1, rainbows: 1)
                while !state.isTerminal {
                    if state.turn % 3 == 0 { states.append(state) }
                    state.legalActions(into: &buffer)
                    state.apply(rng.chance(0.8) ? planner.chooseAction(state.observation(for: state.currentSeat), legal: buffer)
                                                : buffer[rng.uniform(buffer.count)])
                }
            }
        }
        return states
    }

    @Test("the layout: version 2, the value features first, then 6 per action id; the map is the layout key")
    func layout() throws {
        let map = try Rail.map()
        let encoder = RailPolicyFeatures(map: map), base = RailFeatures(map: map)
        let actions = RailAction.spaceSize(railroads: map.railroads.count)
        #expect(RailPolicyFeatures.featureVersion == 2 && RailFeatures.featureVersion == 1)
        #expect(encoder.actionFeatures == Self.perAction)
        #expect(encoder.featureCount == base.featureCount + actions * Self.perAction)
        #expect(encoder.featureNames.count == encoder.featureCount)
        #expect(encoder.featureNames.last == "action\(actions - 1).length")
        #expect(encoder.layoutKey == base.layoutKey)
        let state = try Rail.game(seats: 2).newMatch(seed: 3)
        let view = state.observation(for: state.currentSeat)
        #expect(Array(Self.encode(encoder, view)[0..<base.featureCount]) == Self.encode(base, view))
    }

    @Test("per action: the tuned planner's probability, whether it plays it, on a mission's route, completing it, rainbows spent, length")
    func actionValues() throws {
        let map = try Rail.map()
        let encoder = RailPolicyFeatures(map: map)
        let n = RailFeatures(map: map).featureCount, k = Self.perAction
        let actions = RailAction.spaceSize(railroads: map.railroads.count)
        var buffer = ActionBuffer()
        var onRoute = 0, completing = 0, rainbowBuilds = 0, silent = 0
        var probabilities = [Float](repeating: 0, count: actions)
        for state in try Self.states() {
            state.legalActions(into: &buffer)
            let mover = state.currentSeat
            for seat in 0..<state.seatCount {
                let view = state.observation(for: seat)
                let f = Self.encode(encoder, view)
                #expect(!f.contains { $0.isNaN }, "every value written")
                guard seat == mover else {
                    #expect(f[n...].allSatisfy { $0 == 0 }, "turn \(state.turn): seat \(seat) is not to move, its action values are 0")
                    silent += 1
                    continue
                }
                let p = RailPolicyFeatures.planner
                probabilities.withUnsafeMutableBufferPointer {
                    RailPlanner.policy(view, legal: buffer, focus: p.focus, missionDraw: p.missionDraw, hoard: p.hoard,
                                       rainbows: p.rainbows, pace: p.pace, into: $0)
                }
                // The routes, found here from the missions.
                var route: UInt128 = 0, last: UInt128 = 0
                for m in view.activeMissions {
                    let r = RailPlanner.route(view, from: m.from, to: m.to)
                    route |= r
                    if r.nonzeroBitCount == 1 { last |= r }
                }
                for a in 0..<actions {
                    let v = Array(f[(n + a * k)..<(n + a * k + k)])
                    #expect(v[0] == probabilities[a] && v[1] == (probabilities[a] > 0 ? 1 : 0), "turn \(state.turn), action \(a): \(v)")
                    guard buffer.contains(a), RailAction.isBuild(a) else {
                        #expect(v[2...].allSatisfy { $0 == 0 }, "turn \(state.turn): action \(a) is no legal build: \(v)")
                        continue
                    }
                    let r = RailAction.railroad(of: a), road = map.railroads[r]
                    #expect(v[2] == (route >> UInt128(r) & 1 == 1 ? 1 : 0))
                    #expect(v[3] == (last >> UInt128(r) & 1 == 1 ? 1 : 0))
                    let pay = RailAction.payColour(of: a)
                    let spends = pay == RailColour.rainbow || view.cards(pay) < road.length
                    #expect(v[4] == (spends ? 1 : 0))
                    #expect(v[5] == Float(road.length) / 6)
                    if v[2] == 1 { onRoute += 1 }
                    if v[3] == 1 { completing += 1 }
                    if v[4] == 1 { rainbowBuilds += 1 }
                }
            }
        }
        try #require(onRoute >= 20 && completing >= 5 && rainbowBuilds >= 5 && silent >= 100,
                     "cases seen: \(onRoute) on a route, \(completing) completing, \(rainbowBuilds) spending rainbows, \(silent) not to move")
    }
}
