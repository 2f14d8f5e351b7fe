import LabCore

/// The rail game's feature encoder (version 1): one seat's observation as numbers for a
/// learned value model. It reads the observation only (public table, own hand, own
/// missions), so hidden cards and missions cannot leak into it.
///
/// Seats are relative to the observer: "seat +k" is the k-th seat after it in turn
/// order (+0 the observer itself), padded to 4 seats with zeros. For a map with R
/// railroads the vector has 2R + 56 values, in this order (scales in brackets):
/// 1. **Railroads** (2R): for each railroad, owned by the observer (1/0), owned by
///    another seat (1/0). Unowned railroads have both 0.
/// 2. **Hand** (6): own cards of each colour, red, blue, yellow, green, black, rainbow
///    [÷ 6, the hand limit].
/// 3. **Own missions** (2 × 5 + 2): for each mission slot: active (1/0); its cities can
///    still be joined (1/0); the remaining distance, the fewest slots still to build on a
///    path over the observer's own railroads (cost 0) and unowned ones (cost = length),
///    avoiding other seats' railroads [÷ 12]; the railroads still to build on that path
///    [÷ 6]; the mission's points [÷ 20]. An empty (or completed) slot holds a mission
///    still to draw: joinable 1, distance and railroads those of a random mission on the
///    empty board (the map's mean), points 0. Then the missions still needed to win
///    [÷ missionsToWin] and the slots they take [÷ 60]: the active missions' distances
///    plus the map's mean for each needed mission not yet drawn (a mission cut off counts
///    twice the mean).
/// 4. **Seats** (4 × 6): for seats +0..+3: present (1/0); completed missions
///    [÷ missionsToWin]; railroads owned [÷ 20]; hand size [÷ 6]; active missions
///    [÷ 2]; mission points [÷ 60].
/// 5. **To move** (4): which relative seat moves next, one-hot.
/// 6. **Decks** (8): train deck size [÷ 74]; mission deck size [÷ 25]; discarded cards
///    of each colour [÷ 14] (non-zero only under `spentCards=discard`).
/// 7. **Clock** (2): turn [÷ 400, capped at 1]; missionsToWin [÷ 10].
public struct RailFeatures: FeatureEncoder {
    public typealias Observation = RailObservation

    public static let gameName = RailGame.name
    public static let featureVersion = 1
    static let seats = 4
    static let cardNames = ["red", "blue", "yellow", "green", "black", "rainbow"]

    public let map: RailMap
    /// The mean remaining distance and railroads to build of a random mission on the
    /// empty board: what an empty slot is worth before its mission is drawn.
    let meanMission: (distance: Float, builds: Float)

    /// The railroads at each city: `incident[start[c] ..< start[c + 1]]` for city c.
    let start: [Int]
    let incident: [Int]

    public init(map: RailMap) {
        self.map = map
        var start = [0], incident: [Int] = []
        for c in map.cities.indices {
            incident += map.railroads.indices.filter { map.railroads[$0].from == c || map.railroads[$0].to == c }
            start.append(incident.count)
        }
        self.start = start
        self.incident = incident
        var distance = 0, builds = 0, pairs = 0
        let none = InlineArray<128, Int8>(repeating: -1)
        for a in map.cities.indices {
            for b in map.cities.indices where a != b {
                if let (d, n) = Self.remaining(from: a, to: b, seat: 0, owners: none, packed: map.packed, cities: map.cities.count,
                                               start: start, incident: incident) {
                    distance += d
                    builds += n
                    pairs += 1
                }
            }
        }
        meanMission = (Float(distance) / Float(max(1, pairs)), Float(builds) / Float(max(1, pairs)))
    }

    var railroads: Int { map.railroads.count }
    public var featureCount: Int { 2 * railroads + 56 }

    /// The map's size and name: a model trained on one map is refused on another.
    public var layoutKey: String { "map=\(map.name.replacingOccurrences(of: " ", with: "_")) cities=\(map.cities.count) railroads=\(railroads)" }

    public var featureNames: [String] {
        var names: [String] = []
        for r in 0..<railroads {
            let name = map.railroadName(r)
            names += ["rail.\(r).\(name).mine", "rail.\(r).\(name).other"]
        }
        names += Self.cardNames.map { "hand.\($0)" }
        for k in 0..<2 {
            names += ["mission\(k).active", "mission\(k).joinable", "mission\(k).distance", "mission\(k).toBuild", "mission\(k).points"]
        }
        names += ["missions.needed", "missions.slotsToWin"]
        for s in 0..<Self.seats {
            names += ["seat+\(s).present", "seat+\(s).completed", "seat+\(s).railroads", "seat+\(s).hand", "seat+\(s).missions", "seat+\(s).points"]
        }
        names += (0..<Self.seats).map { "toMove.seat+\($0)" }
        names += ["deck", "missionDeck"] + Self.cardNames.map { "discards.\($0)" }
        names += ["turn", "missionsToWin"]
        return names
    }

