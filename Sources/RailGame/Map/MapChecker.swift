import Foundation

/// The checks of one map file, run in order by ``RailMapFile/check(data:file:)``.
///
/// Each check adds its findings in file order and keeps what it read for the checks after
/// it: the cities for the railroads and missions, the railroads for the dual paths, the
/// distance rule and connectivity. A check that finds nothing to check adds nothing.
struct MapChecker {
    /// Every finding so far, in the order the checks made them.
    private(set) var findings: [MapFinding] = []
    /// The valid cities, in file order.
    private var cities: [City] = []
    /// Index into ``cities`` by name.
    private var cityIndex: [String: Int] = [:]
    /// The valid railroads, in file order, with their twins once ``checkDualPaths()`` ran.
    private var railroads: [Railroad] = []
    /// The JSON path of each valid railroad, e.g. `$.railroads[12]`.
    private var railroadPaths: [String] = []
    /// The explicit mission list, nil when the file has none.
    private var missions: [MissionCard]?

    /// The map read, or nil when any check found an error.
    func map(named name: String) -> RailMap? {
        let hasErrors = findings.contains { $0.severity == .error }
        return hasErrors ? nil : RailMap(name: name, cities: cities, railroads: railroads, missions: missions)
    }

    private mutating func error(_ path: String, _ message: String) { findings.append(MapFinding(severity: .error, path: path, message: message)) }
    private mutating func warning(_ path: String, _ message: String) { findings.append(MapFinding(severity: .warning, path: path, message: message)) }
    private mutating func info(_ path: String, _ message: String) { findings.append(MapFinding(severity: .info, path: path, message: message)) }

    // MARK: - The file

