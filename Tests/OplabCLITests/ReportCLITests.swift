import Foundation
import Testing

/// `oplab report`, the report a tournament writes, and `play --svg/--html` on the built
/// binary: files written whole, bad input refused with file and column, exit 2.
@Suite("oplab report and replays")
struct ReportCLITests {
    /// A finished 20-block rail run in `scratch/out`.
    private static func railRun(_ scratch: Scratch, _ extra: [String] = []) throws -> String {
        let config = try scratch.config("""
            name: report
            game: rail
            seats: 2
            entrants:
              - {name: cpu, strategy: heuristic}
              - {name: rnd, strategy: random}
            blocks: 20
            seed: 2

            """)
        let run = try runArray(["tournament", config, "--out", scratch("out"), "--quiet"] + extra)
        try #require(run.status == 0, "\(run.stderr)")
        return scratch("out")
    }

    @Test("a tournament writes report.html beside its CSVs; oplab report writes the same page again; --no-report writes none")
    func tournamentWritesReport() throws {
        let scratch = try Scratch("report")
        defer { scratch.remove() }
        let out = try Self.railRun(scratch)
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("railroad"))
        let again = try runArray(["report", out, "--out", scratch("again.html")])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try String(contentsOfFile: scratch("again.html"), encoding: .utf8) == page)

        let bare = try Scratch("report")
        defer { bare.remove() }
        let folder = try Self.railRun(bare, ["--no-report"])
        #expect(!FileManager.default.fileExists(atPath: folder + "/report.html"))
    }

    @Test("report refuses a folder that is not a results folder, naming the missing file; nothing is written")
    func notAResultsFolder() throws {
        let scratch = try Scratch("report")
        defer { scratch.remove() }
        let run = try runArray(["report", scratch.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(scratch.path) is not a results folder: no run.json"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
        let missing = try runArray(["report", scratch("nowhere")])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such folder"), "\(missing.stderr)")
    }

    @Test("report refuses a CSV with a missing column, naming the file and the column; the old report stays")
    func missingColumn() throws {
        let scratch = try Scratch("report")
        defer { scratch.remove() }
        let out = try Self.railRun(scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: out + "/report.html"))
        let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
        try summary.replacingOccurrences(of: "win_rate_low", with: "low").write(toFile: out + "/summary.csv", atomically: true, encoding: .utf8)
        let run = try runArray(["report", out])
        #expect(run.status == 2)
        #expect(run.stderr.contains("\(out)/summary.csv: no column 'win_rate_low'"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out + "/report.html")) == before)
        #expect(!FileManager.default.fileExists(atPath: out + "/report.html.partial"))
    }

    @Test("report refuses a railroads.csv without its built column, naming file and column")
    func boardFileColumn() throws {
        let scratch = try Scratch("report")
        defer { scratch.remove() }
        let out = try Self.railRun(scratch)
        let text = try String(contentsOfFile: out + "/railroads.csv", encoding: .utf8)
        try text.replacingOccurrences(of: ",built\n", with: ",count\n").write(toFile: out + "/railroads.csv", atomically: true, encoding: .utf8)
        let run = try runArray(["report", out, "--out", scratch("page.html")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("railroads.csv: no column 'built'"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("page.html")))
    }

    @Test("play --svg into a folder that does not exist exits 2 before playing and writes nothing")
    func replayBadPath() throws {
        let scratch = try Scratch("report")
        defer { scratch.remove() }
        let run = try runArray(["play", "quortex", "--player", "reference", "--player", "random",
                                "--html", scratch("page.html"), "--svg", scratch("missing/final.svg")])
        #expect(run.status == 2)
        #expect(run.stderr.contains("missing/final.svg: cannot write the SVG: the folder"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("page.html")))
        #expect(run.stdout.isEmpty, "no match result before the refusal")
    }

    @Test("play --svg and --html draw the match play prints: same seed, same bytes; the SVG names the seat results")
    func replayFiles() throws {
        let scratch = try Scratch("report")
        defer { scratch.remove() }
        var pages: [String] = []
        for k in 0..<2 {
            let run = try runArray(["play", "rail", "--player", "heuristic", "--player", "random", "--seed", "9",
                                    "--svg", scratch("f\(k).svg"), "--html", scratch("p\(k).html")])
            try #require(run.status == 0, "\(run.stderr)")
            pages.append(try String(contentsOfFile: scratch("f\(k).svg"), encoding: .utf8)
                         + String(contentsOfFile: scratch("p\(k).html"), encoding: .utf8))
            // The legend gives each seat the place and result play printed.
            var seats = 0
            for line in run.stdout.split(separator: "\n") {
                guard let row = line.firstMatch(of: /^(\d)\s+P(\d)\s+(win|draw|loss)\s+(\S+)/) else { continue }
                seats += 1
                #expect(pages[k].contains("Seat \(row.2): \(row.4)<tspan font-weight=\"normal\"> — place \(row.1) · \(row.3)"), "\(line)")
            }
            #expect(seats == 2)
        }
        #expect(pages[0] == pages[1])
    }
}
