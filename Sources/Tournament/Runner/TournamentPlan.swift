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
    /// Every seat's own figures (``TournamentPlan/columns``) as the bytes of CSV fields,
    /// seat after seat, each field followed by a comma: written once, straight into the
    /// rows (no string, and no array a seat). Seat s's are
    /// `fieldBytes[fieldStarts[s]..<fieldStarts[s + 1]]`.
    public private(set) var fieldBytes: [UInt8] = []
    private var fieldStarts: [Int] = [0]
    /// Per seat, per count of the plan's ``TournamentPlan/boardCounts``, the board
    /// elements the seat marked (bit i: element i). Empty without board counts.
    public var marks: [[UInt128]]

    /// A record to which the seats' figures are then added in seat order
    /// (``appendField(_:)-(Int)``, ``endSeat()``).
    public init(outcome: Outcome, marks: [[UInt128]] = []) {
        self.outcome = outcome
        self.marks = marks
    }

    /// A record with the seats' figures as texts: `seatColumns[seat]`, one array a seat.
    public init(outcome: Outcome, seatColumns: [[String]], marks: [[UInt128]] = []) {
        self.init(outcome: outcome, marks: marks)
        for columns in seatColumns {
            for field in columns { appendField(field) }
            endSeat()
        }
    }

    /// Adds a figure of the current seat (quoted when it needs to be).
    public mutating func appendField(_ text: String) { CSV.append(text, to: &fieldBytes) }

    /// Adds a figure of the current seat.
    public mutating func appendField(_ value: Int) { CSV.append(value, to: &fieldBytes) }

    /// Ends the current seat's figures; the next field is the next seat's.
    public mutating func endSeat() { fieldStarts.append(fieldBytes.count) }

    /// The seats whose figures were ended.
    public var seatsWithFields: Int { fieldStarts.count - 1 }

    /// Seat `seat`'s figures: CSV fields, each followed by a comma.
    public func fields(ofSeat seat: Int) -> ArraySlice<UInt8> { fieldBytes[fieldStarts[seat]..<fieldStarts[seat + 1]] }

    /// Seat `seat`'s figures as texts (for tests and tools).
    public func columns(ofSeat seat: Int) -> [String] {
        let fields = self.fields(ofSeat: seat)
        guard !fields.isEmpty else { return [] }
        return CSV.fields(Substring(String(decoding: fields.dropLast(), as: UTF8.self))) ?? []
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
