import LabCore
import Pictures

/// The report's map section, from a tournament's `railroads.csv`: how often each railroad
/// was built over all entrants, and who built it most often.
public struct RailBoardDrawing: BoardCountDrawing {
    public let game = RailGame.name
    public let file = "railroads.csv"
    public let describes = "per railroad and entrant: matches it was built in"
    public let columns = ["railroad", "from", "to", "length", "colour", "lane", "from_latitude", "from_longitude",
                          "to_latitude", "to_longitude", "entrant", "built"]

    /// Width of a full-width map.
    static let mapWidth = 900.0

    public init() {}

    public func section(_ file: BoardCountFile) throws(InputError) -> BoardSection {
        let map = try Self.map(file)
        let built = file.counts("built")
        let totals = built.map { $0.reduce(0, +) }
        let most = totals.max() ?? 0
        func name(_ entrant: Int) -> String { file.entrants[entrant] }
        func describe(_ r: Int) -> String {
            let road = map.railroads[r]
            let ends = "\(map.cities[road.from].name) - \(map.cities[road.to].name)"
            let lane = map.railroads.contains { $0.lane != road.lane && Set([$0.from, $0.to]) == Set([road.from, road.to]) }
                ? ", lane \(road.lane + 1) of 2" : ""
            let per = built[r].enumerated().map { "\(name($0)) \(SVG.grouped($1))" }.joined(separator: ", ")
            return "\(ends) (\(road.length) \(road.colour)\(lane)): built in \(SVG.grouped(totals[r])) matches (\(per))"
        }
        let grey = "#d0d0d0"
        let frequency = RailMapDrawing.svg(map, width: Self.mapWidth, id: "map-built") { r in
            guard most > 0, totals[r] > 0 else { return .init(stroke: grey, width: 1.5, title: describe(r)) }
            let t = Double(totals[r]) / Double(most)
            return .init(stroke: SVG.heat(t), width: 1.5 + 6 * t, title: describe(r))
        }
        let builders = RailMapDrawing.svg(map, width: Self.mapWidth, id: "map-builder") { r in
            guard most > 0, totals[r] > 0, let top = built[r].indices.max(by: { (built[r][$0], $1) < (built[r][$1], $0) }) else {
                return .init(stroke: grey, width: 1.5, title: describe(r))
            }
            let tie = built[r].filter { $0 == built[r][top] }.count > 1 ? "; a tie, the first listed shown" : ""
            let t = Double(totals[r]) / Double(most)
            return .init(stroke: SVG.seatColour(top), width: 2 + 5 * t, title: describe(r) + "; most often by \(name(top))\(tie)")
        }
        var heatKey = "<div class=\"key\">"
        for t in [0.0, 0.25, 0.5, 0.75, 1] {
            heatKey += "<span class=\"swatch\" style=\"background:\(SVG.heat(t))\"></span>"
        }
        heatKey += " built in 0 ... \(SVG.grouped(most)) matches (grey: never)</div>"
        var builderKey = "<div class=\"key\">"
        for e in file.order {
            builderKey += "<span class=\"swatch\" style=\"background:\(SVG.seatColour(e))\"></span>\(SVG.escape(name(e))) "
        }
        builderKey += "</div>"
        let content = "<figure>\(frequency)<figcaption>How often each railroad was built, over all entrants (darker and wider = more).</figcaption>\(heatKey)</figure>\n"
            + "<figure>\(builders)<figcaption>Who built each railroad most often (width = how often it was built at all).</figcaption>\(builderKey)</figure>"
        return BoardSection(heading: "The map", question: "Where on the map do the entrants build, and whose railroads are which?",
                            content: "<div class=\"maps\">" + content + "</div>")
    }

    /// The map the file describes: cities are the distinct endpoints in order of first
    /// appearance (railroads in index order), at the coordinates the file gives.
    static func map(_ file: BoardCountFile) throws(InputError) -> RailMapPicture {
        var cities: [RailMapPicture.City] = []
        var cityIndex: [String: Int] = [:]
        func city(_ c: RailMapPicture.City) -> Int {
            if let known = cityIndex[c.name] { return known }
            cities.append(c)
            cityIndex[c.name] = cities.count - 1
            return cities.count - 1
        }
        var railroads: [RailMapPicture.Railroad] = []
        for r in file.elements.indices {
            let from = RailMapPicture.City(name: file.text("from", of: r), latitude: try file.double("from_latitude", of: r),
                                           longitude: try file.double("from_longitude", of: r))
            let to = RailMapPicture.City(name: file.text("to", of: r), latitude: try file.double("to_latitude", of: r),
                                         longitude: try file.double("to_longitude", of: r))
            let (length, lane) = (try file.count("length", of: r), try file.count("lane", of: r))
            railroads.append(.init(from: city(from), to: city(to), length: length, colour: file.text("colour", of: r), lane: lane))
        }
        return RailMapPicture(name: file.title, cities: cities, railroads: railroads)
    }
}
