import Foundation
import LabCore
import RailGame
import Testing

/// The rail feature encoder (``RailFeatures``, version 1): what one seat's view turns into.
/// Expected values come from the rule book, the map file and a plain shortest-path search
/// written here, never from the encoder's own output.
@Suite("Rail features")
struct RailFeatureTests {
    // MARK: Helpers

    static func encoder() throws -> RailFeatures { RailFeatures(map: try Rail.map()) }

    /// The features of `view`; the buffer starts as NaN so an unwritten value shows.
    static func features(_ encoder: RailFeatures, _ view: RailObservation) -> [Float] {
        var out = [Float](repeating: .nan, count: encoder.featureCount)
        out.withUnsafeMutableBufferPointer { encoder.encode(view, into: $0) }
        return out
    }

    /// Feature values by name.
    struct Named {
        let values: [Float]
        let index: [String: Int]

        init(_ encoder: RailFeatures, _ view: RailObservation) {
            values = RailFeatureTests.features(encoder, view)
            index = Dictionary(uniqueKeysWithValues: encoder.featureNames.enumerated().map { ($1, $0) })
        }

        subscript(_ name: String) -> Float {
            guard let i = index[name] else { Issue.record("no feature \(name)"); return .nan }
            return values[i]
        }

        /// `rail.R.NAME.mine` / `.other` of railroad `r`.
        func rail(_ r: Int, _ map: RailMap, _ which: String) -> Float { self["rail.\(r).\(map.railroadName(r)).\(which)"] }
    }

    /// The fewest slots to build joining `a` and `b` for `seat` (own railroads free, other
    /// seats' closed), and the fewest railroads to build among the cheapest paths; nil when
    /// cut off. A plain Dijkstra on (cost, builds) pairs over the map's railroad list.
    static func reference(_ map: RailMap, from a: Int, to b: Int, seat: Int, owner: (Int) -> Int?) -> (distance: Int, builds: Int)? {
        let n = map.cities.count
        var best = [(Int, Int)?](repeating: nil, count: n)
        var done = [Bool](repeating: false, count: n)
        best[a] = (0, 0)
        while true {
            var u = -1
            for c in 0..<n where !done[c] {
                guard let bc = best[c] else { continue }
                if u < 0 || bc < best[u]! { u = c }
            }
            guard u >= 0 else { return nil }
            if u == b {
                let (d, n) = best[u]!
                return (d, n)
            }
            done[u] = true
            let here = best[u]!
            for (r, rail) in map.railroads.enumerated() where rail.from == u || rail.to == u {
                let v = rail.from == u ? rail.to : rail.from
                let o = owner(r)
                if let o, o != seat { continue }
                let step = o == seat ? (0, 0) : (rail.length, 1)
                let candidate = (here.0 + step.0, here.1 + step.1)
                if best[v] == nil || candidate < best[v]! { best[v] = candidate }
            }
        }
    }

    /// The mean (distance, builds) of a mission over every ordered pair of distinct cities
    /// on the empty board: what an empty slot is worth.
    static func meanMission(_ map: RailMap) -> (distance: Float, builds: Float) {
        var d = 0, b = 0, pairs = 0
        for x in map.cities.indices {
            for y in map.cities.indices where x != y {
                if let r = reference(map, from: x, to: y, seat: 0, owner: { _ in nil }) {
                    d += r.distance
                    b += r.builds
                    pairs += 1
                }
            }
        }
        return (Float(d) / Float(pairs), Float(b) / Float(pairs))
    }

    /// Mission points by the rule book's buckets on the Haversine distance (6371 km).
    static func missionPoints(_ a: City, _ b: City) -> Int {
        let rad = Double.pi / 180
        let h = pow(sin((b.latitude - a.latitude) * rad / 2), 2)
            + cos(a.latitude * rad) * cos(b.latitude * rad) * pow(sin((b.longitude - a.longitude) * rad / 2), 2)
        let km = 2 * 6371 * asin(min(1, h.squareRoot()))
        let buckets: [(Double, Int)] = [(500, 5), (1000, 8), (1500, 11), (2000, 14), (2500, 17)]
        return buckets.first { km < $0.0 }?.1 ?? 20
    }