    /// The file is JSON holding one object; its syntax errors give their line and column.
    /// Returns nil, with the one error, when it is not.
    mutating func parseTopLevel(_ data: Data) -> [String: Any]? {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            self.error("$", "not valid JSON: \(Self.locate(detail, in: data))")
            return nil
        }
        guard let top = root as? [String: Any] else {
            error("$", "expected a JSON object with keys cities, railroads and optional missions")
            return nil
        }
        return top
    }

    /// The top level has only the keys `name`, `cities`, `railroads` and `missions`
    /// (unknown ones reported in sorted order).
    mutating func checkTopLevelKeys(_ top: [String: Any]) {
        for key in top.keys.sorted() where !["name", "cities", "railroads", "missions"].contains(key) {
            error("$.\(key)", "unknown key; accepted: name, cities, railroads, missions")
        }
    }

    // MARK: - Cities

    /// `cities` is a list of 2 to ``RailMap/maxCities`` (engine limit) cities, each
    /// checked by ``checkCity(_:at:)``.
    mutating func checkCities(_ value: Any?) {
        guard let list = value as? [Any] else {
            error("$.cities", value == nil ? "missing; expected an array of {name, lat, lon}" : "expected an array of {name, lat, lon}")
            return
        }
        for (i, item) in list.enumerated() { checkCity(item, at: "$.cities[\(i)]") }
        if list.count < 2 { error("$.cities", "a map needs at least 2 cities") }
        if cities.count > RailMap.maxCities { error("$.cities", "\(cities.count) cities; the engine takes at most \(RailMap.maxCities)") }
    }

    /// A city is `{name, lat, lon}` with a non-empty name no earlier city has and numeric
    /// coordinates; it is kept (for the railroads and missions) when its name is new, even
    /// if ``checkBounds(of:at:)`` finds it off the map.
    private mutating func checkCity(_ item: Any, at p: String) {
        guard let obj = item as? [String: Any] else { error(p, "expected an object {name, lat, lon}"); return }
        guard let name = obj["name"] as? String, !name.isEmpty else { error("\(p).name", "expected a non-empty string"); return }
        guard let lat = Self.number(obj["lat"]) else { error("\(p).lat", "expected a number (latitude in degrees)"); return }
        guard let lon = Self.number(obj["lon"]) else { error("\(p).lon", "expected a number (longitude in degrees)"); return }
        if let first = cityIndex[name] {
            error("\(p).name", "duplicate city '\(name)' (first at $.cities[\(first)])")
            return
        }
        let city = City(name: name, latitude: lat, longitude: lon)
        checkBounds(of: city, at: p)
        cityIndex[name] = cities.count
        cities.append(city)
    }

    /// A city lies within the map bounds (rule book): latitude 35...65, longitude -10...45.
    private mutating func checkBounds(of city: City, at p: String) {
        if !RailMap.latitudeBounds.contains(city.latitude) {
            error("\(p).lat", "latitude \(city.latitude) of \(city.name) is outside the map bounds 35...65")
        }
        if !RailMap.longitudeBounds.contains(city.longitude) {
            error("\(p).lon", "longitude \(city.longitude) of \(city.name) is outside the map bounds -10...45")
        }
    }

    /// A railroad's or mission's end names a city of the map; its index, else nil.
    private mutating func knownCity(_ value: Any?, at path: String) -> Int? {
        guard let name = value as? String else { error(path, "expected a city name (string)"); return nil }
        guard let index = cityIndex[name] else { error(path, "unknown city '\(name)'"); return nil }
        return index
    }

    // MARK: - Railroads

    /// `railroads` is a list of at most ``RailMap/maxRailroads`` (engine limit) railroads,
    /// each checked by ``checkRailroad(_:at:)``.
    mutating func checkRailroads(_ value: Any?) {
        guard let list = value as? [Any] else {
            error("$.railroads", value == nil ? "missing; expected an array of {from, to, length, colour}" : "expected an array of {from, to, length, colour}")
            return
        }
        for (i, item) in list.enumerated() { checkRailroad(item, at: "$.railroads[\(i)]") }
        if railroads.count > RailMap.maxRailroads {
            error("$.railroads", "\(railroads.count) railroads; the engine takes at most \(RailMap.maxRailroads)")
        }
    }

    /// A railroad is `{from, to, length, colour}` joining two different cities of the map;
    /// every fault of one railroad is reported (ends, then length, colour, same ends).
    private mutating func checkRailroad(_ item: Any, at p: String) {
        guard let obj = item as? [String: Any] else { error(p, "expected an object {from, to, length, colour}"); return }
        let a = knownCity(obj["from"], at: "\(p).from")
        let b = knownCity(obj["to"], at: "\(p).to")
        let length = railroadLength(obj["length"], at: "\(p).length")
        let colour = railroadColour(obj["colour"], at: "\(p).colour")
        if let a, let b, a == b { error(p, "a railroad must join two different cities") }
        guard let a, let b, a != b, let length, let colour else { return }
        railroads.append(Railroad(from: a, to: b, length: length, colour: colour, twin: -1))
        railroadPaths.append(p)
    }

    /// A railroad is 1 to 4 slots long (rule book, "Components"); the length, else nil.
    private mutating func railroadLength(_ value: Any?, at path: String) -> Int? {
        let lengths = "\(RailMap.railroadLengths.lowerBound)...\(RailMap.railroadLengths.upperBound)"
        guard let length = Self.integer(value) else {
            error(path, "expected an integer \(lengths)")
            return nil
        }
        guard RailMap.railroadLengths.contains(length) else {
            error(path, "length \(length) is outside \(lengths) (the rule book's railroads are 1 to 4 slots long)")
            return nil
        }
        return length
    }

    /// A railroad's colour is one of ``RailColour``'s names (rule book, "Components"); the
    /// colour, else nil.
    private mutating func railroadColour(_ value: Any?, at path: String) -> RailColour? {
        guard let name = value as? String, let index = Self.colourNames.firstIndex(of: name) else {
            error(path, "expected one of \(Self.colourNames.joined(separator: ", "))\(value.map { ", got \($0)" } ?? " (missing)")")
            return nil
        }
        return RailColour.allCases[index]
    }

    static let colourNames = RailColour.allCases.map(\.name)

    // MARK: - Dual paths

    /// Dual paths (rule book, "Components"): at most two railroads join a pair of cities,
    /// and two that do are twins. Pairs are checked in order of their cities' indices.
    mutating func checkDualPaths() {
        var byPair: [Int: [Int]] = [:]
        for (r, rr) in railroads.enumerated() {
            byPair[min(rr.from, rr.to) * 1000 + max(rr.from, rr.to), default: []].append(r)
        }
        for (_, group) in byPair.sorted(by: { $0.key < $1.key }) where group.count > 1 {
            checkDualPath(group)
        }
    }

    /// The railroads of one pair of cities: more than two is an error at the third;
    /// two must have equal lengths and different colours, and become each other's twin.
    private mutating func checkDualPath(_ group: [Int]) {
        guard group.count == 2 else {
            let first = railroads[group[0]]
            error(railroadPaths[group[2]], "more than two railroads join \(cities[first.from].name) and \(cities[first.to].name); a dual path has exactly two")
            return
        }
        let (x, y) = (group[0], group[1])
        if railroads[x].length != railroads[y].length {
            error(railroadPaths[y], "the two railroads of a dual path must have equal lengths (\(railroads[x].length) at \(railroadPaths[x]), \(railroads[y].length) here)")
        }
        if railroads[x].colour == railroads[y].colour {
            error(railroadPaths[y], "the two railroads of a dual path must differ in colour (both \(railroads[x].colour.name), see \(railroadPaths[x]))")
        }
        railroads[x].twin = y
        railroads[y].twin = x
    }

    // MARK: - The distance rule

    /// Lengths against the distance rule (rule book, "Components"; ``RailMap/ruleLength(km:)``):
    /// a railroad off the rule is information when it is one of the documented dual paths
    /// as documented, else a warning. Neither refuses the map.
    mutating func checkDistanceRule() {
        for (r, rr) in railroads.enumerated() {
            let km = RailMap.distance(cities[rr.from], cities[rr.to])
            let expected = RailMap.ruleLength(km: km)
            guard expected != rr.length else { continue }
            let (a, b) = (cities[rr.from].name, cities[rr.to].name)
            let found = "\(a)-\(b) \(rr.colour.name) has length \(rr.length); the distance rule gives \(expected) (\(Int(km.rounded())) km)"
            if Self.isDocumented(a, b, length: rr.length, colour: rr.colour) {
                info(railroadPaths[r], "\(found): a documented dual path")
            } else {
                warning(railroadPaths[r], "\(found), and it is not one of the documented dual paths")
            }
        }
    }

    /// A dual path the rule book documents ("Components"): its two railroads keep this
    /// length and these colours even where the distance rule says otherwise.
    struct DocumentedDualPath {
        var ends: Set<String>
        var length: Int
        var colours: Set<RailColour>
    }

    /// London-Paris 2 slots blue and yellow; Berlin-Warsaw 3 red and green; Paris-Berlin 4
    /// blue and yellow.
    static let documentedDualPaths = [
        DocumentedDualPath(ends: ["London", "Paris"], length: 2, colours: [.blue, .yellow]),
        DocumentedDualPath(ends: ["Berlin", "Warsaw"], length: 3, colours: [.red, .green]),
        DocumentedDualPath(ends: ["Paris", "Berlin"], length: 4, colours: [.blue, .yellow]),
    ]

    /// Whether a railroad is one of the documented dual paths' railroads as documented.
    static func isDocumented(_ a: String, _ b: String, length: Int, colour: RailColour) -> Bool {
        documentedDualPaths.contains { $0.ends == [a, b] && $0.length == length && $0.colours.contains(colour) }
    }

    // MARK: - Connectivity

    /// The railroads join every city to the first (one error naming the cities cut off).
    /// Checked only when the map has cities and railroads.
    mutating func checkConnected() {
        guard !cities.isEmpty && !railroads.isEmpty else { return }
        var seen = [Bool](repeating: false, count: cities.count)
        var stack = [0]
        seen[0] = true
        while let c = stack.popLast() {
            for rr in railroads where rr.from == c || rr.to == c {
                let o = rr.from == c ? rr.to : rr.from
                if !seen[o] { seen[o] = true; stack.append(o) }
            }
        }
        let cut = cities.indices.filter { !seen[$0] }.map { cities[$0].name }
        if !cut.isEmpty {
            error("$.railroads", "the map is not connected: no railroad path from \(cities[0].name) to \(cut.joined(separator: ", "))")
        }
    }

    // MARK: - Missions

    /// `missions`, when given, is a non-empty list of at most ``RailMap/maxMissions``
    /// (engine limit) missions, each checked by ``checkMission(_:at:)``. Without it,
    /// missions are generated per match.
    mutating func checkMissions(_ value: Any?) {
        guard let value else { return }
        guard let list = value as? [Any] else {
            error("$.missions", "expected an array of {from, to, points?}")
            return
        }
        var parsed: [MissionCard] = []
        for (i, item) in list.enumerated() {
            if let mission = checkMission(item, at: "$.missions[\(i)]") { parsed.append(mission) }
        }
        if parsed.count > RailMap.maxMissions {
            error("$.missions", "\(parsed.count) missions; the engine takes at most \(RailMap.maxMissions)")
        }
        if list.isEmpty { error("$.missions", "an explicit mission list must not be empty (omit the key to generate missions)") }
        missions = parsed
    }

    /// A mission is `{from, to, points?}` joining two different cities of the map, worth
    /// `points` (1...255) or else the shipped app's distance buckets
    /// (``RailMap/missionPoints(km:)``). Bad points are reported before same ends.
    private mutating func checkMission(_ item: Any, at p: String) -> MissionCard? {
        guard let obj = item as? [String: Any] else { error(p, "expected an object {from, to, points?}"); return nil }
        let a = knownCity(obj["from"], at: "\(p).from")
        let b = knownCity(obj["to"], at: "\(p).to")
        var points: Int?
        if obj["points"] != nil {
            guard let v = Self.integer(obj["points"]), (1...255).contains(v) else {
                error("\(p).points", "expected an integer 1...255")
                return nil
            }
            points = v
        }
        if let a, let b, a == b { error(p, "a mission must join two different cities"); return nil }
        guard let a, let b else { return nil }
        return MissionCard(from: a, to: b, points: points ?? RailMap.missionPoints(km: RailMap.distance(cities[a], cities[b])))
    }

    // MARK: - JSON values

    /// A JSON number, not a boolean.
    private static func number(_ value: Any?) -> Double? {
        // JSONSerialization hands booleans over as NSNumber too; their type code is "c".
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n.doubleValue
    }

    /// A JSON number with no fraction, of magnitude below 10^9.
    private static func integer(_ value: Any?) -> Int? {
        guard let d = number(value), d == d.rounded(), abs(d) < 1e9 else { return nil }
        return Int(d)
    }

    /// Turns Foundation's "around character N" into "line L, column C".
    static func locate(_ detail: String, in data: Data) -> String {
        guard let range = detail.range(of: "character "),
              let offset = Int(detail[range.upperBound...].prefix(while: \.isNumber)) else { return detail }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += 1 }
        }
        return "\(detail) (line \(line), column \(column))"
    }
}
