/// The contract every game meets.
///
/// A game is a small value (its rules, map and seat count) that deals matches. A match
/// is a ``GameState``: a value type, copied by memcpy, that lists its legal actions as
/// dense integers and applies them. Chance (card and tile draws) is resolved inside the
/// state from a generator seeded at the deal, so a state plus an action determines the
/// next state. Strategies never see a state: they see their seat's ``GameObservation``.
public protocol Game: Sendable {
    associatedtype State: GameState

    /// The registry name of the game, e.g. `rail`.
    static var name: String { get }

    /// Players at the table.
    var seatCount: Int { get }

    /// Team of each seat (seats of one team share their place). Solo players each have
    /// a team of their own: `teams[seat] == seat`.
    var teams: [Int] { get }

    /// Deals a new match from a match seed.
    func newMatch(seed: UInt64) -> State

    /// Plays one match (``Match/play(_:seed:strategySeed:match:factories:buffer:observe:timer:)``).
    /// A game never writes it: the default below is its witness, and a witness is
    /// compiled in the module that declares the conformance, where the game's type is
    /// concrete, so the play loop is specialised for every game. Called through a
    /// generic `G` instead, the loop would reach the state through value witnesses and
    /// copy it on every turn.
    func playMatch(seed: UInt64, strategySeed: UInt64?, match: Int, factories: [StrategyFactory<Self>],
                   buffer: inout ActionBuffer, observe: ((State, Int, State) -> Void)?,
                   timer: DecisionTimer?) -> (outcome: Outcome, final: State)
}

extension Game {
    public var teams: [Int] { Array(0..<seatCount) }

    @inlinable
    public func playMatch(seed: UInt64, strategySeed: UInt64?, match: Int, factories: [StrategyFactory<Self>],
                          buffer: inout ActionBuffer, observe: ((State, Int, State) -> Void)?,
                          timer: DecisionTimer?) -> (outcome: Outcome, final: State) {
        // Two calls, so the untraced one (every tournament match) is compiled without
        // the trace branch.
        if let observe {
            Match.play(self, seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer,
                       observe: observe, timer: timer)
        } else {
            Match.play(self, seed: seed, strategySeed: strategySeed, match: match, factories: factories, buffer: &buffer, timer: timer)
        }
    }
}

/// One match in progress.
public protocol GameState: Sendable {
    associatedtype Observation: GameObservation where Observation.State == Self

    var seatCount: Int { get }
    /// The seat to move (meaningless once terminal).
    var currentSeat: Int { get }
    var isTerminal: Bool { get }
    /// Actions applied so far.
    var turn: Int { get }
    /// Upper bound of the dense action space: every action is in `0..<actionSpaceSize`.
    var actionSpaceSize: Int { get }

    /// Writes the mover's legal actions into `buffer` (emptied first), each once.
    func legalActions(into buffer: inout ActionBuffer)
    /// ``legalActions(into:)`` for the play loop, which holds the state in a variable:
    /// the same actions, the state unchanged. Swift hands a large value to a function of
    /// another module through a temporary copy of it, but an `inout` one by its address,
    /// so a large state (rail's, 920 bytes) implements this to be read where it lies.
    /// The default calls ``legalActions(into:)``.
    mutating func legalActionsInPlace(into buffer: inout ActionBuffer)
    /// How many actions ``legalActions(into:)`` would list, where the game can tell
    /// without writing them (the state unchanged); nil where it cannot (the default).
    /// The play loop asks it for a seat whose strategy draws uniformly
    /// (``Strategy/drawsUniformly``), then ``legalAction(at:)`` for the drawn index.
    mutating func legalActionCountInPlace() -> Int?
    /// The `index`-th action of ``legalActions(into:)``'s list (`index` below its count):
    /// the action a uniform draw of `index` from the list picks. The default lists them.
    mutating func legalAction(at index: Int) -> Int
    /// Whether `action` is one of ``legalActions(into:)``'s, where the game can tell
    /// without listing them (the state unchanged); nil where it cannot (the default).
    /// The play loop checks with it the decision of a seat whose strategy does not read
    /// the list (``Strategy/readsLegalActions``), and lists them where it answers nil.
    mutating func isLegalInPlace(_ action: Int) -> Bool?
    /// Applies a legal action of the mover.
    mutating func apply(_ action: Int)
    /// The result, once terminal.
    var outcome: Outcome? { get }
    /// What `seat` may see.
    func observation(for seat: Int) -> Observation
    /// A decisive move for `mover`: the first action of `legal` after which the match is
    /// over with `mover`'s share of the score the largest and not every seat's the same
    /// (the searches take it before asking a network). The default applies each action to
    /// a copy (``DecisiveMoves/byApplying(_:mover:legal:)``); a game whose moves are dear
    /// to apply may answer from its position, with the same result.
    func decisiveAction(for mover: Int, among legal: ActionBuffer) -> Int?
    /// ``observation(for:)`` for the play loop, read where the state lies, as
    /// ``legalActionsInPlace(into:)``; the state unchanged. The default calls
    /// ``observation(for:)``.
    mutating func observationInPlace(for seat: Int) -> Observation
    /// Makes `observation` (one of this match's, as the play loop keeps from turn to turn)
    /// ``observation(for:)`` of `seat`; the state unchanged. The loop keeps one observation
    /// a match and updates it each turn, so a game whose observation is large (rail's:
    /// the public table, with a reference to its map) overwrites it where it lies instead
    /// of building, copying and destroying one a turn. The default assigns
    /// ``observationInPlace(for:)``.
    mutating func observe(_ seat: Int, into observation: inout Observation)

