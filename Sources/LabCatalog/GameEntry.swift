import Evaluators
import LabCore
import Players
import Reports
import Tournament

/// What a strategy's factory is made for beyond its parameters: the entrant it plays
/// for (an external bot's log is named after it) and the bots' session of the run.
public struct StrategyEnvironment: Sendable {
    /// The entrant's name in a tournament; nil outside one.
    public var entrant: String?
    /// The session that owns the run's bot processes and logs; nil outside a run.
    public var bots: BotSession?

    public init(entrant: String? = nil, bots: BotSession? = nil) {
        self.entrant = entrant
        self.bots = bots
    }
}

/// A strategy a game offers: its name, parameters and factory maker.
public struct StrategyEntry<G: Game>: Sendable {
    public var name: String
    public var summary: String
    public var parameters: [ParameterSpec]
    /// Parameters beyond ``parameters`` the strategy takes when their names start with
    /// this prefix (`opt.` for an external bot's own options); nil for none.
    public var openPrefix: String?
    /// Makes the per-match factory from checked parameters.
    public var make: @Sendable (ResolvedParameters, G, StrategyEnvironment) throws(InputError) -> StrategyFactory<G>

    /// Every strategy also takes `epsilon` (default 0): the chance of a uniformly random
    /// legal move instead of its own (``EpsilonStrategy``), the difficulty knob that
    /// `oplab calibrate` turns.
    public init(name: String, summary: String, parameters: [ParameterSpec] = [],
                make: @escaping @Sendable (ResolvedParameters, G) throws(InputError) -> StrategyFactory<G>) {
        self.init(name: name, summary: summary, parameters: parameters, openPrefix: nil) { params, game, _ throws(InputError) in
            try make(params, game)
        }
    }

    /// A strategy whose factory depends on where it plays (``StrategyEnvironment``), and
    /// which may take open parameters named `openPrefix...`.
    public init(name: String, summary: String, parameters: [ParameterSpec] = [], openPrefix: String?,
                make: @escaping @Sendable (ResolvedParameters, G, StrategyEnvironment) throws(InputError) -> StrategyFactory<G>) {
        self.name = name
        self.summary = summary
        self.parameters = parameters + [Self.epsilon]
        self.openPrefix = openPrefix
        self.make = { params, game, environment throws(InputError) in
            let factory = try make(params, game, environment)
            let epsilon = params.number("epsilon")
            guard epsilon > 0 else { return factory }
            return { context in EpsilonStrategy(inner: factory(context), epsilon: epsilon, seed: context.seed) }
        }
    }

    static var epsilon: ParameterSpec {
        ParameterSpec("epsilon", .number(0...1), default: "0", "chance of a uniformly random legal move instead of its own (a difficulty knob)")
    }

    /// The listing form: name, summary and parameters.
    public var info: StrategyInfo { StrategyInfo(name: name, summary: summary, parameters: parameters, openPrefix: openPrefix) }
}

/// A strategy's listing, without its game type.
public struct StrategyInfo: Sendable {
    public var name: String
    public var summary: String
    public var parameters: [ParameterSpec]
    /// See ``StrategyEntry/openPrefix``.
    public var openPrefix: String?
}

/// What a table is made from: rule settings, an optional map file and one strategy
/// spec per seat (seat order).
public struct TableSetup: Sendable {
    public var rules: [(key: String, value: String)]
    public var mapPath: String?
    public var players: [StrategySpec]
    /// The entrant of each seat (seat order), in a tournament.
    public var entrants: [String]?
    /// The run's bot session (external players' processes and logs).
    public var bots: BotSession?

    public init(rules: [(key: String, value: String)] = [], mapPath: String? = nil, players: [StrategySpec],
                entrants: [String]? = nil, bots: BotSession? = nil) {
        self.rules = rules
        self.mapPath = mapPath
        self.players = players
        self.entrants = entrants
        self.bots = bots
    }
}

/// One game as the harness and the command line see it: no game types leak out.
public protocol GameEntry: Sendable {
    var name: String { get }
    var summary: String { get }
    var seatRange: ClosedRange<Int> { get }
    var knobs: [RuleKnob] { get }
    var strategies: [StrategyInfo] { get }
    /// The game's documented CPU, the rating anchor.
    var documentedCPU: String { get }
    /// Per-seat figures a finished match reports.
    var seatStatNames: [String] { get }
    /// Whether a table takes a map file (``TableSetup/mapPath``).
    var usesMap: Bool { get }
    /// Checks rule settings alone (knob names and values).
    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError)
    /// Checks the map a table would load (`path`, or the game's default).
    func checkMap(_ path: String?) throws(InputError)
    /// Checks the setup (rules, map, seat count, every strategy) and makes a table.
    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable
    /// Names of the game's own per-seat columns in a tournament's `matches.csv`.
    var tournamentColumns: [String] { get }
    /// Trains a value model by self-play of `request.teacher` on a table with these
    /// rules, map and seat count (`setup.players` is ignored but for its count).
    func train(_ request: TrainingRequest, rules: [(key: String, value: String)], mapPath: String?, seats: Int,
               log: @escaping @Sendable (String) -> Void) throws(InputError) -> ValueModel
    /// Those columns' values for `seat` of a finished match.
    func tournamentColumns(_ report: MatchReport, seat: Int) -> [String]
}

