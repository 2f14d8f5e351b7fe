import LabCore

/// What one seat sees of a rail match (rule book, "What players see"): the public table
/// plus its own hand and missions. It holds no other hidden part, so a strategy handed
/// an observation cannot read one.
public struct RailObservation: GameObservation {
    public typealias State = RailState

    public internal(set) var seat: Int
    public let map: RailMap
    public let rules: RailRules
    var table: RailPublicState
    var hand: InlineArray<6, UInt8>
    var ownSlots: InlineArray<2, HeldMission>

    /// Inlined where this module builds an observation, so that ``RailState/observationInPlace(for:)``
    /// reads the fields where they lie (a call hands a borrowed state over as a copy).
    @usableFromInline @inline(__always)
    init(state: borrowing RailState, seat: Int) {
        // The private part first: in this order the table is copied once fewer (a
        // rail match 7,000 instructions less).
        (hand, ownSlots) = state.privateView(of: seat)
        table = state.table
        self.seat = seat
        map = state.map
        rules = state.rules
    }

    public static func == (l: RailObservation, r: RailObservation) -> Bool {
        l.seat == r.seat && l.map === r.map && l.rules == r.rules && l.table == r.table
            && l.hand.sameElements(r.hand) && l.ownSlots.sameElements(r.ownSlots)
    }

    // MARK: Own hand and missions

    /// Cards of `colour` (0-4, or 5 for rainbow) in the seat's own hand.
    public func cards(_ colour: Int) -> Int { Int(hand[colour]) }

    /// The seat's own missions still to complete.
    public var activeMissions: [MissionCard] {
        (0..<RailPublicState.slotsPerSeat).compactMap { k in
            let m = ownSlots[k]
            return m.isEmpty || m.completed ? nil : MissionCard(from: Int(m.from), to: Int(m.to), points: Int(m.points))
        }
    }

    // MARK: Public table

    public var seatCount: Int { Int(table.seatCount) }
    public var turn: Int { Int(table.turn) }
    public var deckCount: Int { Int(table.deckCount) }
    public var missionDeckCount: Int { Int(table.missionDeckCount) }
    public func handSize(_ seat: Int) -> Int { Int(table.handSize[seat]) }
    public func missionSlotsUsed(_ seat: Int) -> Int { Int(table.slotsUsed[seat]) }
    public func completedMissions(_ seat: Int) -> Int { Int(table.completed[seat]) }
    public func missionPoints(_ seat: Int) -> Int { Int(table.points[seat]) }
    public func railroadsOwned(_ seat: Int) -> Int { Int(table.railroadCount[seat]) }
    public func owner(of railroad: Int) -> Int? { table.owners[railroad] < 0 ? nil : Int(table.owners[railroad]) }
    public func discarded(_ colour: Int) -> Int { Int(table.discards[colour]) }
    /// Whether `seat`'s railroads join cities `a` and `b` (public: ownership is).
    /// - Complexity: O(railroads + cities): recomputed from the owners on each call.
    public func joined(_ seat: Int, _ a: Int, _ b: Int) -> Bool {
        RailComponents(owners: table.owners, map: map).connected(seat, a, b)
    }

    // MARK: The mover's own legal actions

    /// The legal actions of the observing seat when it is to move, from what it sees (its
    /// hand, the public table): the same list as ``RailState/legalActions(into:)``, which a
    /// conformance test checks. Empty when another seat moves or the match is over.
    public func legalActions(into buffer: inout ActionBuffer) {
        guard table.endReason == .none, Int(table.currentSeat) == seat else { buffer.removeAll(); return }
        var held = InlineArray<6, Int>(repeating: 0)
        for c in 0..<6 { held[c] = Int(hand[c]) }
        let table = self.table, seat = self.seat, packed = map.packed
        RailAction.fillLegal(&buffer, size: RailAction.spaceSize(railroads: map.railroads.count), card: table.canDrawCard(seat),
                             mission: table.canDrawMission(seat)) { add in
            if table.handSize[seat] > 0 { table.forEachBuild(seat, held: held, packed: packed, add) }
        }
    }

    /// Whether the observing seat may draw a card when it is to move (fewer than 6 cards
    /// in hand and a non-empty deck).
    public var mayDrawCard: Bool { table.canDrawCard(seat) }

    /// Whether the observing seat may draw a mission when it is to move (a free slot and a
    /// non-empty mission deck).
    public var mayDrawMission: Bool { table.canDrawMission(seat) }

    /// The railroads the observing seat has a legal build of when it is to move (bit r for
    /// railroad r): the distinct railroads of ``legalActions(into:)``'s builds.
    /// Inlined into the CPUs' decisions: called, it had the decision copy the whole
    /// observation (266 bytes) every turn to pass it.
    public var buildableRailroads: UInt128 {
        @inline(__always) get {
            guard table.handSize[seat] > 0 else { return 0 }
            var held = InlineArray<6, Int>(repeating: 0)
            for c in 0..<6 { held[c] = Int(hand[c]) }
            // The twin rule reads the owners of the few payable railroads of a dual path.
            return RailPublicState.buildableRailroads(seat, held: held, owner: { table.owners[$0] }, unowned: table.unowned,
                                                      packed: map.packed)
        }
    }