    static func expectClose(_ actual: Float, _ expected: Float, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(abs(actual - expected) <= 1e-5, "\(what): \(actual), expected \(expected)", sourceLocation: sourceLocation)
    }

    /// Positions of random 2- and 3-seat matches: every turn of the first `turns`.
    static func randomPositions(seats: Int, seed: UInt64, turns: Int) throws -> [RailState] {
        var state = try Rail.game(seats: seats).newMatch(seed: seed)
        var rng = LabRandom(seed: seed &+ 1)
        var out: [RailState] = []
        while !state.isTerminal && out.count < turns {
            out.append(state)
            let legal = Rail.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
        return out
    }

    // MARK: Layout

    @Test("The layout has 2R + 56 values (R railroads), one unique name each")
    func layout() throws {
        let encoder = try Self.encoder()
        let railroads = try Rail.map().railroads.count
        #expect(railroads == 80)
        #expect(encoder.featureCount == 2 * railroads + 56)
        #expect(encoder.featureNames.count == encoder.featureCount)
        #expect(Set(encoder.featureNames).count == encoder.featureNames.count, "feature names repeat")
        #expect(RailFeatures.gameName == RailGame.name)
    }

    @Test("Every value is written and finite, at every position of a random match")
    func everyValueWritten() throws {
        let encoder = try Self.encoder()
        for state in try Self.randomPositions(seats: 3, seed: 41, turns: 60) {
            for seat in 0..<3 {
                let f = Self.features(encoder, state.observation(for: seat))
                #expect(f.allSatisfy { $0.isFinite }, "turn \(state.turn), seat \(seat)")
            }
        }
    }

    @Test("A map with another railroad count or name has another layout key")
    func layoutKeyFollowsTheMap() throws {
        let data = try #require(FileManager.default.contents(atPath: Rail.mapPath))
        var top = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        var railroads = try #require(top["railroads"] as? [[String: Any]])
        // Madrid-Barcelona green, one of a dual path: the map stays connected.
        railroads.remove(at: 3)
        var fewer = top
        fewer["railroads"] = railroads
        let fewerReport = RailMapFile.check(data: try JSONSerialization.data(withJSONObject: fewer))
        let smaller = try #require(fewerReport.map, "\(fewerReport.findings)")
        top["name"] = "Another Europe"
        let renamedReport = RailMapFile.check(data: try JSONSerialization.data(withJSONObject: top))
        let renamed = try #require(renamedReport.map, "\(renamedReport.findings)")

        let shipped = try Self.encoder()
        #expect(smaller.railroads.count == 79)
        #expect(RailFeatures(map: smaller).featureCount == 2 * 79 + 56)
        #expect(RailFeatures(map: smaller).layoutKey != shipped.layoutKey)
        #expect(RailFeatures(map: renamed).layoutKey != shipped.layoutKey)
        #expect(RailFeatures(map: try Rail.map()).layoutKey == shipped.layoutKey)
    }

    // MARK: Hidden information

    @Test("Rule book, What players see: a seat's features are the same over every state consistent with its view")
    func sampledStatesEncodeTheSame() throws {
        let encoder = try Self.encoder()
        var rng = LabRandom(seed: 9)
        var checked = 0
        for (seats, seed) in [(2, UInt64(51)), (3, 52), (4, 53)] {
            for state in try Self.randomPositions(seats: seats, seed: seed, turns: 50) where state.turn % 5 == 0 {
                for seat in 0..<seats {
                    let view = state.observation(for: seat)
                    let expected = Self.features(encoder, view)
                    for _ in 0..<3 {
                        let sample = view.sampleState(using: &rng)
                        #expect(Self.features(encoder, sample.observation(for: seat)) == expected, "\(seats) seats, turn \(state.turn), seat \(seat)")
                        checked += 1
                    }
                }
            }
        }
        #expect(checked > 100)
    }

    @Test("Another seat's hand, its missions and the deck order do not change a seat's features")
    func hiddenPartsDoNotLeak() throws {
        let encoder = try Self.encoder()
        var a = try Rail.quietMatch(seats: 3)
        a.setHand(0, Rail.hand(red: 1, green: 1))
        a.setHand(1, Rail.hand(red: 2, blue: 1))
        a.setMission(1, slot: 0, from: try Rail.city("Lisbon"), to: try Rail.city("Moscow"))
        var b = a
        b.setHand(1, Rail.hand(yellow: 1, black: 1, rainbow: 1))  // same size, other cards
        b.setMission(1, slot: 0, from: try Rail.city("Oslo"), to: try Rail.city("Athens"))
        b.setHand(2, Rail.hand(green: 4))
        a.setHand(2, Rail.hand(rainbow: 4))
        #expect(a.deckOrder != b.deckOrder, "the hooks put the cards back on the deck in another order")
        #expect(Rail.handOf(a, 1) != Rail.handOf(b, 1))
        #expect(Self.features(encoder, a.observation(for: 0)) == Self.features(encoder, b.observation(for: 0)))
        // Seat 1 sees its own change.
        #expect(Self.features(encoder, a.observation(for: 1)) != Self.features(encoder, b.observation(for: 1)))
    }

    @Test("The own hand, own missions and every owned railroad are visible: they change the features")
    func visiblePartsShow() throws {
        let encoder = try Self.encoder()
        var base = try Rail.quietMatch(seats: 2)
        base.setHand(0, Rail.hand(red: 2))
        base.setHand(1, Rail.hand(blue: 2))

        var ownHand = base
        ownHand.setHand(0, Rail.hand(green: 2))
        #expect(Self.features(encoder, ownHand.observation(for: 0)) != Self.features(encoder, base.observation(for: 0)))
        #expect(Self.features(encoder, ownHand.observation(for: 1)) == Self.features(encoder, base.observation(for: 1)),
                "seat 0's cards are hidden from seat 1")

        var ownMission = base
        ownMission.setMission(0, slot: 0, from: try Rail.city("Edinburgh"), to: try Rail.city("Paris"))
        var otherMission = base
        otherMission.setMission(0, slot: 0, from: try Rail.city("Lisbon"), to: try Rail.city("Moscow"))
        #expect(Self.features(encoder, ownMission.observation(for: 0)) != Self.features(encoder, otherMission.observation(for: 0)))
        #expect(Self.features(encoder, ownMission.observation(for: 1)) == Self.features(encoder, otherMission.observation(for: 1)))

        let paris = try Rail.railroad("London", "Paris", .blue)
        var built = base
        built.give(paris, to: 1)
        for seat in 0..<2 {
            #expect(Self.features(encoder, built.observation(for: seat)) != Self.features(encoder, base.observation(for: seat)), "seat \(seat)")
        }
    }

