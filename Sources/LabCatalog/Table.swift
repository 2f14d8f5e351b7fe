import LabCore
import Pictures
import Tournament

/// A table for a concrete game: the one generic bridge between games and the harness.
struct Table<G: Game>: MatchTable {
    let game: G
    let players: [StrategySpec]
    let setupLines: [String]
    var warnings: [String] = []
    let loop: PlayLoop<G>
    var boardCounts: BoardCountsSpec?
    /// Per count of `boardCounts`, the elements a seat of a finished match marked.
    /// (The state is handed `inout`, by its address, though it is only read: a closure
    /// made for a concrete state and called here, generically, would otherwise copy the
    /// whole state through a reabstraction thunk on every call.)
    var marks: (@Sendable (inout G.State, Int) -> [UInt128])?
    /// The game's replay drawing; nil for the plain scene (``MatchReplay/plainScene``).
    let draw: (@Sendable (MatchReplay<G>) -> ReplayScene)?
    /// The names of the per-seat figures (``GameEntry/seatStatNames``).
    let figureNames: [String]

    init(game: G, players: [StrategySpec], setupLines: [String], warnings: [String] = [], loop: @escaping PlayLoop<G>,
         boardCounts: BoardCountsSpec? = nil, marks: (@Sendable (inout G.State, Int) -> [UInt128])? = nil,
         figureNames: [String], draw: (@Sendable (MatchReplay<G>) -> ReplayScene)?) {
        self.game = game
        self.players = players
        self.setupLines = setupLines
        self.warnings = warnings
        self.loop = loop
        self.boardCounts = boardCounts
        self.marks = marks
        self.figureNames = figureNames
        self.draw = draw
    }

    func replay(seed: UInt64, label: UInt64, buffer: inout ActionBuffer,
                trace: ((TraceEvent) -> Void)?) -> (report: MatchReport, replay: ReplayScene) {
        var events: [MatchReplay<G>.Event] = []
        let (outcome, final) = loop(seed, nil, 0, &buffer, { before, action, after in
            events.append(.init(before: before, action: action, after: after))
            trace?(Self.event(before, action, after))
        }, nil)
        let initial = events.first?.before ?? final
        let seats = (0..<game.seatCount).map { seat in
            ReplaySeat(player: players[seat].description, place: outcome.places[seat], result: outcome.result(of: seat).rawValue,
                       figures: zip(figureNames, final.seatStats(seat)).map { ReplaySeat.Figure(name: $0.0, value: $0.1) })
        }
        let played = MatchReplay(game: game, events: events, initial: initial, final: final, outcome: outcome, seats: seats, seed: label)
        var last = final
        return (report(outcome, &last, render: true), draw?(played) ?? played.plainScene)
    }

    var seatCount: Int { game.seatCount }

    func play(seed: UInt64, strategySeed: UInt64?, match: Int, render: Bool, buffer: inout ActionBuffer,
              trace: ((TraceEvent) -> Void)?, timer: DecisionTimer?) -> MatchReport {
        // No closure made when there is no trace (every tournament match).
        guard let trace else {
            var played = loop(seed, strategySeed, match, &buffer, nil, timer)
            return report(played.outcome, &played.final, render: render)
        }
        var played = loop(seed, strategySeed, match, &buffer, { before, action, after in
            trace(Self.event(before, action, after))
        }, timer)
        return report(played.outcome, &played.final, render: render)
    }

    /// The report of a finished match; `final` is only read (`inout`: by its address, where
    /// `map` closures over it copied the state for each seat).
    private func report(_ outcome: Outcome, _ final: inout G.State, render: Bool) -> MatchReport {
        let seats = game.seatCount
        var stats: [[Int]] = []
        stats.reserveCapacity(seats)
        for seat in 0..<seats { stats.append(final.seatStats(seat)) }
        var marked: [[UInt128]] = []
        if let marks {
            marked.reserveCapacity(seats)
            for seat in 0..<seats { marked.append(marks(&final, seat)) }
        }
        return MatchReport(outcome: outcome, seatStats: stats, board: render ? final.renderBoard() : nil, marks: marked)
    }

    private static func event(_ before: G.State, _ action: Int, _ after: G.State) -> TraceEvent {
        TraceEvent(turn: after.turn, seat: before.currentSeat, action: before.describe(action),
                   detail: after.traceDetail(seat: before.currentSeat), board: after.renderBoard())
    }
}
