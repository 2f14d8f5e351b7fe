import LabCore

/// Shared by both CPUs: choose a buildable railroad uniformly (not a build action: a
/// grey railroad has several) and pay a grey one with the colour held most.
enum RailCPU {
    /// A build action, or nil when nothing can be built: a railroad drawn uniformly (one
    /// draw from `rng` when there is one) among those the observing seat, the mover, has
    /// a legal build of, in railroad order, and built as ``cpuBuild(_:_:_:)`` builds it.
    /// The same build as ``uniformBuild(_:legal:among:rng:)`` taking every railroad of
    /// the mover's legal list, worked out from the observation without one.
    /// Inlined into the CPUs' decisions: a call hands the observation (about 900 bytes)
    /// over as a copy.
    @inline(__always)
    static func uniformBuild(_ observation: RailObservation, rng: inout LabRandom) -> Int? {
        let buildable = observation.buildableRailroads
        let count = buildable.nonzeroBitCount
        guard count > 0 else { return nil }
        let r = SetBits.index(ofSetBit: rng.uniform(count), in: buildable)
        return cpuBuild(r, RailAction.build(r, pay: Int(observation.map.packed[r].colour)), observation)
    }

    /// A build of a railroad that passes `include`, chosen uniformly among the buildable
    /// ones (one draw from `rng` when there is one); nil when none is.
    @inline(__always)
    static func uniformBuild(_ observation: RailObservation, legal: ActionBuffer, among include: (Int) -> Bool,
                             rng: inout LabRandom) -> Int? {
        let count = railroadCount(legal, where: include)
        guard count > 0 else { return nil }
        var pick = rng.uniform(count)
        // A loop of its own, not forEachRailroadBuild: the documented CPU's hot path, and a
        // closure that counts down measured 4,500 instructions a rail match more. The list
        // is read in place (a subscript an action checked its bounds twice).
        let found: (r: Int, action: Int)? = legal.withUnsafeActions { actions in
            var last = -1
            for value in actions {
                let action = Int(value)
                guard RailAction.isBuild(action) else { continue }
                let r = RailAction.railroad(of: action)
                if r == last { continue }
                last = r
                guard include(r) else { continue }
                if pick > 0 { pick -= 1; continue }
                return (r, action)
            }
            return nil
        }
        return found.map { cpuBuild($0.r, $0.action, observation) }
    }

    /// The build the CPUs play for railroad `r`, whose first legal build is `first`: that
    /// one when coloured, paid with the colour held most when grey.
    @inline(__always)
    static func cpuBuild(_ r: Int, _ first: Int, _ observation: RailObservation) -> Int {
        observation.map.railroads[r].colour == .grey ? RailAction.build(r, pay: mostHeldColour(observation)) : first
    }

    /// The distinct railroads with a legal build that pass `include`.
    @inline(__always)
    static func railroadCount(_ legal: ActionBuffer, where include: (Int) -> Bool) -> Int {
        legal.withUnsafeActions { actions in
            var count = 0, last = -1
            for value in actions where RailAction.isBuild(Int(value)) {
                let r = RailAction.railroad(of: Int(value))
                if r != last && include(r) { count &+= 1 }
                last = r
            }
            return count
        }
    }

    /// Calls `body`, until it returns false, with the build the CPUs play for each distinct
    /// railroad with a legal build that passes `include`, in railroad order: its first
    /// legal build when coloured, paid with the colour held most when grey.
    @inline(__always)
    static func forEachRailroadBuild(_ observation: RailObservation, _ legal: ActionBuffer, where include: (Int) -> Bool,
                                     _ body: (Int) -> Bool) {
        var last = -1
        for i in 0..<legal.count where RailAction.isBuild(legal[i]) {
            let r = RailAction.railroad(of: legal[i])
            if r == last { continue }
            last = r
            guard include(r) else { continue }
            if !body(cpuBuild(r, legal[i], observation)) { return }
        }
    }

