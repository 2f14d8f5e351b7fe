import Foundation
import LabCore
import Testing
import RailGame

/// Maps are data, validated by `RailMapFile.check` (rule book, "Components").
@Suite("Map checks")
struct MapCheckTests {
    static let cities = [
        #"{"name": "Aa", "lat": 50, "lon": 5}"#,
        #"{"name": "Bb", "lat": 51, "lon": 6}"#,
        #"{"name": "Cc", "lat": 52, "lon": 7}"#,
    ]
    static let railroads = [
        #"{"from": "Aa", "to": "Bb", "length": 1, "colour": "red"}"#,
        #"{"from": "Bb", "to": "Cc", "length": 1, "colour": "grey"}"#,
    ]
    static let missions = [#"{"from": "Aa", "to": "Cc"}"#]

    static func json(cities: [String] = cities, railroads: [String] = railroads, missions: [String] = missions) -> Data {
        Data("""
        {"name": "tiny", "cities": [\(cities.joined(separator: ", "))],
         "railroads": [\(railroads.joined(separator: ", "))],
         "missions": [\(missions.joined(separator: ", "))]}
        """.utf8)
    }

    static func replacing(_ list: [String], _ index: Int, _ item: String) -> [String] {
        var list = list
        if index == list.count { list.append(item) } else { list[index] = item }
        return list
    }

    @Test func aSmallValidMapLoadsWithoutFindings() throws {
        let report = RailMapFile.check(data: Self.json())
        #expect(report.findings.isEmpty)
        let map = try #require(report.map)
        #expect(map.cities.map(\.name) == ["Aa", "Bb", "Cc"])
        #expect(map.missions?.count == 1)
    }

    struct BadMap: Sendable, CustomTestStringConvertible {
        var kind: String
        var data: Data
        var path: String
        var says: String
        var testDescription: String { kind }
    }

    @Test("the map checker reports each error at its JSON path", arguments: [
        BadMap(kind: "railroad from an unknown city",
               data: json(railroads: replacing(railroads, 0, #"{"from": "Zz", "to": "Bb", "length": 1, "colour": "red"}"#)),
               path: "$.railroads[0].from", says: "unknown city 'Zz'"),
        BadMap(kind: "railroad to an unknown city",
               data: json(railroads: replacing(railroads, 1, #"{"from": "Bb", "to": "Atlantis", "length": 1, "colour": "red"}"#)),
               path: "$.railroads[1].to", says: "unknown city 'Atlantis'"),
        BadMap(kind: "duplicate city",
               data: json(cities: replacing(cities, 3, #"{"name": "Bb", "lat": 53, "lon": 8}"#)),
               path: "$.cities[3].name", says: "duplicate city 'Bb'"),
        BadMap(kind: "disconnected graph",
               data: json(cities: replacing(cities, 3, #"{"name": "Dd", "lat": 53, "lon": 8}"#)),
               path: "$.railroads", says: "not connected"),
        BadMap(kind: "length 5 (the rule book's lengths are 1..4)",
               data: json(railroads: replacing(railroads, 0, #"{"from": "Aa", "to": "Bb", "length": 5, "colour": "red"}"#)),
               path: "$.railroads[0].length", says: "outside 1...4"),
        BadMap(kind: "length 0",
               data: json(railroads: replacing(railroads, 1, #"{"from": "Bb", "to": "Cc", "length": 0, "colour": "grey"}"#)),
               path: "$.railroads[1].length", says: "outside 1...4"),
        BadMap(kind: "bad colour",
               data: json(railroads: replacing(railroads, 0, #"{"from": "Aa", "to": "Bb", "length": 1, "colour": "purple"}"#)),
               path: "$.railroads[0].colour", says: "purple"),
        BadMap(kind: "latitude outside the bounds",
               data: json(cities: replacing(cities, 1, #"{"name": "Bb", "lat": 70, "lon": 6}"#)),
               path: "$.cities[1].lat", says: "35...65"),
        BadMap(kind: "longitude outside the bounds",
               data: json(cities: replacing(cities, 2, #"{"name": "Cc", "lat": 52, "lon": -20}"#)),
               path: "$.cities[2].lon", says: "-10...45"),
        BadMap(kind: "dual path of unequal lengths",
               data: json(railroads: replacing(railroads, 2, #"{"from": "Bb", "to": "Aa", "length": 2, "colour": "blue"}"#)),
               path: "$.railroads[2]", says: "equal lengths"),
        BadMap(kind: "dual path of one colour",
               data: json(railroads: replacing(railroads, 2, #"{"from": "Bb", "to": "Aa", "length": 1, "colour": "red"}"#)),
               path: "$.railroads[2]", says: "differ in colour"),
        BadMap(kind: "three railroads between one pair",
               data: json(railroads: railroads + [#"{"from": "Aa", "to": "Bb", "length": 1, "colour": "blue"}"#,
                                                  #"{"from": "Aa", "to": "Bb", "length": 1, "colour": "green"}"#]),
               path: "$.railroads[3]", says: "more than two railroads"),
        BadMap(kind: "mission naming an unknown city",
               data: json(missions: [#"{"from": "Aa", "to": "Nowhere"}"#]),
               path: "$.missions[0].to", says: "unknown city 'Nowhere'"),
        BadMap(kind: "fewer than 2 cities",
               data: json(cities: [cities[0]], railroads: [], missions: []),
               path: "$.cities", says: "a map needs at least 2 cities"),
        BadMap(kind: "more cities than the engine takes",
               data: json(cities: (0...64).map { #"{"name": "C\#($0)", "lat": 50, "lon": \#(Double($0) / 10)}"# }),
               path: "$.cities", says: "65 cities; the engine takes at most 64"),
        BadMap(kind: "more railroads than the engine takes",
               data: json(railroads: [String](repeating: railroads[0], count: 129)),
               path: "$.railroads", says: "129 railroads; the engine takes at most 128"),
        BadMap(kind: "more missions than the engine takes",
               data: json(missions: [String](repeating: missions[0], count: 65)),
               path: "$.missions", says: "65 missions; the engine takes at most 64"),
        BadMap(kind: "an empty mission list",
               data: json(missions: []),
               path: "$.missions", says: "an explicit mission list must not be empty"),
    ])
    func mapCheckerReportsTheErrorAtItsPath(bad: BadMap) {
        let report = RailMapFile.check(data: bad.data)
        #expect(report.map == nil)
        let finding = report.errors.first { $0.path == bad.path }
        #expect(finding != nil, "errors: \(report.errors)")
        #expect(finding?.message.contains(bad.says) == true, "\(finding?.message ?? "none")")
    }

    /// A map with a fault of every kind the checks look for. Its findings come check by check
    /// (top-level keys, cities, railroads, dual paths by city pair, the distance rule,
    /// connectivity, missions) and within a check in file order, which is how users read them.
    static let everyFault = Data("""
        {"name": "faults", "zones": [], "colour": "red",
         "cities": [{"name": "Aa", "lat": 50, "lon": 5}, {"name": "Bb", "lat": 51, "lon": 6},
                    {"name": "Cc", "lat": 52, "lon": 7}, {"name": "Dd", "lat": 60, "lon": 30},
                    {"name": "London", "lat": 51.5074, "lon": -0.1278}, {"name": "Paris", "lat": 48.8566, "lon": 2.3522},
                    "Ee", {"name": "", "lat": 50, "lon": 5}, {"name": "Ff", "lat": "north", "lon": 5},
                    {"name": "Gg", "lat": 50}, {"name": "Hh", "lat": true, "lon": 5},
                    {"name": "Bb", "lat": 53, "lon": 8}, {"name": "Ii", "lat": 70, "lon": 50}],
         "railroads": [{"from": "Aa", "to": "Bb", "length": 1, "colour": "red"},
                       {"from": "Bb", "to": "Aa", "length": 1, "colour": "blue"},
                       "rail",
                       {"from": 7, "to": "Zz", "length": 1.5, "colour": "pink"},
                       {"from": "Cc", "to": "Cc", "length": 9},
                       {"from": "Bb", "to": "Cc", "length": 2, "colour": "grey"},
                       {"from": "Cc", "to": "Bb", "length": 1, "colour": "grey"},
                       {"from": "Aa", "to": "Cc", "length": 1, "colour": "red"},
                       {"from": "Cc", "to": "Aa", "length": 2, "colour": "green"},
                       {"from": "Aa", "to": "Cc", "length": 1, "colour": "black"},
                       {"from": "Ii", "to": "Aa", "length": 4, "colour": "yellow"},
                       {"from": "London", "to": "Paris", "length": 2, "colour": "blue"}],
         "missions": ["m", {"from": "Aa", "to": "Qq"}, {"from": "Aa", "to": "Bb", "points": 0},
                      {"from": "Aa", "to": "Aa", "points": "x"}, {"from": "Bb", "to": "Bb"},
                      {"from": 3, "to": "Cc", "points": 7}, {"from": "Aa", "to": "Cc", "points": 256}]}
        """.utf8)

    @Test("every finding of a faulty map, word for word and in the order the checks make them")
    func everyFindingInOrder() {
        let report = RailMapFile.check(data: Self.everyFault)
        #expect(report.map == nil)
        #expect(report.findings.map(\.description) == [
            "error: $.colour: unknown key; accepted: name, cities, railroads, missions",
            "error: $.zones: unknown key; accepted: name, cities, railroads, missions",
            "error: $.cities[6]: expected an object {name, lat, lon}",
            "error: $.cities[7].name: expected a non-empty string",
            "error: $.cities[8].lat: expected a number (latitude in degrees)",
            "error: $.cities[9].lon: expected a number (longitude in degrees)",
            "error: $.cities[10].lat: expected a number (latitude in degrees)",
            "error: $.cities[11].name: duplicate city 'Bb' (first at $.cities[1])",
            "error: $.cities[12].lat: latitude 70.0 of Ii is outside the map bounds 35...65",
            "error: $.cities[12].lon: longitude 50.0 of Ii is outside the map bounds -10...45",
            "error: $.railroads[2]: expected an object {from, to, length, colour}",
            "error: $.railroads[3].from: expected a city name (string)",
            "error: $.railroads[3].to: unknown city 'Zz'",
            "error: $.railroads[3].length: expected an integer 1...4",
            "error: $.railroads[3].colour: expected one of red, blue, yellow, green, black, grey, got pink",
            "error: $.railroads[4].length: length 9 is outside 1...4 (the rule book's railroads are 1 to 4 slots long)",
            "error: $.railroads[4].colour: expected one of red, blue, yellow, green, black, grey (missing)",
            "error: $.railroads[4]: a railroad must join two different cities",
            "error: $.railroads[9]: more than two railroads join Aa and Cc; a dual path has exactly two",
            "error: $.railroads[6]: the two railroads of a dual path must have equal lengths (2 at $.railroads[5], 1 here)",
            "error: $.railroads[6]: the two railroads of a dual path must differ in colour (both grey, see $.railroads[5])",
            "warning: $.railroads[5]: Bb-Cc grey has length 2; the distance rule gives 1 (131 km), and it is not one of the documented dual paths",
            "warning: $.railroads[8]: Cc-Aa green has length 2; the distance rule gives 1 (263 km), and it is not one of the documented dual paths",
            "info: $.railroads[11]: London-Paris blue has length 2; the distance rule gives 1 (344 km): a documented dual path",
            "error: $.railroads: the map is not connected: no railroad path from Aa to Dd, London, Paris",
            "error: $.missions[0]: expected an object {from, to, points?}",
            "error: $.missions[1].to: unknown city 'Qq'",
            "error: $.missions[2].points: expected an integer 1...255",
            "error: $.missions[3].points: expected an integer 1...255",
            "error: $.missions[4]: a mission must join two different cities",
            "error: $.missions[5].from: expected a city name (string)",
            "error: $.missions[6].points: expected an integer 1...255",
        ])
    }

    /// The findings of a map whose top level or lists have the wrong shape.
    struct BadShape: Sendable, CustomTestStringConvertible {
        var json: String
        var findings: [String]
        var testDescription: String { json }
    }

    @Test("a top level that is not an object, or lists missing or of the wrong type, are errors at their paths", arguments: [
        BadShape(json: "[1, 2]", findings: ["error: $: expected a JSON object with keys cities, railroads and optional missions"]),
        BadShape(json: "{}", findings: [
            "error: $.cities: missing; expected an array of {name, lat, lon}",
            "error: $.railroads: missing; expected an array of {from, to, length, colour}",
        ]),
        BadShape(json: #"{"cities": 3, "railroads": {}, "missions": "all"}"#, findings: [
            "error: $.cities: expected an array of {name, lat, lon}",
            "error: $.railroads: expected an array of {from, to, length, colour}",
            "error: $.missions: expected an array of {from, to, points?}",
        ]),
        BadShape(json: #"{"cities": null, "railroads": null, "missions": null}"#, findings: [
            "error: $.cities: expected an array of {name, lat, lon}",
            "error: $.railroads: expected an array of {from, to, length, colour}",
            "error: $.missions: expected an array of {from, to, points?}",
        ]),
    ])
    func badShapes(bad: BadShape) {
        let report = RailMapFile.check(data: Data(bad.json.utf8))
        #expect(report.map == nil)
        #expect(report.findings.map(\.description) == bad.findings)
    }

    @Test("text that is not JSON is one error at $, with the line and column of the fault")
    func notJSONIsAnErrorAtItsLineAndColumn() throws {
        let report = RailMapFile.check(data: Data("{\n  \"cities\": [}\n".utf8))
        #expect(report.map == nil)
        let finding = try #require(report.findings.first)
        #expect(report.findings.count == 1 && finding.severity == .error && finding.path == "$", "\(report.findings)")
        #expect(finding.message.hasPrefix("not valid JSON: ") && finding.message.hasSuffix(" (line 2, column 14)"), "\(finding)")
    }

    @Test("a file that cannot be read is an error at $, naming the file")
    func unreadableFile() {
        let report = RailMapFile.check(path: "/nonexistent/oplab-map.json")
        #expect(report.map == nil)
        #expect(report.findings.map(\.description) == ["error: $: cannot read file '/nonexistent/oplab-map.json': no such file"])
    }

    @Test("a map without a name takes its file's name, without the extension")
    func unnamedMapTakesTheFileName() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-map-name-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("little-europe.json").path
        let named = String(decoding: Self.json(), as: UTF8.self)
        try Data(named.replacingOccurrences(of: #""name": "tiny", "#, with: "").utf8).write(to: URL(fileURLWithPath: path))
        let report = RailMapFile.check(path: path)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.map?.name == "little-europe")
        #expect(RailMapFile.check(data: Self.json()).map?.name == "tiny")
    }

    @Test func loadingAnInvalidMapThrowsAnInputErrorNamingEachProblem() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-bad-map-\(UUID().uuidString).json").path
        try Self.json(railroads: Self.replacing(Self.railroads, 0, #"{"from": "Aa", "to": "Bb", "length": 9, "colour": "pink"}"#))
            .write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = #expect(throws: InputError.self) { try RailMapFile.load(path: path) }
        let message = try #require(error?.message)
        #expect(message.contains(path))
        #expect(message.contains("$.railroads[0].length"))
        #expect(message.contains("$.railroads[0].colour"))
    }

    // MARK: The distance rule

    /// The findings of `report` of one severity, by its name (error, warning or info).
    static func findings(_ report: MapCheckReport, _ severity: String) -> [MapFinding] {
        report.findings.filter { $0.severity.rawValue == severity }
    }

    @Test("a railroad whose length breaks the distance rule, not a documented dual path, is a warning")
    func undocumentedLengthIsAWarning() throws {
        // Aa-Bb is about 130 km: the rule gives 1 slot.
        let report = RailMapFile.check(data: Self.json(railroads: Self.replacing(Self.railroads, 0,
                                                                                #"{"from": "Aa", "to": "Bb", "length": 2, "colour": "red"}"#)))
        #expect(report.map != nil, "a warning does not make the map invalid: \(report.errors)")
        let warnings = Self.findings(report, "warning")
        #expect(warnings.map(\.path) == ["$.railroads[0]"])
        #expect(warnings.first?.message.contains("the distance rule gives 1") == true, "\(warnings)")
        #expect(Self.findings(report, "error").isEmpty && Self.findings(report, "info").isEmpty, "\(report.findings)")
    }

    /// London, Paris, Berlin and Warsaw at their real coordinates, joined as `railroads` say.
    static func capitals(_ railroads: [String]) -> Data {
        json(cities: [#"{"name": "London", "lat": 51.5074, "lon": -0.1278}"#, #"{"name": "Paris", "lat": 48.8566, "lon": 2.3522}"#,
                      #"{"name": "Berlin", "lat": 52.52, "lon": 13.405}"#, #"{"name": "Warsaw", "lat": 52.2297, "lon": 21.0122}"#],
             railroads: railroads, missions: [#"{"from": "London", "to": "Warsaw"}"#])
    }

    @Test("the documented dual paths' lengths are information, in either direction")
    func documentedDualPathsAreInformation() throws {
        let report = RailMapFile.check(data: Self.capitals([
            #"{"from": "London", "to": "Paris", "length": 2, "colour": "blue"}"#,
            #"{"from": "Paris", "to": "London", "length": 2, "colour": "yellow"}"#,
            #"{"from": "Berlin", "to": "Warsaw", "length": 3, "colour": "red"}"#,
            #"{"from": "Berlin", "to": "Warsaw", "length": 3, "colour": "green"}"#,
            #"{"from": "Paris", "to": "Berlin", "length": 4, "colour": "blue"}"#,
            #"{"from": "Berlin", "to": "Paris", "length": 4, "colour": "yellow"}"#,
        ]))
        #expect(report.map != nil, "\(report.errors)")
        #expect(Self.findings(report, "info").map(\.path) == (0..<6).map { "$.railroads[\($0)]" })
        #expect(Self.findings(report, "warning").isEmpty, "\(report.findings)")
    }

    @Test("a documented pair with another length or colour than documented is a warning", arguments: [
        #"{"from": "London", "to": "Paris", "length": 3, "colour": "blue"}"#,
        #"{"from": "London", "to": "Paris", "length": 2, "colour": "red"}"#,
    ])
    func documentedPairOtherwiseIsAWarning(railroad: String) throws {
        let report = RailMapFile.check(data: Self.capitals([
            railroad,
            #"{"from": "Paris", "to": "Berlin", "length": 2, "colour": "grey"}"#,
            #"{"from": "Berlin", "to": "Warsaw", "length": 2, "colour": "grey"}"#,
        ]))
        #expect(report.map != nil, "\(report.errors)")
        #expect(Self.findings(report, "warning").map(\.path) == ["$.railroads[0]"], "\(report.findings)")
        #expect(Self.findings(report, "info").isEmpty, "\(report.findings)")
    }

    // MARK: The shipped map

    @Test("the shipped map has Barcelona at the SRS's coordinates (section 8.2) and checks clean")
    func shippedMapHasBarcelonaAndChecksClean() throws {
        let report = RailMapFile.check(path: Rail.mapPath)
        let map = try #require(report.map, "\(report.errors)")
        let barcelona = try #require(map.cities.first { $0.name == "Barcelona" })
        #expect(barcelona.latitude == 41.3874 && barcelona.longitude == 2.1686)
        #expect(Self.findings(report, "error").isEmpty && Self.findings(report, "warning").isEmpty, "\(report.findings)")
    }

    @Test func shippedMapHas36CitiesAtLeast50RailroadsAndNoErrors() {
        let report = RailMapFile.check(path: Rail.mapPath)
        #expect(report.errors.isEmpty, "\(report.errors)")
        #expect(report.map?.cities.count == 36)
        #expect((report.map?.railroads.count ?? 0) >= 50)
    }

    @Test func shippedMapReportsExactlyTheSixDocumentedDualPathLengthsAsInformation() throws {
        let report = RailMapFile.check(path: Rail.mapPath)
        let map = try #require(report.map)
        let names = try report.infos.map { finding -> String in
            let digits = finding.path.drop(while: { !$0.isNumber }).prefix(while: \.isNumber)
            let r = try #require(Int(digits), "info path \(finding.path)")
            let ends = [map.cities[map.railroads[r].from].name, map.cities[map.railroads[r].to].name].sorted()
            return "\(ends[0])-\(ends[1]) \(map.railroads[r].colour.name)"
        }
        #expect(names.sorted() == [
            "Berlin-Paris blue", "Berlin-Paris yellow", "Berlin-Warsaw green", "Berlin-Warsaw red",
            "London-Paris blue", "London-Paris yellow",
        ])
    }

    @Test func shippedMapHasTheDocumentedDualPaths() throws {
        let map = try Rail.map()
        let documented: [(String, String, Int, RailColour, RailColour)] = [
            ("London", "Paris", 2, .blue, .yellow), ("Berlin", "Warsaw", 3, .red, .green), ("Paris", "Berlin", 4, .blue, .yellow),
        ]
        for (a, b, length, one, other) in documented {
            let x = try Rail.railroad(a, b, one), y = try Rail.railroad(a, b, other)
            #expect(map.railroads[x].twin == y)
            #expect(map.railroads[x].length == length && map.railroads[y].length == length)
        }
    }

    @Test func shippedMapMeetsThePlayabilityAims() throws {
        let map = try Rail.map()
        var degree = [Int](repeating: 0, count: map.cities.count)
        for rr in map.railroads { degree[rr.from] += 1; degree[rr.to] += 1 }
        #expect(degree.allSatisfy { $0 >= 2 })
        #expect(map.railroads.count(where: { $0.twin >= 0 }) / 2 >= 6)
        #expect(map.railroads.allSatisfy { (1...4).contains($0.length) })
        #expect(map.missions == nil)  // missions are generated per match, as shipped
    }
}
