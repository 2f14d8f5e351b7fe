import Foundation
import LabCore
import Pictures
import Tournament

/// A results folder as the report reads it: `run.json`, the summary files, the tally of
/// `matches.csv`, and the board files when the game wrote them. Entrants are numbered
/// in config order (`run.json`) everywhere.
struct ResultsFolder {
    struct Summary {
        var entrant: Int
        var matches: Int
        var wins: Int
        var draws: Int
        var losses: Int
        var scoreShare: Double
        /// The score share's and the mean place's 95 % intervals over blocks; nil in a
        /// summary.csv written before they were (its header lacks the columns).
        var scoreShareInterval: (low: Double, high: Double)?
        var winRate: Double
        var winRateLow: Double
        var winRateHigh: Double
        var meanPlace: Double
        var meanPlaceInterval: (low: Double, high: Double)?
        /// Matches the entrant forfeited (an external bot's faults); nil in a summary.csv
        /// written before the column was.
        var forfeits: Int?
    }

    struct Pair {
        var entrant: Int
        var opponent: Int
        var games: Double
        var score: Double
        var scoreLow: Double
        var scoreHigh: Double
        var elo: Double
        var blocks: Int
        /// The Elo difference's 95 % interval; nil in a pairwise.csv without the columns.
        var eloInterval: (low: Double, high: Double)? = nil
    }

    struct Rating {
        var rank: Int
        var entrant: Int
        var rating: Double
        var low: Double
        var high: Double
        var anchor: Bool
    }

    static let summaryColumns = ["entrant", "strategy", "matches", "blocks", "wins", "draws", "losses", "score", "score_share",
                                 "score_share_low", "score_share_high", "win_rate", "win_rate_low", "win_rate_high", "mean_place",
                                 "mean_place_low", "mean_place_high", "rating", "rating_low", "rating_high"]
    static let pairwiseColumns = ["entrant", "opponent", "games", "points", "score", "score_low", "score_high", "elo", "elo_low",
                                  "elo_high", "blocks"]
    static let ratingsColumns = ["rank", "entrant", "strategy", "rating", "rating_low", "rating_high", "pairwise_games", "anchor"]
    /// The files every results folder may hold, in the order the footer lists them, with
    /// what each is; the game's board-count file follows them.
    static let commonFiles: [(name: String, what: String)] = [
        ("run.json", "the resolved config and the run's record"),
        ("summary.csv", "per entrant: results, score share, win rate and mean place with intervals over blocks, rating"),
        ("pairwise.csv", "per pair of entrants: score with its interval, Elo"),
        ("ratings.csv", "entrants by rating"),
        ("matches.csv", "one row per seat per match"),
        ("matches.csv.gz", "one row per seat per match, compact (gzip)"),
    ]

    var path: String
    var run: RunInfo
    var summary: [Summary]
    var pairs: [Pair]
    var ratings: [Rating]
    var matches: ReportTally
    /// Entrant indices, strongest first (ratings.csv order, then config order for any
    /// entrant it lacks).
    var order: [Int]
    /// The game's board section, drawn from its board-count file; nil without a file or
    /// a drawing for the run's game.
    var board: BoardSection?
    /// The files the folder may hold, with what each is (``commonFiles``, then the
    /// game's board-count file).
    var files: [(name: String, what: String)]
    /// The folder's files from ``files`` that exist, with their sizes in bytes.
    var present: [(name: String, bytes: Int)]

