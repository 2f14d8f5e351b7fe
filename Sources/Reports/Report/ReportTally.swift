import Foundation
import LabCore
import Tournament

/// Counts from `matches.csv` for the seat, length and end-reason charts: per entrant and
/// seat the wins, draws and losses; per entrant how many matches lasted each number of
/// turns; per entrant, end reason and outcome the matches.
///
/// The file can hold millions of rows, so it is read in fixed-size chunks and parsed as
/// bytes: memory is O(chunk + entrants x (seats + turns + reasons)), not O(rows). A line
/// with a quote character goes through `CSV.fields`; every other line is split at its
/// commas, which is the same thing for an unquoted line.
struct ReportTally {
    /// Wins, draws and losses, in that order (`SeatResult` order).
    static let outcomes = ["win", "draw", "loss"]
    static let expected = ["run", "block", "match", "table", "seat", "entrant", "strategy", "seed", "place", "outcome",
                           "end_reason", "turns"]

    let seats: Int
    /// `[entrant][seat][outcome]`: rows.
    var results: [[[Int]]]
    /// `[entrant][seat]`: score, 1 a win and 1/k a first place shared by k seats (the
    /// harness's score; a team's partners share their first place).
    var scores: [[Double]]
    /// `[entrant][turns]`: rows (matches the entrant played) that lasted `turns` turns.
    var turns: [[Int]]
    /// End reasons in order of first appearance.
    var reasons: [String] = []
    /// `[entrant][reason][outcome]`: rows.
    var reasonCounts: [[[Int]]]
    var rows = 0
    /// Per seat, each block's mean score of the seat over the block's matches (a block's
    /// matches share their deal, so the block is the unit of the seat's interval).
    var seatBlocks: [Intervals.BlockSums]
    /// Per end reason (``reasons`` order), each block's share of matches ending so.
    var reasonBlocks: [Intervals.BlockSums] = []
    /// Blocks counted into ``seatBlocks``.
    var blocks = 0
    /// The first and the last block number read, and whether each block came after the
    /// one before it (a run writes its blocks in increasing order).
    var firstBlock: Int?
    var lastBlock: Int?
    var blocksInOrder = true
    /// Bytes after the last newline (a torn last line), and for compact rows what ended
    /// them before the end of the file (a torn gzip member); nothing for a whole file.
    var tornBytes = 0
    var tornMember: String?

    init(entrants: Int, seats: Int) {
        self.seats = seats
        results = Array(repeating: Array(repeating: [0, 0, 0], count: seats), count: entrants)
        scores = Array(repeating: Array(repeating: 0, count: seats), count: entrants)
        turns = Array(repeating: [], count: entrants)
        reasonCounts = Array(repeating: [], count: entrants)
        seatBlocks = Array(repeating: Intervals.BlockSums(), count: seats)
    }

    /// The running sums of the block being read: per seat its score, per reason its
    /// matches, and the block's matches.
    struct OpenBlock {
        var number = -1
        var seatScores: [Double] = []
        var reasonMatches: [Int] = []
        var matches = 0
    }

    /// Adds a finished block to ``seatBlocks`` and ``reasonBlocks``.
    mutating func close(_ block: OpenBlock) {
        guard block.matches > 0 else { return }
        let n = Double(block.matches)
        for s in 0..<seats { seatBlocks[s].add(block.seatScores[s] / n) }
        for r in reasonBlocks.indices { reasonBlocks[r].add(Double(r < block.reasonMatches.count ? block.reasonMatches[r] : 0) / n) }
        blocks += 1
    }

    /// A reason's index, added in order of first appearance (no match of the blocks
    /// closed so far ended so).
    mutating func reasonIndex(_ name: String) -> Int {
        if let known = reasons.firstIndex(of: name) { return known }
        reasons.append(name)
        reasonBlocks.append(Intervals.BlockSums(count: blocks, sum: 0, squares: 0))
        return reasons.count - 1
    }

