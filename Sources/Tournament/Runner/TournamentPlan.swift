import LabCore

/// One seating of one table, set up once (rules, map, a factory per seat) and played
/// from many seeds, from any thread.
public protocol SeatedTable: Sendable {
    /// Plays match number `match`, dealt from `dealSeed`, with strategies seeded from
    /// `strategySeed`; `timer`, when given, records the time of each decision by seat.
    func play(dealSeed: UInt64, strategySeed: UInt64, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer?) -> MatchRecord
}

/// What a plan's players hold outside oplab (external bots' processes and logs): told
/// the run's results folder before the first match, and closed after the last.
public protocol RunResources: Sendable {
    func open(resultsFolder: String)
    func close()
}

/// What the harness keeps of a finished match.
public struct MatchRecord: Sendable {
    public var outcome: Outcome
    /// Per seat, the game's own figures (``TournamentPlan/columns``), as CSV text.
    public var seatColumns: [[String]]
    /// Per seat, per count of the plan's ``TournamentPlan/boardCounts``, the board
    /// elements the seat marked (bit i: element i). Empty without board counts.
    public var marks: [[UInt128]]

    public init(outcome: Outcome, seatColumns: [[String]], marks: [[UInt128]] = []) {
        self.outcome = outcome
        self.seatColumns = seatColumns
        self.marks = marks
    }
}

/// A checked tournament, ready to run: the config, its schedule and a table for every
/// seating. The catalog makes one from a config; the harness never names a game.
public struct TournamentPlan: Sendable {
    public let config: TournamentConfig
    public let schedule: Schedule
    /// `seatings[table][rotation]`.
    public let seatings: [[any SeatedTable]]
    /// Names of the game's own per-seat columns in `matches.csv` (the board counts'
    /// columns come after them).
    public let columns: [String]
    /// What the run counts per board element and entrant (nil: the game has no board
    /// to count). Its columns follow ``columns`` in `matches.csv`.
    public let boardCounts: BoardCountsSpec?
    /// The entrant rated 0 (the game's documented CPU), if one plays.
    public let anchor: Int?
    /// Set-up lines (map, rules) and warnings, for the user to read.
    public let setupLines: [String]
    public let warnings: [String]
    /// Makes another set of tables like `seatings`, sharing no objects with it, for a
    /// second worker thread: two threads retaining one map or rules object on every turn
    /// fight over its cache line and lose a quarter of the second core. nil: workers
    /// share `seatings`.
    public let makeSeatings: (@Sendable () throws(InputError) -> [[any SeatedTable]])?
    /// The players' outside resources, if any play (external bots).
    public let resources: (any RunResources)?

    public init(config: TournamentConfig, schedule: Schedule, seatings: [[any SeatedTable]], columns: [String],
                anchor: Int?, setupLines: [String] = [], warnings: [String] = [], boardCounts: BoardCountsSpec? = nil,
                makeSeatings: (@Sendable () throws(InputError) -> [[any SeatedTable]])? = nil, resources: (any RunResources)? = nil) {
        precondition(seatings.count == schedule.tables.count && seatings.allSatisfy { $0.count == schedule.seats })
        self.config = config
        self.schedule = schedule
        self.seatings = seatings
        self.columns = columns
        self.boardCounts = boardCounts
        self.anchor = anchor
        self.setupLines = setupLines
        self.warnings = warnings
        self.makeSeatings = makeSeatings
        self.resources = resources
    }

    /// The entrants' names, in config order.
    public var entrantNames: [String] { config.entrants.map(\.name) }

    /// A set of tables per worker: ``seatings`` for the first, and a fresh set from
    /// ``makeSeatings`` for each other (all share ``seatings`` without it).
    func seatings(forWorkers workers: Int) throws(InputError) -> [[[any SeatedTable]]] {
        var sets = [seatings]
        if let makeSeatings {
            for _ in 1..<max(1, workers) { sets.append(try makeSeatings()) }
        }
        return sets
    }
}
