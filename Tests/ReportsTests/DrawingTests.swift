import Foundation
import Pictures
import Quortex
import RailGame
import Reports
import Testing

// MARK: - Fixtures

/// Four cities; West–East is a double (its second lane stored East→West), the third
/// city's name needs escaping.
private let map = RailMapPicture(
    name: "Test & Map",
    cities: [
        .init(name: "West", latitude: 50, longitude: 0),
        .init(name: "East", latitude: 50, longitude: 10),
        .init(name: "North", latitude: 55, longitude: 5),
        .init(name: "Saint <&\" Town", latitude: 45, longitude: 5),
    ],
    railroads: [
        .init(from: 0, to: 1, length: 4, colour: "red", lane: 0),
        .init(from: 1, to: 0, length: 4, colour: "blue", lane: 1),
        .init(from: 0, to: 2, length: 3, colour: "grey", lane: 0),
        .init(from: 2, to: 1, length: 3, colour: "green", lane: 0),
        .init(from: 3, to: 0, length: 2, colour: "black", lane: 0),
    ])

private func plain(_ index: Int) -> RailMapDrawing.RailroadStyle {
    .init(stroke: "#999999", width: 2, title: "railroad \(index)")
}

/// A hex board of radius `r` in canonical order, with every rim side a port whose edge
/// is its side number.
private func board(radius r: Int) -> HexBoardPicture {
    var cells: [HexBoardPicture.Cell] = []
    for row in -r...r {
        for col in -r...r where abs(row + col) <= r { cells.append(.init(row: row, col: col)) }
    }
    var ports: [HexBoardPicture.Port] = []
    for (index, cell) in cells.enumerated() {
        for (side, step) in HexBoardPicture.steps.enumerated()
        where !cells.contains(.init(row: cell.row + step.row, col: cell.col + step.col)) {
            ports.append(.init(cell: index, side: side, edge: side))
        }
    }
    return HexBoardPicture(radius: r, cells: cells, ports: ports)
}

private let seats = [
    ReplaySeat(player: "greedy", place: 1, result: "win", figures: [.init(name: "points", value: 12)]),
    ReplaySeat(player: "random<seed=3>", place: 2, result: "loss", figures: [.init(name: "points", value: 5)]),
]

private let railReplay = RailReplay(
    map: map, seed: 7, seats: seats,
    steps: [
        .init(turn: 1, seat: 0, action: "build West-East", detail: "points 4"),
        .init(turn: 2, seat: 1, action: "build West-North", detail: "points 3"),
        .init(turn: 3, seat: 0, action: "build North-East", detail: "points 7"),
    ],
    builds: [.init(railroad: 0, seat: 0, step: 0), .init(railroad: 2, seat: 1, step: 1), .init(railroad: 3, seat: 0, step: 2)],
    missions: [
        .init(seat: 0, from: 0, to: 2, points: 5, step: -1, completedStep: 2),
        .init(seat: 1, from: 3, to: 1, points: 8, step: 1, completedStep: nil),
    ],
    endReason: "turn-cap")

/// Radius 1: cells 0 (-1,0), 1 (-1,1), 2 (0,-1), 3 (0,0), 4 (0,1), 5 (1,-1), 6 (1,0).
private let quortexReplay = QuortexReplay(
    board: board(radius: 1), seed: 9, seats: seats, seatEdges: [1, 4],
    steps: [
        .init(turn: 1, seat: 0, action: "place 3 t0 r0", detail: ""),
        .init(turn: 2, seat: 1, action: "place 4 t2 r0", detail: ""),
    ],
    placements: [
        .init(cell: 3, tileType: 0, rotation: 0, channels: [[0, 2], [1, 4], [3, 5]], seat: 0, step: 0),
        .init(cell: 4, tileType: 2, rotation: 0, channels: [[0, 5], [1, 4], [2, 3]], seat: 1, step: 1),
    ],
    flows: [[.init(cell: 3, entering: 1, exit: 4), .init(cell: 4, entering: 1, exit: 4)], []],
    endReason: "connection")

// MARK: - Helpers

private func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

