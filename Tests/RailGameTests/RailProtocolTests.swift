import Foundation
import GameConformance
import LabCore
import Testing
import RailGame

/// The rail game in the player protocol (docs/protocol/rail.md): the `hello` objects,
/// the actions, the observation, fair play, the schemas in docs/schemas/rail, the page's
/// examples, and the example bot examples/bots/rail_cpu.py.
@Suite("Player protocol")
struct RailProtocolTests {
    // MARK: hello.rules and hello.setup

    @Test func rulesNameEveryKnobWithItsResolvedTypedValue() throws {
        let game = try Rail.game(["spentCards": "discard", "completedMissionsOccupySlots": "true", "turnCap": "300",
                                  "initialHand": "2", "deckExhaustion": "immediate", "missionsToWin": "4"])
        let text = Lines.string { game.writeProtocolRules(to: &$0) }
        #expect(text == #"{"initialHand":2,"spentCards":"discard","completedMissionsOccupySlots":true,"missionsToWin":4,"#
            + #""deckExhaustion":"immediate","turnCap":300}"#)
        let defaultGame = try Rail.game()
        let defaults = Lines.string { defaultGame.writeProtocolRules(to: &$0) }
        #expect(defaults == #"{"initialHand":0,"spentCards":"recycle","completedMissionsOccupySlots":false,"missionsToWin":5,"#
            + #""deckExhaustion":"whenStuck","turnCap":2000}"#)
        let rules = try Lines.object(text)
        #expect(Set(rules.keys) == Set(RailRules.knobs.map(\.name)))
    }

