/// A player: picks one of the legal actions from its seat's observation.
///
/// Strategies are made per match by a factory, so each instance belongs to one seat of
/// one match and may keep state (its random stream, a search tree) without locks.
public protocol Strategy<G>: AnyObject {
    associatedtype G: Game

    /// Chooses one action from `legal` (never empty, unless the strategy does not read it:
    /// see ``readsLegalActions``).
    func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int

    /// Whether ``chooseAction(_:legal:)`` reads `legal` (default true). A strategy that
    /// works out what it may do from its observation alone says false: the play loop then
    /// does not list the legal actions for its turns (it hands an empty list) and checks
    /// the action it returns with ``GameState/isLegalInPlace(_:)``. Called with a list, it
    /// returns the same action.
    var readsLegalActions: Bool { get }

    /// Whether the play loop reports every applied action to ``didApply(_:by:)``
    /// (default false: the loop then makes no such calls at all).
    var followsActions: Bool { get }

    /// Told after each action of the match, its own included: which action `seat`
    /// played. Actions are public in both games (a card drawn is public, which card is
    /// not), so this reveals nothing the observations do not; a search uses it to keep
    /// its tree between moves.
    func didApply(_ action: Int, by seat: Int)

    /// Why the strategy forfeited, after ``chooseAction(_:legal:)`` returned
    /// ``Forfeit/action``; nil for strategies that never forfeit (all but external bots).
    var forfeitKind: ForfeitKind? { get }

    /// Told once the match is over (its outcome, a forfeit included); an external bot is
    /// sent `end` here.
    func matchDidEnd(_ outcome: Outcome)

    /// Whether the play loop hands this strategy the whole state: true exactly for a
    /// ``PerfectInformationStrategy``. A property, so the loop asks it without a runtime
    /// cast on every match (a cast to `any PerfectInformationStrategy<G>` builds the
    /// existential's metadata from its mangled name: 40,000 instructions a rail match).
    var readsState: Bool { get }

    /// The policy the last ``chooseAction(_:legal:)`` searched its way to, for strategies
    /// that search (AlphaZero's improved policy: each legal action and its probability);
    /// nil for the others, and after a decision with one legal action. A teacher's games
    /// record it as the policy target with `oplab learn --teacher-targets search`.
    var searchPolicy: [(action: Int, probability: Double)]? { get }

    /// Whether every decision is a uniform draw from the legal actions and nothing else
    /// (`random`; default false). The play loop then asks ``drawIndex(among:)`` for an
    /// index and the state for that action (``GameState/legalAction(at:)``) where the game
    /// can count its legal actions without listing them: the same action as
    /// ``chooseAction(_:legal:)`` on the list, from the same draw.
    var drawsUniformly: Bool { get }

    /// The index of the legal action to play among `count` (asked only of a strategy
    /// that ``drawsUniformly``), drawn as ``chooseAction(_:legal:)`` draws it.
    func drawIndex(among count: Int) -> Int
}

extension Strategy {
    public var followsActions: Bool { false }
    public func didApply(_ action: Int, by seat: Int) {}
    public var forfeitKind: ForfeitKind? { nil }
    public func matchDidEnd(_ outcome: Outcome) {}
    public var readsState: Bool { false }
    public var searchPolicy: [(action: Int, probability: Double)]? { nil }
    public var drawsUniformly: Bool { false }
    public var readsLegalActions: Bool { true }
    public func drawIndex(among count: Int) -> Int {
        preconditionFailure("drawIndex(among:) is asked only of a strategy that draws uniformly")
    }
}

/// A strategy that reads the true state, hidden parts included. It exists only to
/// measure what hidden information is worth (an upper bound), and its name must say so
/// (e.g. `mcts-perfect`). ``Match/play(_:seed:strategies:buffer:observe:)`` hands it
/// the state instead of an observation.
public protocol PerfectInformationStrategy<G>: Strategy {
    /// Chooses one action from `legal` (never empty) knowing the whole state.
    func chooseAction(state: G.State, legal: ActionBuffer) -> Int
}

extension PerfectInformationStrategy {
    public var readsState: Bool { true }
}

/// What a factory knows when it makes a strategy for one seat of one match.
public struct StrategyContext<G: Game>: Sendable {
    public var game: G
    public var seat: Int
    /// The strategy's own seed, derived from the match seed and the seat.
    public var seed: UInt64
    /// The match's number in its run (a tournament's `match` column; 0 for a single
    /// match): an external bot's match id.
    public var match: Int

    public init(game: G, seat: Int, seed: UInt64, match: Int = 0) {
        self.game = game
        self.seat = seat
        self.seed = seed
        self.match = match
    }
}

/// Makes a fresh strategy per seat per match.
public typealias StrategyFactory<G: Game> = @Sendable (StrategyContext<G>) -> any Strategy<G>

/// `random`: uniform over the legal actions, from its own seeded stream.
public final class UniformRandomStrategy<G: Game>: Strategy {
    private var rng: LabRandom

    public init(seed: UInt64) { rng = LabRandom(seed: seed) }

    public func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        legal[drawIndex(among: legal.count)]
    }

    public var drawsUniformly: Bool { true }

    public func drawIndex(among count: Int) -> Int { rng.uniform(count) }
}

/// A strategy that plays a uniformly random legal move with probability `epsilon` and
/// asks `inner` otherwise: the `epsilon=` parameter every strategy takes, the simplest
/// difficulty knob (0: the strategy itself; 1: `random`).
///
/// Its coin and its random moves come from a stream of their own, so the inner
/// strategy's stream is untouched by the knob.
public final class EpsilonStrategy<G: Game>: Strategy {
    public let inner: any Strategy<G>
    public let epsilon: Double
    private var rng: LabRandom

    public init(inner: any Strategy<G>, epsilon: Double, seed: UInt64) {
        precondition((0...1).contains(epsilon))
        self.inner = inner
        self.epsilon = epsilon
        rng = LabRandom(seed: Seeds.derive(seed, 0x6570_7369_6c6f_6e, 0, SeedPurpose.strategy.rawValue))
    }

    public func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        if rng.chance(epsilon) { return legal[rng.uniform(legal.count)] }
        return inner.chooseAction(observation, legal: legal)
    }

    public var followsActions: Bool { inner.followsActions }

    public func didApply(_ action: Int, by seat: Int) { inner.didApply(action, by: seat) }

    public var forfeitKind: ForfeitKind? { inner.forfeitKind }

    public func matchDidEnd(_ outcome: Outcome) { inner.matchDidEnd(outcome) }
}