    /// Counts rows in the file's order, a match's rows together and seats in order: the
    /// file's reader and a run's own rows (``MatchesCounter``) count through it alike.
    struct Counting {
        var tally: ReportTally
        /// The rows of the match being counted, (entrant, seat, outcome): its first
        /// places are known at its last row.
        var match: [(entrant: Int, seat: Int, outcome: Int)] = []
        /// The block whose matches are being counted.
        var open = OpenBlock()

        init(entrants: Int, seats: Int) { tally = ReportTally(entrants: entrants, seats: seats) }

        /// Counts one row; false (nothing counted) when `seat` is not the next seat of
        /// the match being counted.
        mutating func add(entrant e: Int, seat s: Int, outcome o: Int, reason r: Int, turns t: Int, block b: Int) -> Bool {
            guard s == match.count else { return false }
            tally.add(entrant: e, seat: s, outcome: o, reason: r, turns: t)
            match.append((e, s, o))
            guard match.count == tally.seats else { return true }
            if b != open.number {
                if let last = tally.lastBlock, b < last { tally.blocksInOrder = false }
                if tally.firstBlock == nil { tally.firstBlock = b }
                tally.lastBlock = b
                tally.close(open)
                // The arrays kept: a new block's were made afresh for every block.
                open.number = b
                for k in open.seatScores.indices { open.seatScores[k] = 0 }
                if open.seatScores.isEmpty { open.seatScores = Array(repeating: 0, count: tally.seats) }
                for k in open.reasonMatches.indices { open.reasonMatches[k] = 0 }
                open.matches = 0
            }
            let firsts = match.count { $0.outcome != 2 }
            for row in match where row.outcome != 2 {
                tally.scores[row.entrant][row.seat] += 1 / Double(firsts)
                open.seatScores[row.seat] += 1 / Double(firsts)
            }
            while open.reasonMatches.count <= r { open.reasonMatches.append(0) }
            open.reasonMatches[r] += 1
            open.matches += 1
            match.removeAll(keepingCapacity: true)
            return true
        }

        /// The tally with the last block closed.
        func finished() -> ReportTally {
            var tally = tally
            tally.close(open)
            return tally
        }
    }

    /// Reads `path` (its first `limit` bytes when given: the complete blocks of a run
    /// still being written): every complete line (a torn last line without its newline,
    /// as a run being written may leave, is not counted).
    /// - Complexity: O(bytes), one pass.
    /// - Throws: naming the file and, for a bad row, the line and the column.
    static func read(_ path: String, entrants: [String], seats: Int, limit: Int? = nil) throws(InputError) -> ReportTally {
        // matches.csv, or the rows of matches.csv.gz.
        let source = try MatchesSource(path: path)
        var parser = Parser(path: path, entrants: entrants, counting: Counting(entrants: entrants.count, seats: seats))
        var buffer: [UInt8] = []
        var left = limit ?? Int.max
        while left > 0 {
            let chunk = try source.read(upToCount: min(1 << 22, left))
            if chunk.isEmpty { break }
            left -= chunk.count
            buffer.append(contentsOf: chunk)
            let used = try buffer.withUnsafeBufferPointer { bytes throws(InputError) in try parser.consume(bytes) }
            buffer.removeFirst(used)
        }
        guard parser.header != nil else {
            throw InputError("\(path): empty, without a header line; expected the columns \(expected.joined(separator: ","))")
        }
        var tally = parser.counting.finished()
        tally.tornBytes = buffer.count
        tally.tornMember = source.tornMember
        return tally
    }

    /// Counts one row; the per-entrant arrays grow to the longest match and the reasons seen.
    fileprivate mutating func add(entrant: Int, seat: Int, outcome: Int, reason: Int, turns length: Int) {
        rows += 1
        results[entrant][seat][outcome] += 1
        if turns[entrant].count <= length { turns[entrant] += Array(repeating: 0, count: length + 1 - turns[entrant].count) }
        turns[entrant][length] += 1
        while reasonCounts[entrant].count <= reason { reasonCounts[entrant].append([0, 0, 0]) }
        reasonCounts[entrant][reason][outcome] += 1
    }
}