extension GameEntry {
    public var usesMap: Bool { false }
    public func checkMap(_ path: String?) throws(InputError) {}
    public var tournamentColumns: [String] { seatStatNames }
    public func tournamentColumns(_ report: MatchReport, seat: Int) -> [String] { report.seatStats[seat].map(String.init) }
}

/// One line of a trace: an action and the mover's standing after it.
public struct TraceEvent: Sendable {
    public var turn: Int
    public var seat: Int
    public var action: String
    public var detail: String
    public var board: String?
}

/// What a finished match reports, game-neutrally.
public struct MatchReport: Sendable {
    public var outcome: Outcome
    /// Per seat, the figures named by ``GameEntry/seatStatNames``.
    public var seatStats: [[Int]]
    /// A text drawing of the final position, for games with a board.
    public var board: String?
    /// Per seat, per count of the table's ``MatchTable/boardCounts``, the board elements
    /// the seat marked (bit i: element i). Empty without board counts.
    public var marks: [[UInt128]] = []
}

/// A set-up table that plays matches from seeds; safe to share between threads (each
/// match makes its own strategies).
public protocol MatchTable: Sendable {
    var seatCount: Int { get }
    var players: [StrategySpec] { get }
    /// Lines describing the set-up (map, rules), for headers.
    var setupLines: [String] { get }
    /// Allowed but questionable set-ups, for the user to see (e.g. opposed solo seats).
    var warnings: [String] { get }
    /// What a tournament counts per board element (railroads, cells); nil for none.
    var boardCounts: BoardCountsSpec? { get }
    /// Plays the match with match seed `seed` (the deal and the strategies) like
    /// ``play(seed:buffer:trace:)`` and keeps every step for a replay page; `label` is
    /// the seed the user gave.
    func replay(seed: UInt64, label: UInt64, buffer: inout ActionBuffer,
                trace: ((TraceEvent) -> Void)?) -> (report: MatchReport, replay: Replay)
    /// Plays the match dealt from `seed`, its strategies seeded from `strategySeed`
    /// (nil: from `seed` too) and told its number `match`; `render` draws the final board
    /// into the report; `timer`, when given, records each decision's time.
    func play(seed: UInt64, strategySeed: UInt64?, match: Int, render: Bool, buffer: inout ActionBuffer,
              trace: ((TraceEvent) -> Void)?, timer: DecisionTimer?) -> MatchReport
}

extension MatchTable {
    /// Plays the match with match seed `seed` (the deal and the strategies), drawing the
    /// final board.
    public func play(seed: UInt64, buffer: inout ActionBuffer, trace: ((TraceEvent) -> Void)?) -> MatchReport {
        play(seed: seed, strategySeed: nil, match: 0, render: true, buffer: &buffer, trace: trace, timer: nil)
    }
}

/// The play loop of one concrete game: made where the game type is known (each game's
/// entry), so `Match.play` is specialised for it instead of reaching the state through
/// generic witnesses, which copy it on every call.
typealias PlayLoop<G: Game> = @Sendable (_ seed: UInt64, _ strategySeed: UInt64?, _ match: Int, _ buffer: inout ActionBuffer,
                                         _ observe: ((G.State, Int, G.State) -> Void)?,
                                         _ timer: DecisionTimer?) -> (outcome: Outcome, final: G.State)

/// The play loop of `game` with `factories`, for a game entry to hand its table. Called
/// from each entry with its concrete game type, so the optimiser specialises it there.
@inline(__always)
func playLoop<G: Game>(_ game: G, _ factories: [StrategyFactory<G>]) -> PlayLoop<G> {
    { seed, strategySeed, match, buffer, observe, timer in
        // Two calls, so the untraced one (every tournament match) is compiled without
        // the trace branch.
        if let observe {
            Match.play(game, seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer,
                       observe: observe, timer: timer)
        } else {
            Match.play(game, seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer, timer: timer)
        }
    }
}

/// A table for a concrete game: the one generic bridge between games and the harness.
struct Table<G: Game>: MatchTable {
    let game: G
    let players: [StrategySpec]
    let setupLines: [String]
    var warnings: [String] = []
    let loop: PlayLoop<G>
    var boardCounts: BoardCountsSpec?
    /// Per count of `boardCounts`, the elements a seat of a finished match marked.
    var marks: (@Sendable (G.State, Int) -> [UInt128])?
    let makeReplay: ReplayBuilder<G>
    /// The names of the per-seat figures (``GameEntry/seatStatNames``).
    let figureNames: [String]

