import LabCore

/// Which entrants meet, in numbered seat-rotation blocks.
///
/// A table is a set of entrants, one per seat. A block deals one game (one seed) and
/// plays it once per cyclic rotation of the table's seating, so every entrant sits in
/// every seat on the same deal: for two seats, chess's game pair with colours swapped.
/// Block k of a run is on table `k mod T` (T tables), round `k / T`, so any prefix of
/// the blocks covers the tables evenly; block k is the same whatever the thread count,
/// shard or resume point.
public struct Schedule: Sendable, Equatable {
    public let entrantCount: Int
    public let seats: Int
    /// Entrant indices of each table in the seating of rotation 0.
    public let tables: [[Int]]
    public let blocksPerTable: Int

    /// The largest number of matches a run may have: every match index, block number and
    /// row count stays far inside `Int` (and the deal seed's `UInt64`) with room for
    /// sums over them.
    public static let maxMatches = 1 << 52

    /// Every table of the format: round robin, every combination of `seats` different
    /// entrants; gauntlet, the candidate with every combination of `seats - 1` others.
    /// - Throws: when there are fewer entrants than seats, or when the run would have
    ///   more than ``maxMatches`` matches.
    public init(entrants: Int, seats: Int, format: TournamentFormat, candidate: Int?, blocksPerTable: Int) throws(InputError) {
        precondition(seats >= 1 && blocksPerTable >= 1)
        guard entrants >= seats else {
            throw InputError("\(seats) seats need at least \(seats) entrants (the config has \(entrants)): a table seats different entrants")
        }
        self.entrantCount = entrants
        self.seats = seats
        self.blocksPerTable = blocksPerTable
        switch format {
        case .roundRobin:
            tables = Self.combinations(of: Array(0..<entrants), choose: seats)
        case .gauntlet:
            guard let candidate else { throw InputError("format gauntlet needs a candidate") }
            let field = (0..<entrants).filter { $0 != candidate }
            tables = Self.combinations(of: field, choose: seats - 1).map { [candidate] + $0 }
        }
        let (blocks, overBlocks) = tables.count.multipliedReportingOverflow(by: blocksPerTable)
        let (matches, overMatches) = blocks.multipliedReportingOverflow(by: seats)
        guard !overBlocks, !overMatches, matches <= Self.maxMatches else {
            throw InputError("blocks \(blocksPerTable): \(tables.count) tables x \(blocksPerTable) blocks x \(seats) matches is more "
                + "than the \(Self.maxMatches) matches (2^52) a run can number; expected blocks in 1...\(Self.maxMatches / seats / tables.count)")
        }
    }

    /// The number of blocks in the run.
    public var blockCount: Int { tables.count * blocksPerTable }
    /// Matches in a block: one per rotation.
    public var matchesPerBlock: Int { seats }

    /// The table block `block` is played on.
    public func table(ofBlock block: Int) -> Int { block % tables.count }

    /// Entrant in each seat for rotation `rotation` of `table`: seat s gets the entrant
    /// of seat (s + rotation) mod seats in rotation 0.
    public func seating(table: Int, rotation: Int) -> [Int] {
        (0..<seats).map { tables[table][($0 + rotation) % seats] }
    }

    /// The run-wide number of match `rotation` of `block`.
    public func matchIndex(block: Int, rotation: Int) -> Int { block * seats + rotation }

    /// The deal of block `block` (every rotation plays it).
    public static func dealSeed(master: UInt64, block: Int) -> UInt64 { Seeds.match(master, match: UInt64(block)) }

    /// The blocks a shard plays, in order: every `count`-th block starting at
    /// `index - 1` (shards are numbered from 1), computed from their position, never
    /// listed.
    /// - Complexity: O(1) time and memory, whatever the number of blocks.
    public func blocks(shard: Shard) -> ShardBlocks {
        ShardBlocks(offset: shard.index - 1, step: shard.count, total: blockCount)
    }

    /// Every way to choose `k` of `items`, in lexicographic order.
    static func combinations(of items: [Int], choose k: Int) -> [[Int]] {
        guard k > 0 else { return [[]] }
        guard items.count >= k else { return [] }
        var out: [[Int]] = []
        var pick = Array(0..<k)
        while true {
            out.append(pick.map { items[$0] })
            var i = k - 1
            while i >= 0 && pick[i] == items.count - k + i { i -= 1 }
            if i < 0 { return out }
            pick[i] += 1
            for j in (i + 1)..<k { pick[j] = pick[j - 1] + 1 }
        }
    }
}

/// The block numbers a shard plays, in order, by position: block `offset + k * step` at
/// position k. A collection that holds three numbers, so a run of 10^12 blocks costs no
/// more memory than a run of ten.
public struct ShardBlocks: RandomAccessCollection, Sendable, Equatable {
    public let offset: Int
    public let step: Int
    public let count: Int

    init(offset: Int, step: Int, total: Int) {
        self.offset = offset
        self.step = step
        count = offset < total ? (total - offset + step - 1) / step : 0
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> Int {
        precondition(position >= 0 && position < count, "block position out of range")
        return offset + position * step
    }
}

/// One of `count` shards of a run (`index` from 1 to `count`).
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// The whole run.
    public static let whole = Shard(uncheckedIndex: 1, count: 1)

    public init(index: Int, count: Int) throws(InputError) {
        guard count >= 1, (1...count).contains(index) else {
            throw InputError("--shard \(index)/\(count): expected K/N with 1 <= K <= N")
        }
        self.index = index
        self.count = count
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, or `auto`: from a Slurm job array (SLURM_ARRAY_TASK_ID, counted
    /// from SLURM_ARRAY_TASK_MIN, of SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX from 0, of OPLAB_SHARD_COUNT, which the manifest sets to the
    /// job's completions).
    public static func parse(_ text: String, environment: [String: String]) throws(InputError) -> Shard {
        if text == "auto" {
            if let id = environment["SLURM_ARRAY_TASK_ID"].flatMap(Int.init) {
                guard let count = environment["SLURM_ARRAY_TASK_COUNT"].flatMap(Int.init) else {
                    throw InputError("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
                }
                let min = environment["SLURM_ARRAY_TASK_MIN"].flatMap(Int.init) ?? 0
                return try Shard(index: id - min + 1, count: count)
            }
            if let index = environment["JOB_COMPLETION_INDEX"].flatMap(Int.init) {
                guard let count = environment["OPLAB_SHARD_COUNT"].flatMap(Int.init) else {
                    throw InputError("--shard auto: JOB_COMPLETION_INDEX is set but OPLAB_SHARD_COUNT (the job's completions) is not")
                }
                return try Shard(index: index + 1, count: count)
            }
            throw InputError("--shard auto: found neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX in the environment")
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw InputError("--shard '\(text)': expected K/N (for example 2/8) or auto")
        }
        return try Shard(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }
}
