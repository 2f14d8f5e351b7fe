import Pictures

/// The rail replay: every railroad faint in its rule-book colour from the start, each
/// built one thick in its builder's seat colour from its step, each seat's missions as
/// dashed lines from the step the seat held them, rings on a mission's cities once done.
extension RailReplay {
    /// Width in px of the drawn map.
    static let pictureWidth = 900.0

    /// The replay page's scene of this match.
    public var scene: ReplayScene {
        let replay = self
        let map = replay.map
        let lastStep = replay.steps.count - 1
        func cityName(_ index: Int) -> String { map.cities.indices.contains(index) ? map.cities[index].name : "city \(index)" }
        func routeName(_ from: Int, _ to: Int) -> String { cityName(from) + "–" + cityName(to) }
        func player(_ seat: Int) -> String { replay.seats.indices.contains(seat) ? " (\(replay.seats[seat].player))" : "" }

        let picture = RailMapDrawing.svg(map, width: Self.pictureWidth, id: "replay-map", style: { index in
            let road = map.railroads[index]
            let lane = road.lane == 0 ? "" : ", second lane"
            return .init(stroke: RailMapDrawing.ruleBookColour(road.colour), width: 2.5, opacity: 0.45,
                         title: "\(routeName(road.from, road.to)), length \(road.length), \(road.colour)\(lane)")
        }, attributes: { _ in [("data-step", "-1")] }, extra: { projection in
            let f = projection.fontSize
            var out = "<g class=\"builds\" stroke-linecap=\"round\">"
            for build in replay.builds where map.railroads.indices.contains(build.railroad) {
                guard let line = RailMapDrawing.segment(build.railroad, of: map, projection) else { continue }
                let road = map.railroads[build.railroad]
                let turn = replay.steps.indices.contains(build.step) ? ", turn \(replay.steps[build.step].turn)" : ""
                out += SVG.element("line", [
                    ("class", "build"), ("data-railroad", String(build.railroad)), ("data-seat", String(build.seat)),
                    ("data-step", String(build.step)),
                    ("x1", SVG.number(line.x1)), ("y1", SVG.number(line.y1)), ("x2", SVG.number(line.x2)), ("y2", SVG.number(line.y2)),
                    ("stroke", SVG.seatColour(build.seat)), ("stroke-width", SVG.number(max(3, 0.45 * f))),
                ], SVG.title("\(routeName(road.from, road.to)), length \(road.length): built by seat \(build.seat)"
                    + player(build.seat) + " at step \(build.step + 1)\(turn)"))
            }
            out += "</g><g class=\"missions\" fill=\"none\">"
            for mission in replay.missions {
                guard map.cities.indices.contains(mission.from), map.cities.indices.contains(mission.to) else { continue }
                let a = projection.point(map.cities[mission.from]), b = projection.point(map.cities[mission.to])
                // Seats holding the same mission draw side by side rather than on top.
                let (dx, dy) = (b.x - a.x, b.y - a.y)
                let length = max((dx * dx + dy * dy).squareRoot(), 1e-9)
                let shift = (Double(mission.seat) - Double(replay.seats.count - 1) / 2) * 2.5
                let (ox, oy) = (-dy / length * shift, dx / length * shift)
                let outcome = mission.completedStep.map { "completed at step \($0 + 1)" } ?? "not completed"
                out += SVG.element("line", [
                    ("class", "mission"), ("data-seat", String(mission.seat)), ("data-step", String(mission.step)),
                    ("x1", SVG.number(a.x + ox)), ("y1", SVG.number(a.y + oy)), ("x2", SVG.number(b.x + ox)), ("y2", SVG.number(b.y + oy)),
                    ("stroke", SVG.seatColour(mission.seat)), ("stroke-width", "2"), ("stroke-dasharray", "7 5"),
                    ("stroke-opacity", "0.85"),
                ], SVG.title("Seat \(mission.seat) mission \(routeName(mission.from, mission.to)), \(mission.points) points: \(outcome)"))
                guard let done = mission.completedStep else { continue }
                let r = SVG.number(0.4 * f + 3 + 2.5 * Double(max(0, mission.seat)))
                out += SVG.element("g", [
                    ("class", "mission-done"), ("data-seat", String(mission.seat)), ("data-step", String(done)),
                    ("stroke", SVG.seatColour(mission.seat)), ("stroke-width", "2"),
                ], SVG.element("circle", [("cx", SVG.number(a.x)), ("cy", SVG.number(a.y)), ("r", r)])
                    + SVG.element("circle", [("cx", SVG.number(b.x)), ("cy", SVG.number(b.y)), ("r", r)]))
            }
            return out + "</g>"
        })

        let notes = replay.seats.indices.map { seat in
            replay.missions.filter { $0.seat == seat }.map { mission in
                ReplayScene.Note(text: "\(routeName(mission.from, mission.to)), \(mission.points) points", step: mission.step,
                           outcome: mission.completedStep == nil ? "not completed" : "completed",
                           outcomeStep: mission.completedStep ?? lastStep)
            }
        }
        let projection = RailMapDrawing.Projection(map, width: Self.pictureWidth)
        return ReplayScene(
            title: "Rail replay: \(map.name), seed \(replay.seed)",
            summary: "\(replay.seats.count) seats · \(replay.steps.count) actions · \(replay.builds.count) railroads built · "
                + "ended: \(replay.endReason)",
            picture: picture, pictureWidth: projection.width, pictureHeight: projection.height,
            seats: replay.seats, notes: notes, steps: replay.steps)
    }
}

extension RailMapDrawing {
    /// The CSS colour for a rule-book railroad colour name; grey for any other name.
    static func ruleBookColour(_ name: String) -> String {
        switch name.lowercased() {
        case "red": "#d62728"
        case "blue": "#1f77b4"
        case "yellow": "#d4b000"
        case "green": "#2ca02c"
        case "black": "#222222"
        default: "#9a9a9a"
        }
    }
}
