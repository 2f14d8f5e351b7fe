import LabCore
import Pictures

extension RailMapPicture {
    /// The picture of `map`: its cities and railroads, each double's second lane marked.
    public init(_ map: RailMap) {
        self.init(name: map.name,
                  cities: map.cities.map { .init(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) },
                  railroads: map.railroads.enumerated().map { index, r in
                      .init(from: r.from, to: r.to, length: r.length, colour: r.colour.name, lane: map.lane(of: index))
                  })
    }
}

extension RailReplay {
    /// A played rail match: who built each railroad at which step, and each seat's
    /// missions from the step it held them to the step that completed them.
    public init(_ match: MatchReplay<RailGame>) {
        var builds: [Build] = []
        var missions: [Mission] = []
        var open: [[Int]] = Array(repeating: [], count: match.initial.seatCount)
        func update(_ state: RailState, step: Int) {
            for seat in 0..<state.seatCount {
                var held = state.heldMissions(seat)
                var stillOpen: [Int] = []
                for index in open[seat] {
                    let m = missions[index]
                    func same(_ h: (mission: MissionCard, completed: Bool)) -> Bool {
                        h.mission.from == m.from && h.mission.to == m.to && h.mission.points == m.points
                    }
                    if let j = held.firstIndex(where: { same($0) && !$0.completed }) {
                        held.remove(at: j)
                        stillOpen.append(index)
                    } else {
                        // Completed: marked so in its slot, or the slot freed (a rule knob).
                        missions[index].completedStep = step
                        if let j = held.firstIndex(where: { same($0) && $0.completed }) { held.remove(at: j) }
                    }
                }
                for h in held where !h.completed {
                    stillOpen.append(missions.count)
                    missions.append(.init(seat: seat, from: h.mission.from, to: h.mission.to, points: h.mission.points, step: step,
                                          completedStep: nil))
                }
                open[seat] = stillOpen
            }
        }
        update(match.initial, step: -1)
        for (k, e) in match.events.enumerated() {
            if RailAction.isBuild(e.action) {
                builds.append(.init(railroad: RailAction.railroad(of: e.action), seat: e.before.currentSeat, step: k))
            }
            update(e.after, step: k)
        }
        self.init(map: RailMapPicture(match.final.map), seed: match.seed, seats: match.seats, steps: match.steps, builds: builds,
                  missions: missions, endReason: match.outcome.endReason)
    }
}

extension RailGame: ReplayDrawing {
    /// The map with each seat's railroads and missions, stepping with the match.
    public static func scene(of match: MatchReplay<RailGame>) -> ReplayScene { RailReplay(match).scene }
}
