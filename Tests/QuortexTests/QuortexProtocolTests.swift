import Foundation
import GameConformance
import LabCore
import Quortex
import Testing

/// Quortex in the player protocol (docs/protocol/quortex.md): the `hello` objects hold
/// the rule book's facts, actions name their cell and rotation, an observation holds
/// exactly what the seat sees, and the messages match the published schemas.
@Suite("Quortex protocol")
struct QuortexProtocolTests {
    // MARK: rules

    @Test func rulesNameEveryKnobResolved() throws {
        let rules = try P.parse { try Q.game(seats: 2).writeProtocolRules(to: &$0) }
        #expect(Set(rules.keys) == Set(QuortexRules.knobs.map(\.name)))
        #expect(rules["radius"] as? Int == 3)
        #expect(rules["bag"] as? [Int] == [10, 10, 10, 10])
        #expect(rules["edges"] as? [Int] == [0, 2], "the default layout for two seats")

        let set = try P.parse { try Q.game(seats: 2, ["radius": "4", "bag": "1,2,3,60", "edges": "1,4"]).writeProtocolRules(to: &$0) }
        #expect(set["radius"] as? Int == 4)
        #expect(set["bag"] as? [Int] == [1, 2, 3, 60])
        #expect(set["edges"] as? [Int] == [1, 4])
        let radius4 = try P.parse { try Q.game(seats: 4, ["radius": "4"]).writeProtocolRules(to: &$0) }
        #expect(radius4["bag"] as? [Int] == [16, 16, 16, 16], "the default bag of the radius")
        #expect(radius4["edges"] as? [Int] == [0, 1, 3, 4])
    }

    // MARK: setup

    @Test func setupCellsAreInCanonicalOrderWithNeighboursAcrossEachSide() throws {
        let game = try Q.game(seats: 2)
        let board = game.setup.board
        let setup = try P.parse { game.writeProtocolSetup(to: &$0) }
        #expect(setup["radius"] as? Int == 3)
        #expect(setup["cell_count"] as? Int == 37)
        #expect(setup["action_count"] as? Int == 222)
        let directions = try #require(setup["directions"] as? [[String: Any]])
        #expect(directions.map { $0["name"] as? String } == ["SW", "W", "NW", "NE", "E", "SE"])
        #expect(directions.map { [$0["row"] as? Int, $0["col"] as? Int] } == [[-1, 0], [0, -1], [1, -1], [1, 0], [0, 1], [-1, 1]])
        #expect(directions.map { $0["opposite"] as? Int } == [3, 4, 5, 0, 1, 2])

        let cells = try #require(setup["cells"] as? [[String: Any]])
        #expect(cells.count == 37)
        var expected: [(Int, Int)] = []
        for row in -3...3 { for col in -3...3 where abs(row + col) <= 3 { expected.append((row, col)) } }
        for (i, cell) in cells.enumerated() {
            #expect(cell["cell"] as? Int == i)
            #expect(cell["row"] as? Int == expected[i].0 && cell["col"] as? Int == expected[i].1, "cell \(i)")
            let neighbours = try #require(cell["neighbours"] as? [Any])
            for d in 0..<6 {
                let row = expected[i].0 + HexSide.steps[d].row, col = expected[i].1 + HexSide.steps[d].col
                if let n = board.index(row: row, col: col) {
                    #expect(neighbours[d] as? Int == n, "cell \(i) side \(d)")
                } else {
                    #expect(neighbours[d] is NSNull, "cell \(i) side \(d) is off the board")
                }
            }
        }
        // (0,0) is cell 18 (rows -3, -2, -1 hold 4, 5, 6 cells); across SW is (-1,0), cell 9 + 2.
        #expect((cells[18]["neighbours"] as? [Int]) == [11, 17, 24, 25, 19, 12])
    }