    /// Reads the folder at `path`; `drawings` are the games' board pictures, of which the
    /// one for the run's game draws the board section. `counted`: the rows as the run that
    /// just wrote them counted them, taken for the matches file's when they are all of the
    /// file's blocks and matches (`run.json`); otherwise the file is read.
    /// - Throws: when the folder or a required file is missing, or a file is malformed.
    init(path: String, drawings: [any BoardCountDrawing] = [], snapshot: ReportSnapshot? = nil,
         counted: MatchesCounter? = nil) throws(InputError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InputError("\(path): no such folder; give a results folder (`oplab tournament` writes one)")
        }
        guard isFolder.boolValue else { throw InputError("\(path): not a folder; give a results folder (`oplab tournament` writes one)") }
        // An unfinished run's summaries come from its snapshot, in a folder of their own.
        let summaries = snapshot?.summaries ?? path
        // The rows: matches.csv, or compact, matches.csv.gz.
        let matchesFile = try MatchesFormat.present(in: path)?.fileName ?? "matches.csv"
        for required in ["run.json", "summary.csv", "pairwise.csv", "ratings.csv", matchesFile] {
            let folder = ["run.json", matchesFile].contains(required) ? path : summaries
            guard FileManager.default.fileExists(atPath: folder + "/" + required) else {
                throw InputError("\(path) is not a results folder: no \(required) (`oplab tournament` writes run.json, summary.csv, pairwise.csv, ratings.csv and matches.csv)")
            }
        }
        self.path = path
        var run = try RunInfo.read(directory: path)
        summary = try Self.readSummary(summaries + "/summary.csv", run: run)
        pairs = try Self.readPairwise(summaries + "/pairwise.csv", run: run)
        ratings = try Self.readRatings(summaries + "/ratings.csv", run: run)
        let matches: ReportTally
        if snapshot == nil, let tally = counted?.counted, tally.blocks == run.blocksDone,
           tally.rows == run.matchesDone * run.seats, tally.results.count == run.entrants.count, tally.seats == run.seats {
            matches = tally
        } else {
            matches = try ReportTally.read(path + "/" + matchesFile, entrants: run.entrants.map(\.name), seats: run.seats,
                                           limit: snapshot?.matchesLength)
        }
        self.matches = matches
        if snapshot == nil { try Self.checkRows(matches, of: run, in: path, file: matchesFile) }
        if let snapshot {
            run.inProgress = (snapshot.blocksDone, snapshot.blocks)
            run.blocksDone = snapshot.blocksDone
            run.matchesDone = matches.rows / max(1, run.seats)
        }
        self.run = run
        let rated = ratings.sorted { ($0.rating, -$0.rank) > ($1.rating, -$1.rank) }.map(\.entrant)
        var seen = Set<Int>()
        let order = (rated + Array(run.entrants.indices)).filter { seen.insert($0).inserted }
        self.order = order
        var files = Self.commonFiles
        var board: BoardSection?
        if let drawing = drawings.first(where: { [run] in $0.game == run.game }) {
            files.append((drawing.file, drawing.describes))
            let boardPath = summaries + "/" + drawing.file
            if FileManager.default.fileExists(atPath: boardPath) {
                board = try drawing.section(try Self.readBoardCounts(boardPath, columns: drawing.columns, run: run, order: order))
            }
        }
        self.files = files
        self.board = board
        present = files.compactMap { file in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + file.name) else { return nil }
            return (file.name, (attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// Refuses rows that disagree with `run.json` of a run that says it has ended
    /// (complete, or stopped by its test): a torn last line or gzip member, or other than
    /// its blocks and matches. A run still playing (or killed) ends in what it was writing,
    /// and is drawn from its complete blocks (``ReportSnapshot``).
    /// - Throws: saying what disagrees and what repairs it: `--resume` plays again the
    ///   blocks missing at the end; for blocks missing before the last, `--force` plays the
    ///   run again.
    static func checkRows(_ tally: ReportTally, of run: RunInfo, in path: String, file: String) throws(InputError) {
        guard run.status == "complete" || run.status == "stopped" else { return }
        let rows = path + "/" + file, record = path + "/" + RunRecord.fileName
        let says = "\(record) says the run is \(run.status) with \(Charts.grouped(run.blocksDone)) of \(Charts.grouped(run.blocks)) blocks"
        let resume = "`oplab tournament CONFIG --out \(path) --resume` (with the run's config)"
        let force = "`oplab tournament CONFIG --out \(path) --force` (with the run's config)"
        if tally.tornBytes > 0 || tally.tornMember != nil {
            let torn = tally.tornMember ?? "a torn line (\(tally.tornBytes) bytes after its last newline)"
            throw InputError("\(rows) ends in \(torn), but \(says): the files disagree; \(resume) drops it and plays its blocks again")
        }
        let matches = tally.rows / max(1, run.seats)
        guard tally.blocks != run.blocksDone || matches != run.matchesDone || tally.rows % max(1, run.seats) != 0 else { return }
        func count(_ n: Int, _ one: String, _ many: String) -> String { "\(Charts.grouped(n)) \(n == 1 ? one : many)" }
        let holds = "\(rows) holds \(count(tally.blocks, "block", "blocks")) (\(count(matches, "match", "matches"))), but \(says) "
            + "(\(Charts.grouped(run.matchesDone)) matches): the files disagree"
        // Blocks missing at the end only: the blocks there are the run's (or its shard's) first.
        let shard = (try? Shard.parse(run.shard ?? "1/1", environment: [:])) ?? .whole
        let first = shard.index - 1, stride = shard.count
        let prefix = tally.blocksInOrder && tally.blocks <= run.blocksDone && matches < run.matchesDone
            && (tally.blocks == 0 || (tally.firstBlock == first && tally.lastBlock == first + (tally.blocks - 1) * stride))
        if prefix {
            throw InputError(holds + "; the blocks there are the first \(Charts.grouped(tally.blocks)), and \(resume) plays the "
                + "missing ones again")
        }
        throw InputError(holds + " (blocks are missing before the last, or out of place); \(force) plays the run again")
    }

    /// The entrant a row names, by config index.
    private static func entrant(_ row: CSVFile.Row, _ column: CSVFile.Column, run: RunInfo) throws(InputError) -> Int {
        let name = row.text(column)
        guard let index = run.entrantIndex(name) else {
            throw InputError("\(row.path):\(row.line): column '\(column.name)': '\(name)' is not an entrant of this run (\(run.entrants.map(\.name).joined(separator: ", ")))")
        }
        return index
    }

    private static func readSummary(_ path: String, run: RunInfo) throws(InputError) -> [Summary] {
        let table = try CSVFile.read(path, expected: summaryColumns)
        let c = try (entrant: table.column("entrant"), matches: table.column("matches"), wins: table.column("wins"),
                     draws: table.column("draws"), losses: table.column("losses"), share: table.column("score_share"),
                     rate: table.column("win_rate"), low: table.column("win_rate_low"), high: table.column("win_rate_high"),
                     place: table.column("mean_place"))
        // Optional: the intervals of the score share and the mean place.
        func optional(_ low: String, _ high: String) throws(InputError) -> (CSVFile.Column, CSVFile.Column)? {
            table.header.contains(low) && table.header.contains(high) ? (try table.column(low), try table.column(high)) : nil
        }
        let shareColumns = try optional("score_share_low", "score_share_high")
        let placeColumns = try optional("mean_place_low", "mean_place_high")
        let forfeitColumn = table.header.contains("forfeits") ? try table.column("forfeits") : nil
        var rows: [Summary] = []
        for row in table.rows {
            var shareInterval: (low: Double, high: Double)?
            if let (low, high) = shareColumns { shareInterval = (try row.double(low), try row.double(high)) }
            var placeInterval: (low: Double, high: Double)?
            if let (low, high) = placeColumns { placeInterval = (try row.double(low), try row.double(high)) }
            rows.append(Summary(entrant: try entrant(row, c.entrant, run: run), matches: try row.count(c.matches),
                                wins: try row.count(c.wins), draws: try row.count(c.draws), losses: try row.count(c.losses),
                                scoreShare: try row.double(c.share), scoreShareInterval: shareInterval,
                                winRate: try row.double(c.rate), winRateLow: try row.double(c.low),
                                winRateHigh: try row.double(c.high), meanPlace: try row.double(c.place),
                                meanPlaceInterval: placeInterval, forfeits: try forfeitColumn.map { c throws(InputError) in try row.count(c) }))
        }
        return rows
    }

    private static func readPairwise(_ path: String, run: RunInfo) throws(InputError) -> [Pair] {
        let table = try CSVFile.read(path, expected: pairwiseColumns)
        let c = try (entrant: table.column("entrant"), opponent: table.column("opponent"), games: table.column("games"),
                     score: table.column("score"), low: table.column("score_low"), high: table.column("score_high"),
                     elo: table.column("elo"), blocks: table.column("blocks"))
        let eloColumns = (low: try? table.column("elo_low"), high: try? table.column("elo_high"))
        var rows: [Pair] = []
        for row in table.rows {
            var pair = Pair(entrant: try entrant(row, c.entrant, run: run), opponent: try entrant(row, c.opponent, run: run),
                            games: try row.double(c.games), score: try row.double(c.score), scoreLow: try row.double(c.low),
                            scoreHigh: try row.double(c.high), elo: try row.double(c.elo), blocks: try row.count(c.blocks))
            if let low = eloColumns.low, let high = eloColumns.high {
                pair.eloInterval = (try row.double(low), try row.double(high))
            }
            guard pair.games >= 0, pair.games <= Double(Schedule.maxMatches) else {
                throw InputError("\(path):\(row.line): column 'games': \(row.text(c.games)) is out of range; expected a number of games "
                    + "in 0...\(Schedule.maxMatches)")
            }
            guard pair.entrant != pair.opponent else {
                throw InputError("\(path):\(row.line): column 'opponent': an entrant paired with itself")
            }
            rows.append(pair)
        }
        return rows
    }

    private static func readRatings(_ path: String, run: RunInfo) throws(InputError) -> [Rating] {
        let table = try CSVFile.read(path, expected: ratingsColumns)
        let c = try (rank: table.column("rank"), entrant: table.column("entrant"), rating: table.column("rating"),
                     low: table.column("rating_low"), high: table.column("rating_high"), anchor: table.column("anchor"))
        var rows: [Rating] = []
        for row in table.rows {
            let anchor = row.text(c.anchor)
            guard anchor == "yes" || anchor == "no" else {
                throw InputError("\(path):\(row.line): column 'anchor': '\(anchor)' is not yes or no")
            }
            rows.append(Rating(rank: try row.int(c.rank), entrant: try entrant(row, c.entrant, run: run),
                               rating: try row.double(c.rating), low: try row.double(c.low), high: try row.double(c.high),
                               anchor: anchor == "yes"))
        }
        return rows
    }

    /// A board-count file (``BoardCountFile``): element columns, `entrant`, counts.
    /// Elements are numbered by the first column without gaps; an element's fields are
    /// the same on each of its rows; counts add up over rows of one element and entrant.
    private static func readBoardCounts(_ path: String, columns: [String], run: RunInfo,
                                        order: [Int]) throws(InputError) -> BoardCountFile {
        let table = try CSVFile.read(path, expected: columns)
        guard let split = columns.firstIndex(of: "entrant"), split > 0 else {
            preconditionFailure("a board-count file's columns are the element's, entrant, then the counts")
        }
        let elementColumns = try columns[..<split].map { name throws(InputError) in try table.column(name) }
        let countColumns = try columns[(split + 1)...].map { name throws(InputError) in try table.column(name) }
        let entrantColumn = try table.column("entrant")
        let element = elementColumns[0]
        var fields: [Int: (fields: [String], line: Int)] = [:]
        var counts: [Int: [[Int]]] = [:]
        let zero = Array(repeating: Array(repeating: 0, count: run.entrants.count), count: countColumns.count)
        for row in table.rows {
            let index = try row.count(element)
            let described = elementColumns.map(row.text)
            if let known = fields[index] {
                if let c = elementColumns.indices.first(where: { known.fields[$0] != described[$0] }) {
                    throw InputError("\(path):\(row.line): column '\(elementColumns[c].name)': \(element.name) \(index) has "
                        + "'\(described[c])' here and '\(known.fields[c])' on line \(known.line)")
                }
            } else {
                fields[index] = (described, row.line)
            }
            let e = try entrant(row, entrantColumn, run: run)
            for (c, column) in countColumns.enumerated() {
                counts[index, default: zero][c][e] += try row.count(column)
            }
        }
        guard fields.keys.sorted() == Array(0..<fields.count) else {
            let missing = (0..<(fields.keys.max() ?? 0)).first { fields[$0] == nil } ?? 0
            throw InputError("\(path): column '\(element.name)': no row for \(element.name) \(missing); \(element.name)s are numbered "
                + "0...\(fields.count - 1) without gaps")
        }
        let elements = (0..<fields.count).map { fields[$0]! }
        return BoardCountFile(path: path, title: run.map ?? run.name, elementColumns: elementColumns.map(\.name),
                               elements: elements.map(\.fields), lines: elements.map(\.line), countColumns: countColumns.map(\.name),
                               counts: countColumns.indices.map { c in (0..<fields.count).map { counts[$0]![c] } },
                               entrants: run.entrants.map(\.name), order: order)
    }
}
