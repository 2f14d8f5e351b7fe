import Foundation
import Testing

/// `oplab report` on a run that has not finished: drawn from its complete blocks, marked
/// in progress, the folder only read.
@Suite("Report of an unfinished run")
struct UnfinishedReportCLITests {
    @Test("a killed run (run.json says running, matches.csv ends mid-block): the page covers the complete blocks and says so; no file changes")
    func killedRun() throws {
        let scratch = try Scratch("unfinished")
        defer { scratch.remove() }
        let out = scratch("q")
        let run = try oplab("tournament", "configs/quortex-baseline.yaml", "--blocks", "40", "--out", out, "--quiet", "--no-report")
        try #require(run.status == 0, "\(run.stderr)")
        // Keep the header, 12 whole blocks (2 matches x 2 seats = 4 rows each) and half a row.
        let lines = try String(contentsOfFile: out + "/matches.csv", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        let kept = lines[0...48].joined(separator: "\n") + "\n" + lines[49].prefix(20)
        try kept.write(toFile: out + "/matches.csv", atomically: true, encoding: .utf8)
        let record = try String(contentsOfFile: out + "/run.json", encoding: .utf8)
            .replacingOccurrences(of: "\"status\" : \"complete\"", with: "\"status\" : \"running\"")
        try record.write(toFile: out + "/run.json", atomically: true, encoding: .utf8)
        let before = try FileManager.default.contentsOfDirectory(atPath: out).sorted().map { name in
            (name, try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
        }
        let report = try oplab("report", out, "--out", scratch("page.html"))
        #expect(report.status == 0, "\(report.stderr)")
        let page = try String(contentsOfFile: scratch("page.html"), encoding: .utf8)
        #expect(page.contains("<p class=\"in-progress\">In progress: 12 of 40 blocks."))
        #expect(page.contains("<tr><th>matches</th><td>24</td>"), "the header counts the 24 matches of 12 blocks")
        let after = try FileManager.default.contentsOfDirectory(atPath: out).sorted().map { name in
            (name, try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
        }
        #expect(before.map(\.0) == after.map(\.0) && zip(before, after).allSatisfy { $0.1 == $1.1 }, "the folder is only read")
        // A finished run has no banner.
        let complete = try oplab("tournament", "configs/quortex-baseline.yaml", "--blocks", "4", "--out", scratch("done"), "--quiet")
        try #require(complete.status == 0)
        #expect(!(try String(contentsOfFile: scratch("done/report.html"), encoding: .utf8)).contains("in-progress\">"))
    }
}
