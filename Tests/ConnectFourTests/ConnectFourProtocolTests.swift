import ConnectFour
import Foundation
import GameConformance
import LabCore
import Testing

/// Connect Four in the player protocol (docs/protocol/connect4.md): `hello` gives the
/// board's size, actions name their column, an observation holds the whole position,
/// and the messages match the published schemas.
@Suite("Connect Four protocol")
struct ConnectFourProtocolTests {
    @Test func rulesAreEmptyAndSetupGivesTheBoard() throws {
        let rules = try P.parse { C4.game.writeProtocolRules(to: &$0) }
        #expect(rules.isEmpty, "no knobs")
        let setup = try P.parse { C4.game.writeProtocolSetup(to: &$0) }
        #expect(Set(setup.keys) == ["columns", "rows", "connect", "action_count", "marks"])
        #expect(setup["columns"] as? Int == 7 && setup["rows"] as? Int == 6 && setup["connect"] as? Int == 4)
        #expect(setup["action_count"] as? Int == ConnectFourState().actionSpaceSize)
        #expect(setup["marks"] as? [String] == ["X", "O"])
        let hello = try #require(try JSONSerialization.jsonObject(with: Data(P.hello(options: #"{"depth":3}"#).utf8)) as? [String: Any])
        #expect(hello["game"] as? String == "connect4" && hello["seats"] as? Int == 2 && hello["protocol"] as? Int == 1)
        #expect(hello["options"] as? [String: Int] == ["depth": 3])
    }

    @Test func actionsNameTheirColumn() throws {
        for column in 0..<7 {
            let object = try P.parse { C4.game.writeProtocolAction(column, to: &$0) }
            #expect(object.count == 1 && object["column"] as? Int == column)
            #expect(C4.game.protocolText(of: column) == "drop c\(column)")
            #expect(C4.game.protocolText(of: column) == ConnectFourState().describe(column))
        }
    }

    @Test func observationHoldsTheBoardBottomRowFirst() throws {
        let state = C4.play([3, 3, 2, 6, 3])
        let object = try P.parse { state.observation(for: 1).writeProtocolObservation(to: &$0) }
        #expect(Set(object.keys) == ["seat", "turn", "mover", "board", "heights", "winner", "reason"])
        #expect(object["seat"] as? Int == 1 && object["turn"] as? Int == 5 && object["mover"] as? Int == 1)
        let board = try #require(object["board"] as? [[Any]])
        #expect(board.count == 6 && board.allSatisfy { $0.count == 7 })
        for row in 0..<6 {
            for column in 0..<7 {
                if let seat = state.seat(column: column, row: row) {
                    #expect(board[row][column] as? Int == seat, "(\(column),\(row))")
                } else {
                    #expect(board[row][column] is NSNull, "(\(column),\(row))")
                }
            }
        }
        #expect(board[0][3] as? Int == 0 && board[1][3] as? Int == 1 && board[2][3] as? Int == 0 && board[0][6] as? Int == 1)
        #expect(object["heights"] as? [Int] == [0, 0, 1, 3, 0, 0, 1])
        #expect(object["winner"] is NSNull)
        #expect(object["reason"] as? String == "none")
    }

    @Test func observationOfAFinishedMatchNamesTheWinner() throws {
        let won = C4.play([4, 0, 4, 1, 5, 2, 6, 3])
        let object = try P.parse { won.observation(for: 0).writeProtocolObservation(to: &$0) }
        #expect(object["winner"] as? Int == 1 && object["reason"] as? String == "four-in-a-row")
        #expect(object["mover"] as? Int == won.currentSeat)
    }

    @Test func bothSeatsSeeTheSameBoard() throws {
        // Perfect information: the two seats' observations differ in `seat` alone.
        let state = C4.play([3, 3, 2, 6, 3, 0])
        let zero = String(decoding: P.observationBytes(state, seat: 0), as: UTF8.self)
        let one = String(decoding: P.observationBytes(state, seat: 1), as: UTF8.self)
        #expect(zero != one)
        #expect(zero.replacingOccurrences(of: #"{"seat":0,"#, with: #"{"seat":1,"#) == one)
        // Another position gives other bytes.
        #expect(P.observationBytes(C4.play([3, 3, 2, 6, 3, 1]), seat: 0) != P.observationBytes(state, seat: 0))
    }