    // MARK: Values by hand

    /// Three seats; seat 0 holds red 2, blue 1, rainbow 1, owns London-Brussels, has
    /// completed 2 missions for 13 points and must join Edinburgh and Paris; seat 1 holds
    /// green 3 and owns Edinburgh-London; seat 2 holds yellow 5, owns Lisbon-Madrid and
    /// holds two missions. Seat 0 moves.
    static func handPosition() throws -> RailState {
        var state = try Rail.quietMatch(seats: 3)
        state.setHand(0, Rail.hand(red: 2, blue: 1, rainbow: 1))
        state.setHand(1, Rail.hand(green: 3))
        state.setHand(2, Rail.hand(yellow: 5))
        state.give(try Rail.railroad("London", "Brussels", .red), to: 0)
        state.give(try Rail.railroad("Edinburgh", "London", .red), to: 1)
        state.give(try Rail.railroad("Lisbon", "Madrid", .blue), to: 2)
        state.setMission(0, slot: 0, from: try Rail.city("Edinburgh"), to: try Rail.city("Paris"))
        state.setMission(2, slot: 0, from: try Rail.city("Oslo"), to: try Rail.city("Athens"))
        state.setMission(2, slot: 1, from: try Rail.city("Dublin"), to: try Rail.city("Kiev"))
        state.setCompleted(0, 2, points: 13)
        #expect(state.invariantViolation() == nil)
        return state
    }