    init(game: G, players: [StrategySpec], setupLines: [String], warnings: [String] = [], loop: @escaping PlayLoop<G>,
         boardCounts: BoardCountsSpec? = nil, marks: (@Sendable (G.State, Int) -> [UInt128])? = nil,
         figureNames: [String], replay: @escaping ReplayBuilder<G>) {
        self.game = game
        self.players = players
        self.setupLines = setupLines
        self.warnings = warnings
        self.loop = loop
        self.boardCounts = boardCounts
        self.marks = marks
        self.figureNames = figureNames
        makeReplay = replay
    }

    func replay(seed: UInt64, label: UInt64, buffer: inout ActionBuffer,
                trace: ((TraceEvent) -> Void)?) -> (report: MatchReport, replay: Replay) {
        var events: [ReplayEvent<G>] = []
        let (outcome, final) = loop(seed, nil, 0, &buffer, { before, action, after in
            events.append(ReplayEvent(before: before, action: action, after: after))
            trace?(Self.event(before, action, after))
        }, nil)
        let initial = events.first?.before ?? final
        let seats = (0..<game.seatCount).map { seat in
            ReplaySeat(player: players[seat].description, place: outcome.places[seat], result: outcome.result(of: seat).rawValue,
                       figures: zip(figureNames, final.seatStats(seat)).map { ReplaySeat.Figure(name: $0.0, value: $0.1) })
        }
        return (report(outcome, final, render: true), makeReplay(events, initial, final, outcome, seats, label))
    }

    var seatCount: Int { game.seatCount }

    func play(seed: UInt64, strategySeed: UInt64?, match: Int, render: Bool, buffer: inout ActionBuffer,
              trace: ((TraceEvent) -> Void)?, timer: DecisionTimer?) -> MatchReport {
        let observe: ((G.State, Int, G.State) -> Void)? = trace.map { sink in
            { before, action, after in sink(Self.event(before, action, after)) }
        }
        let (outcome, final) = loop(seed, strategySeed, match, &buffer, observe, timer)
        return report(outcome, final, render: render)
    }

    private func report(_ outcome: Outcome, _ final: G.State, render: Bool) -> MatchReport {
        MatchReport(outcome: outcome, seatStats: (0..<game.seatCount).map(final.seatStats),
                    board: render ? final.renderBoard() : nil,
                    marks: marks.map { m in (0..<game.seatCount).map { m(final, $0) } } ?? [])
    }

    private static func event(_ before: G.State, _ action: Int, _ after: G.State) -> TraceEvent {
        TraceEvent(turn: after.turn, seat: before.currentSeat, action: before.describe(action),
                   detail: after.traceDetail(seat: before.currentSeat), board: after.renderBoard())
    }
}

extension GameEntry {
    /// One factory per seat, for `specs` in seat order; `setup` (when given) says whose
    /// entrant each seat is and which run's bot session it plays in.
    func resolve<G: Game>(_ specs: [StrategySpec], in entries: [StrategyEntry<G>], game: G,
                          setup: TableSetup? = nil) throws(InputError) -> [StrategyFactory<G>] {
        var factories: [StrategyFactory<G>] = []
        for (seat, spec) in specs.enumerated() {
            let environment = StrategyEnvironment(entrant: setup?.entrants?[seat], bots: setup?.bots)
            factories.append(try resolve(spec, in: entries, game: game, environment: environment))
        }
        return factories
    }

    /// Teachers for self-play training: any strategy but an external bot (training plays
    /// on every core with one table, and a bot process serves one match at a time).
    func teachers<G: Game>(_ specs: [StrategySpec], in entries: [StrategyEntry<G>], game: G) throws(InputError) -> [StrategyFactory<G>] {
        if specs.contains(where: { $0.name == "external" }) {
            throw InputError("--teacher: an external bot cannot teach: training plays on every core from one table, and a bot process "
                + "serves one match at a time; play it in a tournament, or teach with the lab's own strategies")
        }
        return try resolve(specs, in: entries, game: game)
    }

    /// Finds strategy `spec.name` among `entries` or lists the ones that exist.
    func resolve<G: Game>(_ spec: StrategySpec, in entries: [StrategyEntry<G>], game: G,
                          environment: StrategyEnvironment = StrategyEnvironment()) throws(InputError) -> StrategyFactory<G> {
        guard let entry = entries.first(where: { $0.name == spec.name }) else {
            let names = entries.map(\.name)
            throw InputError("unknown strategy '\(spec.name)' for \(name)\(Suggestion.didYouMean(spec.name, among: names)); available: \(names.joined(separator: ", "))")
        }
        return try entry.make(ResolvedParameters(spec: spec, accepted: entry.parameters, openPrefix: entry.openPrefix), game, environment)
    }
}
