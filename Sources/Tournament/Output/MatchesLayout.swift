import Foundation
import LabCore

/// The layout of `matches.csv`: one row per seat per match, rows of a block together,
/// blocks in increasing order. Nothing in it depends on the clock, the thread count,
/// the shard split or the resume point.
struct MatchesLayout: Sendable {
    /// `forfeit`: on the row of the seat that forfeited the match, why (`timeout`,
    /// `crash`, `illegal`, `malformed`); empty on every other row.
    static let fixedColumns = ["run", "block", "match", "table", "seat", "entrant", "strategy", "seed", "place", "outcome",
                               "end_reason", "turns", "forfeit"]
    let plan: TournamentPlan
    /// `run,` as CSV bytes.
    private let runPrefix: [UInt8]
    /// Per entrant, `entrant,strategy,` as CSV bytes.
    private let entrantFields: [[UInt8]]

    init(plan: TournamentPlan) {
        self.plan = plan
        runPrefix = Array((CSV.quote(plan.config.name) + ",").utf8)
        entrantFields = plan.config.entrants.map { Array((CSV.quote($0.name) + "," + CSV.quote($0.strategy) + ",").utf8) }
    }

    var header: [String] { Self.fixedColumns + plan.columns + (plan.boardCounts?.counts.map(\.column) ?? []) }
    var headerLine: String { CSV.line(header) }
    /// Rows a complete block has: one per seat of each rotation.
    var rowsPerBlock: Int { plan.schedule.seats * plan.schedule.matchesPerBlock }

    /// A played block: its rows as CSV bytes, and as the statistics read them; and
    /// the time of each decision by entrant (for run.json only, never the CSV).
    struct BlockRows: Sendable {
        var bytes: [UInt8]
        var rows: [MatchRow]
        /// Per match, in order, its end reason (the rows' `end_reason`).
        var reasons: [String]
        var decisions: DecisionSamples
    }

    /// Plays block `block`.
    /// - Complexity: the block's matches, plus O(row length) per row written straight
    ///   as bytes (no per-field strings).
    func playBlock(_ block: Int, master: UInt64, seatings: [[any SeatedTable]], buffer: inout ActionBuffer) -> BlockRows {
        let schedule = plan.schedule
        let table = schedule.table(ofBlock: block)
        let deal = Schedule.dealSeed(master: master, block: block)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(rowsPerBlock * 128)
        var rows: [MatchRow] = []
        rows.reserveCapacity(rowsPerBlock)
        var reasons: [String] = []
        reasons.reserveCapacity(schedule.matchesPerBlock)
        let timer = DecisionTimer(phase: block)
        var decisions = DecisionSamples(entrants: plan.config.entrants.count)
        for rotation in 0..<schedule.matchesPerBlock {
            // Common random numbers: every rotation gives seat s the same strategy stream
            // (and the same deal), so two players that choose alike play mirrored matches and
            // their block splits evenly; only a difference in play moves the block's score.
            timer.removeAll()
            let match = schedule.matchIndex(block: block, rotation: rotation)
            let record = seatings[table][rotation].play(dealSeed: deal, strategySeed: deal, match: match, buffer: &buffer, timer: timer)
            let seating = schedule.seating(table: table, rotation: rotation)
            decisions.add(timer, entrantOfSeat: seating)
            precondition(record.seatsWithFields == schedule.seats, "a table's record has figures for \(record.seatsWithFields) of \(schedule.seats) seats")
            let outcome = record.outcome
            reasons.append(outcome.endReason)
            for seat in 0..<schedule.seats {
                let result = outcome.result(of: seat)
                bytes += runPrefix
                CSV.append(block, to: &bytes)
                CSV.append(match, to: &bytes)
                CSV.append(table, to: &bytes)
                CSV.append(seat, to: &bytes)
                bytes += entrantFields[seating[seat]]
                CSV.append(deal, to: &bytes)
                CSV.append(outcome.places[seat], to: &bytes)
                CSV.append(result.rawValue, to: &bytes)
                CSV.append(outcome.endReason, to: &bytes)
                let marks = record.marks.isEmpty ? [] : record.marks[seat]
                precondition(marks.count == (plan.boardCounts?.counts.count ?? 0), "a seat's marks do not match the board counts")
                CSV.append(outcome.turns, to: &bytes)
                let forfeit = outcome.forfeit.flatMap { $0.seat == seat ? $0.kind : nil }
                let fields = record.fields(ofSeat: seat)
                CSV.append(forfeit?.rawValue ?? "", to: &bytes, last: fields.isEmpty && marks.isEmpty)
                if !fields.isEmpty {
                    // The game's figures, as the table wrote them: each field ends in a comma,
                    // the row's last in its newline.
                    bytes += fields
                    if marks.isEmpty { bytes[bytes.count &- 1] = 0x0A }
                }
                if let spec = plan.boardCounts {
                    for (k, set) in marks.enumerated() { spec.appendHex(set, to: &bytes, last: k == marks.count - 1) }
                }
                rows.append(MatchRow(block: block, match: match, table: table, seat: seat, entrant: seating[seat],
                                     place: outcome.places[seat], result: result, turns: outcome.turns, marks: marks, forfeit: forfeit))
            }
        }
        return BlockRows(bytes: bytes, rows: rows, reasons: reasons, decisions: decisions)
    }
}