    @Test("Railroads: 'mine' and 'other' from the observing seat's side")
    func railroadBits() throws {
        let encoder = try Self.encoder()
        let map = try Rail.map()
        let state = try Self.handPosition()
        let brussels = try Rail.railroad("London", "Brussels", .red)
        let edinburgh = try Rail.railroad("Edinburgh", "London", .red)
        let lisbon = try Rail.railroad("Lisbon", "Madrid", .blue)
        let owners = [brussels: 0, edinburgh: 1, lisbon: 2]
        for seat in 0..<3 {
            let f = Named(encoder, state.observation(for: seat))
            for r in map.railroads.indices {
                let owner = owners[r]
                #expect(f.rail(r, map, "mine") == (owner == seat ? 1 : 0), "seat \(seat), \(map.railroadName(r))")
                #expect(f.rail(r, map, "other") == (owner != nil && owner != seat ? 1 : 0), "seat \(seat), \(map.railroadName(r))")
            }
        }
    }

    @Test("Hand: own cards of each colour divided by 6")
    func handCounts() throws {
        let f = Named(try Self.encoder(), try Self.handPosition().observation(for: 0))
        for (colour, count) in zip(RailColour.cardNames, [2, 1, 0, 0, 0, 1]) {
            Self.expectClose(f["hand.\(colour)"], Float(count) / 6, "hand.\(colour)")
        }
        let g = Named(try Self.encoder(), try Self.handPosition().observation(for: 2))
        Self.expectClose(g["hand.yellow"], 5 / 6, "seat 2 hand.yellow")
        Self.expectClose(g["hand.red"], 0, "seat 2 hand.red")
    }

    @Test("Missions: active, joinable, distance and railroads to build by hand from the map, points by the rule book's buckets")
    func missionFeaturesByHand() throws {
        let map = try Rail.map()
        let f = Named(try Self.encoder(), try Self.handPosition().observation(for: 0))
        let mean = Self.meanMission(map)
        // Edinburgh's only railroads: to London (seat 1's) and to Dublin (1 slot). Dublin's
        // only other railroad: to London (1). London-Brussels is seat 0's own (free), then
        // Brussels-Paris (1): 3 slots over 3 railroads to build; London-Paris direct is 2.
        Self.expectClose(f["mission0.active"], 1, "mission0.active")
        Self.expectClose(f["mission0.joinable"], 1, "mission0.joinable")
        Self.expectClose(f["mission0.distance"], 3 / 12, "mission0.distance")
        Self.expectClose(f["mission0.toBuild"], 3 / 6, "mission0.toBuild")
        let points = Self.missionPoints(map.cities[try Rail.city("Edinburgh")], map.cities[try Rail.city("Paris")])
        #expect(points == 8, "Edinburgh-Paris is about 870 km")
        Self.expectClose(f["mission0.points"], Float(points) / 20, "mission0.points")
        // The empty slot: a mission still to draw, at the empty board's mean.
        Self.expectClose(f["mission1.active"], 0, "mission1.active")
        Self.expectClose(f["mission1.joinable"], 1, "mission1.joinable")
        Self.expectClose(f["mission1.distance"], mean.distance / 12, "mission1.distance")
        Self.expectClose(f["mission1.toBuild"], mean.builds / 6, "mission1.toBuild")
        Self.expectClose(f["mission1.points"], 0, "mission1.points")
        // 2 of 5 completed: 3 needed, one of them drawn (3 slots), two at the mean.
        Self.expectClose(f["missions.needed"], 3 / 5, "missions.needed")
        Self.expectClose(f["missions.slotsToWin"], (3 + 2 * mean.distance) / 60, "missions.slotsToWin")
    }

