import Foundation
import Testing

/// The findings at the end of `oplab tournament`: printed, saved as findings.csv (also
/// with --no-report), the same bytes at 1 and 2 threads.
@Suite("Findings on the command line")
struct FindingsCLITests {
    @Test("a 4-seat rail run names the all_passed dominance and the seat advantage; findings.csv holds the same verdicts at any thread count")
    func fourSeats() throws {
        let scratch = try Scratch("findings")
        defer { scratch.remove() }
        let one = try oplab("tournament", "configs/rail-4-seats.yaml", "--blocks", "60", "--threads", "1", "--out", scratch("one"),
                            "--quiet", "--no-report")
        try #require(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("findings (95 % level):\n"))
        #expect(one.stdout.contains("  - most matches end by all_passed: "), "\(one.stdout)")
        #expect(!FileManager.default.fileExists(atPath: scratch("one/report.html")))
        let csv = try String(contentsOfFile: scratch("one/findings.csv"), encoding: .utf8)
        #expect(csv.hasPrefix("kind,subject,statistic,value,low,high,text\n"))
        #expect(csv.contains("\nend-reason,all_passed,share,"))
        let two = try oplab("tournament", "configs/rail-4-seats.yaml", "--blocks", "60", "--threads", "2", "--out", scratch("two"), "--quiet")
        try #require(two.status == 0, "\(two.stderr)")
        #expect(try String(contentsOfFile: scratch("two/findings.csv"), encoding: .utf8) == csv)
        let page = try String(contentsOfFile: scratch("two/report.html"), encoding: .utf8)
        #expect(page.contains("<section id=\"findings\">") && page.contains("data-kind=\"end-reason\""))
    }

    @Test("two copies of one strategy: no winner named; --force replaces the findings with the new run's")
    func equalPlayers() throws {
        let scratch = try Scratch("findings")
        defer { scratch.remove() }
        let config = try scratch.config("""
            name: twins
            game: quortex
            seats: 2
            blocks: 100
            seed: 11
            threads: 1
            entrants:
              - {name: left, strategy: reference}
              - {name: right, strategy: reference}
            """)
        let run = try oplab("tournament", config, "--out", scratch("out"), "--quiet", "--no-report")
        try #require(run.status == 0, "\(run.stderr)")
        let csv = try String(contentsOfFile: scratch("out/findings.csv"), encoding: .utf8)
        #expect(!csv.contains("\nstronger,"), "\(csv)")
        try "stale".write(toFile: scratch("out/findings.csv"), atomically: true, encoding: .utf8)
        let again = try oplab("tournament", config, "--out", scratch("out"), "--quiet", "--no-report", "--force")
        try #require(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: scratch("out/findings.csv"), encoding: .utf8) == csv)
    }
}
