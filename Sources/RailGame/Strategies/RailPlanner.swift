import LabCore

/// `planner`: a rail CPU that plans routes for its missions, with knobs that span from
/// below the documented CPU to well above it (docs/strategies.md).
///
/// Each turn, from its own observation only:
/// 0. with probability `1 - pace`, when it may, draw a card instead of anything else (a
///    slower player: it builds less often);
/// 1. fewer than 2 active missions and a mission deck: draw a mission with probability
///    `missionDraw`;
/// 2. with probability `focus`, build a railroad on the cheapest open route of one of its
///    active missions (shortest by slots: its own railroads cost nothing, a railroad
///    another seat owns is closed), chosen uniformly among the buildable route railroads
///    (grey paid with the colour held most);
/// 3. when a route railroad is wanted but none is buildable: with probability `hoard`
///    draw a card (saving for the route) instead of building elsewhere;
/// 4. otherwise as the documented CPU: a uniformly chosen buildable railroad, else a
///    card, else a mission, else pass; but a railroad so chosen that would spend rainbow
///    cards (the hand short of its colour) is put off for a card draw with probability
///    `rainbows`, keeping the wild cards for its routes.
/// Its blunder rate is the `epsilon` every strategy takes. Allocation-free: the route
/// search works in buffers on the stack.
public final class RailPlanner: Strategy {
    public typealias G = RailGame

    public static let defaultFocus = 0.9
    public static let defaultMissionDraw = 0.7
    public static let defaultHoard = 0.5
    public static let defaultRainbows = 0.0
    public static let defaultPace = 1.0

    public let focus: Double
    public let missionDraw: Double
    public let hoard: Double
    public let rainbows: Double
    public let pace: Double
    private var rng: LabRandom

    public init(seed: UInt64, focus: Double = RailPlanner.defaultFocus, missionDraw: Double = RailPlanner.defaultMissionDraw,
                hoard: Double = RailPlanner.defaultHoard, rainbows: Double = RailPlanner.defaultRainbows,
                pace: Double = RailPlanner.defaultPace) {
        rng = LabRandom(seed: seed)
        self.pace = pace
        self.rainbows = rainbows
        self.focus = focus
        self.missionDraw = missionDraw
        self.hoard = hoard
    }

    public func chooseAction(_ observation: RailObservation, legal: ActionBuffer) -> Int {
        let canDraw = RailCPU.has(legal, RailAction.drawCard)
        // No draw from the stream unless the knob can act: pace=1 plays as before.
        if pace < 1 && canDraw && !rng.chance(pace) { return RailAction.drawCard }
        let missionLegal = RailCPU.has(legal, RailAction.drawMission)
        var active = 0
        for k in 0..<RailPublicState.slotsPerSeat where !observation.ownSlots[k].isEmpty && !observation.ownSlots[k].completed { active += 1 }
        if missionLegal && active < RailPublicState.slotsPerSeat && rng.chance(missionDraw) { return RailAction.drawMission }
        let wanted = routeRailroads(observation)
        if wanted != 0 && rng.chance(focus) {
            if let build = Self.build(among: wanted, observation, legal: legal, rng: &rng) { return build }
            if canDraw && rng.chance(hoard) { return RailAction.drawCard }
        }
        if let build = RailCPU.uniformBuild(observation, rng: &rng) {
            // No draw from the stream unless the knob can act: rainbows=0 plays as before.
            if rainbows > 0 && canDraw && Self.spendsRainbows(build, observation) && rng.chance(rainbows) { return RailAction.drawCard }
            return build
        }
        if canDraw { return RailAction.drawCard }
        return missionLegal ? RailAction.drawMission : RailAction.pass
    }

    /// Whether build action `build` spends rainbow cards: paid with rainbows alone, or
    /// with fewer cards of its colour than the railroad is long (canonical payment: as
    /// many non-rainbow cards as possible, then rainbows).
    static func spendsRainbows(_ build: Int, _ observation: RailObservation) -> Bool {
        let pay = RailAction.payColour(of: build)
        let length = observation.map.railroads[RailAction.railroad(of: build)].length
        return pay == RailColour.rainbow || observation.cards(pay) < length
    }

    /// A build of a railroad in `wanted` (bit r: railroad r), chosen uniformly among the
    /// buildable ones; nil when none is.
    static func build(among wanted: UInt128, _ observation: RailObservation, legal: ActionBuffer, rng: inout LabRandom) -> Int? {
        RailCPU.uniformBuild(observation, legal: legal, among: { wanted >> UInt128($0) & 1 == 1 }, rng: &rng)
    }

    /// The railroads still to build on the cheapest open route of each active mission
    /// (bit r: railroad r); 0 when every route is done or closed.
    func routeRailroads(_ observation: RailObservation) -> UInt128 { Self.routeRailroads(observation) }

    /// ``routeRailroads(_:)`` as a function of the observation alone (feature encoders
    /// call it from several threads).
    static func routeRailroads(_ observation: RailObservation) -> UInt128 {
        var wanted: UInt128 = 0
        for k in 0..<RailPublicState.slotsPerSeat {
            let m = observation.ownSlots[k]
            guard !m.isEmpty, !m.completed else { continue }
            wanted |= route(observation, from: Int(m.from), to: Int(m.to))
        }
        return wanted
    }

