import Foundation
import LabCore
import Pictures
import Quortex
import RailGame
import Testing
@testable import Reports

/// `TournamentReport.html(directory:)` on small hand-made results folders: every section
/// is there and shows the right figures, optional board files add the board section,
/// and bad folders fail with errors that name the file, line, column or key.
@Suite("Tournament report")
struct ReportTests {
    // MARK: Fixture

    /// Three entrants at two seats; ratings.csv deliberately not in rating order, and
    /// pairwise.csv listing each pair once.
    static let base: [String: String] = [
        "run.json": """
            {"blocks": 2, "blocksDone": 2, "matchesDone": 4, "matchesPerSecond": 1234.5, "matchesThisSession": 4,
             "peakMemoryMB": 10, "seconds": 0.5, "shard": "1/1", "started": "2026-01-02T03:04:05Z",
             "finished": "2026-01-02T03:04:06Z", "status": "complete", "threads": 2, "tool": "oplab", "version": "0.4.0",
             "config": {"blocks": 2, "entrants": [["a", "heuristic"], ["b", "random"], ["c", "mcts:iterations=50"]],
                        "format": "round-robin", "game": "rail", "name": "tiny", "rules": [["spentCards", "discard"]],
                        "seats": 2, "seed": 18446744073709551615}}
            """,
        "summary.csv": """
            entrant,strategy,matches,blocks,wins,draws,losses,score,score_share,score_share_low,score_share_high,win_rate,win_rate_low,win_rate_high,mean_place,mean_place_low,mean_place_high,rating,rating_low,rating_high
            a,heuristic,4,2,2,1,1,2.5000,0.6250,0.5100,0.7400,0.5000,0.1500,0.8500,1.2500,1.1000,1.4000,40.0,10.0,70.0
            b,random,2,1,1,0,1,1.0000,0.5000,0.0000,1.0000,0.5000,0.0900,0.9100,1.5000,1.0000,2.0000,0.0,0.0,0.0
            c,mcts:iterations=50,2,1,0,1,1,0.5000,0.2500,0.0000,1.0000,0.0000,0.0000,0.6600,1.5000,1.0000,2.0000,-30.0,-60.0,-5.0

            """,
        "pairwise.csv": """
            entrant,opponent,games,points,score,score_low,score_high,elo,elo_low,elo_high,blocks
            a,b,2.0,1.2,0.6000,0.4000,0.8000,70.4,-70.4,240.8,1
            a,c,2.0,1.4,0.7000,0.5000,0.9000,147.2,0.0,381.7,1
            b,c,2.0,1.1,0.5500,0.3000,0.8000,34.9,-147.2,240.8,1

            """,
        "ratings.csv": """
            rank,entrant,strategy,rating,rating_low,rating_high,pairwise_games,anchor
            3,c,mcts:iterations=50,-30.0,-60.0,-5.0,4,no
            1,a,heuristic,40.0,10.0,70.0,4,no
            2,b,random,0.0,0.0,0.0,4,yes

            """,
        "matches.csv": matches([
            // (seat, entrant, outcome, end_reason, turns)
            (0, "a", "win", "missions", 10), (1, "b", "loss", "missions", 10),
            (0, "b", "win", "missions", 10), (1, "a", "loss", "missions", 10),
            (0, "a", "win", "turn_cap", 12), (1, "c", "loss", "turn_cap", 12),
            (0, "c", "draw", "all_passed", 30), (1, "a", "draw", "all_passed", 30),
        ]),
    ]

    /// A matches.csv with the fixed columns and one game column, a row per (seat, entrant,
    /// outcome, end_reason, turns); two rows make a match.
    static func matches(_ rows: [(Int, String, String, String, Int)]) -> String {
        var text = "run,block,match,table,seat,entrant,strategy,seed,place,outcome,end_reason,turns,railroads\n"
        for (k, row) in rows.enumerated() {
            let entrant = row.1.contains(",") || row.1.contains("\"") ? "\"" + row.1.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : row.1
            let place = row.2 == "loss" ? 2 : 1
            text += "tiny,\(k / 4),\(k / 2),0,\(row.0),\(entrant),s,7,\(place),\(row.2),\(row.3),\(row.4),5\n"
        }
        return text
    }

