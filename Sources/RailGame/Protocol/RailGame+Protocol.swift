import LabCore

/// The rail game in the player protocol (`docs/protocol/rail.md`): its `hello.rules`,
/// `hello.setup` and action objects. Keys of `rules` are the rule knobs' names; every
/// other key is snake_case, as in the protocol's envelope.
extension RailGame: ProtocolGame {
    /// `hello.rules`: every knob of ``RailRules``, resolved, under its knob name.
    public func writeProtocolRules(to json: inout JSONWriter) {
        json.beginObject()
        json.member("initialHand", rules.initialHand)
        json.member("spentCards", rules.spentCards.rawValue)
        json.key("completedMissionsOccupySlots")
        json.value(rules.completedMissionsOccupySlots)
        json.member("missionsToWin", rules.missionsToWin)
        json.member("deckExhaustion", rules.deckExhaustion.rawValue)
        json.member("turnCap", rules.turnCap)
        json.endObject()
    }

    /// `hello.setup`: the map (cities, railroads with their indices and twins, the
    /// mission list when the map has one) and the fixed components (cards, hand limit,
    /// mission slots, the action space).
    public func writeProtocolSetup(to json: inout JSONWriter) {
        json.beginObject()
        json.member("map", map.name)
        json.key("cities")
        json.beginArray()
        for (i, city) in map.cities.enumerated() {
            json.beginObject()
            json.member("index", i)
            json.member("name", city.name)
            json.key("latitude")
            json.value(city.latitude)
            json.key("longitude")
            json.value(city.longitude)
            json.endObject()
        }
        json.endArray()
        json.key("railroads")
        json.beginArray()
        for (i, r) in map.railroads.enumerated() {
            json.beginObject()
            json.member("index", i)
            json.member("from", r.from)
            json.member("to", r.to)
            json.member("length", r.length)
            json.member("colour", r.colour.name)
            json.key("twin")
            json.integerOrNull(r.twin)
            json.endObject()
        }
        json.endArray()
        // Rule book, "Components": a map's own list, shuffled, or 25 generated per match.
        json.key("missions")
        if let list = map.missions {
            json.beginArray()
            for m in list { Self.writeMission(m.from, m.to, m.points, completed: nil, to: &json) }
            json.endArray()
        } else {
            json.null()
        }
        json.member("mission_deck_size", map.missions?.count ?? RailState.generatedMissions)
        json.key("card_colours")
        json.beginArray()
        for name in RailColour.cardNames { json.value(name) }
        json.endArray()
        json.key("cards_per_colour")
        json.beginObject()
        for c in 0..<6 { json.member(ProtocolBytes.cardKeys[c], RailColour.cardsPerColour[c]) }
        json.endObject()
        json.member("deck_size", RailColour.deckSize)
        json.member("hand_limit", RailMap.handLimit)
        json.member("mission_slots", RailPublicState.slotsPerSeat)
        json.member("action_count", RailAction.spaceSize(railroads: map.railroads.count))
        json.endObject()
    }

    /// `{"kind":"draw_card"}`, `{"kind":"draw_mission"}`, `{"kind":"pass"}`, or
    /// `{"kind":"build","railroad":R,"from":A,"to":B,"length":L,"colour":C,"pay":P}`
    /// (`pay`: the card colour paid with, `rainbow` for rainbows alone).
    public func writeProtocolAction(_ action: Int, to json: inout JSONWriter) {
        json.beginObject()
        switch action {
        case RailAction.drawCard: json.member("kind", "draw_card")
        case RailAction.drawMission: json.member("kind", "draw_mission")
        case RailAction.pass: json.member("kind", "pass")
        default:
            let r = RailAction.railroad(of: action)
            let rr = map.railroads[r]
            json.member("kind", "build")
            json.member("railroad", r)
            json.member("from", rr.from)
            json.member("to", rr.to)
            json.member("length", rr.length)
            json.member("colour", rr.colour.name)
            json.member("pay", RailColour.cardNames[RailAction.payColour(of: action)])
        }
        json.endObject()
    }

    /// `draw card`, `draw mission`, `pass`, or `build Paris-Berlin (4 blue) paying blue`:
    /// the colour paid with, never the split between it and rainbows (which the hand
    /// decides, and the hand is hidden).
    public func protocolText(of action: Int) -> String {
        switch action {
        case RailAction.drawCard: return "draw card"
        case RailAction.drawMission: return "draw mission"
        case RailAction.pass: return "pass"
        default:
            let r = RailAction.railroad(of: action)
            let rr = map.railroads[r]
            return "build \(map.railroadName(r)) (\(rr.length) \(rr.colour.name)) paying \(RailColour.cardNames[RailAction.payColour(of: action)])"
        }
    }

    /// `{"from":A,"to":B,"points":P}`, with `"completed":…` when `completed` is given.
    static func writeMission(_ from: Int, _ to: Int, _ points: Int, completed: Bool?, to json: inout JSONWriter) {
        json.beginObject()
        json.member("from", from)
        json.member("to", to)
        json.member("points", points)
        if let completed {
            json.key("completed")
            json.value(completed)
        }
        json.endObject()
    }
}

/// Constant pieces of the rail protocol objects.
enum ProtocolBytes {
    /// The card colours as keys, in ``RailColour/cardNames`` order.
    static let cardKeys: [StaticString] = ["red", "blue", "yellow", "green", "black", "rainbow"]
}