/// One row of `matches.csv`, as the statistics read it (and a ``RowsObserver`` sees it).
public struct MatchRow: Sendable {
    public internal(set) var block: Int
    public internal(set) var match: Int
    public internal(set) var table: Int
    public internal(set) var seat: Int
    /// The entrant's index in the config.
    public internal(set) var entrant: Int
    public internal(set) var place: Int
    public internal(set) var result: SeatResult
    public internal(set) var turns: Int
    /// Per board count of the plan, the elements this seat marked (bit i: element i;
    /// empty without board counts).
    public internal(set) var marks: [UInt128] = []
    /// Why this seat forfeited the match, if it did.
    public internal(set) var forfeit: ForfeitKind?

    /// Calls `body` with each row of `rows` (whole matches, `seats` rows each, in order)
    /// and its match score: 1 for a sole first place, 1/k for a first place shared by k
    /// seats, 0 otherwise (statistics.md), as the summaries count it.
    static func scores(_ rows: [MatchRow], seats: Int, _ body: (_ row: MatchRow, _ score: Double) -> Void) {
        for start in stride(from: 0, to: rows.count, by: seats) {
            let match = rows[start..<(start + seats)]
            let firsts = match.count { $0.place == 1 }
            for row in match { body(row, row.place == 1 ? 1 / Double(firsts) : 0) }
        }
    }
}

/// Reads `matches.csv` (or the rows of `matches.csv.gz`) block by block in fixed-size
/// chunks (memory does not grow with the file), checking every row against the plan's
/// schedule.
final class MatchesReader {
    let path: String
    let layout: MatchesLayout
    private let entrantIndex: [String: Int]
    /// The file's rows as bytes; offsets and lengths here count them (decompressed).
    let source: MatchesSource
    private let expected: ShardBlocks?
    private let keepsText: Bool
    private var pending = Data()
    /// Index in `pending` of the first unread byte.
    private var cursor = 0
    /// File offset of the first unread byte.
    private var offset = 0
    private var lineNumber = 0
    private var atEnd = false
    private var nextExpected = 0
    /// Byte length of the header and the complete blocks read so far.
    private(set) var validLength = 0
    /// Complete blocks read so far.
    private(set) var blocksRead = 0

    /// Opens the file (compact when its name ends in `.gz`) and checks its header.
    /// - Parameters:
    ///   - blocks: the blocks expected, in order (a shard's blocks, or all); a block out
    ///     of this order is an error, not a tail.
    ///   - acceptsCorruptTail: compact: end at a member zlib refuses instead of throwing
    ///     (``MatchesSource``).
    ///   - keepsText: keep each block's raw text for ``nextBlock()`` (a merge copies it);
    ///     without, the text is empty and reading is faster.
    init(path: String, layout: MatchesLayout, expecting blocks: ShardBlocks? = nil,
         acceptsCorruptTail: Bool = false, keepsText: Bool = false) throws(InputError) {
        self.keepsText = keepsText
        self.path = path
        self.layout = layout
        expected = blocks
        var index: [String: Int] = [:]
        for (i, entrant) in layout.plan.config.entrants.enumerated() { index[entrant.name] = i }
        entrantIndex = index
        source = try MatchesSource(path: path, acceptsCorruptTail: acceptsCorruptTail)
        guard let header = try nextLine() else {
            throw InputError("\(path): empty or without a complete header line; expected \(layout.header.joined(separator: ","))")
        }
        guard CSV.fields(header.text) == layout.header else {
            throw InputError("\(path):1: the header differs from this run's columns (\(layout.header.joined(separator: ","))): not this run's file")
        }
        validLength = header.end
    }

    /// Bytes after the last complete block: a torn line or an unfinished block.
    var tailLength: Int { offset + (pending.endIndex - cursor) - validLength }

    /// The next complete block: its number, rows and raw text (with newlines; empty unless
    /// the reader keeps text); nil at the end of the file, leaving any torn tail unread.
    /// - Throws: when a complete line is malformed or out of place.
    func nextBlock() throws(InputError) -> (block: Int, rows: [MatchRow], text: Substring)? {
        var rows: [MatchRow] = []
        var text = ""
        let rowsPerBlock = layout.rowsPerBlock
        while let line = try nextLine() {
            let row = try parse(line.text, number: lineNumber)
            if let first = rows.first, first.block != row.block {
                throw InputError("\(path):\(lineNumber): block \(first.block) has \(rows.count) rows, expected \(rowsPerBlock)")
            }
            if rows.isEmpty, let expected {
                guard nextExpected < expected.count, expected[nextExpected] == row.block else {
                    let wanted = nextExpected < expected.count ? "block \(expected[nextExpected])" : "no more blocks"
                    throw InputError("\(path):\(lineNumber): block \(row.block) where \(wanted) belongs: not this run's or shard's file")
                }
            }
            rows.append(row)
            if keepsText {
                text += line.text
                text += "\n"
            }
            if rows.count == rowsPerBlock {
                try checkBlock(rows, line: lineNumber)
                nextExpected += 1
                blocksRead += 1
                validLength = line.end
                return (row.block, rows, Substring(text))
            }
        }
        return nil
    }