/// The attributes of every start tag in `text` that contains `marker`.
private func tags(_ marker: String, in text: String) -> [[String: String]] {
    let pattern = try! Regex(#"([A-Za-z][A-Za-z0-9:-]*)="([^"]*)""#)
    return text.components(separatedBy: "<").dropFirst().compactMap { chunk -> [String: String]? in
        guard let end = chunk.firstIndex(of: ">") else { return nil }
        let tag = String(chunk[..<end])
        guard tag.contains(marker) else { return nil }
        var attributes: [String: String] = [:]
        for match in tag.matches(of: pattern) {
            attributes[String(match.output[1].substring ?? "")] = String(match.output[2].substring ?? "")
        }
        return attributes
    }
}

private func number(_ text: String?) -> Double { Double(text ?? "") ?? .nan }

/// Nil when `text` is well-formed XML as far as the lab writes it (balanced tags,
/// quoted attributes, only the five entities and numeric references); else the problem.
private func xmlProblem(_ text: String) -> String? {
    var open: [String] = []
    var rest = Substring(text)
    let entity = try! Regex(#"^&(amp|lt|gt|quot|#39|#[0-9]+);"#)
    while let c = rest.first {
        if c == "&" {
            guard rest.prefixMatch(of: entity) != nil else { return "bad entity at \(rest.prefix(20))" }
            rest = rest.dropFirst()
        } else if c == "<" {
            guard let end = rest.firstIndex(of: ">") else { return "unclosed tag" }
            let tag = rest[rest.index(after: rest.startIndex)..<end]
            rest = rest[rest.index(after: end)...]
            if tag.hasPrefix("?") || tag.hasPrefix("!") { continue }
            if tag.contains("<") { return "< inside tag \(tag.prefix(40))" }
            if tag.filter({ $0 == "\"" }).count % 2 != 0 { return "unbalanced quotes in \(tag.prefix(40))" }
            if tag.hasPrefix("/") {
                guard open.popLast() == String(tag.dropFirst()) else { return "mismatched </\(tag.dropFirst())>" }
            } else if !tag.hasSuffix("/") {
                open.append(String(tag.prefix { !$0.isWhitespace }))
            }
        } else {
            rest = rest.dropFirst()
        }
    }
    return open.isEmpty ? nil : "unclosed <\(open.last!)>"
}

// MARK: - Rail map

@Suite("Rail map drawing")
struct RailMapDrawingTests {
    @Test("every city is a circle with a label")
    func everyCityIsDrawn() {
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: plain)
        #expect(count("class=\"city\"", in: svg) == 4)
        #expect(count("class=\"city-label\"", in: svg) == 4)
    }

    @Test("every railroad lane is one line")
    func everyRailroadIsDrawn() {
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: plain)
        #expect(tags("class=\"railroad\"", in: svg).compactMap { $0["data-railroad"] } == ["0", "1", "2", "3", "4"])
    }

    @Test("the projection puts east to the right and north up")
    func projectionOrientation() throws {
        var projection: RailMapDrawing.Projection?
        _ = RailMapDrawing.svg(map, width: 600, id: "m", style: plain, extra: { projection = $0; return "" })
        let p = try #require(projection)
        let west = p.point(latitude: 50, longitude: 0), east = p.point(latitude: 50, longitude: 10)
        let north = p.point(latitude: 55, longitude: 5)
        #expect(east.x > west.x)
        #expect(north.y < west.y)
    }

    @Test("a city's circle sits at its projected point, inside the drawing")
    func cityAtProjectedPoint() throws {
        var projection: RailMapDrawing.Projection?
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: plain, extra: { projection = $0; return "" })
        let p = try #require(projection)
        let east = try #require(tags("data-city=\"East\"", in: svg).first)
        let expected = p.point(latitude: 50, longitude: 10)
        #expect(abs(number(east["cx"]) - expected.x) < 0.01)
        #expect(abs(number(east["cy"]) - expected.y) < 0.01)
        #expect(expected.x > 0 && expected.x < p.width && expected.y > 0 && expected.y < p.height)
    }

    @Test("the two lanes of a double lie on opposite sides of the city-to-city line")
    func doubleLanesAreOffset() throws {
        var projection: RailMapDrawing.Projection?
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: plain, extra: { projection = $0; return "" })
        let p = try #require(projection)
        let a = p.point(latitude: 50, longitude: 0), b = p.point(latitude: 50, longitude: 10)
        let lines = tags("class=\"railroad\"", in: svg)
        func side(_ line: [String: String]) -> Double {
            let mx = (number(line["x1"]) + number(line["x2"])) / 2, my = (number(line["y1"]) + number(line["y2"])) / 2
            return (b.x - a.x) * (my - a.y) - (b.y - a.y) * (mx - a.x)
        }
        #expect(side(lines[0]) * side(lines[1]) < 0)
    }

    @Test("a single railroad runs exactly city to city")
    func singleRailroadIsCentred() throws {
        var projection: RailMapDrawing.Projection?
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: plain, extra: { projection = $0; return "" })
        let p = try #require(projection)
        let line = tags("data-railroad=\"2\"", in: svg)[0]
        let west = p.point(latitude: 50, longitude: 0)
        #expect(abs(number(line["x1"]) - west.x) < 0.01 && abs(number(line["y1"]) - west.y) < 0.01)
    }

    @Test("each railroad takes the style of its own index")
    func styleByIndex() {
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: { index in
            .init(stroke: index == 2 ? "#123456" : "#999999", width: index == 2 ? 6 : 2, title: "r\(index)")
        })
        let lines = tags("class=\"railroad\"", in: svg)
        #expect(lines.map { $0["stroke"] } == ["#999999", "#999999", "#123456", "#999999", "#999999"])
        #expect(lines[2]["stroke-width"] == "6")
    }

    @Test("city names are escaped in attributes and text")
    func cityNameEscaped() {
        let svg = RailMapDrawing.svg(map, width: 600, id: "m", style: plain)
        #expect(!svg.contains("<&\""))
        #expect(count("Saint &lt;&amp;&quot; Town", in: svg) == 3)  // data-city, title, label
    }

    @Test("the svg is well-formed and carries the given id")
    func wellFormedWithId() {
        let svg = RailMapDrawing.svg(map, width: 600, id: "my-map", style: plain, extra: { _ in "<g class=\"mine\"></g>" })
        #expect(xmlProblem(svg) == nil)
        #expect(svg.hasPrefix("<svg id=\"my-map\""))
    }

    @Test("the same map draws the same bytes")
    func deterministic() {
        #expect(RailMapDrawing.svg(map, width: 600, id: "m", style: plain) == RailMapDrawing.svg(map, width: 600, id: "m", style: plain))
    }
}

