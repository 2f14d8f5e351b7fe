import Foundation
import LabCore
import Testing
@testable import Reports

/// The verdicts in words: each kind when its interval excludes no difference, and its
/// absence when it does not.
@Suite("Findings")
struct FindingsTests {
    /// The findings of ``folder(_:)``.
    static func findings(_ files: [String: String], documentedCPU: String? = "heuristic") throws -> [Finding] {
        try ReportTests.withFolder(folder(files)) { path in
            try TournamentReport.page(directory: path, documentedCPU: documentedCPU).findings
        }
    }

    /// ``ReportTests/base`` with `files` replaced; a matches.csv of other blocks gets a
    /// run.json that counts them (the report refuses a complete run whose files disagree).
    static func folder(_ files: [String: String]) -> [String: String] {
        var all = ReportTests.base
        for (name, text) in files { all[name] = text }
        if let matches = files["matches.csv"], files["run.json"] == nil {
            let rows = matches.split(separator: "\n").count - 1
            all["run.json"] = all["run.json"]!.replacingOccurrences(
                of: "\"blocks\": 2, \"blocksDone\": 2, \"matchesDone\": 4",
                with: "\"blocks\": \((rows + 3) / 4), \"blocksDone\": \((rows + 3) / 4), \"matchesDone\": \(rows / 2)")
        }
        return all
    }

    static let pairHeader = "entrant,opponent,games,points,score,score_low,score_high,elo,elo_low,elo_high,blocks\n"

    /// A matches.csv of `blocks` blocks of two matches (a and b swapping seats): seat 0
    /// wins match m when `seat0Wins(m)`, the match ends by `reason(m)`.
    static func matches(blocks: Int, seat0Wins: (Int) -> Bool, reason: (Int) -> String) -> String {
        var rows: [(Int, String, String, String, Int)] = []
        for m in 0..<(2 * blocks) {
            let (first, second) = m % 2 == 0 ? ("a", "b") : ("b", "a")
            let win = seat0Wins(m)
            rows.append((0, first, win ? "win" : "loss", reason(m), 10))
            rows.append((1, second, win ? "loss" : "win", reason(m), 10))
        }
        return ReportTests.matches(rows)
    }

    @Test("a pair whose score interval lies above 1/2 is a 'stronger' verdict with Elo and score; one around 1/2 is none")
    func stronger() throws {
        let found = try Self.findings(["pairwise.csv": Self.pairHeader
            + "a,c,400.0,240.0,0.6000,0.5500,0.6500,70.4,35.0,105.0,200\n"
            + "c,b,400.0,204.0,0.5100,0.4600,0.5600,7.0,-28.0,42.0,200\n"])
        let verdicts = found.filter { $0.kind == "stronger" }
        #expect(verdicts.map(\.text) == ["a is stronger than c: +70.4 Elo [35.0, 105.0] (score 0.6000 [0.5500, 0.6500] over 400 games)"])
        #expect(verdicts.first.map { [$0.value, $0.low, $0.high] } == [70.4, 35.0, 105.0])
    }

    @Test("more than eight stronger pairs: the eight widest gaps, then one line counting the rest")
    func strongerCapped() throws {
        var pairs = Self.pairHeader
        for k in 0..<10 { pairs += "a,b,100.0,60.0,0.6000,0.5100,0.6900,\(100 + k).0,10.0,200.0,50\n" }
        let verdicts = try Self.findings(["pairwise.csv": pairs]).filter { $0.kind == "stronger" }
        #expect(verdicts.count == 9)
        #expect(verdicts.first?.value == 109 && verdicts[7].value == 102)
        #expect(verdicts.last?.text == "and 2 more pairs differ (pairwise.csv)")
    }

    @Test("against random: beaten (interval below 1/2), no better (around 1/2), the documented CPU barely better (under 0.64)")
    func againstRandom() throws {
        // b is random; a is the documented CPU (heuristic), c is not.
        let beaten = try Self.findings(["pairwise.csv": Self.pairHeader + "c,b,400.0,160.0,0.4000,0.3500,0.4500,-70.4,-105.0,-35.0,200\n"])
        #expect(beaten.map(\.text).contains("c is beaten by random (b): score 0.4000 [0.3500, 0.4500] over 400 games, -70.4 Elo [-105.0, -35.0]"))
        let level = try Self.findings(["pairwise.csv": Self.pairHeader + "a,b,400.0,200.0,0.5000,0.4500,0.5500,0.0,-35.0,35.0,200\n"])
        #expect(level.map(\.kind) == ["no-better-than-random"])
        #expect(level.first?.text.hasPrefix("a (the documented CPU) is no better than random (b): score 0.5000") == true)
        let weak = try Self.findings(["pairwise.csv": Self.pairHeader + "a,b,400.0,216.0,0.5400,0.5100,0.5700,27.9,7.0,48.9,200\n"])
        #expect(weak.map(\.kind) == ["stronger", "weak-documented-cpu"])
        #expect(weak.last?.text.hasPrefix("a, the documented CPU, barely beats random (b): score 0.5400 [0.5100, 0.5700]") == true)
        // Not for an entrant that is not the documented CPU, nor once the CPU is clearly better.
        let other = try Self.findings(["pairwise.csv": Self.pairHeader + "c,b,400.0,216.0,0.5400,0.5100,0.5700,27.9,7.0,48.9,200\n"])
        #expect(other.map(\.kind) == ["stronger"])
        let strong = try Self.findings(["pairwise.csv": Self.pairHeader + "a,b,400.0,280.0,0.7000,0.6500,0.7500,147.2,110.0,190.0,200\n"])
        #expect(strong.map(\.kind) == ["stronger"])
        let noCatalog = try Self.findings(["pairwise.csv": Self.pairHeader + "a,b,400.0,216.0,0.5400,0.5100,0.5700,27.9,7.0,48.9,200\n"],
                                          documentedCPU: nil)
        #expect(noCatalog.map(\.kind) == ["stronger"])
    }