    /// The next newline-terminated line and the file offset just past it; nil when only
    /// a torn line (or nothing) is left.
    private func nextLine() throws(InputError) -> (text: Substring, end: Int)? {
        while true {
            // Locals, so the search pays no exclusivity check per access of the class's state.
            let (bytes, start) = (pending, cursor)
            if let newline = bytes[start...].firstIndex(of: 0x0A) {
                lineNumber += 1
                guard let line = String(data: bytes[start..<newline], encoding: .utf8) else {
                    throw InputError("\(path):\(lineNumber): not UTF-8 text")
                }
                offset += newline + 1 - start
                cursor = newline + 1
                return (Substring(line), offset)
            }
            guard !atEnd else { return nil }
            let chunk = try source.read(upToCount: 1 << 20)
            if chunk.isEmpty {
                atEnd = true
            } else {
                // Keep only the unread part, once per chunk.
                pending = Data(bytes[start...]) + chunk
                cursor = pending.startIndex
            }
        }
    }

    /// Parses and checks one complete row.
    private func parse(_ line: Substring, number: Int) throws(InputError) -> MatchRow {
        // Where, for an error only: built on every row it would cost more than the parse.
        var at: String { "\(path):\(number)" }
        // An unquoted line (every line the lab writes, but for names with commas or quotes)
        // splits at its commas byte by byte; a quoted one goes through the CSV reader.
        let f: [Substring]
        if line.utf8.contains(UInt8(ascii: "\"")) {
            guard let fields = CSV.fields(line) else {
                throw InputError("\(at): expected \(layout.header.count) fields (\(layout.header.joined(separator: ",")))")
            }
            f = fields.map { Substring($0) }
        } else {
            f = line.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { Substring($0) }
        }
        guard f.count == layout.header.count else {
            throw InputError("\(at): expected \(layout.header.count) fields (\(layout.header.joined(separator: ",")))")
        }
        func int(_ i: Int) throws(InputError) -> Int {
            guard let v = Int(f[i]), v >= 0 else { throw InputError("\(at): column \(layout.header[i]): '\(f[i])' is not a count") }
            return v
        }
        guard f[0] == layout.plan.config.name else { throw InputError("\(at): run '\(f[0])' is not this run ('\(layout.plan.config.name)')") }
        guard let entrant = entrantIndex[String(f[5])] else { throw InputError("\(at): column entrant: unknown entrant '\(f[5])'") }
        guard let result = SeatResult(rawValue: String(f[9])) else {
            throw InputError("\(at): column outcome: '\(f[9])'; expected win, draw or loss")
        }
        var forfeit: ForfeitKind?
        if !f[12].isEmpty {
            guard let kind = ForfeitKind(rawValue: String(f[12])) else {
                throw InputError("\(at): column forfeit: '\(f[12])'; expected nothing or one of \(ForfeitKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            forfeit = kind
        }
        var marks: [UInt128] = []
        if let spec = layout.plan.boardCounts {
            let first = MatchesLayout.fixedColumns.count + layout.plan.columns.count
            for i in first..<(first + spec.counts.count) {
                guard let set = spec.elementSet(hex: String(f[i])) else {
                    throw InputError("\(at): column \(layout.header[i]): '\(f[i])'; expected \(spec.accepted)")
                }
                marks.append(set)
            }
        }
        return MatchRow(block: try int(1), match: try int(2), table: try int(3), seat: try int(4), entrant: entrant,
                        place: try int(8), result: result, turns: try int(11), marks: marks, forfeit: forfeit)
    }

    /// A complete block must be the block the schedule says, seat by seat.
    private func checkBlock(_ rows: [MatchRow], line: Int) throws(InputError) {
        let schedule = layout.plan.schedule
        let block = rows[0].block
        guard block < schedule.blockCount else {
            throw InputError("\(path):\(line): block \(block) is past this run's \(schedule.blockCount) blocks")
        }
        let table = schedule.table(ofBlock: block)
        for (i, row) in rows.enumerated() {
            let rotation = i / schedule.seats, seat = i % schedule.seats
            guard row.table == table, row.seat == seat, row.match == schedule.matchIndex(block: block, rotation: rotation),
                  row.entrant == schedule.seating(table: table, rotation: rotation)[seat] else {
                throw InputError("\(path):\(line - rows.count + 1 + i): row does not match the schedule of block \(block)")
            }
        }
    }
}