    @Test func setupPortsAndEdgesFollowTheRuleBookTable() throws {
        let game = try Q.game(seats: 2)
        let board = game.setup.board
        let setup = try P.parse { game.writeProtocolSetup(to: &$0) }
        let edges = try #require(setup["edges"] as? [[String: Any]])
        #expect(edges.count == 6)
        func name(_ port: [String: Any]) -> String {
            "\(board.name(port["cell"] as? Int ?? 0)) \(HexSide.names[port["side"] as? Int ?? 0])"
        }
        // Rule book, "Board edges and their ports", R = 3.
        let table = [
            "(-3,0) SW,(-3,0) SE,(-3,1) SW,(-3,1) SE,(-3,2) SW,(-3,2) SE,(-3,3) SW",
            "(-3,3) E,(-3,3) SE,(-2,3) E,(-2,3) SE,(-1,3) E,(-1,3) SE,(0,3) SE",
            "(0,3) NE,(0,3) E,(1,2) NE,(1,2) E,(2,1) NE,(2,1) E,(3,0) E",
            "(3,-3) NE,(3,-2) NW,(3,-2) NE,(3,-1) NW,(3,-1) NE,(3,0) NW,(3,0) NE",
            "(0,-3) NW,(1,-3) W,(1,-3) NW,(2,-3) W,(2,-3) NW,(3,-3) W,(3,-3) NW",
            "(-3,0) W,(-2,-1) SW,(-2,-1) W,(-1,-2) SW,(-1,-2) W,(0,-3) SW,(0,-3) W",
        ]
        for e in 0..<6 {
            let ports = try #require(edges[e]["ports"] as? [[String: Any]])
            #expect(ports.map(name).joined(separator: ",") == table[e], "edge \(e)")
            #expect(edges[e]["opposite"] as? Int == (e + 3) % 6)
            let cellsOfEdge = try #require(edges[e]["cells"] as? [Int])
            #expect(cellsOfEdge == Array(Set(ports.compactMap { $0["cell"] as? Int })).sorted(), "edge \(e): the cells owning its ports")
        }
        // Each cell's `ports` names the edge owning each rim side.
        let cells = try #require(setup["cells"] as? [[String: Any]])
        let corner = try Q.cell(board, -3, 3)
        let ports = try #require(cells[corner]["ports"] as? [Any])
        #expect(ports[0] as? Int == 0 && ports[5] as? Int == 1 && ports[4] as? Int == 1, "(-3,3): SW on edge 0, SE and E on edge 1")
        #expect(ports[1] is NSNull && ports[2] is NSNull && ports[3] is NSNull)
    }

