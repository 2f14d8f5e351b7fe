import LabCore

extension RailState {
    // MARK: Legal actions (rule book, "A turn: exactly one action")

    /// Writes the mover's legal actions: draw card, draw mission, builds in railroad
    /// order, or pass alone when nothing else is legal.
    /// - Complexity: O(railroads); allocation-free once `buffer` has grown.
    @inlinable
    public func legalActions(into buffer: inout ActionBuffer) {
        // Inlined into the specialised play loop, so the state is not copied through a
        // protocol witness on every turn.
        fillLegalActions(into: &buffer)
    }

    /// ``legalActions(into:)`` read where the state lies (the play loop's variable)
    /// instead of from a copy of its 920 bytes: the hand and the owners are read through
    /// pointers to the fields themselves (a borrowed InlineArray's subscript copied it to
    /// the stack, the owners' 128 bytes twice and the hands' 24 bytes once per colour).
    @inline(never)
    public mutating func legalActionsInPlace(into buffer: inout ActionBuffer) {
        guard !isTerminal else { buffer.removeAll(); return }
        let seat = currentSeat
        let size = actionSpaceSize
        let card = table.canDrawCard(seat), mission = table.canDrawMission(seat)
        let builds = table.handSize[seat] > 0
        let packed = map.packed
        let held = heldInPlace(seat)
        withUnsafeMutableBytes(of: &table.owners) { owners in
            let owners = UnsafePointer(owners.baseAddress!.assumingMemoryBound(to: Int8.self))
            RailAction.fillLegal(&buffer, size: size, card: card, mission: mission) { add in
                if builds { RailPublicState.forEachBuild(seat, held: held, owners: owners, unowned: table.unowned, packed: packed, add) }
            }
        }
    }

    /// Whether `action` is one of ``legalActions(into:)``'s, without listing them: the
    /// play loop's check of a decision made from the observation alone (the CPUs'). The
    /// hand and the owners are read where they lie; a pass, rare, is checked in a call of
    /// its own (``isPassLegal(_:)``), so the every-turn path keeps a small frame.
    public mutating func isLegalInPlace(_ action: Int) -> Bool? {
        guard !isTerminal else { return false }
        let seat = currentSeat
        if action == RailAction.drawCard { return table.canDrawCard(seat) }
        if action == RailAction.drawMission { return table.canDrawMission(seat) }
        guard RailAction.isBuild(action) else { return action == RailAction.pass && isPassLegal(seat) }
        guard table.handSize[seat] > 0 else { return false }
        let base = seat &* 6
        return RailPublicState.isLegalBuild(action, seat: seat, cards: { Int(hands[base &+ $0]) }, owner: { table.owners[$0] },
                                            unowned: table.unowned, packed: map.packed)
    }

    /// Whether `seat` may pass (nothing else is legal): rare, so a call of its own, and the
    /// every-turn checks keep a small frame.
    @inline(never)
    mutating func isPassLegal(_ seat: Int) -> Bool { !hasActionBesidesPass(seat) }

    @usableFromInline @inline(__always)
    func fillLegalActions(into buffer: inout ActionBuffer) {
        guard !isTerminal else { buffer.removeAll(); return }
        let seat = currentSeat
        RailAction.fillLegal(&buffer, size: actionSpaceSize, card: table.canDrawCard(seat), mission: table.canDrawMission(seat)) { add in
            forEachBuild(seat, add)
        }
    }

    /// `seat`'s cards of each colour.
    @inline(__always) func held(_ seat: Int) -> InlineArray<6, Int> {
        let base = seat &* 6
        var held = InlineArray<6, Int>(repeating: 0)
        for c in 0..<6 { held[c] = Int(hands[base &+ c]) }
        return held
    }

    /// ``held(_:)`` read through a pointer to the hands where they lie.
    @inline(__always) mutating func heldInPlace(_ seat: Int) -> InlineArray<6, Int> {
        withUnsafeMutableBytes(of: &hands) { raw in
            let base = seat &* 6
            var held = InlineArray<6, Int>(repeating: 0)
            for c in 0..<6 { held[c] = Int(raw[base &+ c]) }
            return held
        }
    }

    /// Calls `body` with every build action `seat` may make, in railroad order, until it
    /// returns false (``RailPublicState/forEachBuild(_:held:owners:unowned:packed:_:)``
    /// with the seat's hand).
    @inline(__always)
    func forEachBuild(_ seat: Int, _ body: (Int) -> Bool) {
        guard table.handSize[seat] > 0 else { return }
        table.forEachBuild(seat, held: held(seat), packed: map.packed, body)
    }