    /// Railroads 0 (A-B), 1 (B-C, the most built, mostly by c) and 2 (A-C, never built).
    static let railroads = """
        railroad,from,to,length,colour,lane,from_latitude,from_longitude,to_latitude,to_longitude,entrant,built
        0,Aa,Bb,3,red,0,50.0,0.0,51.0,2.0,a,5
        0,Aa,Bb,3,red,0,50.0,0.0,51.0,2.0,b,1
        0,Aa,Bb,3,red,0,50.0,0.0,51.0,2.0,c,0
        1,Bb,Cc,2,blue,0,51.0,2.0,49.0,3.0,a,0
        1,Bb,Cc,2,blue,0,51.0,2.0,49.0,3.0,b,2
        1,Bb,Cc,2,blue,0,51.0,2.0,49.0,3.0,c,9
        2,Aa,Cc,4,grey,0,50.0,0.0,49.0,3.0,a,0
        2,Aa,Cc,4,grey,0,50.0,0.0,49.0,3.0,b,0
        2,Aa,Cc,4,grey,0,50.0,0.0,49.0,3.0,c,0

        """

    /// A radius-1 board (7 cells, canonical order); cell 3 (the centre) has the most
    /// tiles (12) and cell 5 the most winning flows (4).
    static var cells: String {
        let coordinates = [(-1, 0), (-1, 1), (0, -1), (0, 0), (0, 1), (1, -1), (1, 0)]
        var text = "cell,row,col,entrant,placed,winning_flow\n"
        for (c, (row, col)) in coordinates.enumerated() {
            for (e, entrant) in ["a", "b", "c"].enumerated() {
                let placed = c == 3 ? 4 : (c + e) % 3
                let flow = c == 5 ? (e == 0 ? 2 : 1) : (c == 0 && e == 1 ? 1 : 0)
                text += "\(c),\(row),\(col),\(entrant),\(placed),\(flow)\n"
            }
        }
        return text
    }

    /// Writes `files` to a fresh temporary folder, runs `body` on its path, removes it.
    static func withFolder<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("report-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        for (name, text) in files { try Data(text.utf8).write(to: url.appendingPathComponent(name)) }
        return try body(url.path)
    }

    /// ``base`` as a Quortex run (its board file is cells.csv).
    static var quortexBase: [String: String] {
        var files = base
        files["run.json"] = files["run.json"]!.replacingOccurrences(of: "\"game\": \"rail\"", with: "\"game\": \"quortex\"")
        return files
    }

    /// Both games' board pictures, as the command line passes them.
    static let drawings: [any BoardCountDrawing] = [RailBoardDrawing(), QuortexBoardDrawing()]

    static func page(_ files: [String: String] = base) throws -> String {
        try withFolder(files) { try TournamentReport.html(directory: $0, drawings: drawings) }
    }

    /// The error the report throws on `files` (nil when it does not throw).
    static func failure(_ files: [String: String]) throws -> InputError? {
        try withFolder(files) { path -> InputError? in
            do {
                _ = try TournamentReport.html(directory: path, drawings: drawings)
                return nil
            } catch let error as InputError { return error }
        }
    }

    /// The opening tag (attributes included) of the first element whose tag contains
    /// `marker`, searching from `start`.
    static func tag(_ marker: String, in text: String, after start: String? = nil) -> Substring? {
        var from = text.startIndex
        if let start {
            guard let s = text.range(of: start) else { return nil }
            from = s.upperBound
        }
        guard let hit = text.range(of: marker, range: from..<text.endIndex),
              let open = text[..<hit.lowerBound].lastIndex(of: "<"),
              let close = text[hit.upperBound...].firstIndex(of: ">") else { return nil }
        return text[open...close]
    }

    /// The `<title>` text of the first element after `marker`.
    static func tooltip(after marker: String, in text: String) -> String? {
        guard let hit = text.range(of: marker), let open = text.range(of: "<title>", range: hit.upperBound..<text.endIndex),
              let close = text.range(of: "</title>", range: open.upperBound..<text.endIndex) else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
    }