/// The line-by-line state of reading `matches.csv`.
private struct Parser {
    let path: String
    /// Entrant names as bytes, in config order.
    let names: [[UInt8]]
    /// The counts so far (a match's rows come together, seats 0...S-1 in order).
    var counting: ReportTally.Counting
    var seats: Int { counting.tally.seats }
    var line = 0
    var header: [String]?
    /// Field count and the indices of seat, entrant, outcome, end_reason, turns.
    var width = 0
    var wanted: [Int] = []
    /// For each field of a row, which of the wanted columns it is (an index into
    /// `wanted`), or -1.
    var slots: [Int] = []
    /// The end reasons seen, as bytes, in the tally's order.
    var reasonBytes: [[UInt8]] = []

    init(path: String, entrants: [String], counting: ReportTally.Counting) {
        self.path = path
        names = entrants.map { Array($0.utf8) }
        self.counting = counting
    }

    static let columns = ["seat", "entrant", "outcome", "end_reason", "turns", "block"]

    /// Parses every complete line in `bytes`.
    /// - Returns: the bytes used (up to and including the last newline).
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) throws(InputError) -> Int {
        var start = 0
        while let newline = Self.index(of: 0x0A, in: bytes, from: start) {
            var end = newline
            if end > start && bytes[end - 1] == 0x0D { end -= 1 }
            line += 1
            if end > start { try parse(UnsafeBufferPointer(rebasing: bytes[start..<end])) }
            start = newline + 1
        }
        return start
    }

    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
              let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    private mutating func parse(_ text: UnsafeBufferPointer<UInt8>) throws(InputError) {
        guard header != nil else {
            try readHeader(String(decoding: text, as: UTF8.self))
            return
        }
        if Self.index(of: UInt8(ascii: "\""), in: text, from: 0) != nil {
            // Quoted fields: the general reader.
            guard let fields = CSV.fields(Substring(String(decoding: text, as: UTF8.self))) else {
                throw InputError("\(path):\(line): a quoted field is not closed")
            }
            guard fields.count == width else { throw wrongWidth(fields.count) }
            let values = wanted.map { Array(fields[$0].utf8) }
            try add(seat: values[0], entrant: values[1], outcome: values[2], reason: values[3], turns: values[4], block: values[5])
            return
        }
        // Field start and end per wanted column. The commas are found eight bytes at a time
        // (a word's comma bytes marked by bit tricks, then walked), where a memchr a field
        // cost about 40 instructions each, and a byte-by-byte scan 25 a byte.
        var ranges = InlineArray<6, Range<Int>>(repeating: 0..<0)
        var field = 0
        var fieldStart = 0
        let base = UnsafeRawPointer(text.baseAddress!)
        let count = text.count
        var offset = 0
        while offset < count {
            let word: UInt64
            if count &- offset >= 8 {
                word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            } else {
                // The last bytes, padded with a byte that is not a comma.
                var tail: UInt64 = 0
                for i in 0..<(count &- offset) { tail |= UInt64(text[offset &+ i]) << (UInt64(i) &* 8) }
                for i in (count &- offset)..<8 { tail |= UInt64(0xFF) << (UInt64(i) &* 8) }
                word = tail
            }
            var commas = Self.commaBytes(word)
            while commas != 0 {
                let end = offset &+ commas.trailingZeroBitCount &>> 3
                commas &= commas &- 1
                if field < slots.count, slots[field] >= 0 { ranges[slots[field]] = fieldStart..<end }
                field += 1
                fieldStart = end &+ 1
            }
            offset &+= 8
        }
        if field < slots.count, slots[field] >= 0 { ranges[slots[field]] = fieldStart..<count }
        field += 1
        guard field == width else { throw wrongWidth(field) }
        try add(seat: UnsafeBufferPointer(rebasing: text[ranges[0]]), entrant: UnsafeBufferPointer(rebasing: text[ranges[1]]),
                outcome: UnsafeBufferPointer(rebasing: text[ranges[2]]), reason: UnsafeBufferPointer(rebasing: text[ranges[3]]),
                turns: UnsafeBufferPointer(rebasing: text[ranges[4]]), block: UnsafeBufferPointer(rebasing: text[ranges[5]]))
    }

    /// The high bit of each byte of `word` that is a comma, and no other bit (exact: no
    /// carry crosses a byte, unlike the shorter `(x - 0x01...) & ~x` test).
    @inline(__always)
    static func commaBytes(_ word: UInt64) -> UInt64 {
        let x = word ^ 0x2C2C_2C2C_2C2C_2C2C  // a comma byte becomes zero
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low7) &+ low7) | x | low7)
    }

    private func wrongWidth(_ found: Int) -> InputError {
        InputError("\(path):\(line): \(found) fields where the header has \(width)")
    }

    private mutating func readHeader(_ text: String) throws(InputError) {
        guard let fields = CSV.fields(Substring(text)) else { throw InputError("\(path):\(line): a quoted field is not closed") }
        for name in Self.columns where !fields.contains(name) {
            throw InputError("\(path): no column '\(name)'; expected the columns \(ReportTally.expected.joined(separator: ",")) and the game's own")
        }
        header = fields
        width = fields.count
        wanted = Self.columns.map { fields.firstIndex(of: $0)! }
        slots = fields.indices.map { wanted.firstIndex(of: $0) ?? -1 }
    }

    /// Counts one row from its five fields' bytes.
    private mutating func add<Bytes: Collection<UInt8>>(seat: Bytes, entrant: Bytes, outcome: Bytes, reason: Bytes,
                                                        turns: Bytes, block: Bytes) throws(InputError) {
        guard let s = Self.wholeNumber(seat), s < seats else {
            throw bad("seat", seat, "a seat number 0...\(seats - 1)")
        }
        guard let e = names.firstIndex(where: { Self.equal(entrant, $0) }) else {
            throw bad("entrant", entrant, "an entrant of this run (\(names.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")))")
        }
        let o: Int
        switch (outcome.count, outcome.first) {
        case (3, UInt8(ascii: "w")) where Self.equal(outcome, Self.win): o = 0
        case (4, UInt8(ascii: "d")) where Self.equal(outcome, Self.draw): o = 1
        case (4, UInt8(ascii: "l")) where Self.equal(outcome, Self.loss): o = 2
        default: throw bad("outcome", outcome, "win, draw or loss")
        }
        guard let t = Self.wholeNumber(turns), t <= 10_000_000 else { throw bad("turns", turns, "a whole number of turns") }
        guard let b = Self.wholeNumber(block) else { throw bad("block", block, "a block number") }
        let r: Int
        if let known = reasonBytes.firstIndex(where: { Self.equal(reason, $0) }) {
            r = known
        } else {
            r = counting.tally.reasonIndex(String(decoding: reason, as: UTF8.self))
            // Kept in the tally's order (bytes that decode to a reason already seen are
            // looked up by name again).
            if r == reasonBytes.count { reasonBytes.append(Array(reason)) }
        }
        guard counting.add(entrant: e, seat: s, outcome: o, reason: r, turns: t, block: b) else {
            throw InputError("\(path):\(line): column 'seat': \(s) where seat \(counting.match.count) belongs; a match's rows come together, seats 0...\(seats - 1) in order")
        }
    }

    private func bad(_ column: String, _ value: some Collection<UInt8>, _ accepted: String) -> InputError {
        InputError("\(path):\(line): column '\(column)': '\(String(decoding: value, as: UTF8.self))' is not \(accepted)")
    }

    static let win = Array("win".utf8), draw = Array("draw".utf8), loss = Array("loss".utf8)

    /// Whether `bytes` are `expected`, compared as memory (a generic `elementsEqual` went
    /// element by element through its iterators).
    @inline(__always)
    private static func equal(_ bytes: some Collection<UInt8>, _ expected: [UInt8]) -> Bool {
        guard bytes.count == expected.count else { return false }
        if let same = bytes.withContiguousStorageIfAvailable({ b in
            expected.withUnsafeBufferPointer { e in b.isEmpty || memcmp(b.baseAddress!, e.baseAddress!, b.count) == 0 }
        }) { return same }
        return bytes.elementsEqual(expected)
    }

    /// A non-negative decimal number of at most 18 digits.
    private static func wholeNumber(_ digits: some Collection<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18 else { return nil }
        var value = 0
        for d in digits {
            guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
        }
        return value
    }
}