    @Test("Mission distance: the cheapest path, fewest builds among equals; own railroads cost 0; others' railroads block")
    func missionDistanceByHand() throws {
        let encoder = try Self.encoder()
        let map = try Rail.map()
        let edinburgh = try Rail.city("Edinburgh"), paris = try Rail.city("Paris")
        func mission(_ setUp: (inout RailState) throws -> Void) throws -> Named {
            var state = try Rail.quietMatch(seats: 2)
            try setUp(&state)
            state.setMission(0, slot: 0, from: edinburgh, to: paris)
            return Named(encoder, state.observation(for: 0))
        }
        // Empty board: Edinburgh-London 2 + London-Paris 2 = 4 slots over 2 railroads
        // (via Dublin or Brussels is also 4 slots, but over 3 railroads).
        let empty = try mission { _ in }
        Self.expectClose(empty["mission0.distance"], 4 / 12, "empty board distance")
        Self.expectClose(empty["mission0.toBuild"], 2 / 6, "empty board toBuild")
        // Owning London-Brussels: 2 + 0 + 1.
        let own = try mission { $0.give(try Rail.railroad("London", "Brussels", .red), to: 0) }
        Self.expectClose(own["mission0.distance"], 3 / 12, "own railroad distance")
        Self.expectClose(own["mission0.toBuild"], 2 / 6, "own railroad toBuild")
        // Seat 1 owns Edinburgh-London: round by Dublin, 1 + 1 + 2.
        let blocked = try mission { $0.give(try Rail.railroad("Edinburgh", "London", .red), to: 1) }
        Self.expectClose(blocked["mission0.joinable"], 1, "blocked joinable")
        Self.expectClose(blocked["mission0.distance"], 4 / 12, "blocked distance")
        Self.expectClose(blocked["mission0.toBuild"], 3 / 6, "blocked toBuild")
        // Seat 1 owns both of Edinburgh's railroads: cut off, counted at twice the mean.
        let cut = try mission { state in
            state.give(try Rail.railroad("Edinburgh", "London", .red), to: 1)
            state.give(try Rail.railroad("Dublin", "Edinburgh", .yellow), to: 1)
        }
        let mean = Self.meanMission(map)
        Self.expectClose(cut["mission0.active"], 1, "cut active")
        Self.expectClose(cut["mission0.joinable"], 0, "cut joinable")
        Self.expectClose(cut["mission0.distance"], 0, "cut distance")
        Self.expectClose(cut["mission0.toBuild"], 0, "cut toBuild")
        Self.expectClose(cut["missions.slotsToWin"], (2 * mean.distance + 4 * mean.distance) / 60, "cut slotsToWin")
    }

    @Test("Mission distance equals a plain shortest-path search at positions of random matches")
    func missionDistanceMatchesReference() throws {
        let encoder = try Self.encoder()
        let map = try Rail.map()
        var compared = 0
        for (seats, seed) in [(2, UInt64(61)), (3, 62), (4, 63)] {
            for state in try Self.randomPositions(seats: seats, seed: seed, turns: 400) where state.turn % 10 == 0 {
                for seat in 0..<seats {
                    let f = Named(encoder, state.observation(for: seat))
                    // (joinable, distance, toBuild) of the active slots, in any slot order
                    // (a completed mission leaves its slot empty, so slot 1 may hold one
                    // while slot 0 is empty).
                    var encoded: [[Float]] = []
                    for k in 0..<2 where f["mission\(k).active"] == 1 {
                        encoded.append([f["mission\(k).joinable"], f["mission\(k).distance"], f["mission\(k).toBuild"]])
                    }
                    let expected: [[Float]] = state.heldMissions(seat).filter { !$0.completed }.map { m in
                        let r = Self.reference(map, from: m.mission.from, to: m.mission.to, seat: seat, owner: state.owner(of:))
                        return [r == nil ? 0 : 1, Float(r?.distance ?? 0) / 12, Float(r?.builds ?? 0) / 6]
                    }
                    let order = { (x: [Float], y: [Float]) in x.lexicographicallyPrecedes(y) }
                    #expect(encoded.sorted(by: order) == expected.sorted(by: order), "\(seats) seats, turn \(state.turn), seat \(seat)")
                    compared += expected.count
                }
            }
        }
        #expect(compared > 50)
    }