    static func occurrences(of needle: String, in text: String) -> Int { text.components(separatedBy: needle).count - 1 }

    // MARK: Sections

    @Test("The page has the header, every chart section and the footer, each with its question")
    func sections() throws {
        let html = try Self.page()
        for id in ["findings", "header", "ratings", "pairwise", "seats", "lengths", "end-reasons", "footer"] {
            #expect(html.contains("id=\"\(id)\""), "no section \(id)")
        }
        #expect(Self.occurrences(of: "<p class=\"question\">", in: html) == 8)
        let findings = try #require(html.range(of: "id=\"findings\"")), header = try #require(html.range(of: "id=\"header\""))
        let ratings = try #require(html.range(of: "id=\"ratings\""))
        #expect(header.lowerBound < findings.lowerBound && findings.lowerBound < ratings.lowerBound,
                "the findings come right after the run's header, before every chart")
        #expect(!html.contains("id=\"board\""), "no board files, no board section")
    }

    @Test("The header shows the run: game, rules, seed (a full UInt64), entrants with strategies, blocks, status")
    func header() throws {
        let html = try Self.page()
        for fact in ["<h1>tiny</h1>", "spentCards = discard", "18446744073709551615", "mcts:iterations=50", "2 of 2 (2 per table)",
                     "complete", "1,235 matches/s", "2026-01-02T03:04:05Z"] {
            #expect(html.contains(fact), "missing \(fact)")
        }
    }

    @Test("The header's table gives score share, win rate and mean place with their intervals over blocks; an older summary without the score share's and place's intervals still reads")
    func summaryIntervals() throws {
        let html = try Self.page()
        for cell in ["<th>score share (95 %)</th>", "<th>mean place (95 %)</th>", ">0.6250 [0.5100, 0.7400]<", ">0.5000 [0.1500, 0.8500]<",
                     ">1.250 [1.100, 1.400]<"] {
            #expect(html.contains(cell), "missing \(cell)")
        }
        var files = Self.base
        files["summary.csv"] = """
            entrant,strategy,matches,wins,draws,losses,score,score_share,win_rate,win_rate_low,win_rate_high,mean_place,rating,rating_low,rating_high
            a,heuristic,4,2,1,1,2.5000,0.6250,0.5000,0.1500,0.8500,1.2500,40.0,10.0,70.0

            """
        let older = try Self.page(files)
        #expect(older.contains(">0.6250<") && older.contains(">0.5000 [0.1500, 0.8500]<") && older.contains(">1.250<"))
    }

    @Test("The footer gives the config as YAML (specs with a colon quoted) and lists the files")
    func footer() throws {
        let html = try Self.page()
        #expect(html.contains("  - {name: c, strategy: &quot;mcts:iterations=50&quot;}"))
        #expect(html.contains("rules: {spentCards: discard}"))
        #expect(html.contains("seed: 18446744073709551615"))
        #expect(html.contains("<code>matches.csv</code>") && !html.contains("<code>railroads.csv</code>"))
    }

    // MARK: Ratings

    @Test("Ratings are drawn strongest first, whatever the file's order, and the anchor is marked")
    func ratingsOrder() throws {
        let html = try Self.page()
        let positions = ["a", "b", "c"].map { html.range(of: "class=\"rating\" data-entrant=\"\($0)\"")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(html.contains(">b (anchor)</text>"))
        #expect(!html.contains(">a (anchor)</text>"))
    }

    // MARK: Pairwise matrix

    @Test("The matrix has one cell per ordered pair of entrants and a blank diagonal")
    func matrixCells() throws {
        let html = try Self.page()
        #expect(Self.occurrences(of: "class=\"pair\"", in: html) == 6)
        #expect(!html.contains("data-entrant=\"a\" data-opponent=\"a\""))
    }

    @Test("A pair listed once fills its mirror cell with 1 - score, interval mirrored")
    func matrixMirror() throws {
        let html = try Self.page()
        let listed = try #require(Self.tooltip(after: "data-entrant=\"a\" data-opponent=\"c\"", in: html))
        let mirror = try #require(Self.tooltip(after: "data-entrant=\"c\" data-opponent=\"a\"", in: html))
        #expect(listed.hasPrefix("a vs c: score 0.7000, 95 % 0.5000 to 0.9000"))
        #expect(mirror.hasPrefix("c vs a: score 0.3000, 95 % 0.1000 to 0.5000"))
        let cell = try #require(html.range(of: "data-entrant=\"c\" data-opponent=\"a\""))
        #expect(html[cell.upperBound...].prefix(400).contains(">0.300</text>"))
    }

    // MARK: Seats

    @Test("Seat scores: 1 a win, 1/k a first place shared by k, over the rows of that entrant in that seat")
    func seatRates() throws {
        let html = try Self.page()
        #expect(Self.tooltip(after: "data-entrant=\"a\" data-seat=\"0\"", in: html)
            == "a, seat 0: 2 wins, 0 draws, 0 losses of 2 matches: score 100.00 % [34.24 %, 100.00 %]")
        #expect(Self.tooltip(after: "data-entrant=\"a\" data-seat=\"1\"", in: html)
            == "a, seat 1: 0 wins, 1 draws, 1 losses of 2 matches: score 25.00 % [2.67 %, 80.21 %]", "a draw is a first place shared by two: 1/2")
        #expect(Self.tooltip(after: "data-entrant=\"all entrants\" data-seat=\"0\"", in: html)
            == "all entrants, seat 0: 3 wins, 1 draws, 0 losses of 4 matches: score 87.50 % [50.46 %, 97.96 %]")
    }

    @Test("A match whose rows are not seats 0...S-1 together is refused at the row out of place")
    func seatOrder() throws {
        var files = Self.base
        files["matches.csv"] = Self.matches([(0, "a", "win", "missions", 10), (0, "b", "loss", "missions", 10)])
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/matches.csv:3: column 'seat': 0 where seat 1 belongs"), "\(error)")
    }

    // MARK: Lengths

    @Test("Length histograms share bins and count each entrant's matches per bin; mean and median in the table")
    func lengthHistogram() throws {
        let html = try Self.page()
        // a played 10, 10, 12, 30 turns: 21 one-turn bins from 10.
        #expect(Self.tooltip(after: "class=\"lengths\" data-entrant=\"a\"", in: html) == "a, 10 turns: 2 matches (50.0 %)")
        let group = try #require(html.range(of: "class=\"lengths\" data-entrant=\"a\""))
        let bars = String(html[group.upperBound...]).components(separatedBy: "</g>")[0]
        #expect(Self.occurrences(of: "<rect", in: bars) == 3, "bins 10, 12 and 30")
        #expect(html.contains("<tr data-entrant=\"a\"><td>a</td><td class=\"number\">4</td><td class=\"number\">15.5</td><td class=\"number\">11</td>"))
    }

    @Test("Length bins have a round width and start at a multiple of it")
    func roundBins() {
        let bins = Charts.Bins(low: 57, high: 281)
        #expect((bins.first, bins.size, bins.count) == (50, 10, 24))
        #expect(bins.label(0) == "50-59 turns")
    }

    @Test("Median of an even count averages the middle two; of an odd count it is the middle one")
    func median() {
        #expect(LengthStatistics([0, 0, 1, 0, 1]).median == 3)
        #expect(LengthStatistics([0, 2, 0, 1]).median == 1)
    }

    // MARK: End reasons

    @Test("End-reason bars split each entrant's matches by reason and outcome, as shares")
    func endReasonShares() throws {
        let html = try Self.page()
        let start = try #require(html.range(of: "id=\"end-reasons\""))
        let part = String(html[start.upperBound...])
        #expect(part.contains("<title>a: missions, won: 1 of 4 matches (25.0 %)</title>"))
        #expect(part.contains("<title>a: missions, lost: 1 of 4 matches (25.0 %)</title>"))
        #expect(part.contains("<title>c: all_passed, drawn: 1 of 2 matches (50.0 %)</title>"))
        // The most frequent reason (missions, 4 rows) first in the legend.
        let missions = try #require(part.range(of: ">missions</text>")), cap = try #require(part.range(of: ">turn_cap</text>"))
        #expect(missions.lowerBound < cap.lowerBound)
    }

    // MARK: Board

    @Test("With railroads.csv the map section appears: the most-built railroad darkest, each coloured by its top builder")
    func railMaps() throws {
        var files = Self.base
        files["railroads.csv"] = Self.railroads
        let html = try Self.page(files)
        #expect(html.contains("<section id=\"board\">"))
        let built = try #require(Self.tag("data-railroad=\"1\"", in: html, after: "id=\"map-built\""))
        #expect(built.contains("stroke=\"\(SVG.heat(1))\""))
        let lesser = try #require(Self.tag("data-railroad=\"0\"", in: html, after: "id=\"map-built\""))
        #expect(lesser.contains("stroke=\"\(SVG.heat(6.0 / 11))\""))
        let top = try #require(Self.tag("data-railroad=\"1\"", in: html, after: "id=\"map-builder\""))
        #expect(top.contains("stroke=\"\(SVG.seatColour(2))\""), "c built railroad 1 most")
        let first = try #require(Self.tag("data-railroad=\"0\"", in: html, after: "id=\"map-builder\""))
        #expect(first.contains("stroke=\"\(SVG.seatColour(0))\""), "a built railroad 0 most")
        #expect(html.contains("Aa - Bb (3 red): built in 6 matches (a 5, b 1, c 0)"))
    }

    @Test("With cells.csv the board section shows placements and winning flows, the busiest cell darkest and labelled")
    func quortexBoards() throws {
        var files = Self.quortexBase
        files["cells.csv"] = Self.cells
        let html = try Self.page(files)
        #expect(html.contains("<section id=\"board\">") && !html.contains("id=\"map-built\""))
        let centre = try #require(Self.tag("data-cell=\"3\"", in: html, after: "id=\"board-placed\""))
        #expect(centre.contains("fill=\"\(SVG.heat(1))\""))
        #expect(html.contains("cell 3 (row 0, col 0): 12 tiles placed (a 4, b 4, c 4)"))
        let flow = try #require(Self.tag("data-cell=\"5\"", in: html, after: "id=\"board-flows\""))
        #expect(flow.contains("fill=\"\(SVG.heat(1))\""))
        #expect(html.contains("id=\"board-placed-2\""), "a small board per entrant")
    }

    @Test("A board file the run's game does not draw is left out: no section, not listed")
    func boardFileOfAnotherGame() throws {
        var files = Self.base
        files["cells.csv"] = Self.cells
        let html = try Self.page(files)
        #expect(!html.contains("<section id=\"board\">") && !html.contains("<code>cells.csv</code>"))
        let drawn = try Self.withFolder(files) { try TournamentReport.html(directory: $0) }
        #expect(!drawn.contains("<section id=\"board\">"), "no drawings given: no board section")
    }

    @Test("A board file's field the game cannot read is an error naming file, line and column")
    func boardFieldError() throws {
        var files = Self.quortexBase
        // Every row of cell 0 (lines 2 to 4) gives the same unreadable row.
        files["cells.csv"] = Self.cells.replacingOccurrences(of: "\n0,-1,0,", with: "\n0,north,0,")
        let error = try #require(try Self.failure(files))
        #expect(error.message.hasSuffix("/cells.csv:2: column 'row': 'north' is not a whole number"), "\(error)")
    }

    @Test("An element described two ways in the board file is an error naming both lines")
    func boardElementMismatch() throws {
        var files = Self.quortexBase
        let lines = Self.cells.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Rows 1 and 2 describe the same cell for two entrants; change the second's col.
        var second = lines[2].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let first = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        try #require(first[0] == second[0])
        second[2] = "9"
        files["cells.csv"] = ([lines[0], lines[1], second.joined(separator: ",")] + lines[3...]).joined(separator: "\n")
        let error = try #require(try Self.failure(files))
        #expect(error.message.hasSuffix("/cells.csv:3: column 'col': cell \(first[0]) has '9' here and '\(first[2])' on line 2"), "\(error)")
    }

    // MARK: Matches file

    @Test("A quoted entrant name in matches.csv reads like an unquoted one")
    func quotedEntrant() throws {
        var files = Self.base
        for name in ["run.json", "summary.csv", "pairwise.csv", "ratings.csv"] {
            files[name] = files[name]!.replacingOccurrences(of: "[\"a\", ", with: "[\"a, \\\"x\\\"\", ")
                .replacingOccurrences(of: "\na,", with: "\n\"a, \"\"x\"\"\",").replacingOccurrences(of: ",a,", with: ",\"a, \"\"x\"\"\",")
        }
        files["matches.csv"] = Self.matches([(0, "a, \"x\"", "win", "missions", 10), (1, "b", "loss", "missions", 10)])
        files["run.json"] = files["run.json"]!.replacingOccurrences(of: "\"blocksDone\": 2, \"matchesDone\": 4", with: "\"blocksDone\": 1, \"matchesDone\": 1")
        let html = try Self.page(files)
        #expect(Self.tooltip(after: "data-entrant=\"a, &quot;x&quot;\" data-seat=\"0\"", in: html)
            == "a, &quot;x&quot;, seat 0: 1 wins, 0 draws, 0 losses of 1 matches: score 100.00 % [20.65 %, 100.00 %]")
    }

    @Test("A run with no matches yet (header only) still gives a page, saying so in the match sections")
    func noMatchesYet() throws {
        var files = Self.base
        files["matches.csv"] = Self.matches([])
        files["run.json"] = files["run.json"]!.replacingOccurrences(of: "\"status\": \"complete\"", with: "\"status\": \"running\"")
        let html = try Self.page(files)
        #expect(Self.occurrences(of: "<p>matches.csv has no rows yet.</p>", in: html) == 3)
    }

    @Test("A complete run whose matches.csv ends in a torn line is refused: the files disagree, and --resume repairs it")
    func tornLineOfCompleteRun() throws {
        var files = Self.base
        files["matches.csv"]! += "tiny,1,3,0,1,a,s,7,2,lo"
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/matches.csv ends in a torn line (23 bytes after its last newline), but "), "\(error)")
        #expect(error.message.contains("/run.json says the run is complete with 2 of 2 blocks: the files disagree; `oplab tournament "
            + "CONFIG --out "), "\(error)")
        #expect(error.message.hasSuffix(" --resume` (with the run's config) drops it and plays its blocks again"), "\(error)")
    }

    @Test("A complete run whose matches.csv lost its last block is refused, saying which blocks are there and that --resume plays the rest")
    func lostLastBlock() throws {
        var files = Self.base
        let lines = files["matches.csv"]!.split(separator: "\n")
        files["matches.csv"] = lines.prefix(5).joined(separator: "\n") + "\n"
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/matches.csv holds 1 block (2 matches), but "), "\(error)")
        #expect(error.message.contains("/run.json says the run is complete with 2 of 2 blocks (4 matches): the files disagree; "
            + "the blocks there are the first 1, and `oplab tournament CONFIG --out "), "\(error)")
        #expect(error.message.hasSuffix(" --resume` (with the run's config) plays the missing ones again"), "\(error)")
    }

    @Test("A complete run whose matches.csv lost a block before the last is refused, and --force plays it again")
    func lostMiddleBlock() throws {
        var files = Self.base
        let lines = files["matches.csv"]!.split(separator: "\n")
        files["matches.csv"] = ([lines[0]] + lines.suffix(4)).joined(separator: "\n") + "\n"
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/matches.csv holds 1 block (2 matches), but "), "\(error)")
        #expect(error.message.contains("(4 matches): the files disagree (blocks are missing before the last, or out of place); "
            + "`oplab tournament CONFIG --out "), "\(error)")
        #expect(error.message.hasSuffix(" --force` (with the run's config) plays the run again"), "\(error)")
    }

    @Test("A games count of pairwise.csv too big for a count is refused naming the file, line, column, value and range")
    func hugeGames() throws {
        var files = Self.base
        files["pairwise.csv"] = files["pairwise.csv"]!.replacingOccurrences(of: "a,c,2.0,", with: "a,c,1e20,")
        let error = try #require(try Self.failure(files))
        #expect(error.message.hasSuffix("/pairwise.csv:3: column 'games': 1e20 is out of range; expected a number of games in 0...4503599627370496"),
                "\(error)")
    }

    // MARK: Page properties

    @Test("The page is self-contained: no script and no web reference")
    func selfContained() throws {
        var files = Self.base
        files["railroads.csv"] = Self.railroads
        let html = try Self.page(files).replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "")
        #expect(!html.contains("http://") && !html.contains("https://"))
        #expect(!html.lowercased().contains("<script"))
    }

    @Test("The same folder gives the same page")
    func deterministic() throws {
        var files = Self.quortexBase
        files["cells.csv"] = Self.cells
        let (first, second) = try Self.withFolder(files) { path in
            (try TournamentReport.html(directory: path, drawings: Self.drawings), try TournamentReport.html(directory: path, drawings: Self.drawings))
        }
        #expect(first == second)
    }

    // MARK: Errors

    @Test("A folder that does not exist is named")
    func missingFolder() {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID().uuidString)").path
        #expect(throws: InputError("\(path): no such folder; give a results folder (`oplab tournament` writes one)")) {
            try TournamentReport.html(directory: path, drawings: Self.drawings)
        }
    }

    @Test("A folder without run.json is not a results folder, and the error says what writes one")
    func missingRunRecord() throws {
        var files = Self.base
        files["run.json"] = nil
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("is not a results folder: no run.json"))
        #expect(error.message.contains("`oplab tournament` writes"))
    }

    @Test("A required summary file that is missing is named (pairwise.csv)")
    func missingPairwise() throws {
        var files = Self.base
        files["pairwise.csv"] = nil
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("no pairwise.csv"))
    }

    @Test("A missing column names the file and the column and lists the expected columns")
    func missingColumn() throws {
        var files = Self.base
        files["summary.csv"] = files["summary.csv"]!.replacingOccurrences(of: "mean_place", with: "place")
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/summary.csv: no column 'mean_place'; expected the columns entrant,strategy,matches,"))
    }

    @Test("A malformed turns value names matches.csv, the line and the column")
    func malformedTurns() throws {
        var files = Self.base
        files["matches.csv"] = files["matches.csv"]!.replacingOccurrences(of: "1,b,s,7,2,loss,missions,10,", with: "1,b,s,7,2,loss,missions,ten,")
        let error = try #require(try Self.failure(files))
        #expect(error.message.hasSuffix("/matches.csv:3: column 'turns': 'ten' is not a whole number of turns"), "\(error)")
    }

    @Test("A row with too few fields names the file and line")
    func shortRow() throws {
        var files = Self.base
        files["pairwise.csv"] = files["pairwise.csv"]!.replacingOccurrences(of: "a,c,2.0,", with: "a,c,")
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/pairwise.csv:3: 10 fields where the header has 11"), "\(error)")
    }

    @Test("A run.json key of the wrong type names the file and the key")
    func badRunRecord() throws {
        var files = Self.base
        files["run.json"] = files["run.json"]!.replacingOccurrences(of: "\"seats\": 2", with: "\"seats\": \"two\"")
        let error = try #require(try Self.failure(files))
        #expect(error.message.hasSuffix("/run.json: key 'config.seats': expected a whole number"), "\(error)")
    }

    @Test("A run.json without a key is refused naming the path and the key")
    func runRecordMissingKey() throws {
        var files = Self.base
        files["run.json"] = files["run.json"]!.replacingOccurrences(of: "\"seats\": 2,", with: "")
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/run.json: missing key 'config.seats'"), "\(error)")
    }

    @Test("An entrant the run does not have is named with the run's entrants")
    func unknownEntrant() throws {
        var files = Self.base
        files["ratings.csv"] = files["ratings.csv"]!.replacingOccurrences(of: "1,a,", with: "1,z,")
        let error = try #require(try Self.failure(files))
        #expect(error.message.contains("/ratings.csv:3: column 'entrant': 'z' is not an entrant of this run (a, b, c)"), "\(error)")
    }
}