    @Test("seat 0 winning 70 % of 200 blocks is a seat advantage (only the advantage, at two seats); an even split, or too few blocks, is none")
    func seatAdvantage() throws {
        let few = try Self.findings(["pairwise.csv": Self.pairHeader,
                                     "matches.csv": Self.matches(blocks: 29, seat0Wins: { _ in true }, reason: { _ in "missions" })])
        #expect(!few.contains { $0.kind == "seat-advantage" || $0.kind == "end-reason" }, "29 blocks: no verdict")
        let pairs = Self.pairHeader
        let tilted = try Self.findings(["pairwise.csv": pairs,
                                        "matches.csv": Self.matches(blocks: 200, seat0Wins: { $0 % 10 < 7 }, reason: { _ in "missions" })])
        let seat = tilted.filter { $0.kind == "seat-advantage" }
        #expect(seat.count == 1 && seat.first?.subject == "seat 0")
        #expect(seat.first?.text.hasPrefix("seat 0 has the advantage: score 0.7000 [") == true)
        #expect(seat.first.map { $0.low > 0.5 && $0.high < 0.8 } == true)
        let even = try Self.findings(["pairwise.csv": pairs,
                                      "matches.csv": Self.matches(blocks: 200, seat0Wins: { $0 % 2 == 0 }, reason: { _ in "missions" })])
        #expect(!even.contains { $0.kind == "seat-advantage" })
    }

    @Test("an end reason of 80 % of matches dominates; one of 40 % does not")
    func dominantReason() throws {
        let pairs = Self.pairHeader
        let mostly = try Self.findings(["pairwise.csv": pairs, "matches.csv": Self.matches(
            blocks: 200, seat0Wins: { $0 % 2 == 0 }, reason: { $0 % 10 < 8 ? "all_passed" : "missions" })])
        let reasons = mostly.filter { $0.kind == "end-reason" }
        #expect(reasons.map(\.subject) == ["all_passed"])
        #expect(reasons.first?.text.hasPrefix("most matches end by all_passed: 80.0 % [") == true)
        let split = try Self.findings(["pairwise.csv": pairs, "matches.csv": Self.matches(
            blocks: 200, seat0Wins: { $0 % 2 == 0 }, reason: { $0 % 10 < 4 ? "all_passed" : $0 % 10 < 8 ? "missions" : "turn_cap" })])
        #expect(!split.contains { $0.kind == "end-reason" })
    }

    @Test("forfeits are counted with their kinds from run.json; an entrant without any gets no line")
    func forfeits() throws {
        var summary = ReportTests.base["summary.csv"]!
            .replacingOccurrences(of: "rating_high\n", with: "rating_high,forfeits\n")
            .replacingOccurrences(of: ",40.0,10.0,70.0\n", with: ",40.0,10.0,70.0,3\n")
            .replacingOccurrences(of: ",0.0,0.0,0.0\n", with: ",0.0,0.0,0.0,0\n")
            .replacingOccurrences(of: ",-30.0,-60.0,-5.0\n", with: ",-30.0,-60.0,-5.0,0\n")
        summary = summary.trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
        let record = ReportTests.base["run.json"]!.replacingOccurrences(
            of: "\"status\": \"complete\"",
            with: "\"status\": \"complete\", \"forfeits\": [{\"entrant\": \"a\", \"timeout\": 2, \"crash\": 1, \"illegal\": 0, \"malformed\": 0}]")
        let found = try Self.findings(["summary.csv": summary, "run.json": record, "pairwise.csv": Self.pairHeader])
        #expect(found.map(\.text) == ["a forfeited 3 of 4 matches (75.0 %): 2 timeout, 1 crash"])
        #expect(try Self.findings(["pairwise.csv": Self.pairHeader]).isEmpty, "no forfeits column: no line")
    }

    @Test("two equal players: no verdict, and the page says so; findings.csv is its header alone")
    func equalPlayers() throws {
        // a and c (neither random) level with each other.
        let files = ["pairwise.csv": Self.pairHeader + "a,c,400.0,200.0,0.5000,0.4500,0.5500,0.0,-35.0,35.0,200\n"
                                          + "c,a,400.0,200.0,0.5000,0.4500,0.5500,0.0,-35.0,35.0,200\n",
                     "matches.csv": Self.matches(blocks: 200, seat0Wins: { $0 % 2 == 0 }, reason: { $0 % 2 == 0 ? "x" : "y" })]
        let found = try Self.findings(files, documentedCPU: nil)
        #expect(found.isEmpty)
        #expect(Finding.csv(found) == "kind,subject,statistic,value,low,high,text\n")
        let html = try ReportTests.withFolder(Self.folder(files)) { try TournamentReport.html(directory: $0) }
        #expect(html.contains("<section id=\"findings\">") && html.contains("<p>No verdict at the 95 % level"))
    }

    @Test("findings.csv quotes a text with commas, one row per finding in the page's order")
    func csvRows() throws {
        let found = [Finding(kind: "stronger", subject: "a>b", text: "a is stronger than b: +1.0 Elo, really", statistic: "elo",
                             value: 1, low: 0.5, high: 1.5)]
        #expect(Finding.csv(found) == "kind,subject,statistic,value,low,high,text\nstronger,a>b,elo,1.0000,0.5000,1.5000,\"a is stronger than b: +1.0 Elo, really\"\n")
    }
}