    @Test func setupDescribesTheMapAndTheComponents() throws {
        let game = try Rail.game()
        let map = game.map
        let setup = try Lines.object(Lines.string { game.writeProtocolSetup(to: &$0) })
        #expect(setup["map"] as? String == map.name)
        let cities = try #require(setup["cities"] as? [[String: Any]])
        #expect(cities.count == map.cities.count)
        for (i, city) in cities.enumerated() {
            #expect(city["index"] as? Int == i)
            #expect(city["name"] as? String == map.cities[i].name)
            #expect(city["latitude"] as? Double == map.cities[i].latitude)
            #expect(city["longitude"] as? Double == map.cities[i].longitude)
        }
        let railroads = try #require(setup["railroads"] as? [[String: Any]])
        #expect(railroads.count == map.railroads.count)
        for (i, r) in railroads.enumerated() {
            let truth = map.railroads[i]
            #expect(r["index"] as? Int == i)
            #expect(r["from"] as? Int == truth.from && r["to"] as? Int == truth.to && r["length"] as? Int == truth.length)
            #expect(r["colour"] as? String == truth.colour.name)
            if truth.twin >= 0 { #expect(r["twin"] as? Int == truth.twin) } else { #expect(r["twin"] is NSNull) }
        }
        let paris = try Rail.railroad("Paris", "Berlin", .blue)
        #expect(railroads[paris]["twin"] as? Int == (try Rail.railroad("Paris", "Berlin", .yellow)))
        #expect(setup["missions"] is NSNull)
        #expect(setup["mission_deck_size"] as? Int == RailState.generatedMissions)
        #expect(setup["card_colours"] as? [String] == ["red", "blue", "yellow", "green", "black", "rainbow"])
        #expect(setup["cards_per_colour"] as? [String: Int] == ["red": 12, "blue": 12, "yellow": 12, "green": 12, "black": 12, "rainbow": 14])
        #expect(setup["deck_size"] as? Int == 74)
        #expect(setup["hand_limit"] as? Int == 6)
        #expect(setup["mission_slots"] as? Int == 2)
        #expect(setup["action_count"] as? Int == 3 + 6 * map.railroads.count)
    }

    @Test func setupListsAMapsOwnMissions() throws {
        let map = try Rail.mapWithMissions()
        let game = try RailGame(map: map, seatCount: 2)
        let setup = try Lines.object(Lines.string { game.writeProtocolSetup(to: &$0) })
        let missions = try #require(setup["missions"] as? [[String: Any]])
        let list = try #require(map.missions)
        #expect(missions.count == list.count && setup["mission_deck_size"] as? Int == list.count)
        for (m, truth) in zip(missions, list) {
            #expect(m["from"] as? Int == truth.from && m["to"] as? Int == truth.to && m["points"] as? Int == truth.points)
            #expect(m.count == 3)
        }
        #expect(missions.last?["points"] as? Int == 42)
    }

    // MARK: Actions

    @Test func everyActionIdHasItsStructuredObject() throws {
        let game = try Rail.game()
        let map = game.map
        let draws = (0..<3).map { action in Lines.string { game.writeProtocolAction(action, to: &$0) } }
        #expect(draws == [#"{"kind":"draw_card"}"#, #"{"kind":"draw_mission"}"#, #"{"kind":"pass"}"#])
        for action in 3..<game.newMatch(seed: 1).actionSpaceSize {
            let object = try Lines.object(Lines.string { game.writeProtocolAction(action, to: &$0) })
            let r = RailAction.railroad(of: action)
            #expect(object["kind"] as? String == "build")
            #expect(object["railroad"] as? Int == r)
            #expect(object["from"] as? Int == map.railroads[r].from && object["to"] as? Int == map.railroads[r].to)
            #expect(object["length"] as? Int == map.railroads[r].length)
            #expect(object["colour"] as? String == map.railroads[r].colour.name)
            #expect(object["pay"] as? String == RailColour.cardNames[RailAction.payColour(of: action)])
        }
    }

    @Test func textNamesTheRailroadAndThePayingColourNotTheSplit() throws {
        let game = try Rail.game()
        let parisBerlin = try Rail.railroad("Paris", "Berlin", .blue)
        #expect(game.protocolText(of: RailAction.drawCard) == "draw card")
        #expect(game.protocolText(of: RailAction.drawMission) == "draw mission")
        #expect(game.protocolText(of: RailAction.pass) == "pass")
        #expect(game.protocolText(of: RailAction.build(parisBerlin, pay: Rail.blue)) == "build Paris-Berlin (4 blue) paying blue")
        // The trace's text says how many rainbows the hand adds; the protocol's must not.
        var state = try Rail.quietMatch()
        state.setHand(0, Rail.hand(blue: 2, rainbow: 2))
        let build = RailAction.build(parisBerlin, pay: Rail.blue)
        #expect(Rail.legal(state).contains(build))
        #expect(state.describe(build).contains("2 rainbow"))
        #expect(game.protocolText(of: build) == "build Paris-Berlin (4 blue) paying blue")
        let grey = try #require(game.map.railroads.firstIndex(where: { $0.colour == .grey }))
        #expect(game.protocolText(of: RailAction.build(grey, pay: Rail.rainbow))
            == "build \(game.map.railroadName(grey)) (\(game.map.railroads[grey].length) grey) paying rainbow")
    }

    // MARK: Observation

