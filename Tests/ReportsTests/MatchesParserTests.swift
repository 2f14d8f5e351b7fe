import Foundation
import LabCore
import Testing
@testable import Reports

/// `matches.csv` as the report reads it: the fields of an unquoted line are split at
/// commas found eight bytes at a time, so these rows put their commas at every offset of
/// a word, end inside and at the edge of one, and end in an empty field.
@Suite("Reading matches.csv")
struct MatchesParserTests {
    static let header = "run,block,match,table,seat,entrant,strategy,seed,place,outcome,end_reason,turns,forfeit\n"

    /// Two matches of entrants a and b per block; `pad` lengthens the run name of each
    /// row, which moves every comma after it.
    static func rows(pads: [Int]) -> String {
        var text = header
        for (k, pad) in pads.enumerated() {
            let block = k / 4, match = k / 2, seat = k % 2
            let winner = match % 3 == 0 ? 1 : 0
            let outcome = seat == winner ? "win" : "loss"
            let reason = match % 2 == 0 ? "missions" : "turn_cap"
            text += "\(String(repeating: "r", count: 1 + pad)),\(block),\(match),0,\(seat),\(seat == 0 ? "a" : "b"),s,7,"
                + "\(seat == winner ? 1 : 2),\(outcome),\(reason),\(10 + match),\n"
        }
        return text
    }

    static func read(_ text: String) throws -> ReportTally {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("matches-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return try ReportTally.read(url.path, entrants: ["a", "b"], seats: 2)
    }

    @Test("every row is counted whatever the offsets of its commas: seats, outcomes, reasons and turns")
    func everyOffset() throws {
        // 16 rows (8 matches, 4 blocks), each padded differently: the commas of the 16
        // rows fall at all eight offsets of a word, and the lines end at all of them.
        let pads = Array(0..<16)
        let tally = try Self.read(Self.rows(pads: pads))
        #expect(tally.rows == 16)
        #expect(tally.blocks == 4)
        // Matches 0, 3, 6: seat 1 (b) wins; the other five: seat 0 (a).
        #expect(tally.results[0][0] == [5, 0, 3], "a in seat 0: 5 wins, 3 losses")
        #expect(tally.results[1][1] == [3, 0, 5], "b in seat 1: 3 wins, 5 losses")
        #expect(tally.reasons == ["missions", "turn_cap"])
        #expect(tally.reasonCounts[0][0] == [2, 0, 2] && tally.reasonCounts[0][1] == [3, 0, 1])
        // Match m lasted 10 + m turns; each entrant played every match once.
        #expect((0..<8).allSatisfy { tally.turns[0][10 + $0] == 1 && tally.turns[1][10 + $0] == 1 })
        #expect(tally.scores[0][0] == 5 && tally.scores[1][1] == 3)
    }

    @Test("the same rows read alike whatever their padding")
    func paddingChangesNothing() throws {
        let short = try Self.read(Self.rows(pads: Array(repeating: 0, count: 16)))
        let long = try Self.read(Self.rows(pads: (0..<16).map { 7 + 9 * $0 }))
        #expect(short.results == long.results && short.turns == long.turns && short.reasonCounts == long.reasonCounts)
        #expect(short.seatBlocks.map(\.sum) == long.seatBlocks.map(\.sum) && short.blocks == long.blocks)
    }

    @Test("a row with a field too many or too few is an error naming its line and both counts")
    func wrongWidth() throws {
        for (pad, extra, found) in [(0, ",", 14), (5, ",x,", 15), (3, "", 12)] {
            var lines = Self.rows(pads: [0, 1, 2, 3]).split(separator: "\n").map(String.init)
            lines[3] = extra.isEmpty ? String(lines[3].dropLast()) : String(repeating: "p", count: pad) + lines[3] + extra
            do {
                _ = try Self.read(lines.joined(separator: "\n") + "\n")
                Issue.record("a row of \(found) fields was read")
            } catch let error as InputError {
                #expect(error.message.hasSuffix(":4: \(found) fields where the header has 13"), "\(error)")
            }
        }
    }
}
