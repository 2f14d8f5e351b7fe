import Foundation
import LabCatalog
import LabCore
import Testing
import Tournament
@testable import Reports

/// `oplab tournament`'s findings and page count the rows as the run writes them
/// (`MatchesCounter`) instead of reading the matches file again: the counts must be the
/// file's, row for row, and a run whose folder held earlier rows must read the file.
@Suite("Rows counted as they are written")
struct MatchesCounterTests {
    /// Tic-tac-toe at 2 seats (wins, draws, several lengths) or Quortex at 4 (shared first
    /// places), three or four entrants.
    static func plan(_ game: String, blocks: Int, compact: Bool = false) throws -> TournamentPlan {
        let yaml = game == "quortex"
            ? "name: counted\ngame: quortex\nseats: 4\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: reference}\n"
                + "  - {name: c, strategy: random}\n  - {name: d, strategy: reference}\nblocks: \(blocks)\nseed: 3\ncompact: \(compact)\n"
            : "name: counted\ngame: tictactoe\nentrants:\n  - {name: a, strategy: random}\n  - {name: b, strategy: random}\n"
                + "  - {name: c, strategy: \"mcts(iterations=20)\"}\nblocks: \(blocks)\nseed: 3\ncompact: \(compact)\n"
        return try Catalog.plan(ConfigLoader.parse(yaml: yaml, path: "counted.yaml"))
    }

    static func run(_ plan: TournamentPlan, in folder: String, threads: Int = 2, resume: Bool = false, counter: MatchesCounter? = nil,
                    stopAfter: Int? = nil) throws -> RunResult {
        var options = RunOptions(directory: folder, threads: threads, resume: resume, quiet: true)
        options.rowsObserver = counter
        return try TournamentRunner.run(plan, options: options, onBlock: stopAfter.map { last in { block, _ in block >= last } })
    }

    static func folder() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("oplab-counted-\(UUID().uuidString)").path
    }

    /// Every count of `counted` is `read`'s.
    static func expectSame(_ counted: ReportTally, _ read: ReportTally, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(counted.rows == read.rows && counted.blocks == read.blocks, sourceLocation: sourceLocation)
        #expect(counted.results == read.results, sourceLocation: sourceLocation)
        #expect(counted.scores == read.scores, sourceLocation: sourceLocation)
        #expect(counted.turns == read.turns, sourceLocation: sourceLocation)
        #expect(counted.reasons == read.reasons && counted.reasonCounts == read.reasonCounts, sourceLocation: sourceLocation)
        #expect(counted.seatBlocks.map(\.sum) == read.seatBlocks.map(\.sum), sourceLocation: sourceLocation)
        #expect(counted.seatBlocks.map(\.squares) == read.seatBlocks.map(\.squares), sourceLocation: sourceLocation)
        #expect(counted.reasonBlocks.map(\.sum) == read.reasonBlocks.map(\.sum), sourceLocation: sourceLocation)
        #expect(counted.firstBlock == read.firstBlock && counted.lastBlock == read.lastBlock, sourceLocation: sourceLocation)
        #expect(counted.blocksInOrder == read.blocksInOrder, sourceLocation: sourceLocation)
    }

    static func read(_ plan: TournamentPlan, _ folder: String, file: String = "matches.csv") throws -> ReportTally {
        try ReportTally.read(folder + "/" + file, entrants: plan.config.entrants.map(\.name), seats: plan.schedule.seats)
    }

    @Test("a run's counts are the matches file's: tic-tac-toe at 2 seats, Quortex at 4, plain and compact", arguments: [
        ("tictactoe", false), ("tictactoe", true), ("quortex", false),
    ])
    func countsAreTheFiles(game: String, compact: Bool) throws {
        let plan = try Self.plan(game, blocks: game == "quortex" ? 6 : 40, compact: compact)
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let counter = MatchesCounter(plan: plan)
        _ = try Self.run(plan, in: folder, counter: counter)
        let counted = try #require(counter.counted)
        let read = try Self.read(plan, folder, file: compact ? "matches.csv.gz" : "matches.csv")
        #expect(read.rows > 0 && (game == "quortex" || read.results.joined().contains { $0[1] > 0 }), "rows, and draws in tic-tac-toe")
        Self.expectSame(counted, read)
    }

    @Test("a run its stop rule ends early is counted up to its last block")
    func stoppedEarly() throws {
        let plan = try Self.plan("tictactoe", blocks: 40)
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let counter = MatchesCounter(plan: plan)
        let result = try Self.run(plan, in: folder, threads: 1, counter: counter, stopAfter: 9)
        #expect(result.blocksPlayed == 10)
        Self.expectSame(try #require(counter.counted), try Self.read(plan, folder))
    }

    @Test("a resumed run has no counts (its folder's earlier rows were not seen), and its findings read the file")
    func resumedReadsTheFile() throws {
        let plan = try Self.plan("tictactoe", blocks: 40)
        let folder = Self.folder(), straight = Self.folder()
        defer { for f in [folder, straight] { try? FileManager.default.removeItem(atPath: f) } }
        // Stopped after 15 blocks, then resumed to the end.
        _ = try Self.run(plan, in: folder, threads: 1, stopAfter: 14)
        let counter = MatchesCounter(plan: plan)
        _ = try Self.run(plan, in: folder, resume: true, counter: counter)
        #expect(counter.counted == nil)
        _ = try Self.run(plan, in: straight)
        let resumed = try TournamentReport.findings(directory: folder, counted: counter)
        let whole = try TournamentReport.findings(directory: straight)
        #expect(resumed.map(\.text) == whole.map(\.text) && !whole.isEmpty)
    }

    @Test("the findings take the counts and do not read the file: its rows cut after the run, they are still the run's")
    func findingsTakeTheCounts() throws {
        let plan = try Self.plan("tictactoe", blocks: 40)
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let counter = MatchesCounter(plan: plan)
        _ = try Self.run(plan, in: folder, counter: counter)
        let before = try TournamentReport.findings(directory: folder)
        // Only the header left: read, the file now disagrees with run.json.
        let path = folder + "/matches.csv"
        let header = try #require(try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").first)
        try (header + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: InputError.self) { try TournamentReport.findings(directory: folder) }
        let counted = try TournamentReport.findings(directory: folder, counted: counter)
        #expect(counted.map(\.text) == before.map(\.text) && !before.isEmpty)
    }
}