    @Test func observationHoldsWhatTheSeatSeesOfADealtState() throws {
        let truth = try InformationSetTests.midGame(["spentCards": "discard"])
        #expect((0..<6).map(truth.discarded).reduce(0, +) > 0)
        #expect((0..<truth.map.railroads.count).contains { truth.owner(of: $0) != nil })
        for seat in 0..<3 {
            let o = try Lines.object(Lines.string { truth.observation(for: seat).writeProtocolObservation(to: &$0) })
            #expect(Set(o.keys) == ["seat", "turn", "current_seat", "hand", "missions", "seats", "owners", "deck", "mission_deck",
                                    "discards", "passes"])
            #expect(o["seat"] as? Int == seat && o["turn"] as? Int == truth.turn && o["current_seat"] as? Int == truth.currentSeat)
            #expect(o["hand"] as? [String: Int] == Lines.colours(Rail.handOf(truth, seat)))
            let missions = try #require(o["missions"] as? [[String: Any]])
            #expect(missions.count == truth.heldMissions(seat).count)
            for (m, held) in zip(missions, truth.heldMissions(seat)) {
                #expect(m["from"] as? Int == held.mission.from && m["to"] as? Int == held.mission.to)
                #expect(m["points"] as? Int == held.mission.points && m["completed"] as? Bool == held.completed)
            }
            let seats = try #require(o["seats"] as? [[String: Int]])
            #expect(seats == (0..<3).map { s in
                ["hand_size": truth.handSize(s), "mission_slots_used": truth.heldMissions(s).count,
                 "completed_missions": truth.completedMissions(s), "mission_points": truth.missionPoints(s),
                 "railroads_owned": truth.railroadsOwned(s)]
            })
            let owners = try #require(o["owners"] as? [Any])
            #expect(owners.map { $0 as? Int } == (0..<truth.map.railroads.count).map(truth.owner(of:)))
            #expect(o["deck"] as? Int == truth.deckCount && o["mission_deck"] as? Int == truth.missionDeckCount)
            #expect(o["discards"] as? [String: Int] == Lines.colours((0..<6).map(truth.discarded)))
            #expect(o["passes"] as? Int == 0)
        }
    }

    @Test func observationMarksACompletedMissionThatKeepsItsSlot() throws {
        var state = try Rail.quietMatch(["completedMissionsOccupySlots": "true"])
        let (london, paris) = (try Rail.city("London"), try Rail.city("Paris"))
        state.setMission(0, slot: 1, from: london, to: paris)
        state.give(try Rail.railroad("London", "Paris", .blue), to: 0)
        let o = try Lines.object(Lines.string { state.observation(for: 0).writeProtocolObservation(to: &$0) })
        let missions = try #require(o["missions"] as? [[String: Any]])
        #expect(missions.count == 1)
        #expect(missions.first?["completed"] as? Bool == true)
        #expect(missions.first?["from"] as? Int == london && missions.first?["to"] as? Int == paris)
        let seats = try #require(o["seats"] as? [[String: Int]])
        #expect(seats[0]["completed_missions"] == 1 && seats[0]["mission_slots_used"] == 1)
    }

    // MARK: Fair play (protocol, "Guarantees")

    @Test func statesThatDifferOnlyInHiddenPartsWriteTheSameBytes() throws {
        let truth = try InformationSetTests.midGame()
        let game = try Rail.game(seats: 3)
        for seat in 0..<3 {
            let view = truth.observation(for: seat)
            var (rngA, rngB) = (LabRandom(seed: 11), LabRandom(seed: 12))
            let (a, b) = (view.sampleState(using: &rngA), view.sampleState(using: &rngB))
            let others = (0..<3).filter { $0 != seat }
            let hidden = { (s: RailState) in
                "\(others.map { Rail.handOf(s, $0) }) \(others.map { s.heldMissions($0).map(\.mission) }) \(s.deckOrder)"
            }
            #expect(hidden(a) != hidden(b), "the samples for seat \(seat) must differ in hidden parts")
            #expect(hidden(a) != hidden(truth))
            let bytes = { (s: RailState) in Lines.string { s.observation(for: seat).writeProtocolObservation(to: &$0) } }
            #expect(bytes(a) == bytes(b))
            #expect(bytes(a) == bytes(truth))
            if seat == truth.currentSeat {
                #expect(Lines.turn(game, a, match: 3) == Lines.turn(game, b, match: 3))
                #expect(Lines.turn(game, a, match: 3) == Lines.turn(game, truth, match: 3))
            }
        }
    }

    @Test func theSeatsOwnHandAndPublicFiguresChangeTheBytes() throws {
        var state = try Rail.quietMatch()
        state.setHand(0, Rail.hand(red: 2))
        state.setHand(1, Rail.hand(red: 2))
        let bytes = { (s: RailState) in Lines.string { s.observation(for: 0).writeProtocolObservation(to: &$0) } }
        let before = bytes(state)
        var other = state
        other.setHand(1, Rail.hand(blue: 2))  // hidden: same size, other cards
        #expect(bytes(other) == before)
        other.setHand(1, Rail.hand(blue: 3))  // public: the hand's size
        #expect(bytes(other) != before)
        var own = state
        own.setHand(0, Rail.hand(red: 1, blue: 1))  // visible: the seat's own cards
        #expect(bytes(own) != before)
    }

    // MARK: Schemas and the page

    @Test func linesOfWholeMatchesMatchTheSchemasAndBrokenOnesDoNot() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rail-protocol-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var hello: [String] = []
        var turns: [String] = []
        var played: [String] = []
        var kinds = Set<String>()
        for (n, settings) in [[:], ["completedMissionsOccupySlots": "true", "spentCards": "discard"]].enumerated() {
            let game = try Rail.game(seats: 2 + n, settings)
            hello.append(Lines.hello(game, options: #"{"missionProbability":0.5,"shipped":false,"name":"x"}"#))
            do {  // One whole match a setting (about 200 turns): every kind of line, many times.
                let seed: UInt64 = 1
                var state = game.newMatch(seed: seed)
                let players = (0..<game.seatCount).map { RailHeuristicCPU(seed: Seeds.strategy(seed, seat: $0)) }
                var buffer = ActionBuffer()
                while !state.isTerminal {
                    let seat = state.currentSeat
                    turns.append(Lines.turn(game, state, match: Int(seed)))
                    state.legalActions(into: &buffer)
                    let action = players[seat].chooseAction(state.observation(for: seat), legal: buffer)
                    kinds.insert(RailAction.isBuild(action) ? game.map.railroads[RailAction.railroad(of: action)].colour.name : "\(action)")
                    played.append(Lines.played(game, match: Int(seed), seat: seat, action: action))
                    state.apply(action)
                }
            }
        }
        #expect(kinds.isSuperset(of: ["0", "1", "grey", "blue"]), "the matches should draw, build grey and build coloured")
        // Each broken line breaks one thing the schemas say.
        let brokenHello = [hello[0].replacingOccurrences(of: #""turnCap":2000"#, with: #""turnCap":"2000""#),
                           hello[0].replacingOccurrences(of: #""hand_limit":6,"#, with: ""),
                           hello[0].replacingOccurrences(of: #""protocol":1"#, with: #""protocol":1,"extra":0"#)]
        let brokenTurns = [turns[0].replacingOccurrences(of: #""passes":0"#, with: #""passes":0,"deck_order":[1,2]"#),
                           turns[0].replacingOccurrences(of: #""match":"1""#, with: #""match":1"#),
                           turns[0].replacingOccurrences(of: #""kind":"draw_card""#, with: #""kind":"draw_cards""#)]
        let brokenPlayed = [played[0].replacingOccurrences(of: #""seat":0"#, with: #""seat":7"#),
                            Lines.played(try Rail.game(), match: 1, seat: 0, action: 3).replacingOccurrences(of: #""pay":"red""#, with: #""pay":"purple""#)]
        #expect(brokenHello.allSatisfy { !hello.contains($0) } && brokenTurns.allSatisfy { !turns.contains($0) }
            && brokenPlayed.allSatisfy { !played.contains($0) }, "every broken line must differ from the good ones")
        let files = [("hello", hello, true), ("turn", turns, true), ("played", played, true),
                     ("hello", brokenHello, false), ("turn", brokenTurns, false), ("played", brokenPlayed, false)]
        var arguments = [Rail.packageRoot + "/docs/schemas/rail"]
        for (i, (schema, lines, _)) in files.enumerated() {
            let path = folder.appendingPathComponent("\(i)-\(schema).jsonl").path
            try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            arguments += [schema, path]
        }
        let result = try Python.run(Self.validator, arguments: arguments)
        #expect(result.status == 0, "\(result.errors)")
        let counts = result.output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        try #require(counts.count == files.count, "validator said: \(result.output) \(result.errors)")
        for ((schema, lines, good), count) in zip(files, counts) {
            if good {
                #expect(count == [lines.count, lines.count], "\(schema): valid lines of all\n\(result.errors)")
            } else {
                #expect(count == [0, lines.count], "broken \(schema) lines must all be refused")
            }
        }
    }

    /// Validates JSON-lines files: arguments SCHEMA_FOLDER then (SCHEMA FILE) pairs; prints
    /// `VALID TOTAL` per file, the first errors on standard error.
    static let validator = """
        import json, sys
        import jsonschema
        folder, pairs = sys.argv[1], sys.argv[2:]
        for schema, path in zip(pairs[::2], pairs[1::2]):
            with open(f"{folder}/{schema}.schema.json") as f:
                validator = jsonschema.Draft202012Validator(json.load(f))
            valid = total = 0
            with open(path) as f:
                for line in f:
                    total += 1
                    errors = list(validator.iter_errors(json.loads(line)))
                    valid += not errors
                    for e in errors[:1]:
                        print(path, total, e.json_path, e.message[:300], file=sys.stderr)
            print(valid, total)
        """

    @Test func thePageShowsWhatTheCodeWrites() throws {
        let page = try String(contentsOfFile: Rail.packageRoot + "/docs/protocol/rail.md", encoding: .utf8)
        let example = try Lines.example()
        for line in [example.hello, example.turn, example.played] {
            #expect(page.contains("\n" + line + "\n"), "docs/protocol/rail.md should show this line:\n\(line)")
        }
    }

    // MARK: The example bot

    @Test func botAnswersHelloWithReadyAndItsOptions() throws {
        let bot = try Bot()
        let ready = try bot.hello(try Rail.game(), options: "{}")
        #expect(ready["type"] as? String == "ready" && ready["follow"] as? Bool == false)
        #expect(ready["name"] as? String == "rail_cpu.py" && ready["version"] is String)
        let options = try #require(ready["options"] as? [[String: Any]])
        #expect(options.map { $0["name"] as? String } == ["missionProbability", "shipped"])
        #expect(options.first?["type"] as? String == "float" && options.first?["default"] as? Double == 0.7)
        #expect(options.last?["type"] as? String == "bool" && options.last?["default"] as? Bool == false)
        #expect(try bot.quit() == 0)
    }

    @Test("the bot keeps the documented CPU's rule", arguments: [(0.0, false), (1.0, false), (0.7, false), (0.7, true)])
    func botKeepsTheDocumentedRule(missionProbability: Double, shipped: Bool) throws {
        let bot = try Bot()
        let game = try Rail.game()
        _ = try bot.hello(game, options: #"{"missionProbability":\#(missionProbability),"shipped":\#(shipped)}"#)
        var kinds: [String: Int] = [:]
        for match in 0..<12 {
            try bot.play(game, seed: UInt64(100 + match), botSeat: match % 2, match: match) { state, choice in
                let legal = Rail.legal(state)
                let allowed = Self.allowed(state, legal, missionProbability: missionProbability, shipped: shipped)
                #expect(allowed.contains(choice), "turn \(state.turn): \(game.protocolText(of: choice)) is not in the rule's \(allowed.sorted())")
                kinds[RailAction.isBuild(choice) ? "build" : game.protocolText(of: choice), default: 0] += 1
            }
        }
        #expect(kinds["build", default: 0] > 20 && kinds["draw card", default: 0] > 20, "\(kinds)")
        if missionProbability > 0 || shipped { #expect(kinds["draw mission", default: 0] > 5, "\(kinds)") }
        #expect(try bot.quit() == 0)
    }

    @Test("the bot draws a mission with probability missionProbability when it may", arguments: [nil, 0.3] as [Double?])
    func botDrawsAMissionWithItsProbability(probability: Double?) throws {
        let states = try CPUTests.decisionStates(200, prepare: { $0.clearMissions($0.currentSeat) },
                                                 keep: { $0.contains(RailAction.drawMission) && $0.count > 1 })
        let game = try Rail.game(seats: 3)
        let bot = try Bot()
        _ = try bot.hello(game, options: probability.map { #"{"missionProbability":\#($0)}"# } ?? "{}")
        bot.send(Lines.start(match: 0, seat: 0, seats: 3, seed: 8))
        let n = 2_000
        let missions = try (0..<n).count { try bot.decide(game, states[$0 % states.count]) == RailAction.drawMission }
        #expect(CPUTests.withinBinomialBound(missions, of: n, p: probability ?? 0.7), "\(missions) mission draws in \(n) decisions")
        #expect(try bot.quit() == 0)
    }

    @Test func botBuildsUniformlyAmongBuildableRailroadsNotBuildActions() throws {
        let state = try CPUTests.buildPosition(Rail.hand(red: 2, blue: 2, rainbow: 2))
        let legal = Rail.legal(state)
        let buildable = Set(legal.filter(RailAction.isBuild).map(RailAction.railroad(of:)))
        let grey = buildable.filter { state.map.railroads[$0].colour == .grey }
        #expect(grey.contains { r in legal.count(where: { RailAction.isBuild($0) && RailAction.railroad(of: $0) == r }) > 1 })
        let game = try Rail.game()
        let bot = try Bot()
        _ = try bot.hello(game, options: "{}")
        bot.send(Lines.start(match: 0, seat: 0, seats: 2, seed: 9))
        let n = 3_000
        var counts: [Int: Int] = [:]
        for _ in 0..<n {
            let choice = try bot.decide(game, state)
            #expect(RailAction.isBuild(choice))
            counts[RailAction.railroad(of: choice), default: 0] += 1
        }
        #expect(Set(counts.keys) == buildable)
        let expected = Double(n) / Double(buildable.count)
        let chiSquare = buildable.map { r in pow(Double(counts[r, default: 0]) - expected, 2) / expected }.reduce(0, +)
        let dof = Double(buildable.count - 1)
        #expect(chiSquare <= dof + 4.5 * (2 * dof).squareRoot(), "chi-square \(chiSquare) over \(buildable.count) railroads")
        let greyPicks = grey.map { counts[$0, default: 0] }.reduce(0, +)
        #expect(CPUTests.withinBinomialBound(greyPicks, of: n, p: Double(grey.count) / Double(buildable.count)),
                "\(greyPicks) grey picks for \(grey.count) of \(buildable.count) railroads")
        #expect(try bot.quit() == 0)
    }

    /// The actions the documented CPU (or the shipped one) may play in `state`: a draw,
    /// or a build of any buildable railroad, grey ones paid with the colour held most.
    static func allowed(_ state: RailState, _ legal: [Int], missionProbability p: Double, shipped: Bool) -> Set<Int> {
        let seat = state.currentSeat
        var (most, held) = (Rail.rainbow, 0)
        for c in 0..<5 where state.cards(seat, c) > held { (most, held) = (c, state.cards(seat, c)) }
        let builds = Set(legal.filter(RailAction.isBuild).map { action in
            let r = RailAction.railroad(of: action)
            return state.map.railroads[r].colour == .grey ? RailAction.build(r, pay: most) : action
        })
        let mission = legal.contains(RailAction.drawMission)
        let card = legal.contains(RailAction.drawCard)
        if shipped {
            return !builds.isEmpty ? builds : mission ? [RailAction.drawMission] : card ? [RailAction.drawCard] : [RailAction.pass]
        }
        if mission && p == 1 { return [RailAction.drawMission] }
        var allowed: Set<Int> = mission && p > 0 ? [RailAction.drawMission] : []
        if !builds.isEmpty { return allowed.union(builds) }
        if card { allowed.insert(RailAction.drawCard) } else if mission { allowed.insert(RailAction.drawMission) }
        return allowed.isEmpty ? [RailAction.pass] : allowed
    }

    @Test func botChoicesDependOnlyOnWhatItIsSent() throws {
        let game = try Rail.game()
        func choices(seed: UInt64) throws -> [Int] {
            let bot = try Bot()
            _ = try bot.hello(game, options: "{}")
            var made: [Int] = []
            for match in 0..<2 { try bot.play(game, seed: seed + UInt64(match), botSeat: match, match: match) { made.append($1) } }
            #expect(try bot.quit() == 0)
            return made
        }
        let first = try choices(seed: 5)
        #expect(first.count > 20)
        #expect(try choices(seed: 5) == first)
        #expect(try choices(seed: 6) != first)
    }

    @Test func botExitsAtTheEndOfItsInput() throws {
        let bot = try Bot()
        _ = try bot.hello(try Rail.game(), options: "{}")
        #expect(try bot.closeInput() == 0)
    }
}

// MARK: - Helpers

/// The protocol's lines as the lab writes them (docs/protocol.md), made with the game's
/// own protocol writers.
enum Lines {
    static func string(_ write: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        write(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// Six counts as a colour-keyed object.
    static func colours(_ counts: [Int]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(RailColour.cardNames, counts))
    }

    static func hello(_ game: RailGame, options: String) -> String {
        string { json in game.writeHello(options: Array(options.utf8), to: &json) }
    }

    static func start(match: Int, seat: Int, seats: Int, seed: UInt64) -> String {
        #"{"type":"start","match":"\#(match)","seat":\#(seat),"teams":[\#((0..<seats).map(String.init).joined(separator: ","))],"seed":"\#(seed)"}"#
    }

    /// The `turn` line of `state`'s mover.
    static func turn(_ game: RailGame, _ state: RailState, match: Int, moveMs: Int = 2000) -> String {
        var buffer = ActionBuffer()
        state.legalActions(into: &buffer)
        return string { json in
            json.beginObject()
            json.member("type", "turn")
            json.member("match", String(match))
            json.member("turn", state.turn)
            json.member("seat", state.currentSeat)
            json.key("observation")
            state.observation(for: state.currentSeat).writeProtocolObservation(to: &json)
            json.key("legal")
            json.beginArray()
            for action in buffer.actions {
                json.beginObject()
                json.member("id", action)
                json.key("action")
                game.writeProtocolAction(action, to: &json)
                json.member("text", game.protocolText(of: action))
                json.endObject()
            }
            json.endArray()
            json.key("time")
            json.beginObject()
            json.member("move_ms", moveMs)
            json.endObject()
            json.endObject()
        }
    }

    static func played(_ game: RailGame, match: Int, seat: Int, action: Int) -> String {
        string { json in
            json.beginObject()
            json.member("type", "played")
            json.member("match", String(match))
            json.member("seat", seat)
            json.member("id", action)
            json.key("action")
            game.writeProtocolAction(action, to: &json)
            json.member("text", game.protocolText(of: action))
            json.endObject()
        }
    }

    static func end(match: Int, _ outcome: Outcome) -> String {
        #"{"type":"end","match":"\#(match)","places":[\#(outcome.places.map(String.init).joined(separator: ","))],"reason":"\#(outcome.endReason)"}"#
    }

    /// The page's examples (docs/protocol/rail.md): a `hello` with its city and railroad
    /// lists cut after two entries, then a `turn` of match 17 (seed 17, two documented
    /// CPUs) at the first decision after turn 8 with a grey build among few legal
    /// actions, and the `played` line of the action the CPU chose there.
    static func example() throws -> (hello: String, turn: String, played: String) {
        let game = try Rail.game()
        var hello = Self.hello(game, options: #"{"missionProbability":0.5}"#)
        for list in [#""cities":["#, #""railroads":["#] {
            let start = try #require(hello.range(of: list)).upperBound
            let third = try #require(hello[start...].ranges(of: #"{"index":"#).dropFirst(2).first).lowerBound
            let end = try #require(hello[third...].firstIndex(of: "]"))
            hello.replaceSubrange(third..<end, with: "...")
        }
        var state = game.newMatch(seed: 17)
        let players = (0..<2).map { RailHeuristicCPU(seed: Seeds.strategy(17, seat: $0)) }
        var buffer = ActionBuffer()
        while !state.isTerminal {
            state.legalActions(into: &buffer)
            let action = players[state.currentSeat].chooseAction(state.observation(for: state.currentSeat), legal: buffer)
            let greyBuild = buffer.actions.contains { RailAction.isBuild($0) && game.map.railroads[RailAction.railroad(of: $0)].colour == .grey }
            if state.turn > 8 && greyBuild && buffer.count <= 5 {
                return (hello, turn(game, state, match: 17), played(game, match: 17, seat: state.currentSeat, action: action))
            }
            state.apply(action)
        }
        throw ExampleNotFound()
    }

    struct ExampleNotFound: Error {}
}

/// `PythonScript.run`, with an issue recorded when python3 or its jsonschema is missing.
enum Python {
    static func run(_ script: String, arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let result = try PythonScript.run(script, arguments: arguments)
        if result.status == 127 { Issue.record("python3 is not on the PATH: \(result.errors)") }
        if result.errors.contains("No module named 'jsonschema'") { Issue.record("python3 has no jsonschema (pip install jsonschema): \(result.errors)") }
        return result
    }
}

/// examples/bots/rail_cpu.py in a process of its own, talked to over pipes; its log goes
/// to a temporary file, quoted when it fails.
final class Bot {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let log: URL
    private var pending: [UInt8] = []

    init() throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("rail_cpu-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Rail.packageRoot + "/examples/bots/rail_cpu.py"]
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: log)
    }

    var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    func send(_ line: String) { input.fileHandleForWriting.write(Data((line + "\n").utf8)) }

    /// The bot's next line as a JSON object.
    func receive() throws -> [String: Any] {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return try Lines.object(line)
            }
            let data = output.fileHandleForReading.availableData
            try #require(!data.isEmpty, "the bot closed its output; its log:\n\(logText)")
            pending += data
        }
    }

    func hello(_ game: RailGame, options: String) throws -> [String: Any] {
        send(Lines.hello(game, options: options))
        return try receive()
    }

    /// The bot's choice on the `turn` line of `state` (its id, checked legal).
    func decide(_ game: RailGame, _ state: RailState, match: Int = 0) throws -> Int {
        send(Lines.turn(game, state, match: match))
        let reply = try receive()
        #expect(reply["type"] as? String == "action")
        let action = try #require(reply["id"] as? Int, "reply without an id: \(reply)")
        try #require(Rail.legal(state).contains(action), "illegal id \(action) at turn \(state.turn)")
        return action
    }

    /// Plays match `match` (seed `seed`) with the bot in `botSeat` against the documented
    /// CPU, calling `check` with the state and the bot's choice at each of its turns.
    func play(_ game: RailGame, seed: UInt64, botSeat: Int, match: Int, check: (RailState, Int) -> Void) throws {
        send(Lines.start(match: match, seat: botSeat, seats: game.seatCount, seed: Seeds.strategy(seed, seat: botSeat)))
        var state = game.newMatch(seed: seed)
        let cpu = RailHeuristicCPU(seed: Seeds.strategy(seed, seat: 1 - botSeat))
        var buffer = ActionBuffer()
        while !state.isTerminal {
            state.legalActions(into: &buffer)
            let action: Int
            if state.currentSeat == botSeat {
                action = try decide(game, state, match: match)
                check(state, action)
            } else {
                action = cpu.chooseAction(state.observation(for: state.currentSeat), legal: buffer)
            }
            state.apply(action)
        }
        send(Lines.end(match: match, try #require(state.outcome)))
    }

    /// Sends `quit`; the exit status, within 2 s.
    func quit() throws -> Int32 {
        send(#"{"type":"quit"}"#)
        return try waitForExit()
    }

    /// Closes the bot's input (EOF); the exit status, within 2 s.
    func closeInput() throws -> Int32 {
        try input.fileHandleForWriting.close()
        return try waitForExit()
    }

    private func waitForExit() throws -> Int32 {
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(!process.isRunning, "the bot did not exit within 2 s")
        return process.terminationStatus
    }
}