// MARK: - Hex board

@Suite("Hex board drawing")
struct HexBoardDrawingTests {
    @Test("a radius-3 board draws 37 cells in canonical order")
    func everyCellIsDrawn() {
        let svg = HexBoardDrawing.svg(board(radius: 3), width: 500, id: "b", style: { .init(fill: "#eeeeee", title: "\($0)") })
        let cells = tags("class=\"cell\"", in: svg)
        #expect(cells.count == 37)
        #expect(cells.map { $0["data-cell"] } == (0..<37).map { String($0) })
        #expect(cells[0]["data-row"] == "-3" && cells[0]["data-col"] == "0")
    }

    @Test("the neighbour across side d lies twice that side's midpoint away (HexBoardPicture.steps)")
    func sidesFaceTheirNeighbours() throws {
        let picture = board(radius: 3)
        var layout: HexBoardDrawing.Layout?
        _ = HexBoardDrawing.svg(picture, width: 500, id: "b", style: { .init(fill: "#eeeeee", title: "\($0)") },
                                extra: { layout = $0; return "" })
        let l = try #require(layout)
        let centre = picture.cells.firstIndex(of: .init(row: 0, col: 0))!
        let c = l.centre(of: centre)
        for (side, step) in HexBoardPicture.steps.enumerated() {
            let neighbour = picture.cells.firstIndex(of: .init(row: step.row, col: step.col))!
            let m = l.sidePoint(cell: centre, side: side), n = l.centre(of: neighbour)
            #expect(abs(2 * m.x - c.x - n.x) < 1e-9 && abs(2 * m.y - c.y - n.y) < 1e-9, "side \(side)")
        }
    }

    @Test("north is up and side 4 faces east")
    func orientation() throws {
        let picture = board(radius: 1)
        var layout: HexBoardDrawing.Layout?
        _ = HexBoardDrawing.svg(picture, width: 300, id: "b", style: { .init(fill: "#eeeeee", title: "\($0)") },
                                extra: { layout = $0; return "" })
        let l = try #require(layout)
        let centre = l.centre(of: 3), north = l.centre(of: 6), east = l.sidePoint(cell: 3, side: 4)
        #expect(north.y < centre.y)
        #expect(east.x > centre.x && abs(east.y - centre.y) < 1e-9)
    }