    /// Whether `seat` has any legal action other than pass. Read where the state lies (the
    /// hand and the owners through pointers): asked every turn once the deck is empty.
    mutating func hasActionBesidesPass(_ seat: Int) -> Bool {
        if table.canDrawCard(seat) || table.canDrawMission(seat) { return true }
        guard table.handSize[seat] > 0 else { return false }
        let held = heldInPlace(seat), unowned = table.unowned, packed = map.packed
        return withUnsafeMutableBytes(of: &table.owners) { raw in
            let owners = UnsafePointer(raw.baseAddress!.assumingMemoryBound(to: Int8.self))
            return RailPublicState.buildableRailroads(seat, held: held, owner: { owners[$0] }, unowned: unowned, packed: packed) != 0
        }
    }

    // MARK: Applying an action

    /// Applies a legal action of the mover, then the end-of-game checks.
    public mutating func apply(_ action: Int) {
        assert(!isTerminal, "apply on a finished match")
        let seat = currentSeat
        switch action {
        case RailAction.drawCard:
            drawCard(seat)
            table.passes = 0
        case RailAction.drawMission:
            drawMission(seat)
            table.passes = 0
        case RailAction.pass:
            table.passes &+= 1
        default:
            build(seat, railroad: RailAction.railroad(of: action), pay: RailAction.payColour(of: action))
            table.passes = 0
        }
        table.turn &+= 1
        if isTerminal { return }  // a 5th mission ended it
        if Int(table.passes) >= seatCount { table.endReason = .allPassed; return }
        if Int(table.turn) >= rules.turnCap { table.endReason = .turnCap; return }
        table.currentSeat = Int8((seat + 1) % seatCount)
        checkStartOfTurn()
    }

    /// End rule 2: the empty train deck, by the `deckExhaustion` knob.
    mutating func checkStartOfTurn() {
        guard table.deckCount == 0, !isTerminal else { return }
        switch rules.deckExhaustion {
        case .immediate:
            table.endReason = .deckExhausted
        case .whenStuck:
            if !hasActionBesidesPass(currentSeat) { table.endReason = .deckExhausted }
        }
    }

    mutating func drawCard(_ seat: Int) {
        table.deckCount -= 1
        let colour = Int(deck[Int(table.deckCount)])
        hands[seat &* 6 &+ colour] &+= 1
        table.handSize[seat] &+= 1
    }

    /// Draws the top mission into a free slot; it completes at once if already joined.
    mutating func drawMission(_ seat: Int) {
        table.missionDeckCount -= 1
        let mission = missionDeck[Int(table.missionDeckCount)]
        for k in 0..<RailPublicState.slotsPerSeat where slots[seat &* 2 &+ k].isEmpty {
            slots[seat &* 2 &+ k] = mission
            table.slotsUsed[seat] &+= 1
            completeJoinedMissions(seat)
            return
        }
        assertionFailure("drawMission with no free slot")
    }

    /// Builds `railroad` for `seat`, paying canonically with colour `pay` (as many
    /// non-rainbow cards as possible, then rainbows), then completes joined missions.
    mutating func build(_ seat: Int, railroad r: Int, pay: Int) {
        let rr = map.packed[r]
        let length = Int(rr.length)
        let colour = Int(rr.colour) == RailColour.grey.rawValue ? pay : Int(rr.colour)
        let base = seat &* 6
        let plain = colour == RailColour.rainbow ? 0 : min(Int(hands[base &+ colour]), length)
        let rainbows = length &- plain
        assert(Int(hands[base &+ RailColour.rainbow]) >= rainbows, "build the seat cannot pay for")
        hands[base &+ colour] &-= UInt8(plain)
        hands[base &+ RailColour.rainbow] &-= UInt8(rainbows)
        table.handSize[seat] &-= UInt8(length)
        spend(colour, plain)
        spend(RailColour.rainbow, rainbows)

        table.setOwner(r, seat)
        table.railroadCount[seat] &+= 1
        components.join(seat, Int(rr.from), Int(rr.to))
        completeJoinedMissions(seat)
    }

