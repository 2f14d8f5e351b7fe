import LabCore

extension RailState {
    /// `draw card`, `draw mission`, `pass`, or `build Paris-Berlin (4 blue) paying 3 blue + 1 rainbow`.
    public func describe(_ action: Int) -> String {
        switch action {
        case RailAction.drawCard: return "draw card"
        case RailAction.drawMission: return "draw mission"
        case RailAction.pass: return "pass"
        default:
            let r = RailAction.railroad(of: action)
            let rr = map.railroads[r]
            let colour = rr.colour == .grey ? RailAction.payColour(of: action) : rr.colour.rawValue
            let plain = colour == RailColour.rainbow ? 0 : min(cards(currentSeat, colour), rr.length)
            var paid: [String] = []
            if plain > 0 { paid.append("\(plain) \(RailColour.cardNames[colour])") }
            if rr.length - plain > 0 { paid.append("\(rr.length - plain) rainbow") }
            return "build \(map.railroadName(r)) (\(rr.length) \(rr.colour.name)) paying \(paid.joined(separator: " + "))"
        }
    }

    /// `hand 4 [2 red, 1 blue, 1 rainbow] | missions Paris-Rome 11, Oslo-Kiev 20 | done 2 (19 pts) | railroads 5`.
    public func traceDetail(seat: Int) -> String {
        let held = (0..<6).filter { cards(seat, $0) > 0 }.map { "\(cards(seat, $0)) \(RailColour.cardNames[$0])" }
        let missions = heldMissions(seat).map { entry in
            "\(map.cities[entry.mission.from].name)-\(map.cities[entry.mission.to].name) \(entry.mission.points)\(entry.completed ? " (done)" : "")"
        }
        return "hand \(handSize(seat)) [\(held.joined(separator: ", "))] | missions \(missions.isEmpty ? "none" : missions.joined(separator: ", ")) | done \(completedMissions(seat)) (\(missionPoints(seat)) pts) | railroads \(railroadsOwned(seat))"
    }
}