    @Test("ports of a coloured edge are stroked in its colour; other edges are not drawn")
    func colouredEdges() {
        let picture = board(radius: 2)
        let svg = HexBoardDrawing.svg(picture, width: 400, id: "b", style: { .init(fill: "#eeeeee", title: "\($0)") },
                                      edgeColours: [4: "#abcdef"])
        let ports = tags("class=\"port\"", in: svg)
        #expect(ports.count == picture.ports.filter { $0.edge == 4 }.count)
        #expect(ports.allSatisfy { $0["stroke"] == "#abcdef" && $0["data-edge"] == "4" })
    }

    @Test("a cell's label is drawn in text that reads on its fill")
    func cellLabel() {
        let svg = HexBoardDrawing.svg(board(radius: 1), width: 300, id: "b", style: { index in
            .init(fill: "#000000", title: "\(index)", label: index == 3 ? "42" : nil)
        })
        let labels = tags("class=\"cell-label\"", in: svg)
        #expect(labels.count == 1)
        #expect(labels.first?["fill"] == "#fff")
        #expect(svg.contains(">42</text>"))
    }
}

// MARK: - Replays

@Suite("Replay pages")
struct ReplayPageTests {
    @Test("a rail replay shows every city and every railroad")
    func railShowsWholeMap() {
        let svg = ReplayPage.svg(railReplay.scene)
        #expect(count("class=\"city\"", in: svg) == 4)
        #expect(count("class=\"railroad\"", in: svg) == 5)
    }

    @Test("a built railroad is drawn in its builder's seat colour")
    func builderColour() {
        let builds = tags("class=\"build\"", in: ReplayPage.svg(railReplay.scene))
        #expect(builds.map { $0["data-railroad"] } == ["0", "2", "3"])
        #expect(builds.map { $0["stroke"] } == [SVG.seatColour(0), SVG.seatColour(1), SVG.seatColour(0)])
    }

    @Test("railroads show from the start, builds and missions from their steps")
    func railDataSteps() {
        let html = ReplayPage.html(railReplay.scene)
        #expect(tags("class=\"railroad\"", in: html).allSatisfy { $0["data-step"] == "-1" })
        #expect(tags("class=\"build\"", in: html).map { $0["data-step"] } == ["0", "1", "2"])
        #expect(tags("class=\"mission\"", in: html).map { $0["data-step"] } == ["-1", "1"])
        #expect(tags("class=\"mission-done\"", in: html).map { $0["data-step"] } == ["2"])
    }

    @Test("each mission is a dashed line in its seat's colour")
    func missionLines() {
        let missions = tags("class=\"mission\"", in: ReplayPage.svg(railReplay.scene))
        #expect(missions.map { $0["stroke"] } == [SVG.seatColour(0), SVG.seatColour(1)])
        #expect(missions.allSatisfy { $0["stroke-dasharray"] != nil })
    }

    @Test("the rail legend lists seats, results and missions with their outcome")
    func railLegend() {
        let svg = ReplayPage.svg(railReplay.scene)
        #expect(svg.contains("Seat 1: random&lt;seed=3&gt;"))
        #expect(svg.contains("place 2 · loss · points 5"))
        #expect(svg.contains("West–North, 5 points: completed"))
        #expect(svg.contains("Saint &lt;&amp;&quot; Town–East, 8 points: not completed"))
    }

    @Test("the standalone svg has an XML header, the SVG namespace, and is well-formed")
    func standaloneSVG() {
        let svg = ReplayPage.svg(railReplay.scene)
        #expect(svg.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(xmlProblem(svg) == nil)
    }

    @Test("the html page is well-formed (every text escaped, script free of < and &)")
    func htmlWellFormed() {
        #expect(xmlProblem(ReplayPage.html(railReplay.scene)) == nil)
        #expect(xmlProblem(ReplayPage.html(quortexReplay.scene)) == nil)
    }

    @Test("the html page needs no network and no script file")
    func htmlOffline() {
        for html in [ReplayPage.html(railReplay.scene), ReplayPage.html(quortexReplay.scene)] {
            #expect(!html.contains("http://") && !html.contains("https://"))
            #expect(!html.contains("<script src"))
            #expect(html.contains("<script>"))
        }
    }

    @Test("the slider runs from 0 (before any action) to the step count, starting at the end")
    func slider() {
        let slider = tags("id=\"replay-step\"", in: ReplayPage.html(railReplay.scene))
        #expect(slider.first?["min"] == "0" && slider.first?["max"] == "3" && slider.first?["value"] == "3")
    }