    /// Applies one of the mover's legal actions drawn uniformly at random from `rng`: a
    /// step of a random playout, whose states are valued and thrown away. The default
    /// lists the legal actions into `buffer` and applies `buffer[rng.uniform(count)]`; a
    /// game may draw from the same distribution another way (Quortex draws a placement
    /// and checks only its cell, leaving the rest of the next turn's legality unworked
    /// until a draw needs it), so the draws, not their odds, may differ from the default's.
    mutating func applyRandomAction(using rng: inout LabRandom, buffer: inout ActionBuffer)
    /// Plays up to `limit` actions, each the mover's legal action that `rng.uniform(count)`
    /// indexes in ``legalActions(into:)``'s list, stopping at the end of the match; returns
    /// how many it played. MCTS's random rollout: the draws of a loop of single draws (the
    /// same actions for the same `rng`), in one call to the game instead of five calls an
    /// action through the protocol. The default, specialised in each game's module, counts
    /// and indexes where the game can (``legalActionCountInPlace()``, ``legalAction(at:)``,
    /// as the play loop draws) and lists into `buffer` otherwise.
    mutating func playUniformRollout(upTo limit: Int, using rng: inout LabRandom, buffer: inout ActionBuffer) -> Int

    /// The public outcome of chance that the last action led to, as a small number a
    /// search keys its tree by, so that positions after one action but different draws
    /// (Quortex: the tile the next mover holds) are not merged into one node. 0 for a
    /// game whose chance a search does not tell apart (the default).
    var chanceOutcome: Int { get }

    /// The first broken invariant, if any (for the conformance suite and debug checks).
    func invariantViolation() -> String?

    /// A readable name of `action` in this state (for traces).
    func describe(_ action: Int) -> String
    /// One seat's public standing, for traces (e.g. hand size, missions).
    func traceDetail(seat: Int) -> String
    /// A text drawing of the position, for games with a board; nil for others.
    func renderBoard() -> String?

    /// What search reads at a leaf, without allocating: at a terminal state the match
    /// score of `seat` (1 for a sole first place, 1/k for a first place shared by k, 0
    /// otherwise, as ``Outcome/score(of:)``); before, the game's own simple estimate of
    /// that score, in 0...1. Search uses the estimate where a rollout is cut off.
    func searchValue(of seat: Int) -> Double
    /// ``searchValue(of:)`` of every seat into `values` (one entry a seat): the same
    /// figures. The default asks seat by seat; a game whose estimate does work shared by
    /// the seats (Quortex's route search) does it once.
    func searchValues(into values: inout [Double])
    /// ``searchValues(into:)`` where the state lies (a search's leaf, a playout's end), as
    /// ``legalActionsInPlace(into:)``: the same figures, the state unchanged. The default
    /// calls ``searchValues(into:)``; Quortex searches its kept junction graph in place
    /// instead of a copy.
    mutating func searchValuesInPlace(into values: inout [Double])

    /// Names of the per-seat figures a finished match reports (CSV columns, JSON keys).
    static var seatStatNames: [String] { get }
    /// The per-seat figures, in the order of ``seatStatNames``.
    func seatStats(_ seat: Int) -> [Int]
}