    /// Dijkstra over the cities (at most 64): a railroad the seat owns costs 0, an unowned
    /// one its length unless the seat owns its twin (a double is built once), one another
    /// seat owns is closed. Returns the unowned railroads of the cheapest route.
    /// - Complexity: O(cities² + railroads); allocation-free (the buffers are on the stack).
    static func route(_ observation: RailObservation, from: Int, to: Int) -> UInt128 {
        let map = observation.map, seat = observation.seat
        let cities = map.cities.count
        var distance = InlineArray<64, Int>(repeating: Int.max)
        var via = InlineArray<64, Int>(repeating: -1)
        distance[from] = 0
        var done: UInt64 = 0
        while true {
            var city = -1, best = Int.max
            for c in 0..<cities where done >> UInt64(c) & 1 == 0 && distance[c] < best { best = distance[c]; city = c }
            guard city >= 0, city != to else { break }
            done |= 1 << UInt64(city)
            for (r, road) in map.railroads.enumerated() where road.from == city || road.to == city {
                let owner = observation.owner(of: r)
                let cost: Int
                if owner == seat {
                    cost = 0
                } else if owner != nil || (road.twin >= 0 && observation.owner(of: road.twin) == seat) {
                    continue
                } else {
                    cost = road.length
                }
                let next = road.from == city ? road.to : road.from
                if best + cost < distance[next] {
                    distance[next] = best + cost
                    via[next] = r
                }
            }
        }
        guard distance[to] != Int.max else { return 0 }
        var wanted: UInt128 = 0
        var city = to
        while city != from, via[city] >= 0 {
            let r = via[city], road = map.railroads[r]
            if observation.owner(of: r) == nil { wanted |= 1 << UInt128(r) }
            city = road.from == city ? road.to : road.from
        }
        return wanted
    }

    /// The probability of each action under ``chooseAction(_:legal:)`` with these knobs
    /// (its `epsilon` aside): `probabilities[a]` for action id `a`, 0 for the actions it
    /// never plays here. The same steps as the decision, each chance split instead of
    /// drawn; the learned players read it as a feature (the planner's verdict).
    /// - Complexity: O(legal actions + the route searches); allocation-free.
    public static func policy(_ observation: RailObservation, legal: ActionBuffer, focus: Double, missionDraw: Double, hoard: Double,
                              rainbows: Double, pace: Double, into probabilities: UnsafeMutableBufferPointer<Float>) {
        policy(observation, legal: legal, wanted: routeRailroads(observation), focus: focus, missionDraw: missionDraw, hoard: hoard,
               rainbows: rainbows, pace: pace, into: probabilities)
    }

    /// ``policy(_:legal:focus:missionDraw:hoard:rainbows:pace:into:)`` with the route
    /// railroads (``routeRailroads(_:)``) already found.
    static func policy(_ observation: RailObservation, legal: ActionBuffer, wanted: UInt128, focus: Double, missionDraw: Double,
                       hoard: Double, rainbows: Double, pace: Double, into probabilities: UnsafeMutableBufferPointer<Float>) {
        for a in probabilities.indices { probabilities[a] = 0 }
        func add(_ action: Int, _ p: Double) { probabilities[action] += Float(p) }
        var mass = 1.0
        let canDraw = RailCPU.has(legal, RailAction.drawCard)
        if pace < 1 && canDraw {
            add(RailAction.drawCard, mass * (1 - pace))
            mass *= pace
        }
        let missionLegal = RailCPU.has(legal, RailAction.drawMission)
        var active = 0
        for k in 0..<RailPublicState.slotsPerSeat where !observation.ownSlots[k].isEmpty && !observation.ownSlots[k].completed { active += 1 }
        if missionLegal && active < RailPublicState.slotsPerSeat {
            add(RailAction.drawMission, mass * missionDraw)
            mass *= 1 - missionDraw
        }
        if wanted != 0 {
            let focused = mass * focus
            mass -= focused
            let onRoute = { (r: Int) in wanted >> UInt128(r) & 1 == 1 }
            let count = RailCPU.railroadCount(legal, where: onRoute)
            if count > 0 {
                RailCPU.forEachRailroadBuild(observation, legal, where: onRoute) { add($0, focused / Double(count)); return true }
            } else if canDraw {
                add(RailAction.drawCard, focused * hoard)
                mass += focused * (1 - hoard)
            } else {
                mass += focused
            }
        }
        let count = RailCPU.railroadCount(legal) { _ in true }
        if count > 0 {
            let share = mass / Double(count)
            RailCPU.forEachRailroadBuild(observation, legal, where: { _ in true }) { build in
                if rainbows > 0 && canDraw && spendsRainbows(build, observation) {
                    add(RailAction.drawCard, share * rainbows)
                    add(build, share * (1 - rainbows))
                } else {
                    add(build, share)
                }
                return true
            }
        } else if canDraw {
            add(RailAction.drawCard, mass)
        } else {
            add(missionLegal ? RailAction.drawMission : RailAction.pass, mass)
        }
    }
}
