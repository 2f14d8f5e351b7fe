import LabCore
import RailGame
import Testing

@testable import Players

/// The transport's pieces: command lines split as a shell would, JSON read strictly.
@Suite struct CommandWordsTests {
    @Test(arguments: [
        ("python3 bots/random_bot.py", ["python3", "bots/random_bot.py"]),
        ("  a   b\tc ", ["a", "b", "c"]),
        ("'a b' \"c d\" e\\ f", ["a b", "c d", "e f"]),
        ("\"a \\\"q\\\" \\\\ \\$x\"", ["a \"q\" \\ $x"]),
        ("'it''s' x", ["its", "x"]),
        ("\"\" x", ["", "x"]),
        ("a'b'\"c\"d", ["abcd"]),
        ("'$HOME' \"*\"", ["$HOME", "*"]),
    ])
    func splitsLikeAShell(line: String, words: [String]) throws {
        #expect(try CommandWords.split(line) == words)
    }

    @Test(arguments: ["", "   ", "'open", "\"open", "trailing\\"])
    func refusesWhatAShellWould(line: String) {
        #expect(throws: InputError.self) { try CommandWords.split(line) }
    }
}

@Suite struct JSONParserTests {
    @Test func readsEveryKindOfValue() throws {
        let value = try JSONParser.parse(Array(#" {"a": [1, -2.5e3, true, false, null], "b": "x\u00e9\n\ud83d\ude00", "c": {}} "#.utf8))
        #expect(value["a"] == .array([.integer(1), .number(-2500), .bool(true), .bool(false), .null]))
        #expect(value["b"]?.string == "x\u{e9}\n\u{1F600}")
        #expect(value["c"] == .object([]))
        #expect(value["missing"] == nil)
    }

    @Test(arguments: [
        "", "{", "{\"a\":}", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"\\x\"", "\"a", "{a:1}", "NaN", "1e", "[1] 2",
        "\"\u{01}\"", "\"\\ud800\"", "1e999",
    ])
    func refusesWhatIsNotJSON(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    /// A hostile line of a million brackets is an error, not a stack overflow.
    @Test func limitsNesting() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 1_000_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
        let ok = Array(repeating: UInt8(ascii: "["), count: JSONParser.maxDepth - 1) + Array(repeating: UInt8(ascii: "]"), count: JSONParser.maxDepth - 1)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
    }

    @Test func integersStayIntegers() throws {
        #expect(try JSONParser.parse(Array("9007199254740993".utf8)) == .integer(9_007_199_254_740_993))
        #expect(try JSONParser.parse(Array("3.0".utf8)) == .number(3))
    }
}

@Suite struct JSONWriterTests {
    @Test func writesCommasEscapesAndNumbers() throws {
        var w = JSONWriter()
        w.beginObject()
        w.member("type", "t\"q\\\n\u{1}")
        w.key("list")
        w.beginArray()
        w.value(0)
        w.value(-12)
        w.value(Int.min)
        w.value(true)
        w.null()
        w.value(0.25)
        w.beginObject()
        w.endObject()
        w.endArray()
        w.member("n", 3)
        w.endObject()
        let text = String(decoding: w.bytes, as: UTF8.self)
        #expect(text == #"{"type":"t\"q\\\n\u0001","list":[0,-12,-9223372036854775808,true,null,0.25,{}],"n":3}"#)
        #expect(try JSONParser.parse(w.bytes)["list"] == .array([.integer(0), .integer(-12), .integer(Int.min), .bool(true), .null, .number(0.25), .object([])]))
    }
}

/// A reply's id: the compact form's fast path reads what the full parser reads.
@Suite struct ActionReplyTests {
    @Test(arguments: [
        #"{"type":"action","id":3}"#, #"{"type":"action","id":0}"#, #"{"type":"action","id":-0}"#, #"{"type":"action","id":-7}"#,
        #"{"type":"action","id":123456789012345678}"#, #"{"type":"action","id":03}"#, #"{"type":"action","id":3.0}"#,
        #"{"type":"action","id":}"#, #"{"type":"action","id":"3"}"#, #"{"type":"action","id":3,"why":"x"}"#,
        #"{"type": "action", "id": 3}"#, #"{"id":3,"type":"action"}"#, #"{"type":"action","id":3} "#, #"{"type":"action","id":1e2}"#,
        #"{"type":"ready","id":3}"#, #"{"type":"action"}"#, "garbage", "",
    ])
    func compactFormReadsAsTheParserDoes(line: String) {
        let bytes = Array(line.utf8)[...]
        let fast = ExternalStrategy<RailGame>.compactActionID(bytes)
        let full: Int?
        do {
            let value = try JSONParser.parse(bytes)
            full = value["type"]?.string == "action" ? value["id"]?.integer : nil
        } catch {
            full = nil
        }
        // The fast path may decline (nil) but never disagrees.
        if let fast { #expect(fast == full, "\(line)") }
        // And the whole reading (fast path, then the parser) gives the parser's answer.
        let read = try? ExternalStrategy<RailGame>.actionID(bytes)
        #expect(read == full, "\(line)")
    }

    @Test func theCompactFormTakesTheFastPath() {
        #expect(ExternalStrategy<RailGame>.compactActionID(Array(#"{"type":"action","id":42}"#.utf8)[...]) == 42)
    }
}
