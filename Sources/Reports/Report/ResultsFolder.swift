import Foundation
import LabCore

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
    }

    struct Rating {
        var rank: Int
        var entrant: Int
        var rating: Double
        var low: Double
        var high: Double
        var anchor: Bool
    }

    /// `railroads.csv`: the map and, per railroad and entrant, the matches it was built in.
    struct RailroadUse {
        var map: RailMapPicture
        /// `[railroad][entrant]`.
        var built: [[Int]]
    }

    /// `cells.csv`: the board and, per cell and entrant, tiles placed and winning flows.
    struct CellUse {
        var board: HexBoardPicture
        /// `[cell][entrant]`.
        var placed: [[Int]]
        var winningFlow: [[Int]]
    }

    static let summaryColumns = ["entrant", "strategy", "matches", "blocks", "wins", "draws", "losses", "score", "score_share",
                                 "score_share_low", "score_share_high", "win_rate", "win_rate_low", "win_rate_high", "mean_place",
                                 "mean_place_low", "mean_place_high", "rating", "rating_low", "rating_high"]
    static let pairwiseColumns = ["entrant", "opponent", "games", "points", "score", "score_low", "score_high", "elo", "elo_low",
                                  "elo_high", "blocks"]
    static let ratingsColumns = ["rank", "entrant", "strategy", "rating", "rating_low", "rating_high", "pairwise_games", "anchor"]
    static let railroadColumns = ["railroad", "from", "to", "length", "colour", "lane", "from_latitude", "from_longitude",
                                  "to_latitude", "to_longitude", "entrant", "built"]
    static let cellColumns = ["cell", "row", "col", "entrant", "placed", "winning_flow"]

    /// The files a results folder may hold, in the order the footer lists them, with what
    /// each is.
    static let files: [(name: String, what: String)] = [
        ("run.json", "the resolved config and the run's record"),
        ("summary.csv", "per entrant: results, score share, win rate and mean place with intervals over blocks, rating"),
        ("pairwise.csv", "per pair of entrants: score with its interval, Elo"),
        ("ratings.csv", "entrants by rating"),
        ("matches.csv", "one row per seat per match"),
        ("railroads.csv", "per railroad and entrant: matches it was built in"),
        ("cells.csv", "per cell and entrant: tiles placed, winning flows"),
    ]

    var path: String
    var run: RunInfo
    var summary: [Summary]
    var pairs: [Pair]
    var ratings: [Rating]
    var matches: MatchTally
    var railroads: RailroadUse?
    var cells: CellUse?
    /// The folder's files from ``files`` that exist, with their sizes in bytes.
    var present: [(name: String, bytes: Int)]

    /// Reads the folder at `path`.
    /// - Throws: when the folder or a required file is missing, or a file is malformed.
    init(path: String) throws(InputError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw InputError("\(path): no such folder; give a results folder (`oplab tournament` writes one)")
        }
        guard isFolder.boolValue else { throw InputError("\(path): not a folder; give a results folder (`oplab tournament` writes one)") }
        for required in ["run.json", "summary.csv", "pairwise.csv", "ratings.csv", "matches.csv"] {
            guard FileManager.default.fileExists(atPath: path + "/" + required) else {
                throw InputError("\(path) is not a results folder: no \(required) (`oplab tournament` writes run.json, summary.csv, pairwise.csv, ratings.csv and matches.csv)")
            }
        }
        self.path = path
        run = try RunInfo.read(directory: path)
        summary = try Self.readSummary(path + "/summary.csv", run: run)
        pairs = try Self.readPairwise(path + "/pairwise.csv", run: run)
        ratings = try Self.readRatings(path + "/ratings.csv", run: run)
        matches = try MatchTally.read(path + "/matches.csv", entrants: run.entrants.map(\.name), seats: run.seats)
        let railroadPath = path + "/railroads.csv"
        railroads = FileManager.default.fileExists(atPath: railroadPath) ? try Self.readRailroads(railroadPath, run: run) : nil
        let cellPath = path + "/cells.csv"
        cells = FileManager.default.fileExists(atPath: cellPath) ? try Self.readCells(cellPath, run: run) : nil
        present = Self.files.compactMap { file in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + file.name) else { return nil }
            return (file.name, (attributes[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// The entrant a row names, by config index.
    private static func entrant(_ row: CSVTable.Row, _ column: CSVTable.Column, run: RunInfo) throws(InputError) -> Int {
        let name = row.text(column)
        guard let index = run.entrantIndex(name) else {
            throw InputError("\(row.path):\(row.line): column '\(column.name)': '\(name)' is not an entrant of this run (\(run.entrants.map(\.name).joined(separator: ", ")))")
        }
        return index
    }

    private static func readSummary(_ path: String, run: RunInfo) throws(InputError) -> [Summary] {
        let table = try CSVTable.read(path, expected: summaryColumns)
        let c = try (entrant: table.column("entrant"), matches: table.column("matches"), wins: table.column("wins"),
                     draws: table.column("draws"), losses: table.column("losses"), share: table.column("score_share"),
                     rate: table.column("win_rate"), low: table.column("win_rate_low"), high: table.column("win_rate_high"),
                     place: table.column("mean_place"))
        // Optional: the intervals of the score share and the mean place.
        func optional(_ low: String, _ high: String) throws(InputError) -> (CSVTable.Column, CSVTable.Column)? {
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
        let table = try CSVTable.read(path, expected: pairwiseColumns)
        let c = try (entrant: table.column("entrant"), opponent: table.column("opponent"), games: table.column("games"),
                     score: table.column("score"), low: table.column("score_low"), high: table.column("score_high"),
                     elo: table.column("elo"), blocks: table.column("blocks"))
        var rows: [Pair] = []
        for row in table.rows {
            let pair = Pair(entrant: try entrant(row, c.entrant, run: run), opponent: try entrant(row, c.opponent, run: run),
                            games: try row.double(c.games), score: try row.double(c.score), scoreLow: try row.double(c.low),
                            scoreHigh: try row.double(c.high), elo: try row.double(c.elo), blocks: try row.count(c.blocks))
            guard pair.entrant != pair.opponent else {
                throw InputError("\(path):\(row.line): column 'opponent': an entrant paired with itself")
            }
            rows.append(pair)
        }
        return rows
    }

    private static func readRatings(_ path: String, run: RunInfo) throws(InputError) -> [Rating] {
        let table = try CSVTable.read(path, expected: ratingsColumns)
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

    /// The map from `railroads.csv`: cities are the distinct endpoints in order of first
    /// appearance (railroads in index order), at the coordinates the file gives.
    private static func readRailroads(_ path: String, run: RunInfo) throws(InputError) -> RailroadUse {
        let table = try CSVTable.read(path, expected: railroadColumns)
        let c = try (railroad: table.column("railroad"), from: table.column("from"), to: table.column("to"),
                     length: table.column("length"), colour: table.column("colour"), lane: table.column("lane"),
                     fromLatitude: table.column("from_latitude"), fromLongitude: table.column("from_longitude"),
                     toLatitude: table.column("to_latitude"), toLongitude: table.column("to_longitude"),
                     entrant: table.column("entrant"), built: table.column("built"))
        struct Line { var from: RailMapPicture.City; var to: RailMapPicture.City; var length: Int; var colour: String; var lane: Int }
        var lines: [Int: Line] = [:]
        var built: [Int: [Int]] = [:]
        for row in table.rows {
            let index = try row.count(c.railroad)
            let line = Line(
                from: .init(name: row.text(c.from), latitude: try row.double(c.fromLatitude), longitude: try row.double(c.fromLongitude)),
                to: .init(name: row.text(c.to), latitude: try row.double(c.toLatitude), longitude: try row.double(c.toLongitude)),
                length: try row.count(c.length), colour: row.text(c.colour), lane: try row.count(c.lane))
            if lines[index] == nil { lines[index] = line }
            built[index, default: Array(repeating: 0, count: run.entrants.count)][try entrant(row, c.entrant, run: run)] += try row.count(c.built)
        }
        guard lines.keys.sorted() == Array(0..<lines.count) else {
            let missing = (0..<(lines.keys.max() ?? 0)).first { lines[$0] == nil } ?? 0
            throw InputError("\(path): column 'railroad': no row for railroad \(missing); railroads are numbered 0...\(lines.count - 1) without gaps")
        }
        var cities: [RailMapPicture.City] = []
        var cityIndex: [String: Int] = [:]
        func city(_ c: RailMapPicture.City) -> Int {
            if let known = cityIndex[c.name] { return known }
            cities.append(c)
            cityIndex[c.name] = cities.count - 1
            return cities.count - 1
        }
        var railroads: [RailMapPicture.Railroad] = []
        for index in 0..<lines.count {
            let line = lines[index]!
            railroads.append(.init(from: city(line.from), to: city(line.to), length: line.length, colour: line.colour, lane: line.lane))
        }
        let map = RailMapPicture(name: run.map ?? run.name, cities: cities, railroads: railroads)
        return RailroadUse(map: map, built: (0..<lines.count).map { built[$0]! })
    }

    /// The board from `cells.csv`: cells by their `cell` index, radius the largest
    /// distance from the centre, no ports.
    private static func readCells(_ path: String, run: RunInfo) throws(InputError) -> CellUse {
        let table = try CSVTable.read(path, expected: cellColumns)
        let c = try (cell: table.column("cell"), row: table.column("row"), col: table.column("col"), entrant: table.column("entrant"),
                     placed: table.column("placed"), flow: table.column("winning_flow"))
        var cells: [Int: HexBoardPicture.Cell] = [:]
        var placed: [Int: [Int]] = [:]
        var flow: [Int: [Int]] = [:]
        let zero = Array(repeating: 0, count: run.entrants.count)
        for row in table.rows {
            let index = try row.count(c.cell)
            let cell = HexBoardPicture.Cell(row: try row.int(c.row), col: try row.int(c.col))
            if let known = cells[index], known != cell {
                throw InputError("\(path):\(row.line): column 'row': cell \(index) is at (\(known.row), \(known.col)) on an earlier line")
            }
            cells[index] = cell
            let e = try entrant(row, c.entrant, run: run)
            placed[index, default: zero][e] += try row.count(c.placed)
            flow[index, default: zero][e] += try row.count(c.flow)
        }
        guard cells.keys.sorted() == Array(0..<cells.count) else {
            let missing = (0..<(cells.keys.max() ?? 0)).first { cells[$0] == nil } ?? 0
            throw InputError("\(path): column 'cell': no row for cell \(missing); cells are numbered 0...\(cells.count - 1) without gaps")
        }
        let ordered = (0..<cells.count).map { cells[$0]! }
        let radius = ordered.map { max(abs($0.row), abs($0.col), abs($0.row + $0.col)) }.max() ?? 0
        return CellUse(board: HexBoardPicture(radius: radius, cells: ordered, ports: []),
                       placed: (0..<cells.count).map { placed[$0]! }, winningFlow: (0..<cells.count).map { flow[$0]! })
    }
}
