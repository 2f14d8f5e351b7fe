import Foundation
import Testing

/// `oplab status`: one line per results folder, a total over several, clear errors.
@Suite("oplab status")
struct StatusCLITests {
    @Test("a finished run and a stalled copy of it: one line each and the total; a missing folder exits 2")
    func statusLines() throws {
        let scratch = try Scratch("status")
        defer { scratch.remove() }
        let run = try oplab("tournament", "configs/quortex-baseline.yaml", "--blocks", "8", "--out", scratch("a"), "--quiet", "--no-report")
        try #require(run.status == 0, "\(run.stderr)")
        // A copy that says it is running, last updated long ago, with no process holding it.
        try FileManager.default.copyItem(atPath: scratch("a"), toPath: scratch("b"))
        let text = try String(contentsOfFile: scratch("b/run.json"), encoding: .utf8)
            .replacingOccurrences(of: "\"status\" : \"complete\"", with: "\"status\" : \"running\"")
        try text.write(toFile: scratch("b/run.json"), atomically: true, encoding: .utf8)
        let status = try oplab("status", scratch("a"), scratch("b"))
        #expect(status.status == 0, "\(status.stderr)")
        let lines = status.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(status.stdout)")
        #expect(lines[0].hasPrefix(scratch("a") + ": complete, 8/8 blocks (100.0%), 16 matches, last session "))
        #expect(lines[0].contains(", leader reference "))
        #expect(lines[1].hasPrefix(scratch("b") + ": running, 8/8 blocks") && lines[1].contains("; STALLED: no update for "))
        #expect(lines[2].hasPrefix("all 2 folders: 16/16 blocks (100.0%), 1 complete, 0 running at 0 matches/s, ETA -, 1 stalled"))
        let missing = try oplab("status", scratch("none"))
        #expect(missing.status == 2 && missing.stderr.contains("error: \(scratch("none")) is not a results folder: no run.json"))
        let bad = try oplab("status", scratch("a"), "--stalled-after", "-5")
        #expect(bad.status == 2 && bad.stderr.contains("--stalled-after"))
    }
}