    /// Spent cards go back into the deck (`recycle`, reshuffled by the caller) or out.
    mutating func spend(_ colour: Int, _ count: Int) {
        guard count > 0 else { return }
        switch rules.spentCards {
        case .recycle:
            // Back into the deck, reshuffled: the inside-out Fisher-Yates step puts each
            // returned card at a uniform position, so a uniformly shuffled deck stays
            // uniformly shuffled at the cost of one draw per card, not per deck card.
            for _ in 0..<count {
                let top = Int(table.deckCount)
                let j = rng.uniform(top + 1)
                deck[top] = deck[j]
                deck[j] = UInt8(colour)
                table.deckCount &+= 1
            }
        case .discard:
            table.discards[colour] &+= UInt8(count)
        }
    }

    /// Completes every active mission of `seat` whose cities its railroads join (rule
    /// book, "Missions"); the `missionsToWin`-th completion ends the game at once.
    mutating func completeJoinedMissions(_ seat: Int) {
        for k in 0..<RailPublicState.slotsPerSeat {
            let i = seat &* 2 &+ k
            let m = slots[i]
            guard !m.isEmpty, !m.completed, components.connectedInPlace(seat, Int(m.from), Int(m.to)) else { continue }
            table.completed[seat] &+= 1
            table.points[seat] &+= Int16(m.points)
            if rules.completedMissionsOccupySlots {
                slots[i].completed = true
            } else {
                slots[i] = .empty
                table.slotsUsed[seat] &-= 1
            }
            if Int(table.completed[seat]) >= rules.missionsToWin { table.endReason = .missions }
        }
    }

    mutating func shuffleDeck() {
        let count = Int(table.deckCount)
        guard count > 1 else { return }
        var i = count - 1
        while i > 0 {
            let j = rng.uniform(i + 1)
            deck.swapAt(i, j)
            i -= 1
        }
    }

    mutating func shuffleMissions() {
        var i = Int(table.missionDeckCount) - 1
        while i > 0 {
            let j = rng.uniform(i + 1)
            missionDeck.swapAt(i, j)
            i -= 1
        }
    }
}

extension RailAction {
    /// Writes a mover's legal actions into `buffer` (at most `size`): draw card when
    /// `card`, draw mission when `mission`, then each build `builds` hands its callback,
    /// in railroad order; pass alone when there is nothing else. The state's list and the
    /// mover's own observation's are both written here.
    @inline(__always)
    static func fillLegal(_ buffer: inout ActionBuffer, size: Int, card: Bool, mission: Bool,
                          builds: ((Int) -> Bool) -> Void) {
        // Written in place: an append per action checked the buffer's uniqueness each time.
        buffer.fill(upTo: size) { out in
            var n = 0
            if card { out[n] = Int32(RailAction.drawCard); n &+= 1 }
            if mission { out[n] = Int32(RailAction.drawMission); n &+= 1 }
            builds { action in
                out[n] = Int32(truncatingIfNeeded: action)
                n &+= 1
                return true
            }
            if n == 0 { out[0] = Int32(RailAction.pass); n = 1 }
            return n
        }
    }
}

extension RailPublicState {
    /// Draw a card: fewer than 6 cards in hand and a non-empty deck.
    @inline(__always) func canDrawCard(_ seat: Int) -> Bool { Int(handSize[seat]) < RailMap.handLimit && deckCount > 0 }

    /// Draw a mission: fewer than 2 slots in use and a non-empty mission deck.
    @inline(__always) func canDrawMission(_ seat: Int) -> Bool {
        Int(slotsUsed[seat]) < RailPublicState.slotsPerSeat && missionDeckCount > 0
    }

    /// Calls `body` with every build action `seat`, holding `held` (cards of each colour),
    /// may make, in railroad order, until it returns false: unowned railroads whose twin
    /// the seat does not own, paid with exactly `length` cards (a coloured railroad: its
    /// colour plus rainbows; a grey one: one colour plus rainbows, or rainbows alone).
    /// The state's legal actions and the mover's own observation's read it alike.
    @inline(__always)
    func forEachBuild(_ seat: Int, held: InlineArray<6, Int>, packed railroads: PackedRailroads, _ body: (Int) -> Bool) {
        var owners = self.owners
        withUnsafeMutableBytes(of: &owners) { raw in
            let owners = UnsafePointer(raw.baseAddress!.assumingMemoryBound(to: Int8.self))
            Self.forEachBuild(seat, held: held, owners: owners, unowned: unowned, packed: railroads, body)
        }
    }

