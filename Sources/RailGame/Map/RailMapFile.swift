import Foundation
import LabCore

/// One finding of the map checker, with the JSON path it concerns.
public struct MapFinding: Sendable, Equatable, CustomStringConvertible {
    /// `error`: the map is refused. `warning`: the map loads, but breaks a rule of the
    /// rule book (a length off the distance rule). `info`: a documented exception.
    public enum Severity: String, Sendable { case error, warning, info }
    public var severity: Severity
    /// JSON path, e.g. `$.railroads[12].to`.
    public var path: String
    public var message: String

    public var description: String { "\(severity.rawValue): \(path): \(message)" }
}

/// The result of reading a map file: the map when it is valid, and every finding.
public struct MapCheckReport: Sendable {
    public var file: String
    public var findings: [MapFinding]
    public var map: RailMap?

    public var errors: [MapFinding] { findings.filter { $0.severity == .error } }
    public var warnings: [MapFinding] { findings.filter { $0.severity == .warning } }
    public var infos: [MapFinding] { findings.filter { $0.severity == .info } }
}

/// Reading and validating map files (`configs/maps/*.json`).
///
/// Top-level keys: `name` (optional), `cities` (`name`, `lat`, `lon`), `railroads`
/// (`from`, `to`, `length` 1...4, `colour` red|blue|yellow|green|black|grey) and
/// optionally `missions` (`from`, `to`, optional `points`, else the distance buckets).
public enum RailMapFile {
    /// The shipped map's file, relative to the package root. `oplab` carries a copy
    /// compiled in from it (``shippedData``), used when no map is given.
    public static let defaultPath = "configs/maps/train-depot-europe.json"

    /// How messages name the compiled-in shipped map.
    public static let shippedName = "the shipped map (\(defaultPath))"

    /// The shipped map's bytes: `ShippedMap.swift`, which scripts/embed-shipped-files.sh
    /// writes from ``defaultPath`` (a test checks the two agree).
    package static var shippedData: Data { Data(base64Encoded: shippedBase64, options: .ignoreUnknownCharacters) ?? Data() }

    static let colourNames = RailColour.allCases.map(\.name)

