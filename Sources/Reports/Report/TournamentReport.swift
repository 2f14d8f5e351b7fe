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
    public static func html(directory: String, drawings: [any BoardCountDrawing] = []) throws(InputError) -> String {
        let folder = try ResultsFolder(path: directory, drawings: drawings)
        return ReportPage(folder: folder).html()
    }
}
