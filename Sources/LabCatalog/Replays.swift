import LabCore
import Quortex
import RailGame
import Reports

/// Turns a played match (every action with the states around it) into the plain data
/// the replay pages draw (``Replay``). One builder per game, made where the game type
/// is known.
typealias ReplayBuilder<G: Game> = @Sendable (_ events: [ReplayEvent<G>], _ initial: G.State, _ final: G.State, _ outcome: Outcome,
                                              _ seats: [ReplaySeat], _ seed: UInt64) -> Replay

/// One action of a match with the state before and after it.
struct ReplayEvent<G: Game> {
    var before: G.State
    var action: Int
    var after: G.State
}

enum Replays {
    /// The steps every replay shows: the action as the trace prints it and the mover's
    /// standing after it.
    static func steps<G: Game>(_ events: [ReplayEvent<G>]) -> [ReplayStep] {
        events.map { e in
            ReplayStep(turn: e.after.turn, seat: e.before.currentSeat, action: e.before.describe(e.action),
                       detail: e.after.traceDetail(seat: e.before.currentSeat))
        }
    }

    // MARK: Rail

    static func picture(_ map: RailMap) -> RailMapPicture {
        RailMapPicture(name: map.name,
                       cities: map.cities.map { .init(name: $0.name, latitude: $0.latitude, longitude: $0.longitude) },
                       railroads: map.railroads.enumerated().map { index, r in
                           .init(from: r.from, to: r.to, length: r.length, colour: r.colour.name, lane: map.lane(of: index))
                       })
    }

    /// A rail match: who built each railroad at which step, and each seat's missions from
    /// the step it held them to the step that completed them.
    static let rail: ReplayBuilder<RailGame> = { events, initial, final, outcome, seats, seed in
        var builds: [RailReplay.Build] = []
        var missions: [RailReplay.Mission] = []
        var open: [[Int]] = Array(repeating: [], count: initial.seatCount)
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
        update(initial, step: -1)
        for (k, e) in events.enumerated() {
            if RailAction.isBuild(e.action) {
                builds.append(.init(railroad: RailAction.railroad(of: e.action), seat: e.before.currentSeat, step: k))
            }
            update(e.after, step: k)
        }
        return .rail(RailReplay(map: picture(final.map), seed: seed, seats: seats, steps: steps(events), builds: builds,
                                missions: missions, endReason: outcome.endReason))
    }

    // MARK: Quortex

    static func picture(_ board: QuortexBoard) -> HexBoardPicture {
        var ports: [HexBoardPicture.Port] = []
        for cell in board.cells.indices {
            for side in 0..<6 where board.portEdge[cell * 6 + side] >= 0 {
                ports.append(.init(cell: cell, side: side, edge: board.portEdge[cell * 6 + side]))
            }
        }
        return HexBoardPicture(radius: board.radius, cells: board.cells.map { .init(row: $0.row, col: $0.col) }, ports: ports)
    }

    /// A Quortex match: every placement with its tile's channels, and each seat's
    /// completed flow at the end.
    static let quortex: ReplayBuilder<QuortexGame> = { events, initial, final, outcome, seats, seed in
        var placements: [QuortexReplay.Placement] = []
        for (k, e) in events.enumerated() {
            guard let type = e.before.drawnTile else { continue }
            let cell = e.action / 6, rotation = e.action % 6
            placements.append(.init(cell: cell, tileType: type, rotation: rotation,
                                    channels: QuortexTile.pairs(type: type, rotation: rotation), seat: e.before.currentSeat, step: k))
        }
        let flows = (0..<final.seatCount).map { seat in
            (final.completedFlow(of: seat) ?? []).map { QuortexReplay.FlowCell(cell: $0.cell, entering: $0.entering, exit: $0.exit) }
        }
        return .quortex(QuortexReplay(board: picture(final.board), seed: seed, seats: seats, seatEdges: final.setup.edges,
                                      steps: steps(events), placements: placements, flows: flows, endReason: outcome.endReason))
    }
}
