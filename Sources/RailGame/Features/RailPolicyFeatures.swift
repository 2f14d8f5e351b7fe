import LabCore

/// The rail game's features for a policy-value network (version 2): the value models'
/// features (``RailFeatures``, version 1) followed by 6 values for every action id, which
/// a network adds to each action's logit through one weight vector shared by all actions
/// (``FeatureEncoder/actionFeatures``). A head over rail's action ids must learn each
/// railroad apart (a policy imitating the tuned `planner` from 212,000 of its moves
/// without these scored 0 of 20 blocks against it); a shared term scores a build by what
/// it does. For each action id, when the observer is to move (all 0 otherwise):
/// 1. the tuned `planner`'s probability of playing it (``RailPlanner/policy(_:legal:focus:missionDraw:hoard:rainbows:pace:into:)``
///    with ``RailPolicyFeatures/planner``'s knobs): the planner's verdict;
/// 2. that probability is above 0 (1/0);
/// 3. a build on the cheapest open route of one of the observer's active missions (1/0);
/// 4. a build of the last railroad still to build on such a route: it completes the
///    mission (1/0);
/// 5. a build that spends rainbow cards (1/0; canonical payment, as the planner counts);
/// 6. a build's railroad length [÷ 6].
/// Values 3-6 are 0 for the draws and pass. The encoder reads the observation only: the
/// legal actions come from the observer's own hand and the public table.
public struct RailPolicyFeatures: FeatureEncoder {
    public typealias Observation = RailObservation

    public static let gameName = RailGame.name
    public static let featureVersion = 2
    static let perAction = 6
    /// The planner whose verdict the features carry: the tuned one of docs/strategies.md.
    public static let planner = (focus: 1.0, missionDraw: 0.6, hoard: 1.0, rainbows: 1.0, pace: 1.0)

    let base: RailFeatures

    public init(map: RailMap) { base = RailFeatures(map: map) }

    var actions: Int { RailAction.spaceSize(railroads: base.map.railroads.count) }
    public var featureCount: Int { base.featureCount + actions * Self.perAction }
    public var actionFeatures: Int { Self.perAction }
    public var layoutKey: String { base.layoutKey }
    public var featureNames: [String] {
        base.featureNames + (0..<actions).flatMap { a in
            ["plannerProbability", "plannerPlays", "onRoute", "completes", "spendsRainbows", "length"].map { "action\(a).\($0)" }
        }
    }

    public func encode(_ o: RailObservation, into features: UnsafeMutableBufferPointer<Float>) {
        let f = encodeBase(base, o, into: features)
        // Empty unless the observer is to move in a running match.
        var legal = ActionBuffer()
        o.legalActions(into: &legal)
        guard !legal.isEmpty else { return }
        // The routes of the active missions, and the railroads that are the last on one.
        var onRoute: UInt128 = 0, last: UInt128 = 0
        for s in 0..<RailPublicState.slotsPerSeat {
            let m = o.ownSlots[s]
            guard !m.isEmpty, !m.completed else { continue }
            let route = RailPlanner.route(o, from: Int(m.from), to: Int(m.to))
            onRoute |= route
            if route.nonzeroBitCount == 1 { last |= route }
        }
        let k = Self.perAction, p = Self.planner
        withUnsafeTemporaryAllocation(of: Float.self, capacity: actions) { probabilities in
            // The planner's route railroads are onRoute (RailPlanner.routeRailroads), found once.
            RailPlanner.policy(o, legal: legal, wanted: onRoute, focus: p.focus, missionDraw: p.missionDraw, hoard: p.hoard,
                               rainbows: p.rainbows, pace: p.pace, into: probabilities)
            for a in probabilities.indices where probabilities[a] > 0 {
                f[a * k] = probabilities[a]
                f[a * k + 1] = 1
            }
        }
        for i in 0..<legal.count where RailAction.isBuild(legal[i]) {
            let a = legal[i], r = RailAction.railroad(of: a)
            if onRoute >> UInt128(r) & 1 == 1 { f[a * k + 2] = 1 }
            if last >> UInt128(r) & 1 == 1 { f[a * k + 3] = 1 }
            if RailPlanner.spendsRainbows(a, o) { f[a * k + 4] = 1 }
            f[a * k + 5] = Float(base.map.railroads[r].length) / 6
        }
    }
}
