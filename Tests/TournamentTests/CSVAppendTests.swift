import Testing
import LabCore
@testable import Tournament

/// The byte writers the rows of `matches.csv` are made with (expected bytes by hand).
@Suite("CSV byte writers")
struct CSVAppendTests {
    private func written(_ body: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = Array("x=".utf8)
        body(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a number: its decimal digits and a comma, or a newline after a row's last field")
    func numbers() {
        #expect(written { CSV.append(0, to: &$0) } == "x=0,")
        #expect(written { CSV.append(7, to: &$0, last: true) } == "x=7\n")
        #expect(written { CSV.append(-42, to: &$0) } == "x=-42,")
        #expect(written { CSV.append(1_000_000, to: &$0) } == "x=1000000,")
        #expect(written { CSV.append(UInt64.max, to: &$0) } == "x=18446744073709551615,")
        #expect(written { CSV.append(Int.min, to: &$0) } == "x=-9223372036854775808,")
        #expect(written { CSV.append(Int32(-5), to: &$0, last: true) } == "x=-5\n")
        #expect(written { CSV.append(UInt128.max, to: &$0) } == "x=340282366920938463463374607431768211455,")
    }

    @Test("a text: as it is, or quoted with its quotes doubled when it holds a comma, a quote or a line break")
    func texts() {
        #expect(written { CSV.append("flow", to: &$0) } == "x=flow,")
        #expect(written { CSV.append("", to: &$0, last: true) } == "x=\n")
        #expect(written { CSV.append("a,b", to: &$0) } == "x=\"a,b\",")
        #expect(written { CSV.append("say \"hi\"", to: &$0) } == "x=\"say \"\"hi\"\"\",")
        #expect(written { CSV.append("a\r\nb", to: &$0, last: true) } == "x=\"a\r\nb\"\n")
        #expect(written { CSV.append("ünïcödé and a longer text than fifteen bytes", to: &$0) }
                == "x=ünïcödé and a longer text than fifteen bytes,")
        #expect(CSV.needsQuotes("plain") == false)
        #expect(CSV.needsQuotes("a\rb"))
    }
}

/// A match's record keeps every seat's own figures as CSV bytes.
@Suite("Match records")
struct MatchRecordTests {
    private let outcome = Outcome(places: [1, 2], endReason: "flow", turns: 9)

    @Test("figures added seat by seat read back per seat, each field followed by a comma")
    func fieldsBySeat() {
        var record = MatchRecord(outcome: outcome)
        record.appendField("flow")
        record.appendField(12)
        record.endSeat()
        record.appendField("a,b")
        record.appendField(-3)
        record.endSeat()
        #expect(record.seatsWithFields == 2)
        #expect(String(decoding: record.fields(ofSeat: 0), as: UTF8.self) == "flow,12,")
        #expect(String(decoding: record.fields(ofSeat: 1), as: UTF8.self) == "\"a,b\",-3,")
        #expect(record.columns(ofSeat: 1) == ["a,b", "-3"])
    }

    @Test("texts given per seat are the same record; a seat without figures has none")
    func fromTexts() {
        let record = MatchRecord(outcome: outcome, seatColumns: [["x"], []])
        #expect(record.seatsWithFields == 2)
        #expect(record.columns(ofSeat: 0) == ["x"])
        #expect(record.fields(ofSeat: 1).isEmpty)
        #expect(record.columns(ofSeat: 1) == [])
    }
}
