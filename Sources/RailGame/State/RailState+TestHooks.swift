import LabCore

/// Set-up hooks for tests: put a match in a position directly instead of playing to it.
///
/// Each hook keeps ``invariantViolation()`` true: cards move between a hand and the deck
/// (or from the deck to the discards), never appear or vanish; ownership updates the
/// counts, the unowned bits and the components together. The hooks do not run the
/// end-of-game checks: those run when the next action is applied. Missions are not
/// conserved by the rules' invariants, and the mission hooks say where theirs come from.
extension RailState {
    /// Makes `seat`'s hand exactly `counts` (six entries, red...black then rainbow): the
    /// hand goes back on top of the deck, then each card is taken from the deck.
    /// - Precondition: the deck holds the cards asked for, and at most 6 are asked.
    package mutating func setHand(_ seat: Int, _ counts: [Int]) {
        precondition(counts.count == 6 && counts.reduce(0, +) <= RailMap.handLimit, "six counts, at most \(RailMap.handLimit) cards")
        for c in 0..<6 {
            for _ in 0..<Int(hands[seat * 6 + c]) {
                deck[Int(table.deckCount)] = UInt8(c)
                table.deckCount += 1
            }
            hands[seat * 6 + c] = 0
        }
        table.handSize[seat] = 0
        for c in 0..<6 {
            for _ in 0..<counts[c] {
                guard let at = (0..<Int(table.deckCount)).last(where: { deck[$0] == UInt8(c) }) else {
                    preconditionFailure("the deck holds too few \(RailColour.cardNames[c]) cards")
                }
                table.deckCount -= 1
                deck[at] = deck[Int(table.deckCount)]
                hands[seat * 6 + c] += 1
                table.handSize[seat] += 1
            }
        }
    }

    /// Moves every card of the deck but the top `keeping` to the discards (under either
    /// `spentCards` rule: a quick way to an empty or nearly empty deck).
    package mutating func discardDeck(keeping: Int = 0) {
        while Int(table.deckCount) > keeping {
            table.deckCount -= 1
            table.discards[Int(deck[Int(table.deckCount)])] += 1
        }
    }

    /// The cards of `colour` in the deck.
    package func deckCount(ofColour colour: Int) -> Int {
        (0..<Int(table.deckCount)).count(where: { deck[$0] == UInt8(colour) })
    }

    /// The deck's card colours, bottom first (the top card is last).
    package var deckOrder: [Int] { (0..<Int(table.deckCount)).map { Int(deck[$0]) } }

    /// Gives `railroad` to `seat` without payment, then completes the seat's missions it
    /// joins, as a build would (which may end the match).
    /// - Precondition: the railroad is unowned and the seat does not own its twin.
    package mutating func give(_ railroad: Int, to seat: Int) {
        let rr = map.railroads[railroad]
        precondition(table.owners[railroad] < 0, "\(map.railroadName(railroad)) is owned")
        precondition(rr.twin < 0 || Int(table.owners[rr.twin]) != seat, "seat \(seat) owns the twin of \(map.railroadName(railroad))")
        table.setOwner(railroad, seat)
        table.railroadCount[seat] += 1
        components.join(seat, rr.from, rr.to)
        completeJoinedMissions(seat)
    }

    /// Empties `seat`'s mission slots (the missions leave the game).
    package mutating func clearMissions(_ seat: Int) {
        for k in 0..<RailPublicState.slotsPerSeat { slots[seat * 2 + k] = .empty }
        table.slotsUsed[seat] = 0
    }

    /// Puts a new mission from `from` to `to` (points by the distance buckets) in slot
    /// `slot` of `seat`, replacing what was there. The card comes from outside the deck.
    /// - Precondition: the seat's railroads do not already join the two cities.
    package mutating func setMission(_ seat: Int, slot: Int, from: Int, to: Int) {
        precondition(!components.connected(seat, from, to), "the mission is already joined")
        if slots[seat * 2 + slot].isEmpty { table.slotsUsed[seat] += 1 }
        slots[seat * 2 + slot] = HeldMission(MissionCard(from: from, to: to, points: map.missionPoints(from, to)))
    }

    /// Puts a new mission from `from` to `to` on top of the mission deck.
    package mutating func pushMission(from: Int, to: Int) {
        precondition(Int(table.missionDeckCount) < RailMap.maxMissions, "the mission deck is full")
        missionDeck[Int(table.missionDeckCount)] = HeldMission(MissionCard(from: from, to: to, points: map.missionPoints(from, to)))
        table.missionDeckCount += 1
    }

    /// Empties the mission deck (the missions leave the game).
    package mutating func clearMissionDeck() { table.missionDeckCount = 0 }

    /// Sets `seat`'s completed-mission count and points, as if that many missions had
    /// been completed and had left their slots.
    /// - Precondition: `count` is at most `missionsToWin` + 1 (one build completes two).
    package mutating func setCompleted(_ seat: Int, _ count: Int, points: Int = 0) {
        precondition(count <= rules.missionsToWin + 1, "more completed missions than a match can reach")
        table.completed[seat] = UInt8(count)
        table.points[seat] = Int16(points)
    }

    /// Makes `seat` the mover.
    package mutating func setCurrentSeat(_ seat: Int) {
        precondition((0..<seatCount).contains(seat), "no seat \(seat)")
        table.currentSeat = Int8(seat)
    }
}