    public func encode(_ o: RailObservation, into f: UnsafeMutableBufferPointer<Float>) {
        precondition(f.count == featureCount, "rail features: \(featureCount) values, buffer holds \(f.count)")
        precondition(o.map === map, "rail features: the observation is of another map")
        let table = o.table
        let me = o.seat
        let seatCount = Int(table.seatCount)
        var at = 0
        // 1. Railroads.
        for r in 0..<railroads {
            let owner = Int(table.owners[r])
            f[at] = owner == me ? 1 : 0
            f[at + 1] = owner >= 0 && owner != me ? 1 : 0
            at += 2
        }
        // 2. Hand.
        for c in 0..<6 { f[at + c] = Float(o.hand[c]) / 6 }
        at += 6
        // 3. Own missions.
        encodeMissions(o, into: f, at: &at)
        // 4. Seats, relative to the observer.
        let toWin = Float(max(1, o.rules.missionsToWin))
        for k in 0..<Self.seats {
            for j in 0..<6 { f[at + j] = 0 }
            if k < seatCount {
                let s = (me + k) % seatCount
                let completedInSlots = o.rules.completedMissionsOccupySlots ? min(Int(table.slotsUsed[s]), Int(table.completed[s])) : 0
                f[at] = 1
                f[at + 1] = Float(table.completed[s]) / toWin
                f[at + 2] = Float(table.railroadCount[s]) / 20
                f[at + 3] = Float(table.handSize[s]) / 6
                f[at + 4] = Float(Int(table.slotsUsed[s]) - completedInSlots) / 2
                f[at + 5] = Float(table.points[s]) / 60
            }
            at += 6
        }
        // 5. To move.
        for k in 0..<Self.seats { f[at + k] = 0 }
        if seatCount > 0 { f[at + (Int(table.currentSeat) - me + seatCount) % seatCount] = 1 }
        at += Self.seats
        // 6. Decks.
        f[at] = Float(table.deckCount) / 74
        f[at + 1] = Float(table.missionDeckCount) / 25
        for c in 0..<6 { f[at + 2 + c] = Float(table.discards[c]) / 14 }
        at += 8
        // 7. Clock.
        f[at] = min(1, Float(table.turn) / 400)
        f[at + 1] = Float(o.rules.missionsToWin) / 10
        at += 2
        precondition(at == featureCount, "rail features: wrote \(at) values")
    }

    /// The observer's missions: per slot, whether it is active, reachable, its distance,
    /// railroads still to build and points; then the missions still needed and the slots
    /// they would take.
    private func encodeMissions(_ o: RailObservation, into f: UnsafeMutableBufferPointer<Float>, at: inout Int) {
        let table = o.table, me = o.seat, packed = map.packed
        let needed = max(0, o.rules.missionsToWin - Int(table.completed[me]))
        var active = 0
        var totalDistance: Float = 0
        for k in 0..<RailPublicState.slotsPerSeat {
            let m = o.ownSlots[k]
            for j in 0..<5 { f[at + j] = 0 }
            if !m.isEmpty && !m.completed {
                f[at] = 1
                active += 1
                if let (distance, toBuild) = Self.remaining(from: Int(m.from), to: Int(m.to), seat: me, owners: table.owners, packed: packed,
                                                            cities: map.cities.count, start: start, incident: incident) {
                    f[at + 1] = 1
                    f[at + 2] = Float(distance) / 12
                    f[at + 3] = Float(toBuild) / 6
                    totalDistance += Float(distance)
                } else {
                    totalDistance += 2 * meanMission.distance
                }
                f[at + 4] = Float(m.points) / 20
            } else {
                // An empty slot: a mission still to draw, worth a random one on average.
                f[at + 1] = 1
                f[at + 2] = meanMission.distance / 12
                f[at + 3] = meanMission.builds / 6
            }
            at += 5
        }
        // The missions still needed to win and the slots they would take: active ones
        // at their distance, the rest at a random mission's mean.
        f[at] = Float(needed) / Float(max(1, o.rules.missionsToWin))
        f[at + 1] = (totalDistance + Float(max(0, needed - active)) * meanMission.distance) / 60
        at += 2
    }

    /// The fewest slots still to build to join `a` and `b` for `seat` (own railroads
    /// cost 0, unowned ones their length, other seats' ones are closed), and the number
    /// of railroads to build on such a path (the fewest among the cheapest); nil when
    /// other seats have cut every path. Dijkstra over the cities, without allocation.
    static func remaining(from a: Int, to b: Int, seat: Int, owners: InlineArray<128, Int8>, packed: PackedRailroads, cities: Int,
                          start: [Int], incident: [Int]) -> (Int, Int)? {
        var cost = InlineArray<64, Int16>(repeating: .max)
        var builds = InlineArray<64, Int16>(repeating: .max)
        var done: UInt64 = 0
        cost[a] = 0
        builds[a] = 0
        while true {
            // The closest unsettled city.
            var u = -1
            var best = Int16.max, bestBuilds = Int16.max
            for c in 0..<cities where done & (1 << UInt64(c)) == 0 && (cost[c] < best || (cost[c] == best && builds[c] < bestBuilds)) {
                u = c
                best = cost[c]
                bestBuilds = builds[c]
            }
            guard u >= 0, best < .max else { return nil }
            if u == b { return (Int(best), Int(bestBuilds)) }
            done |= 1 << UInt64(u)
            for k in start[u]..<start[u + 1] {
                let r = incident[k]
                let rail = packed[r]
                let v = Int(rail.from) == u ? Int(rail.to) : Int(rail.from)
                let owner = Int(owners[r])
                guard owner < 0 || owner == seat else { continue }
                let step: Int16 = owner == seat ? 0 : Int16(rail.length)
                let extra: Int16 = owner == seat ? 0 : 1
                let c = best + step, n = bestBuilds + extra
                if c < cost[v] || (c == cost[v] && n < builds[v]) {
                    cost[v] = c
                    builds[v] = n
                }
            }
        }
    }
}