    @Test func setupTilesGiveTheirChannelsAtEveryRotation() throws {
        let setup = try P.parse { try Q.game(seats: 2).writeProtocolSetup(to: &$0) }
        let tiles = try #require(setup["tiles"] as? [[String: Any]])
        #expect(tiles.count == 4)
        #expect(tiles.map { $0["pairs"] as? [[Int]] } == [[[0, 2], [1, 4], [3, 5]], [[0, 5], [1, 3], [2, 4]],
                                                          [[0, 5], [1, 4], [2, 3]], [[0, 5], [1, 2], [3, 4]]])
        #expect(tiles.map { ($0["distinct_rotations"] as? [Int])?.count } == [3, 6, 3, 2])
        #expect(tiles.map { $0["name"] as? String } == ["no sharps", "one sharp", "two sharps", "three sharps"])
        for (type, tile) in tiles.enumerated() {
            let byRotation = try #require(tile["pairs_by_rotation"] as? [[[Int]]])
            #expect(byRotation.count == 6)
            let base = try #require(tile["pairs"] as? [[Int]])
            for r in 0..<6 {
                // Rotation r turns side s into (s + r) mod 6.
                let turned = base.map { [($0[0] + r) % 6, ($0[1] + r) % 6].sorted() }.sorted { $0[0] < $1[0] }
                #expect(byRotation[r] == turned, "type \(type) rotation \(r)")
            }
        }
    }

    @Test func setupSeatsTeamsAndTurnOrderFollowTheLayout() throws {
        let setup = try P.parse { try Q.game(seats: 4).writeProtocolSetup(to: &$0) }
        let seats = try #require(setup["seats"] as? [[String: Any]])
        #expect(seats.map { $0["edge"] as? Int } == [0, 1, 3, 4])
        #expect(seats.map { $0["team"] as? Int } == [0, 1, 0, 1], "partners sit on opposite edges")
        let teams = try #require(setup["teams"] as? [[String: Any]])
        #expect(teams.map { $0["seats"] as? [Int] } == [[0, 2], [1, 3]])
        #expect(teams.map { $0["axis"] as? Int } == [0, 1])
        #expect(teams.map { $0["edges"] as? [Int] } == [[0, 3], [1, 4]])
        #expect(setup["turn_order"] as? [Int] == [0, 1, 2, 3])
        #expect(setup["bag"] as? [Int] == [10, 10, 10, 10])

        let five = try P.parse { try Q.game(seats: 5).writeProtocolSetup(to: &$0) }
        #expect(five["turn_order"] as? [Int] == [0, 1, 2, 3, 4, 2], "the solo player takes the empty seat's slot")
        let solo = try #require((five["teams"] as? [[String: Any]])?.first { ($0["seats"] as? [Int]) == [2] })
        #expect(solo["edges"] as? [Int] == [2, 5])
    }

    // MARK: actions

    @Test func actionsNameTheirCellAndRotationOnly() throws {
        let game = try Q.game(seats: 2)
        let board = game.setup.board
        for action in 0..<board.cells.count * 6 {
            let object = try P.parse { game.writeProtocolAction(action, to: &$0) }
            #expect(Set(object.keys) == ["cell", "row", "col", "rotation"])
            #expect(object["cell"] as? Int == action / 6 && object["rotation"] as? Int == action % 6, "action \(action)")
            #expect(object["row"] as? Int == board.cells[action / 6].row && object["col"] as? Int == board.cells[action / 6].col)
        }
        let corner = try Q.cell(board, -3, 3)
        #expect(game.protocolText(of: QuortexState.action(cell: corner, rotation: 0)) == "(-3,3) r0")
        #expect(game.protocolText(of: QuortexState.action(cell: 18, rotation: 5)) == "(0,0) r5")
    }

    // MARK: observations

    @Test func observationHoldsTheVisibleStateAfterSomeMoves() throws {
        let state = try P.midGame(seats: 3, turns: 9)
        let view = state.observation(for: 1)
        let object = try P.parse { view.writeProtocolObservation(to: &$0) }
        #expect(Set(object.keys) == ["seat", "turn", "mover", "slot", "tile", "bag", "tiles", "placed", "winners", "reason"])
        #expect(object["seat"] as? Int == 1)
        #expect(object["turn"] as? Int == 9)
        #expect(object["mover"] as? Int == state.currentSeat)
        #expect(object["slot"] as? Int == 0, "nine turns of three seats come back to the first slot")
        #expect(object["tile"] as? Int == state.drawnTile)
        #expect(object["bag"] as? [Int] == (0..<4).map(view.remaining))
        #expect((object["bag"] as? [Int])?.reduce(0, +) == 40 - 9 - 1, "the drawn tile is out of the bag")
        #expect(object["placed"] as? [Int] == [3, 3, 3])
        #expect(object["winners"] as? [Int] == [])
        #expect(object["reason"] as? String == "none")

        let tiles = try #require(object["tiles"] as? [[String: Any]])
        #expect(tiles.count == 9)
        let board = state.board
        for tile in tiles {
            let cell = try #require(tile["cell"] as? Int)
            let code = try #require(state.tileCode(at: cell))
            #expect(tile["row"] as? Int == board.cells[cell].row && tile["col"] as? Int == board.cells[cell].col)
            #expect(tile["type"] as? Int == code / 6 && tile["rotation"] as? Int == code % 6, "cell \(cell)")
            #expect(tile["seat"] as? Int == state.placer(of: cell), "cell \(cell)")
        }
        #expect(tiles.compactMap { $0["cell"] as? Int } == board.cells.indices.filter { state.tileCode(at: $0) != nil })
    }

    @Test func observationTilesNameTheirCellsAtEveryRadius() throws {
        for radius in 1...QuortexBoard.maxRadius {
            var state = try Q.game(seats: 2, ["radius": "\(radius)"]).newMatch(seed: UInt64(radius))
            var rng = LabRandom(seed: 7)
            for _ in 0..<6 where !state.isTerminal { let legal = Q.legal(state); state.apply(legal[rng.uniform(legal.count)]) }
            let object = try P.parse { state.observation(for: 0).writeProtocolObservation(to: &$0) }
            let tiles = try #require(object["tiles"] as? [[String: Any]])
            #expect(tiles.count == state.turn, "radius \(radius)")
            for tile in tiles {
                let cell = try #require(tile["cell"] as? Int)
                let code = try #require(state.tileCode(at: cell))
                #expect(tile["row"] as? Int == state.board.cells[cell].row && tile["col"] as? Int == state.board.cells[cell].col,
                        "radius \(radius) cell \(cell)")
                #expect(tile["type"] as? Int == code / 6 && tile["rotation"] as? Int == code % 6 && tile["seat"] as? Int == state.placer(of: cell))
            }
        }
    }

    @Test func observationOfAFinishedMatchNamesTheWinners() throws {
        var state = try Q.game(seats: 2).newMatch(seed: 8)
        var rng = LabRandom(seed: 9)
        Q.playOut(&state, &rng)
        let outcome = try #require(state.outcome)
        let object = try P.parse { state.observation(for: 0).writeProtocolObservation(to: &$0) }
        let winners = (0..<2).filter { state.winningSides & (1 << $0) != 0 }
        #expect(object["winners"] as? [Int] == winners)
        #expect(winners.allSatisfy { outcome.places[$0] == 1 })
        #expect(object["reason"] as? String == outcome.endReason)
        #expect(object["tile"] as? Int == state.drawnTile, "null after a flow; the unplaceable tile after a constraint")
    }

    // MARK: fair play

    @Test func hiddenBagOrderNeverChangesTheBytes() throws {
        let truth = try P.midGame(seats: 3, turns: 12)
        let game = try Q.game(seats: 3)
        for seat in 0..<3 {
            var one = LabRandom(seed: 100 + UInt64(seat)), two = LabRandom(seed: 200 + UInt64(seat))
            let a = truth.observation(for: seat).sampleState(using: &one)
            let b = truth.observation(for: seat).sampleState(using: &two)
            try #require(a.bagOrder != b.bagOrder && a.bagOrder != truth.bagOrder, "the samples must really differ in the hidden part")
            let bytes = P.observationBytes(truth, seat: seat)
            #expect(P.observationBytes(a, seat: seat) == bytes, "seat \(seat)")
            #expect(P.observationBytes(b, seat: seat) == bytes, "seat \(seat)")
            if truth.currentSeat == seat {
                #expect(P.turn(game, a, match: "1") == P.turn(game, truth, match: "1"), "whole turn lines, legal actions included")
                #expect(P.turn(game, b, match: "1") == P.turn(game, truth, match: "1"))
            }
        }
    }

    @Test func aVisibleDifferenceChangesTheBytes() throws {
        let truth = try P.midGame(seats: 3, turns: 12)
        let bytes = P.observationBytes(truth, seat: 0)
        // Another drawn tile (visible to all).
        var redrawn = truth
        redrawn.setDrawnTile((try #require(truth.drawnTile) + 1) % 4)
        #expect(P.observationBytes(redrawn, seat: 0) != bytes)
        // One more tile on the board.
        var moved = truth
        moved.apply(Q.legal(truth)[0])
        #expect(P.observationBytes(moved, seat: 0) != bytes)
        // Another seat's view of the same state.
        #expect(P.observationBytes(truth, seat: 1) != bytes)
        // The same board, drawn tile, counts and mover, with the two tiles' placers swapped.
        let first = try P.midGame(seats: 3, turns: 0)
        var a = first, b = first
        a.place(row: -3, col: 0, type: 1, rotation: 0)
        a.passTurn()
        a.place(row: 3, col: 0, type: 1, rotation: 0)
        b.passTurn()
        b.place(row: -3, col: 0, type: 1, rotation: 0)
        b.passTurn()
        b.passTurn()
        b.place(row: 3, col: 0, type: 1, rotation: 0)
        b.passTurn()
        try #require(Q.codes(a) == Q.codes(b) && a.currentSeat == b.currentSeat && a.drawnTile == b.drawnTile)
        try #require(a.placer(of: 0) == 0 && b.placer(of: 0) == 1)
        #expect(P.observationBytes(a, seat: 0) != P.observationBytes(b, seat: 0))
    }

    // MARK: schemas

    @Test func messagesMatchThePublishedSchemas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("quortex-protocol-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var hellos: [String] = [], turns: [String] = [], played: [String] = []
        for (seats, settings) in [(2, [:]), (3, ["radius": "1"]), (4, ["radius": "4", "bag": "20,0,30,11"]), (6, [:])] as [(Int, [String: String])] {
            let game = try Q.game(seats: seats, settings)
            hellos.append(P.hello(game, options: #"{"noise":0.1}"#))
            var state = game.newMatch(seed: UInt64(seats) * 7)
            var rng = LabRandom(seed: UInt64(seats))
            while !state.isTerminal {
                turns.append(P.turn(game, state, match: "\(seats)"))
                let legal = Q.legal(state)
                let action = legal[rng.uniform(legal.count)]
                played.append(P.played(game, seat: state.currentSeat, action: action, match: "\(seats)"))
                state.apply(action)
            }
        }
        var checks = SchemaChecks(schemas: P.schemas)
        checks.add(hellos, schema: "hello", valid: true)
        checks.add(turns, schema: "turn", valid: true)
        checks.add(played, schema: "played", valid: true)
        // The schemas reject what is not the game's: each line is wrong in one field.
        let turn = turns[3], hello = hellos[0]
        checks.add([turn.replacingOccurrences(of: #""reason":"none""#, with: #""reason":"none","bag_order":[1,2]"#)], schema: "turn", valid: false)
        checks.add([turn.replacingOccurrences(of: #""rotation":"#, with: #""rotation":6,"x":"#)], schema: "turn", valid: false)
        checks.add([hello.replacingOccurrences(of: #""turn_order":"#, with: #""turn_orders":"#)], schema: "hello", valid: false)
        checks.add([played[0].replacingOccurrences(of: #""text":""#, with: #""text":"T0 "#)], schema: "played", valid: false)
        for outcome in try checks.run(in: folder) { #expect(outcome.passed, "\(outcome)") }
    }

    // MARK: docs

    /// The examples in docs/protocol/quortex.md are these bytes; on a mismatch the test
    /// writes the fresh examples to a temporary file and names it.
    @Test func docsShowTheMessagesThisCodeWrites() throws {
        let examples = try P.docExamples()
        let docs = try String(contentsOf: P.root.appendingPathComponent("docs/protocol/quortex.md"), encoding: .utf8)
        let missing = examples.filter { !docs.contains($0) }
        if !missing.isEmpty {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("quortex-protocol-examples.md")
            try examples.joined(separator: "\n\n").write(to: out, atomically: true, encoding: .utf8)
            Issue.record("docs/protocol/quortex.md lacks \(missing.count) of the \(examples.count) examples; the fresh ones are in \(out.path)")
        }
    }

    // MARK: the example bot

    /// examples/bots/quortex_bot.js plays exactly as the reference AI, decision for
    /// decision, fed the lines this code writes: by default, and with `random_ties=false`.
    @Test func exampleBotPlaysAsTheReferenceAI() throws {
        for (seats, seed, options) in [(2, UInt64(31), "{}"), (2, 32, #"{"random_ties":false}"#), (3, 33, "{}"), (4, 34, #"{"noise":0}"#)] {
            let game = try Q.game(seats: seats)
            let bots = try (0..<seats).map { _ in try NodeBot(P.root.appendingPathComponent("examples/bots/quortex_bot.js")) }
            defer { for bot in bots { bot.close() } }
            for (seat, bot) in bots.enumerated() {
                let ready = try bot.exchange(P.hello(game, options: options))
                #expect(ready["type"] as? String == "ready")
                try bot.send(#"{"type":"start","match":"1","seat":\#(seat),"teams":\#(game.teams),"seed":"\#(seed)"}"#)
            }
            var state = game.newMatch(seed: seed)
            let reference = QuortexReferenceAI()
            var buffer = ActionBuffer()
            while !state.isTerminal {
                state.legalActions(into: &buffer)
                let expected = reference.chooseAction(state.observation(for: state.currentSeat), legal: buffer)
                let reply = try bots[state.currentSeat].exchange(P.turn(game, state, match: "1"))
                #expect(reply["id"] as? Int == expected, "seats \(seats) seed \(seed) turn \(state.turn): bot \(reply), reference \(expected)")
                state.apply(expected)
            }
        }
    }
}

/// Lines as the lab writes them (docs/protocol.md), with the Quortex objects, and the
/// helpers that read them back.
enum P {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A match of random players after `turns` placements.
    static func midGame(seats: Int, turns: Int) throws -> QuortexState {
        var state = try Q.game(seats: seats).newMatch(seed: 21)
        var rng = LabRandom(seed: 22)
        for _ in 0..<turns { let legal = Q.legal(state); state.apply(legal[rng.uniform(legal.count)]) }
        try #require(!state.isTerminal)
        return state
    }

    static func parse(_ write: (inout JSONWriter) throws -> Void) throws -> [String: Any] { try ProtocolLines.object(write) }

    static func observationBytes(_ state: QuortexState, seat: Int) -> [UInt8] { ProtocolLines.observationBytes(state, seat: seat) }

    static func line(_ build: (inout JSONWriter) -> Void) -> String { ProtocolLines.line(build) }

    static func hello(_ game: QuortexGame, options: String = "{}") -> String { ProtocolLines.hello(game, options: options) }

    static func turn(_ game: QuortexGame, _ state: QuortexState, match: String) -> String {
        ProtocolLines.turn(game, state, match: match)
    }

    static func played(_ game: QuortexGame, seat: Int, action: Int, match: String) -> String {
        ProtocolLines.played(game, seat: seat, action: action, match: match)
    }

    /// docs/schemas/quortex/, for ``SchemaChecks``.
    static let schemas = root.appendingPathComponent("docs/schemas/quortex")

    /// The examples docs/protocol/quortex.md shows: a whole `hello` of a radius-1 board,
    /// and a `turn` and a `played` line of that game after two placements.
    static func docExamples() throws -> [String] {
        let game = try Q.game(seats: 2, ["radius": "1"])
        var state = game.newMatch(seed: 5)
        var rng = LabRandom(seed: 6)
        for _ in 0..<2 { let legal = Q.legal(state); state.apply(legal[rng.uniform(legal.count)]) }
        let hello = P.hello(game, options: #"{"noise":0.1}"#)
        let turn = P.turn(game, state, match: "17")
        let legal = Q.legal(state)
        let played = P.played(game, seat: state.currentSeat, action: legal[0], match: "17")
        return ["```json\n" + Pretty.format(hello) + "\n```", "```json\n" + turn + "\n```", "```json\n" + Pretty.format(turn) + "\n```",
                "```json\n" + played + "\n```"]
    }
}

/// Indents a JSON line for reading: one member per line, arrays of scalars and small
/// objects kept on one line.
enum Pretty {
    static func format(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var out = ""
        var i = 0
        func value(_ indent: String) {
            let start = i
            let end = skip(start)
            let slice = String(decoding: bytes[start..<end], as: UTF8.self)
            if slice.count <= 100 || (bytes[start] != UInt8(ascii: "{") && bytes[start] != UInt8(ascii: "[")) {
                out += slice
                i = end
                return
            }
            let isObject = bytes[start] == UInt8(ascii: "{")
            out += isObject ? "{\n" : "[\n"
            i += 1
            var firstMember = true
            while bytes[i] != UInt8(ascii: isObject ? "}" : "]") {
                if bytes[i] == UInt8(ascii: ",") { i += 1 }
                if !firstMember { out += ",\n" }
                firstMember = false
                out += indent + "  "
                if isObject {
                    let keyEnd = skip(i)
                    out += String(decoding: bytes[i..<keyEnd], as: UTF8.self) + ": "
                    i = keyEnd + 1
                }
                value(indent + "  ")
            }
            i += 1
            out += "\n" + indent + (isObject ? "}" : "]")
        }
        /// The end of the value (or key) starting at `k`.
        func skip(_ k: Int) -> Int {
            var k = k
            if bytes[k] == UInt8(ascii: "\"") {
                k += 1
                while bytes[k] != UInt8(ascii: "\"") { k += bytes[k] == UInt8(ascii: "\\") ? 2 : 1 }
                return k + 1
            }
            if bytes[k] == UInt8(ascii: "{") || bytes[k] == UInt8(ascii: "[") {
                var depth = 0
                repeat {
                    switch bytes[k] {
                    case UInt8(ascii: "\""): k = skip(k) - 1
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    default: break
                    }
                    k += 1
                } while depth > 0
                return k
            }
            while k < bytes.count, ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[k]) { k += 1 }
            return k
        }
        value("")
        return out
    }
}

/// A Node.js bot (`node SCRIPT`) spoken to line by line over pipes, for the tests.
final class NodeBot {
    private let process = Process()
    private let input = Pipe(), output = Pipe()
    private var buffer: [UInt8] = []

    init(_ script: URL) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["node", script.path]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
    }

    func send(_ line: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Sends `line` and reads the bot's one-line reply as an object.
    func exchange(_ line: String) throws -> [String: Any] {
        try send(line)
        while !buffer.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            try #require(!chunk.isEmpty, "the bot closed its output (is node installed?)")
            buffer += chunk
        }
        let end = buffer.firstIndex(of: UInt8(ascii: "\n"))!
        let reply = Data(buffer[..<end])
        buffer.removeFirst(end + 1)
        return try #require(try JSONSerialization.jsonObject(with: reply) as? [String: Any], "reply \(String(decoding: reply, as: UTF8.self))")
    }

    func close() {
        try? send(#"{"type":"quit"}"#)
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