extension GameState {
    public func renderBoard() -> String? { nil }
    @inlinable public var chanceOutcome: Int { 0 }
    @inlinable
    public mutating func legalActionsInPlace(into buffer: inout ActionBuffer) { legalActions(into: &buffer) }
    @inlinable public mutating func legalActionCountInPlace() -> Int? { nil }
    @inlinable public mutating func isLegalInPlace(_ action: Int) -> Bool? { nil }
    public mutating func legalAction(at index: Int) -> Int {
        var buffer = ActionBuffer()
        legalActionsInPlace(into: &buffer)
        return buffer[index]
    }
    @inlinable
    public mutating func observationInPlace(for seat: Int) -> Observation { observation(for: seat) }
    @inlinable
    public mutating func observe(_ seat: Int, into observation: inout Observation) { observation = observationInPlace(for: seat) }
    @inlinable
    public mutating func applyRandomAction(using rng: inout LabRandom, buffer: inout ActionBuffer) {
        legalActionsInPlace(into: &buffer)
        apply(buffer[rng.uniform(buffer.count)])
    }
    @inlinable
    public mutating func playUniformRollout(upTo limit: Int, using rng: inout LabRandom, buffer: inout ActionBuffer) -> Int {
        var played = 0
        while played < limit && !isTerminal {
            let action: Int
            if let count = legalActionCountInPlace() {
                action = legalAction(at: rng.uniform(count))
            } else {
                legalActionsInPlace(into: &buffer)
                action = buffer[rng.uniform(buffer.count)]
            }
            apply(action)
            played += 1
        }
        return played
    }
    @inlinable
    public func searchValues(into values: inout [Double]) {
        for seat in 0..<seatCount { values[seat] = searchValue(of: seat) }
    }
    @inlinable
    public mutating func searchValuesInPlace(into values: inout [Double]) { searchValues(into: &values) }
    @inlinable
    public func decisiveAction(for mover: Int, among legal: ActionBuffer) -> Int? {
        DecisiveMoves.byApplying(self, mover: mover, legal: legal)
    }
}

/// Decisive moves (Teytaud & Teytaud 2010), found by applying every legal action.
public enum DecisiveMoves {
    /// The first action of `legal` after which `state` is over with `mover`'s share of
    /// the score (``Outcome/shares(_:seats:)``) the largest and not everyone's.
    @inlinable
    public static func byApplying<S: GameState>(_ state: S, mover: Int, legal: ActionBuffer) -> Int? {
        for k in 0..<legal.count {
            var next = state
            next.apply(legal[k])
            guard next.isTerminal else { continue }
            if wins(next.outcome, mover: mover, seats: state.seatCount) { return legal[k] }
        }
        return nil
    }

    /// Whether `outcome` gives `mover` the largest share and not every seat the same.
    @inlinable
    public static func wins(_ outcome: Outcome?, mover: Int, seats: Int) -> Bool {
        let shares = Outcome.shares(outcome, seats: seats)
        guard let top = shares.max(), let low = shares.min() else { return false }
        return top > low && shares[mover] == top
    }
}

/// What one seat sees of a match. Equality compares what the seat sees, nothing more:
/// two states that differ only in what the seat cannot see give equal observations.
public protocol GameObservation: Sendable, Equatable {
    associatedtype State: GameState

    /// The observing seat.
    var seat: Int { get }

    /// Information-set sampling: a full state consistent with this observation, its
    /// hidden parts (other hands, deck orders, bag order) drawn from `rng`.
    func sampleState(using rng: inout LabRandom) -> State
    /// Draws the hidden parts of `state` again, for a search that samples many states
    /// from one observation: `state` is a copy of one ``sampleState(using:)`` made from
    /// this observation, unchanged since, and afterwards it equals what
    /// ``sampleState(using:)`` would return from the same `rng` (which advances alike).
    /// The default calls ``sampleState(using:)``; Quortex only reshuffles its bag, where
    /// a new sample would also rebuild the board's junction graph and legality analysis.
    func resample(_ state: inout State, using rng: inout LabRandom)
}

extension GameObservation {
    @inlinable
    public func resample(_ state: inout State, using rng: inout LabRandom) { state = sampleState(using: &rng) }

    /// A sampler of states consistent with this observation for a search: each call
    /// equals ``sampleState(using:)`` from the same stream, at the cost of
    /// ``resample(_:using:)`` on a copy of one state drawn once from a stream of its own.
    @inlinable
    public func sampler() -> (inout LabRandom) -> State {
        var own = LabRandom(seed: 0)
        let drawn = sampleState(using: &own)
        return { rng in
            var state = drawn
            self.resample(&state, using: &rng)
            return state
        }
    }
}