    /// ``forEachBuild(_:held:packed:_:)`` reading the owners (one byte a railroad, -1 when
    /// unowned) at `owners` and the unowned set from `unowned`.
    @inline(__always)
    static func forEachBuild(_ seat: Int, held: InlineArray<6, Int>, owners: UnsafePointer<Int8>, unowned: UInt128,
                             packed railroads: PackedRailroads, _ body: (Int) -> Bool) {
        var candidates = payableRailroads(held: held, unowned: unowned, packed: railroads)
        let seatOwner = Int8(seat)
        while candidates != 0 {
            let r = candidates.trailingZeroBitCount
            candidates &= candidates &- 1
            let rr = railroads[r]
            if rr.twin >= 0 && owners[Int(rr.twin)] == seatOwner { continue }
            let colour = Int(rr.colour)
            if colour != RailColour.grey.rawValue {
                if !body(RailAction.build(r, pay: colour)) { return }
            } else {
                // Each colour held, then rainbows alone (pay colour 5), where the hand pays.
                for pay in 0..<6 where pays(pay, colour: colour, length: Int(rr.length), cards: { held[$0] }) {
                    if !body(RailAction.build(r, pay: pay)) { return }
                }
            }
        }
    }

    /// The unowned railroads a hand `held` pays for, by bit operations: a coloured one
    /// when its colour plus rainbows cover its length, a grey one when the colour held
    /// most plus rainbows do (then it has a build: that colour's, or rainbows alone when
    /// the hand holds only rainbows). The twin rule is not applied.
    @inline(__always)
    static func payableRailroads(held: InlineArray<6, Int>, unowned: UInt128, packed railroads: PackedRailroads) -> UInt128 {
        let rainbow = held[RailColour.rainbow]
        var most = 0
        var candidates: UInt128 = 0
        for c in 0..<5 {
            candidates |= railroads.payable(c, held[c] &+ rainbow)
            most = max(most, held[c])
        }
        candidates |= railroads.payable(RailColour.grey.rawValue, most &+ rainbow)
        return candidates & unowned
    }

    /// The railroads `seat`, holding `held`, has a legal build of: the distinct railroads
    /// of ``forEachBuild(_:held:owners:unowned:packed:_:)``, as a set. Only the payable
    /// railroads of a dual path have their twin's owner read (`owner`).
    @inline(__always)
    static func buildableRailroads(_ seat: Int, held: InlineArray<6, Int>, owner: (Int) -> Int8, unowned: UInt128,
                                   packed railroads: PackedRailroads) -> UInt128 {
        let payable = payableRailroads(held: held, unowned: unowned, packed: railroads)
        var twinned = payable & railroads.twinned, buildable = payable
        let seatOwner = Int8(seat)
        while twinned != 0 {
            let r = twinned.trailingZeroBitCount
            twinned &= twinned &- 1
            if owner(Int(railroads[r].twin)) == seatOwner { buildable &= ~(UInt128(1) &<< UInt128(r)) }
        }
        return buildable
    }

    /// Whether `action`, a build, is one of ``forEachBuild(_:held:owners:unowned:packed:_:)``'s
    /// for `seat`, holding `cards(c)` of each colour c, the owners read by `owner`.
    @inline(__always)
    static func isLegalBuild(_ action: Int, seat: Int, cards: (Int) -> Int, owner: (Int) -> Int8, unowned: UInt128,
                             packed railroads: PackedRailroads) -> Bool {
        let r = RailAction.railroad(of: action)
        guard r < railroads.count, unowned & (UInt128(1) &<< UInt128(r)) != 0 else { return false }
        let rr = railroads[r]
        if rr.twin >= 0 && owner(Int(rr.twin)) == Int8(seat) { return false }
        return pays(RailAction.payColour(of: action), colour: Int(rr.colour), length: Int(rr.length), cards: cards)
    }

    /// Whether a hand holding `cards(c)` of each colour c pays a railroad of `colour` and
    /// `length` with `pay` (rule book, "Building"): exactly `length` cards, of `pay` plus
    /// rainbows, where `pay` is the railroad's colour, or for a grey railroad any colour
    /// held, or rainbow (rainbows alone).
    @inline(__always)
    static func pays(_ pay: Int, colour: Int, length: Int, cards: (Int) -> Int) -> Bool {
        let rainbow = cards(RailColour.rainbow)
        if colour != RailColour.grey.rawValue { return pay == colour && cards(pay) &+ rainbow >= length }
        if pay == RailColour.rainbow { return rainbow >= length }
        return cards(pay) > 0 && cards(pay) &+ rainbow >= length
    }
}
