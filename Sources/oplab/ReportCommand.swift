import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Reports
import Tournament

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draw a results folder as one self-contained HTML page.",
        discussion: """
            Reads run.json, summary.csv, pairwise.csv, ratings.csv, matches.csv (or compact, \
            matches.csv.gz) and, when present, railroads.csv (rail) or cells.csv (Quortex), and writes one HTML file with \
            inline SVG and CSS (no network, no scripts): ratings with intervals, the pairwise \
            matrix, win rate by seat, game lengths, end reasons, where on the board things \
            happened, and the run's config. `oplab tournament` writes one at the end of a run.
            A run still playing (or killed before its end) is drawn from its complete blocks so \
            far, the page marked "In progress: X of Y blocks"; the folder is only read.
            Example: oplab report results/quickstart --out quickstart.html
            """
    )

    @Argument(help: "The results folder, e.g. results/quickstart.")
    var directory: String

    @Option(help: "The HTML file to write (default: DIRECTORY/report.html).")
    var out: String?

    func run() throws {
        try reportingInputErrors {
            // A learning's folder: its page, written whole beside the files.
            if LearningReport.isLearning(directory) {
                let path = out ?? directory + "/report.html"
                try writeWhole(try LearningReport.html(folder: directory), to: path, what: "the report", label: out.map { "--out \($0)" })
                printOutput("wrote \(path)")
                return
            }
            // A tuning's folder: its page, written whole (atomically) beside the files.
            if TuningReport.isTuning(directory) {
                let path = out ?? directory + "/report.html"
                try writeWhole(try TuningReport.html(folder: directory), to: path, what: "the report", label: out.map { "--out \($0)" })
                printOutput("wrote \(path)")
                return
            }
            // Writing into a results folder: hold it, as every writer of it does (a folder
            // without run.json is refused by the report itself, and gets no lock file).
            // A run still playing holds its folder; its page goes in whole (atomically) beside
            // the files, which this command only reads.
            let target = folder(of: out ?? directory + "/report.html")
            if let out { try checkWritable(out, what: "the report", label: "--out \(out)") }
            let intoResults = FileManager.default.fileExists(atPath: target + "/" + RunRecord.fileName)
                && ResultsLock.holder(of: target) == nil
            let lock = intoResults ? try ResultsLock(directory: target) : nil
            defer { withExtendedLifetime(lock) {} }
            let path = try writeReport(directory: directory, out: out)
            printOutput("wrote \(path)")
        }
    }
}

/// Renders `directory`'s report into `out` (default `directory/report.html`), written
/// whole or not at all.
/// - Returns: the path written.
@discardableResult
func writeReport(directory: String, out: String? = nil) throws(InputError) -> String {
    let page = try reportPage(directory: directory)
    let path = out ?? directory + "/report.html"
    try writeWhole(page.html, to: path, what: "the report")
    return path
}

/// The page of `directory`: of the whole run, or, for a run still playing, killed or
/// interrupted before its end, of its complete blocks so far (``TournamentSnapshot``, summarised
/// into a scratch folder; the results folder is only read). `counted`: the rows as the run
/// that just wrote them counted them (taken for the matches file when they are all of it).
func reportPage(directory: String, counted: MatchesCounter? = nil) throws(InputError) -> (html: String, findings: [Finding]) {
    let record = try? RunRecord.read(from: directory)
    let documented = documentedCPU(of: record)
    guard let record, record.status == .running || record.status == .interrupted else {
        return try TournamentReport.page(directory: directory, drawings: Catalog.boardDrawings, documentedCPU: documented,
                                         counted: counted)
    }
    let plan = try Catalog.plan(try TournamentMerge.config(of: directory), startingBots: false)
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-report-\(UUID().uuidString)").path
    do { try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true) } catch {
        throw InputError("cannot create \(scratch): \(Files.reason(error))")
    }
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let snapshot = try TournamentSnapshot.write(plan, of: directory, into: scratch)
    return try TournamentReport.page(directory: directory, drawings: Catalog.boardDrawings,
                                     snapshot: ReportSnapshot(summaries: scratch, matchesLength: snapshot.matchesLength,
                                                              blocksDone: snapshot.blocksDone, blocks: snapshot.blocks),
                                     documentedCPU: documented)
}

/// The documented CPU of the game a run played (nil without its run.json, or for a game
/// the catalog does not know).
func documentedCPU(of record: RunRecord?) -> String? {
    record.flatMap { try? Catalog.game(named: $0.config.game) }?.documentedCPU
}

/// Writes `text` to `path` whole or not at all (``Files/writeAtomically(_:to:)``), after
/// ``OutputPaths/checkFile(_:label:what:inputs:replacing:)``: an existing file is replaced
/// only when it is an HTML page (or an SVG picture for `.svg`) the lab could have written,
/// never a results folder's data; errors name the path and `what`.
func writeWhole(_ text: String, to path: String, what: String, label: String? = nil) throws(InputError) {
    try checkWritable(path, what: what, label: label)
    try Files.writeAtomically(text, to: path)
}

/// The folder a file path names ("." for a bare file name).
func folder(of path: String) -> String { PathText.folder(of: path) }

/// Refuses a page or picture path that cannot be written or must not be replaced
/// (``OutputPaths/checkFile(_:label:what:inputs:replacing:)``): SVG for `*.svg`, else HTML.
func checkWritable(_ path: String, what: String = "the file", label: String? = nil) throws(InputError) {
    let kind = path.lowercased().hasSuffix(".svg") ? OutputPaths.svgPicture : OutputPaths.htmlPage
    try OutputPaths.checkFile(path, label: label ?? path, what: what, replacing: kind)
}