    /// Loads the valid map at `path`, or the shipped map when `path` is nil; throws an
    /// error listing every problem.
    public static func load(path: String?) throws(InputError) -> RailMap {
        let report = path.map(check(path:)) ?? check(data: shippedData, file: shippedName)
        guard let map = report.map else {
            let lines = report.errors.map { "  \($0.path): \($0.message)" }.joined(separator: "\n")
            throw InputError("\(path.map { "map \($0)" } ?? shippedName) is not valid:\n\(lines)")
        }
        return map
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

    /// Reads and validates a map file, collecting every error, warning and information.
    public static func check(path: String) -> MapCheckReport {
        guard let data = FileManager.default.contents(atPath: path) else {
            return MapCheckReport(file: path, findings: [MapFinding(severity: .error, path: "$", message: "cannot read file '\(path)'")], map: nil)
        }
        return check(data: data, file: path)
    }

    /// Validates map JSON held in memory.
    public static func check(data: Data, file: String = "<memory>") -> MapCheckReport {
        var findings: [MapFinding] = []
        func error(_ path: String, _ message: String) { findings.append(MapFinding(severity: .error, path: path, message: message)) }
        func warning(_ path: String, _ message: String) { findings.append(MapFinding(severity: .warning, path: path, message: message)) }
        func info(_ path: String, _ message: String) { findings.append(MapFinding(severity: .info, path: path, message: message)) }

        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            return MapCheckReport(file: file, findings: [MapFinding(severity: .error, path: "$", message: "not valid JSON: \(locate(detail, in: data))")], map: nil)
        }
        guard let top = root as? [String: Any] else {
            return MapCheckReport(file: file, findings: [MapFinding(severity: .error, path: "$", message: "expected a JSON object with keys cities, railroads and optional missions")], map: nil)
        }
        for key in top.keys.sorted() where !["name", "cities", "railroads", "missions"].contains(key) {
            error("$.\(key)", "unknown key; accepted: name, cities, railroads, missions")
        }
        let name = (top["name"] as? String) ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent

        // Cities.
        var cities: [City] = []
        var cityIndex: [String: Int] = [:]
        if let list = top["cities"] as? [Any] {
            for (i, item) in list.enumerated() {
                let p = "$.cities[\(i)]"
                guard let obj = item as? [String: Any] else { error(p, "expected an object {name, lat, lon}"); continue }
                guard let cname = obj["name"] as? String, !cname.isEmpty else { error("\(p).name", "expected a non-empty string"); continue }
                guard let lat = number(obj["lat"]) else { error("\(p).lat", "expected a number (latitude in degrees)"); continue }
                guard let lon = number(obj["lon"]) else { error("\(p).lon", "expected a number (longitude in degrees)"); continue }
                if let first = cityIndex[cname] {
                    error("\(p).name", "duplicate city '\(cname)' (first at $.cities[\(first)])")
                    continue
                }
                if !RailMap.latitudeBounds.contains(lat) {
                    error("\(p).lat", "latitude \(lat) of \(cname) is outside the map bounds 35...65")
                }
                if !RailMap.longitudeBounds.contains(lon) {
                    error("\(p).lon", "longitude \(lon) of \(cname) is outside the map bounds -10...45")
                }
                cityIndex[cname] = cities.count
                cities.append(City(name: cname, latitude: lat, longitude: lon))
            }
            if list.count < 2 { error("$.cities", "a map needs at least 2 cities") }
            if cities.count > RailMap.maxCities { error("$.cities", "\(cities.count) cities; the engine takes at most \(RailMap.maxCities)") }
        } else {
            error("$.cities", top["cities"] == nil ? "missing; expected an array of {name, lat, lon}" : "expected an array of {name, lat, lon}")
        }

        func city(_ value: Any?, _ path: String) -> Int? {
            guard let s = value as? String else { error(path, "expected a city name (string)"); return nil }
            guard let idx = cityIndex[s] else { error(path, "unknown city '\(s)'"); return nil }
            return idx
        }

        // Railroads.
        var railroads: [Railroad] = []
        var railroadPaths: [String] = []
        if let list = top["railroads"] as? [Any] {
            for (i, item) in list.enumerated() {
                let p = "$.railroads[\(i)]"
                guard let obj = item as? [String: Any] else { error(p, "expected an object {from, to, length, colour}"); continue }
                let a = city(obj["from"], "\(p).from")
                let b = city(obj["to"], "\(p).to")
                var length: Int?
                let lengths = "\(RailMap.railroadLengths.lowerBound)...\(RailMap.railroadLengths.upperBound)"
                if let l = integer(obj["length"]) {
                    if RailMap.railroadLengths.contains(l) { length = l } else {
                        error("\(p).length", "length \(l) is outside \(lengths) (the rule book's railroads are 1 to 4 slots long)")
                    }
                } else {
                    error("\(p).length", "expected an integer \(lengths)")
                }
                var colour: RailColour?
                if let c = obj["colour"] as? String, let idx = colourNames.firstIndex(of: c) {
                    colour = RailColour.allCases[idx]
                } else {
                    error("\(p).colour", "expected one of \(colourNames.joined(separator: ", "))\(obj["colour"].map { ", got \($0)" } ?? " (missing)")")
                }
                if let a, let b, a == b { error(p, "a railroad must join two different cities") }
                guard let a, let b, a != b, let length, let colour else { continue }
                railroads.append(Railroad(from: a, to: b, length: length, colour: colour, twin: -1))
                railroadPaths.append(p)
            }
            if railroads.count > RailMap.maxRailroads {
                error("$.railroads", "\(railroads.count) railroads; the engine takes at most \(RailMap.maxRailroads)")
            }
        } else {
            error("$.railroads", top["railroads"] == nil ? "missing; expected an array of {from, to, length, colour}" : "expected an array of {from, to, length, colour}")
        }

        // Dual paths: at most two railroads per pair, of different colours and equal length.
        var byPair: [Int: [Int]] = [:]
        for (r, rr) in railroads.enumerated() {
            byPair[min(rr.from, rr.to) * 1000 + max(rr.from, rr.to), default: []].append(r)
        }
        for (_, group) in byPair.sorted(by: { $0.key < $1.key }) where group.count > 1 {
            if group.count > 2 {
                error(railroadPaths[group[2]], "more than two railroads join \(cities[railroads[group[0]].from].name) and \(cities[railroads[group[0]].to].name); a dual path has exactly two")
                continue
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

        // Lengths against the distance rule (rule book, "Components"): the documented dual
        // paths are exceptions (information); any other railroad off the rule is a warning.
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

        // Connectivity.
        if !cities.isEmpty && !railroads.isEmpty {
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

        // Missions (optional).
        var missions: [MissionCard]?
        if let raw = top["missions"] {
            if let list = raw as? [Any] {
                var parsed: [MissionCard] = []
                for (i, item) in list.enumerated() {
                    let p = "$.missions[\(i)]"
                    guard let obj = item as? [String: Any] else { error(p, "expected an object {from, to, points?}"); continue }
                    let a = city(obj["from"], "\(p).from")
                    let b = city(obj["to"], "\(p).to")
                    var points: Int?
                    if obj["points"] != nil {
                        if let v = integer(obj["points"]), (1...255).contains(v) { points = v } else {
                            error("\(p).points", "expected an integer 1...255")
                            continue
                        }
                    }
                    if let a, let b, a == b { error(p, "a mission must join two different cities"); continue }
                    guard let a, let b else { continue }
                    let pts = points ?? RailMap.missionPoints(km: RailMap.distance(cities[a], cities[b]))
                    parsed.append(MissionCard(from: a, to: b, points: pts))
                }
                if parsed.count > RailMap.maxMissions {
                    error("$.missions", "\(parsed.count) missions; the engine takes at most \(RailMap.maxMissions)")
                }
                if list.isEmpty { error("$.missions", "an explicit mission list must not be empty (omit the key to generate missions)") }
                missions = parsed
            } else {
                error("$.missions", "expected an array of {from, to, points?}")
            }
        }

        let hasErrors = findings.contains { $0.severity == .error }
        let map = hasErrors ? nil : RailMap(name: name, cities: cities, railroads: railroads, missions: missions)
        return MapCheckReport(file: file, findings: findings, map: map)
    }

    private static func number(_ value: Any?) -> Double? {
        // JSONSerialization hands booleans over as NSNumber too; their type code is "c".
        guard let n = value as? NSNumber, String(cString: n.objCType) != "c" else { return nil }
        return n.doubleValue
    }

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
