import LabCore

/// One rail match in progress: the public table plus the hidden parts (hands, held
/// missions, deck orders, the match's random stream). A value type of fixed size.
public struct RailState: GameState {
    public typealias Observation = RailObservation

    public let map: RailMap
    public let rules: RailRules
    @usableFromInline var table: RailPublicState
    var components = RailComponents()
    /// Hand of seat s, colour c at `hands[s * 6 + c]` (c = 5: rainbow).
    var hands = InlineArray<24, UInt8>(repeating: 0)
    /// Slot k of seat s at `slots[s * 2 + k]`.
    var slots = InlineArray<8, HeldMission>(repeating: .empty)
    /// The train deck; the top card is `deck[deckCount - 1]`.
    var deck = InlineArray<80, UInt8>(repeating: 0)
    /// The mission deck; the top mission is `missionDeck[missionDeckCount - 1]`.
    var missionDeck = InlineArray<64, HeldMission>(repeating: .empty)
    /// The match's random stream (reshuffles under `spentCards=recycle`).
    var rng: LabRandom

    /// Deals a match (rule book, "Setup").
    init(map: RailMap, rules: RailRules, seatCount: Int, seed: UInt64) {
        self.map = map
        self.rules = rules
        table = RailPublicState(seatCount: seatCount, railroads: map.railroads.count)
        rng = LabRandom(seed: seed)

        // 1. Shuffle the train deck, then make and shuffle the mission deck.
        var n = 0
        for colour in 0..<6 {
            for _ in 0..<RailColour.cardsPerColour[colour] { deck[n] = UInt8(colour); n += 1 }
        }
        table.deckCount = Int16(n)
        shuffleDeck()
        if let list = map.missions {
            for (i, card) in list.enumerated() { missionDeck[i] = HeldMission(card) }
            table.missionDeckCount = Int16(list.count)
            shuffleMissions()
        } else {
            let cityCount = map.cities.count
            for i in 0..<Self.generatedMissions {
                let a = rng.uniform(cityCount)
                var b = rng.uniform(cityCount - 1)
                if b >= a { b += 1 }
                missionDeck[i] = HeldMission(from: UInt8(a), to: UInt8(b), points: UInt8(map.missionPoints(a, b)), completed: false)
            }
            table.missionDeckCount = Int16(Self.generatedMissions)
        }
        // 2. Initial hands (knob), one seat at a time.
        for seat in 0..<seatCount {
            for _ in 0..<rules.initialHand where table.deckCount > 0 { drawCard(seat) }
        }
        // 3. Two missions each.
        for seat in 0..<seatCount {
            for _ in 0..<RailPublicState.slotsPerSeat where table.missionDeckCount > 0 { drawMission(seat) }
        }
        checkStartOfTurn()
    }

    /// Missions generated per match when the map lists none (as shipped).
    public static let generatedMissions = 25

    // MARK: GameState

    public var seatCount: Int { Int(table.seatCount) }
    @inlinable public var currentSeat: Int { Int(table.currentSeat) }
    @inlinable public var isTerminal: Bool { table.endReason != .none }
    public var turn: Int { Int(table.turn) }
    public var actionSpaceSize: Int { RailAction.spaceSize(railroads: map.railroads.count) }

    @inlinable
    public func observation(for seat: Int) -> RailObservation { RailObservation(state: self, seat: seat) }

    /// ``observation(for:)`` read where the state lies (the play loop's variable)
    /// instead of from a copy of its 920 bytes.
    @inline(never)
    public mutating func observationInPlace(for seat: Int) -> RailObservation { RailObservation(state: self, seat: seat) }

    /// ``observation(for:)`` written over an observation of this match where it lies: the
    /// table copied once, straight from the state's field into the observation's (an
    /// assignment went through a temporary: two copies), the map and rules kept (no
    /// reference counting), nothing built or destroyed. An observation of another map or
    /// rules is made afresh.
    @inline(never)
    public mutating func observe(_ seat: Int, into observation: inout RailObservation) {
        guard observation.map === map, observation.rules.sameKnobs(as: rules) else { return observeAfresh(seat, into: &observation) }
        // RailPublicState is plain bytes (no references), so a byte copy is an assignment.
        assert(_isPOD(RailPublicState.self), "the public table must stay plain bytes to be copied as such")
        withUnsafeMutablePointer(to: &observation.table) { target in
            withUnsafeMutablePointer(to: &table) { source in
                Self.copyInline(from: UnsafeRawPointer(source), to: UnsafeMutableRawPointer(target),
                                byteCount: MemoryLayout<RailPublicState>.size)
            }
        }
        // The seat's six cards as one 4-byte and one 2-byte move.
        withUnsafeMutableBytes(of: &hands) { hands in
            withUnsafeMutableBytes(of: &observation.hand) { hand in
                Self.copyInline(from: UnsafeRawPointer(hands.baseAddress! + seat &* 6), to: hand.baseAddress!, byteCount: 6)
            }
        }
        observation.ownSlots[0] = slots[seat &* 2]
        observation.ownSlots[1] = slots[seat &* 2 &+ 1]
        observation.seat = seat
    }

    /// ``observe(_:into:)`` over an observation of another map or rules: made afresh. A
    /// call of its own, so the every-turn path keeps a small frame.
    @inline(never)
    mutating func observeAfresh(_ seat: Int, into observation: inout RailObservation) {
        observation = RailObservation(state: self, seat: seat)
    }

