import LabCore
import Pictures
import Tournament

/// The page `oplab report DIR` writes and `oplab tournament` leaves as `report.html`:
/// one self-contained HTML file (inline SVG and CSS; no script, no network) that reads
/// a results folder from top to bottom, each section answering one question.
public enum TournamentReport {
    /// The report on the results folder at `directory`.
    ///
    /// Reads `run.json`, `summary.csv`, `pairwise.csv`, `ratings.csv` and `matches.csv`
    /// (in chunks: memory does not grow with it), and the game's board-count file when
    /// present and one of `drawings` is the run's game's. The same folder gives the same
    /// bytes.
    /// - Complexity: O(size of matches.csv) time; the page is O(entrants^2 + map size).
    /// - Throws: `InputError` naming the folder and the missing file, or the file, line
    ///   and column (or the `run.json` key) that is wrong, and what is accepted.
    ///
    /// With a `snapshot` (a run still playing, or killed), the summaries come from the
    /// snapshot's folder and `matches.csv` is read up to its complete blocks; the page
    /// opens with "In progress: X of Y blocks".
    ///
    /// `documentedCPU` is the run's game's documented CPU (a strategy name), for the
    /// finding that it barely beats `random`.
    public static func html(directory: String, drawings: [any BoardCountDrawing] = [],
                            snapshot: ReportSnapshot? = nil, documentedCPU: String? = nil) throws(InputError) -> String {
        try page(directory: directory, drawings: drawings, snapshot: snapshot, documentedCPU: documentedCPU).html
    }

    /// The page and its findings (the verdicts it opens with, for `findings.csv` and the
    /// end of `oplab tournament`), from one reading of the folder.
    /// `counted`: the rows as the run that wrote them counted them (``MatchesCounter``),
    /// taken when they are the whole file, which is then not read again.
    public static func page(directory: String, drawings: [any BoardCountDrawing] = [], snapshot: ReportSnapshot? = nil,
                            documentedCPU: String? = nil, counted: MatchesCounter? = nil) throws(InputError) -> (html: String, findings: [Finding]) {
        let folder = try ResultsFolder(path: directory, drawings: drawings, snapshot: snapshot, counted: counted)
        let findings = Findings.of(folder, documentedCPU: documentedCPU)
        return (ReportPage(folder: folder, findings: findings).html(), findings)
    }

    /// The findings alone (`oplab tournament --no-report`): the folder read without its
    /// board pictures, and no page drawn.
    public static func findings(directory: String, snapshot: ReportSnapshot? = nil,
                                documentedCPU: String? = nil, counted: MatchesCounter? = nil) throws(InputError) -> [Finding] {
        Findings.of(try ResultsFolder(path: directory, drawings: [], snapshot: snapshot, counted: counted), documentedCPU: documentedCPU)
    }
}

/// What the page of an unfinished run is drawn from: its complete blocks so far
/// (`Tournament`'s `TournamentSnapshot`).
public struct ReportSnapshot: Sendable {
    /// The folder holding the snapshot's `summary.csv`, `pairwise.csv`, `ratings.csv`
    /// and board counts.
    public var summaries: String
    /// The bytes of `matches.csv` holding the complete blocks.
    public var matchesLength: Int
    public var blocksDone: Int
    public var blocks: Int

    public init(summaries: String, matchesLength: Int, blocksDone: Int, blocks: Int) {
        self.summaries = summaries
        self.matchesLength = matchesLength
        self.blocksDone = blocksDone
        self.blocks = blocks
    }
}
