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

    /// The default `cScale`.
    public static let defaultCScale = 0.1

    public init(simulations: Int = 32, considered: Int = 16, cVisit: Double = 50, cScale: Double = defaultCScale, gumbelScale: Double = 0,
                decisive: Bool = false) {
        precondition(simulations >= 1 && considered >= 1 && cVisit >= 0 && cScale >= 0 && gumbelScale >= 0)
        self.simulations = simulations
        self.considered = considered
        self.cVisit = cVisit
        self.cScale = cScale
        self.gumbelScale = gumbelScale
        self.decisive = decisive
    }
}