    @Test("the move log holds every step's text, tagged with its step and seat")
    func moveLog() {
        let html = ReplayPage.html(railReplay.scene)
        let items = tags("data-detail=", in: html)
        #expect(items.map { $0["data-step"] } == ["0", "1", "2"])
        #expect(items.map { $0["data-seat"] } == ["0", "1", "0"])
        #expect(html.contains(">T2 P1 build West-North — points 3</li>"))
    }

    @Test("the same replay gives the same bytes")
    func replayDeterministic() {
        #expect(ReplayPage.html(railReplay.scene) == ReplayPage.html(railReplay.scene))
        #expect(ReplayPage.svg(quortexReplay.scene) == ReplayPage.svg(quortexReplay.scene))
    }

    @Test("a Quortex replay draws every cell and each placed tile with its three channels")
    func quortexTiles() {
        let svg = ReplayPage.svg(quortexReplay.scene)
        #expect(count("class=\"cell\"", in: svg) == 7)
        #expect(tags("class=\"tile\"", in: svg).map { $0["data-cell"] } == ["3", "4"])
        #expect(count("class=\"channel\"", in: svg) == 6)
    }

    @Test("a tile shows from its placement step, tinted with its placer's colour")
    func quortexTileStep() {
        let svg = ReplayPage.svg(quortexReplay.scene)
        #expect(tags("class=\"tile\"", in: svg).map { $0["data-step"] } == ["0", "1"])
        #expect(svg.contains("fill=\"\(SVG.seatColour(1))\" fill-opacity=\"0.18\""))
    }

    @Test("a channel between opposite sides is straight, any other is curved")
    func channelShapes() {
        let channels = tags("class=\"channel\"", in: ReplayPage.svg(quortexReplay.scene)).compactMap { $0["d"] }
        // Cell 3: {0,2} curved, {1,4} straight, {3,5} curved.
        #expect(channels.prefix(3).map { $0.contains("L") } == [false, true, false])
        #expect(channels.prefix(3).map { $0.contains("Q") } == [true, false, true])
    }

    @Test("a completed flow is a thick line in its seat's colour from the step that completed it")
    func quortexFlow() {
        let flows = tags("class=\"flow\"", in: ReplayPage.svg(quortexReplay.scene))
        #expect(flows.count == 1)
        #expect(flows.first?["stroke"] == SVG.seatColour(0))
        #expect(flows.first?["data-step"] == "1")
    }

    @Test("each seat's board edge is stroked in its colour")
    func quortexSeatEdges() {
        let ports = tags("class=\"port\"", in: ReplayPage.svg(quortexReplay.scene))
        #expect(Set(ports.compactMap { $0["data-edge"] }) == ["1", "4"])
        #expect(ports.allSatisfy { $0["stroke"] == SVG.seatColour($0["data-edge"] == "1" ? 0 : 1) })
    }
}

@Suite("A replay without a picture")
struct PlainReplayTests {
    /// What ``MatchReplay/plainScene`` gives a game that draws nothing.
    static let scene = ReplayScene(title: "toy replay, seed 3", summary: "2 seats · 2 actions · ended: done", picture: nil,
                                   pictureWidth: 0, pictureHeight: 0, seats: seats, notes: [[], []],
                                   steps: [.init(turn: 1, seat: 0, action: "take 1", detail: "sum 1"),
                                           .init(turn: 2, seat: 1, action: "take 2", detail: "sum 3")])

    @Test("the page has the moves, the seats and the outcome, and no picture")
    func pageWithoutPicture() {
        let html = ReplayPage.html(Self.scene)
        #expect(xmlProblem(html) == nil)
        #expect(!html.contains("class=\"picture\""))
        #expect(html.components(separatedBy: "<li data-step=").count - 1 == 2, "one log line per move")
        #expect(html.contains("T2 P1 take 2 — sum 3") && html.contains("place 1 · win"))
        // The result shows from the last action on; before it the panel holds the standing.
        #expect(tags("class=\"result\"", in: html).map { $0["data-step"] } == ["1", "1"])
    }

    @Test("the standalone SVG has the title and the legend, and no picture group")
    func svgWithoutPicture() {
        let svg = ReplayPage.svg(Self.scene)
        #expect(xmlProblem(svg) == nil)
        #expect(!svg.contains("class=\"picture\"") && svg.contains("Seat 1: random&lt;seed=3&gt;"))
    }
}