    /// The non-rainbow colour held most (lowest index on ties), or rainbow when the hand
    /// holds only rainbows. Paying a buildable grey railroad with it is always legal.
    static func mostHeldColour(_ observation: RailObservation) -> Int {
        var best = RailColour.rainbow
        var most = 0
        for c in 0..<5 where observation.cards(c) > most {
            most = observation.cards(c)
            best = c
        }
        return best
    }

    /// Whether the mover may draw a mission: read from `legal` when the caller listed the
    /// legal actions, from the observation when it did not (the play loop lists none for
    /// the CPUs, ``Strategy/readsLegalActions``); the same answer. Reading `legal` keeps
    /// the compiler from handing the CPUs' decisions the observation as a copy: with the
    /// parameter unused, the protocol's entry copied its 266 bytes on every call.
    @inline(__always)
    static func mayDrawMission(_ observation: RailObservation, _ legal: ActionBuffer) -> Bool {
        legal.isEmpty ? observation.mayDrawMission : has(legal, RailAction.drawMission)
    }

    /// Whether `action`, a draw, is legal. Inlined: called, it was 5,000 instructions a
    /// rail match.
    @inline(__always)
    static func has(_ legal: ActionBuffer, _ action: Int) -> Bool {
        // Non-build actions come first in the list.
        for i in 0..<min(legal.count, 2) where legal[i] == action { return true }
        return false
    }
}

/// `heuristic`: the documented CPU (rule book, "The documented CPU heuristic"; SRS 4.5
/// and 6.1.6). In order: (1) fewer than 2 active missions and a mission deck: draw a
/// mission with probability `missionProbability` (0.70), else fall through; (2) build a
/// railroad chosen uniformly among the buildable ones (grey: paid with the colour held
/// most); (3) draw a card if the hand holds fewer than 6 and the deck has cards;
/// (4) pass. When (1) fell through and (2)-(3) find nothing, the mission draw is the only
/// legal action (pass is legal only when nothing else is), so it draws the mission.
public final class RailHeuristicCPU: Strategy {
    public typealias G = RailGame

    public static let defaultMissionProbability = 0.7

    public let missionProbability: Double
    private var rng: LabRandom

    public init(seed: UInt64, missionProbability: Double = RailHeuristicCPU.defaultMissionProbability) {
        rng = LabRandom(seed: seed)
        self.missionProbability = missionProbability
    }

    /// Decides from the observation alone (its hand and the public table), so the play
    /// loop lists no legal actions for it.
    public var readsLegalActions: Bool { false }

    public func chooseAction(_ observation: RailObservation, legal: ActionBuffer) -> Int {
        let missionLegal = RailCPU.mayDrawMission(observation, legal)
        if missionLegal && rng.chance(missionProbability) { return RailAction.drawMission }
        if let build = RailCPU.uniformBuild(observation, rng: &rng) { return build }
        if observation.mayDrawCard { return RailAction.drawCard }
        return missionLegal ? RailAction.drawMission : RailAction.pass
    }
}

/// `shipped-cpu`: the app's CPU as shipped. It builds first (uniformly among buildable
/// railroads, grey paid with the colour held most), else draws a mission when it holds
/// fewer than 2, else draws a card, else passes.
public final class RailShippedCPU: Strategy {
    public typealias G = RailGame

    private var rng: LabRandom

    public init(seed: UInt64) { rng = LabRandom(seed: seed) }

    /// Decides from the observation alone, as ``RailHeuristicCPU``.
    public var readsLegalActions: Bool { false }

    public func chooseAction(_ observation: RailObservation, legal: ActionBuffer) -> Int {
        if let build = RailCPU.uniformBuild(observation, rng: &rng) { return build }
        if RailCPU.mayDrawMission(observation, legal) { return RailAction.drawMission }
        if observation.mayDrawCard { return RailAction.drawCard }
        return RailAction.pass
    }
}