    @Test("Seats are relative: seat +k is the k-th after the observer in turn order, padded to 4")
    func relativeSeats() throws {
        let encoder = try Self.encoder()
        let state = try Self.handPosition()
        // present, completed/5, railroads/20, hand/6, active missions/2, points/60.
        let figures: [[Float]] = [
            [1, 2 / 5, 1 / 20, 4 / 6, 1 / 2, 13 / 60],
            [1, 0, 1 / 20, 3 / 6, 0, 0],
            [1, 0, 1 / 20, 5 / 6, 1, 0],
        ]
        let names = ["present", "completed", "railroads", "hand", "missions", "points"]
        for observer in 0..<3 {
            let f = Named(encoder, state.observation(for: observer))
            for k in 0..<4 {
                for (j, name) in names.enumerated() {
                    let expected: Float = k < 3 ? figures[(observer + k) % 3][j] : 0
                    Self.expectClose(f["seat+\(k).\(name)"], expected, "observer \(observer), seat+\(k).\(name)")
                }
            }
        }
        // In particular seat +1 of seat 1 is seat 2 (5 cards), seat +2 of seat 1 is seat 0.
        let one = Named(encoder, state.observation(for: 1))
        Self.expectClose(one["seat+1.hand"], 5 / 6, "seat+1 of seat 1")
        Self.expectClose(one["seat+2.completed"], 2 / 5, "seat+2 of seat 1")
    }

    @Test("To move: the relative seat of the mover, one-hot")
    func toMove() throws {
        let encoder = try Self.encoder()
        var state = try Self.handPosition()
        for mover in 0..<3 {
            state.setCurrentSeat(mover)
            for observer in 0..<3 {
                let f = Named(encoder, state.observation(for: observer))
                let relative = (mover - observer + 3) % 3
                for k in 0..<4 {
                    #expect(f["toMove.seat+\(k)"] == (k == relative ? 1 : 0), "mover \(mover), observer \(observer), +\(k)")
                }
            }
        }
    }

    @Test("Decks and clock: cards left of 74, missions left of 25, discards, turn, missionsToWin")
    func decksAndClock() throws {
        let f = Named(try Self.encoder(), try Self.handPosition().observation(for: 0))
        // No initial hand: the 12 cards dealt by the hooks left the 74-card deck; 3 seats
        // drew 2 of the 25 generated missions each (the hooks' missions come from outside).
        Self.expectClose(f["deck"], 62 / 74, "deck")
        Self.expectClose(f["missionDeck"], 19 / 25, "missionDeck")
        for colour in RailColour.cardNames { Self.expectClose(f["discards.\(colour)"], 0, "discards.\(colour)") }
        Self.expectClose(f["turn"], 0, "turn")
        Self.expectClose(f["missionsToWin"], 5 / 10, "missionsToWin")

        var discarding = try Rail.quietMatch(seats: 2, ["spentCards": "discard", "missionsToWin": "3"])
        discarding.discardDeck(keeping: 10)
        let g = Named(try Self.encoder(), discarding.observation(for: 1))
        Self.expectClose(g["deck"], 10 / 74, "deck after discarding")
        let discarded = (0..<6).map(discarding.discarded)
        #expect(discarded.reduce(0, +) == 64)
        for (c, colour) in RailColour.cardNames.enumerated() {
            Self.expectClose(g["discards.\(colour)"], Float(discarded[c]) / 14, "discards.\(colour)")
        }
        Self.expectClose(g["missionsToWin"], 3 / 10, "missionsToWin=3")
    }
}
