import LabCore

extension RailState {
    /// The first broken invariant: card conservation (deck + hands + discards = 74),
    /// hand sizes and limit, mission slots, railroad counts, the twin rule, components
    /// matching ownership, no active mission already joined, the end reason.
    public func invariantViolation() -> String? {
        var cards = Int(table.deckCount)
        for c in 0..<6 { cards += Int(table.discards[c]) }
        for s in 0..<seatCount {
            var size = 0
            for c in 0..<6 { size += Int(hands[s * 6 + c]) }
            if size != Int(table.handSize[s]) { return "seat \(s): hand holds \(size) cards, public size says \(table.handSize[s])" }
            if size > RailMap.handLimit { return "seat \(s): \(size) cards exceed the hand limit" }
            cards += size
        }
        if cards != RailColour.deckSize { return "card conservation: deck + hands + discards = \(cards), not 74" }
        var perColour = [Int](repeating: 0, count: 6)
        for k in 0..<Int(table.deckCount) { perColour[Int(deck[k])] += 1 }
        for s in 0..<seatCount { for c in 0..<6 { perColour[c] += Int(hands[s * 6 + c]) } }
        for c in 0..<6 where perColour[c] + Int(table.discards[c]) != RailColour.cardsPerColour[c] {
            return "card conservation: \(RailColour.cardNames[c]) totals \(perColour[c] + Int(table.discards[c]))"
        }
        for s in 0..<seatCount {
            var used = 0
            for k in 0..<RailPublicState.slotsPerSeat {
                let m = slots[s * 2 + k]
                if m.isEmpty { continue }
                used += 1
                if m.completed && !rules.completedMissionsOccupySlots { return "seat \(s): a completed mission holds a slot" }
                if !m.completed && components.connected(s, Int(m.from), Int(m.to)) {
                    return "seat \(s): active mission \(map.cities[Int(m.from)].name)-\(map.cities[Int(m.to)].name) is joined but not completed"
                }
            }
            if used != Int(table.slotsUsed[s]) { return "seat \(s): \(used) slots hold missions, public count says \(table.slotsUsed[s])" }
            var owned = 0
            for r in map.railroads.indices where Int(table.owners[r]) == s {
                owned += 1
                let twin = map.railroads[r].twin
                if twin >= 0 && Int(table.owners[twin]) == s { return "seat \(s) owns both railroads of the dual path \(map.railroadName(r))" }
            }
            if owned != Int(table.railroadCount[s]) { return "seat \(s): owns \(owned) railroads, count says \(table.railroadCount[s])" }
            // One build may complete both held missions, so one past the target at most.
            if Int(table.completed[s]) > rules.missionsToWin - 1 + RailPublicState.slotsPerSeat { return "seat \(s): \(table.completed[s]) completed missions, beyond what missionsToWin allows" }
            // Components must be exactly the connected parts of the seat's railroads.
            var label = Array(0..<map.cities.count)
            func find(_ x: Int) -> Int { var x = x; while label[x] != x { x = label[x] }; return x }
            for (r, rr) in map.railroads.enumerated() where Int(table.owners[r]) == s {
                label[find(rr.from)] = find(rr.to)
            }
            // Same partition, in O(cities): roots and labels must map one to one.
            var labelOfRoot = [Int](repeating: -1, count: map.cities.count)
            var rootOfLabel = [Int](repeating: -1, count: 64)
            for a in map.cities.indices {
                let root = find(a), label = components.label(s, a)
                if labelOfRoot[root] < 0 { labelOfRoot[root] = label }
                if rootOfLabel[label] < 0 { rootOfLabel[label] = root }
                if labelOfRoot[root] != label || rootOfLabel[label] != root {
                    return "seat \(s): components disagree with railroads at \(map.cities[a].name)"
                }
            }
        }
        for r in map.railroads.indices {
            let bit = (table.unowned >> r) & 1
            if (bit == 1) != (table.owners[r] < 0) { return "railroad \(map.railroadName(r)): unowned bit disagrees with its owner" }
        }
        if Int(table.turn) > rules.turnCap { return "turn \(table.turn) beyond the cap" }
        if isTerminal != (table.endReason != .none) { return "terminal flag and end reason disagree" }
        if Int(table.passes) > seatCount { return "more consecutive passes than seats" }
        return nil
    }
}