    @Test func messagesMatchThePublishedSchemas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("connect4-protocol-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let hellos = [P.hello(), P.hello(options: #"{"noise":0.1,"name":"x"}"#)]
        var turns: [String] = [], played: [String] = []
        var rng = LabRandom(seed: 3)
        for match in 0..<20 {
            var state = C4.game.newMatch(seed: UInt64(match))
            while !state.isTerminal {
                turns.append(P.turn(state, match: "\(match)"))
                let legal = C4.legal(state)
                let action = legal[rng.uniform(legal.count)]
                played.append(P.played(seat: state.currentSeat, action: action, match: "\(match)"))
                state.apply(action)
            }
        }
        var checks = SchemaChecks(schemas: P.schemas)
        checks.add(hellos, schema: "hello", valid: true)
        checks.add(turns, schema: "turn", valid: true)
        checks.add(played, schema: "played", valid: true)
        // The schemas reject what is not the game's: each line is wrong in one field.
        let turn = turns[5]
        checks.add([turn.replacingOccurrences(of: #""reason":"none""#, with: #""reason":"none","hidden":1"#),
                    turn.replacingOccurrences(of: #""action":{"column":"#, with: #""action":{"column":9,"x":"#),
                    turn.replacingOccurrences(of: #""reason":"none""#, with: #""reason":"resign""#),
                    turn.replacingOccurrences(of: #""board":[["#, with: #""board":[[2,"#)], schema: "turn", valid: false)
        checks.add([hellos[0].replacingOccurrences(of: #""rules":{}"#, with: #""rules":{"rows":7}"#),
                    hellos[0].replacingOccurrences(of: #""rows":6"#, with: #""rows":7"#)], schema: "hello", valid: false)
        checks.add([played[0].replacingOccurrences(of: #""text":"drop c"#, with: #""text":"drop column "#)], schema: "played", valid: false)
        for outcome in try checks.run(in: folder) { #expect(outcome.passed, "\(outcome)") }
    }

    /// The examples in docs/protocol/connect4.md are these bytes; on a mismatch the test
    /// writes the fresh examples to a temporary file and names it.
    @Test func docsShowTheMessagesThisCodeWrites() throws {
        let examples = P.docExamples()
        let docs = try String(contentsOf: P.root.appendingPathComponent("docs/protocol/connect4.md"), encoding: .utf8)
        let missing = examples.filter { !docs.contains($0) }
        if !missing.isEmpty {
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("connect4-protocol-examples.md")
            try examples.joined(separator: "\n\n").write(to: out, atomically: true, encoding: .utf8)
            Issue.record("docs/protocol/connect4.md lacks \(missing.count) of the \(examples.count) examples; the fresh ones are in \(out.path)")
        }
    }
}

/// Lines as the lab writes them (docs/protocol.md), with the Connect Four objects, and
/// the helpers that read them back.
enum P {
    /// The package's folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func parse(_ write: (inout JSONWriter) -> Void) throws -> [String: Any] { try ProtocolLines.object(write) }

    static func observationBytes(_ state: ConnectFourState, seat: Int) -> [UInt8] { ProtocolLines.observationBytes(state, seat: seat) }

    static func line(_ build: (inout JSONWriter) -> Void) -> String { ProtocolLines.line(build) }

    static func hello(options: String = "{}") -> String { ProtocolLines.hello(C4.game, options: options) }

    /// A `turn` line of the mover.
    static func turn(_ state: ConnectFourState, match: String) -> String { ProtocolLines.turn(C4.game, state, match: match) }

    static func played(seat: Int, action: Int, match: String) -> String {
        ProtocolLines.played(C4.game, seat: seat, action: action, match: match)
    }

    /// docs/schemas/connect4/, for ``SchemaChecks``.
    static let schemas = root.appendingPathComponent("docs/schemas/connect4")

    /// The examples docs/protocol/connect4.md shows: the `hello`, and a `turn` and a
    /// `played` line after five drops.
    static func docExamples() -> [String] {
        let state = C4.play([3, 3, 2, 4, 3])
        let hello = hello(options: #"{"depth":3}"#)
        let turn = turn(state, match: "17")
        let played = played(seat: state.currentSeat, action: 1, match: "17")
        return ["```json\n" + hello + "\n```", "```json\n" + turn + "\n```", "```json\n" + played + "\n```"]
    }
}