    // MARK: Information-set sampling

    /// A full state consistent with this view: the cards this seat cannot see (74 minus
    /// its hand and the discards) are dealt at random to the other hands (by their public
    /// sizes) and the deck; other seats' active missions and the mission deck are redrawn
    /// (uniform city pairs for generated decks, the unseen rest of an explicit list),
    /// never a mission their railroads already join; the future shuffles get a new seed.
    public func sampleState(using rng: inout LabRandom) -> RailState {
        var state = RailState(sampledFrom: self, seed: rng.next())
        dealHidden(into: &state, using: &rng)
        return state
    }

    /// The hidden parts of `state` (a copy of one ``sampleState(using:)`` made from this
    /// view) dealt again from `rng`: the public part and the railroads' components, which
    /// a new sample would compute again from the owners, are kept.
    public func resample(_ state: inout RailState, using rng: inout LabRandom) {
        state.rng = LabRandom(seed: rng.next())
        for s in 0..<seatCount where s != seat {
            for c in 0..<6 { state.hands[s * 6 + c] = 0 }
        }
        dealHidden(into: &state, using: &rng)
    }

    /// Deals what this seat cannot see into `state`, whose other hands are empty.
    private func dealHidden(into state: inout RailState, using rng: inout LabRandom) {
        // Cards.
        var pool = InlineArray<80, UInt8>(repeating: 0)
        var n = 0
        for c in 0..<6 {
            let unseen = RailColour.cardsPerColour[c] - Int(hand[c]) - Int(table.discards[c])
            for _ in 0..<max(0, unseen) { pool[n] = UInt8(c); n += 1 }
        }
        var i = n - 1
        while i > 0 { pool.swapAt(i, rng.uniform(i + 1)); i -= 1 }
        var next = 0
        for s in 0..<seatCount where s != seat {
            for _ in 0..<Int(table.handSize[s]) {
                state.hands[s * 6 + Int(pool[next])] += 1
                next += 1
            }
        }
        for k in 0..<Int(table.deckCount) { state.deck[k] = pool[next + k] }

        // Missions.
        let components = state.components
        var unseen: [HeldMission] = []
        if let list = map.missions {
            unseen = list.map(HeldMission.init)
            for k in 0..<RailPublicState.slotsPerSeat where !ownSlots[k].isEmpty {
                if let at = unseen.firstIndex(where: { $0.from == ownSlots[k].from && $0.to == ownSlots[k].to && $0.points == ownSlots[k].points }) {
                    unseen.remove(at: at)
                }
            }
            var j = unseen.count - 1
            while j > 0 { unseen.swapAt(j, rng.uniform(j + 1)); j -= 1 }
        }
        func drawUnseen(joinedBy owner: Int?) -> HeldMission {
            let open: (HeldMission) -> Bool = { m in owner.map { !components.connected($0, Int(m.from), Int(m.to)) } ?? true }
            if map.missions != nil, let at = unseen.lastIndex(where: open) {
                return unseen.remove(at: at)
            }
            var m = HeldMission.empty
            for _ in 0..<64 {
                let a = rng.uniform(map.cities.count)
                var b = rng.uniform(map.cities.count - 1)
                if b >= a { b += 1 }
                m = HeldMission(from: UInt8(a), to: UInt8(b), points: UInt8(map.missionPoints(a, b)), completed: false)
                if open(m) { break }
            }
            return m
        }
        for s in 0..<seatCount {
            let used = Int(table.slotsUsed[s])
            guard s != seat else {
                for k in 0..<RailPublicState.slotsPerSeat { state.slots[s * 2 + k] = ownSlots[k] }
                continue
            }
            // Under the occupy knob every completed mission still holds a slot.
            let completedInSlots = rules.completedMissionsOccupySlots ? min(used, Int(table.completed[s])) : 0
            for k in 0..<used {
                var m = drawUnseen(joinedBy: k < completedInSlots ? nil : s)
                if k < completedInSlots { m.completed = true }
                state.slots[s * 2 + k] = m
            }
        }
        for k in 0..<Int(table.missionDeckCount) { state.missionDeck[k] = drawUnseen(joinedBy: nil) }
    }
}

extension RailState {
    /// The public part of a sampled state; the caller fills the hidden parts.
    init(sampledFrom view: RailObservation, seed: UInt64) {
        map = view.map
        rules = view.rules
        table = view.table
        components = RailComponents(owners: view.table.owners, map: view.map)
        rng = LabRandom(seed: seed)
        for c in 0..<6 { hands[view.seat * 6 + c] = view.hand[c] }
    }
}
