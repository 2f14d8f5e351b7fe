import LabCore

/// How a ``GumbelSearch`` searches (Danihelka et al. 2022, "Policy improvement by
/// planning with Gumbel"; the constants are mctx's).
public struct GumbelSettings: Sendable, Equatable {
    /// Simulations per decision.
    public var simulations: Int
    /// Root actions considered at most (the top of the Gumbel-perturbed logits).
    public var considered: Int
    /// σ(q̂) = (cVisit + max visits) · cScale · q̂, q̂ the completed Q rescaled to [0, 1]
    /// over a node's actions.
    public var cVisit: Double
    public var cScale: Double
    /// Scale of the Gumbel noise at the root: 1 in self-play (exploration), 0 in play
    /// (the best action by logits and values).
    public var gumbelScale: Double
    /// Decisive moves (Teytaud & Teytaud 2010): at each node the search reaches, an action
    /// that ends the match as the mover's win is taken at once, before any network
    /// evaluation, whatever the priors say. For games where a match ends on a move
    /// (Connect Four, Quortex), not where it ends on a count (rail).
    public var decisive: Bool
    /// Random playouts from each evaluated leaf (0: none): each deals the hidden state
    /// afresh from the leaf mover's view, plays `rolloutDepth` uniformly random actions and
    /// is valued where it stops (the outcome, or the game's ``GameState/searchValues(into:)``
    /// estimate); their mean is mixed into the network's value with weight `mix`
    /// (AlphaGo's λ, Silver et al. 2016).
    public var rollouts: Int
    public var rolloutDepth: Int
    public var mix: Double

    /// The default `cScale`.
    public static let defaultCScale = 0.1
    /// The default playout length and weight (measured on Quortex).
    public static let defaultRolloutDepth = 10
    public static let defaultMix = 0.75

    public init(simulations: Int = 32, considered: Int = 16, cVisit: Double = 50, cScale: Double = defaultCScale, gumbelScale: Double = 0,
                decisive: Bool = false, rollouts: Int = 0, rolloutDepth: Int = defaultRolloutDepth, mix: Double = defaultMix) {
        precondition(simulations >= 1 && considered >= 1 && cVisit >= 0 && cScale >= 0 && gumbelScale >= 0)
        precondition(rollouts >= 0 && rolloutDepth >= 0 && (0...1).contains(mix))
        self.simulations = simulations
        self.considered = considered
        self.cVisit = cVisit
        self.cScale = cScale
        self.gumbelScale = gumbelScale
        self.decisive = decisive
        self.rollouts = rollouts
        self.rolloutDepth = rolloutDepth
        self.mix = mix
    }
}