    /// Copies `byteCount` bytes (a constant where it is inlined) 32 at a time, then the rest
    /// 16, 8, 4, 2 and 1 at a time: straight-line vector moves, where `copyMemory` called
    /// memmove (about 40 instructions for the 188-byte table, every turn).
    @inline(__always)
    static func copyInline(from source: UnsafeRawPointer, to target: UnsafeMutableRawPointer, byteCount: Int) {
        var offset = 0
        while offset &+ 32 <= byteCount {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD32<UInt8>.self), toByteOffset: offset,
                              as: SIMD32<UInt8>.self)
            offset &+= 32
        }
        if byteCount &- offset >= 16 {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self), toByteOffset: offset,
                              as: SIMD16<UInt8>.self)
            offset &+= 16
        }
        if byteCount &- offset >= 8 {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self), toByteOffset: offset, as: UInt64.self)
            offset &+= 8
        }
        if byteCount &- offset >= 4 {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt32.self), toByteOffset: offset, as: UInt32.self)
            offset &+= 4
        }
        if byteCount &- offset >= 2 {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: offset, as: UInt16.self), toByteOffset: offset, as: UInt16.self)
            offset &+= 2
        }
        if byteCount &- offset >= 1 { target.storeBytes(of: source.load(fromByteOffset: offset, as: UInt8.self), toByteOffset: offset, as: UInt8.self) }
    }

    public var outcome: Outcome? {
        guard isTerminal else { return nil }
        // Ranking: most completed missions, then most railroads; equal on both share.
        var keys: [Int] = []
        keys.reserveCapacity(seatCount)
        for s in 0..<seatCount { keys.append(Int(table.completed[s]) * 1000 + Int(table.railroadCount[s])) }
        return Outcome(places: Outcome.places(fromKeys: keys), endReason: table.endReason.name, turns: turn)
    }

    /// Terminal: the match score by the ranking above. Before: the seat's share of
    /// completed missions (each counted as one plus a tenth per railroad owned, so an
    /// early lead in building shows), a crude but cheap estimate of its winning chance.
    public func searchValue(of seat: Int) -> Double {
        if isTerminal {
            let key = { (s: Int) in Int(self.table.completed[s]) * 1000 + Int(self.table.railroadCount[s]) }
            var best = Int.min, firsts = 0
            for s in 0..<seatCount {
                let k = key(s)
                if k > best { best = k; firsts = 1 } else if k == best { firsts += 1 }
            }
            return key(seat) == best ? 1 / Double(firsts) : 0
        }
        var total = 0.0, mine = 0.0
        for s in 0..<seatCount {
            let v = 1 + Double(table.completed[s]) + Double(table.railroadCount[s]) / 10
            total += v
            if s == seat { mine = v }
        }
        return mine / total
    }

    public static let seatStatNames = ["missions_completed", "mission_points", "railroads", "cards_in_hand"]

    public func seatStats(_ seat: Int) -> [Int] {
        [Int(table.completed[seat]), Int(table.points[seat]), Int(table.railroadCount[seat]), Int(table.handSize[seat])]
    }

    // MARK: Public figures (what every seat sees)

    /// Why the match ended (`.none` while it runs).
    public var endReason: RailEndReason { table.endReason }
    public func completedMissions(_ seat: Int) -> Int { Int(table.completed[seat]) }
    public func missionPoints(_ seat: Int) -> Int { Int(table.points[seat]) }
    public func railroadsOwned(_ seat: Int) -> Int { Int(table.railroadCount[seat]) }
    public func handSize(_ seat: Int) -> Int { Int(table.handSize[seat]) }
    public func owner(of railroad: Int) -> Int? { table.owners[railroad] < 0 ? nil : Int(table.owners[railroad]) }
    /// The railroads `seat` owns (bit r: railroad r), read from the owners in one pass.
    public func railroads(ownedBy seat: Int) -> UInt128 {
        var set: UInt128 = 0
        let owner = Int8(seat)
        withUnsafeBytes(of: table.owners) { raw in
            for r in 0..<map.railroads.count where Int8(bitPattern: raw[r]) == owner { set |= UInt128(1) << UInt128(r) }
        }
        return set
    }
    public var deckCount: Int { Int(table.deckCount) }
    public var missionDeckCount: Int { Int(table.missionDeckCount) }
    public func discarded(_ colour: Int) -> Int { Int(table.discards[colour]) }

    // MARK: Hidden figures (the whole truth; strategies never get a state)

    /// Cards of `colour` (5 = rainbow) in `seat`'s hand.
    public func cards(_ seat: Int, _ colour: Int) -> Int { Int(hands[seat * 6 + colour]) }

    /// The missions in `seat`'s slots: (from, to, points, completed).
    public func heldMissions(_ seat: Int) -> [(mission: MissionCard, completed: Bool)] {
        (0..<RailPublicState.slotsPerSeat).compactMap { k in
            let m = slots[seat * 2 + k]
            return m.isEmpty ? nil : (MissionCard(from: Int(m.from), to: Int(m.to), points: Int(m.points)), m.completed)
        }
    }

    /// `seat`'s own hand and mission slots, for its observation.
    @inline(__always)
    func privateView(of seat: Int) -> (InlineArray<6, UInt8>, InlineArray<2, HeldMission>) {
        var hand = InlineArray<6, UInt8>(repeating: 0)
        var own = InlineArray<2, HeldMission>(repeating: .empty)
        withUnsafeBytes(of: hands) { raw in
            for c in 0..<6 { hand[c] = raw[seat &* 6 &+ c] }
        }
        own[0] = slots[seat &* 2]
        own[1] = slots[seat &* 2 &+ 1]
        return (hand, own)
    }

    /// Whether `seat`'s own railroads join cities `a` and `b`.
    public func joined(_ seat: Int, _ a: Int, _ b: Int) -> Bool { components.connected(seat, a, b) }
}
