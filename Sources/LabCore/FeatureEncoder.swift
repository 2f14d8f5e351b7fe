/// Turns one seat's observation into a fixed-length vector of numbers, the input of a
/// learned value model.
///
/// Each game defines its encoder in its own module. An encoder reads an observation
/// only, so by type it cannot see a hidden part of the match: two states that differ
/// only in what the seat cannot see give the same features.
public protocol FeatureEncoder: Sendable {
    associatedtype Observation: GameObservation

    /// The game's registry name (written into model files).
    static var gameName: String { get }
    /// The version of the feature layout. A change of meaning or order bumps it, so a
    /// model trained on the old layout is refused instead of misread.
    static var featureVersion: Int { get }

    /// Length of the vector (may depend on the map or board size).
    var featureCount: Int { get }
    /// What the layout depends on besides the version, e.g. the map's size; a model file
    /// records it and is refused where it differs.
    var layoutKey: String { get }
    /// One short name per feature, in order (documentation, debugging, model files).
    var featureNames: [String] { get }

    /// Writes the features of `observation` into `features` (exactly ``featureCount``
    /// values).
    func encode(_ observation: Observation, into features: UnsafeMutableBufferPointer<Float>)
    /// Features per action id at the end of the vector (0: none): a policy-value network
    /// adds their product with weights shared by every action to each action's logit.
    var actionFeatures: Int { get }
    /// The game's symmetries in these features (none by default): each maps a position's
    /// features and action ids to those of its symmetric image.
    var symmetries: [FeatureSymmetry] { get }
    /// Whether the vectors are mostly zeros (a network's first layer then adds the weight
    /// rows of the non-zero features instead of multiplying the whole matrix).
    var sparseInput: Bool { get }
}

extension FeatureEncoder {
    public var actionFeatures: Int { 0 }
    public var symmetries: [FeatureSymmetry] { [] }
    public var sparseInput: Bool { false }

    /// For an encoder whose vector is `base`'s features followed by its action features:
    /// checks that `features` holds ``featureCount`` values, writes `base`'s features of
    /// `observation` first, and returns the rest of the buffer, zeroed.
    public func encodeBase<Base: FeatureEncoder>(_ base: Base, _ observation: Observation,
                                                 into features: UnsafeMutableBufferPointer<Float>) -> UnsafeMutableBufferPointer<Float>
    where Base.Observation == Observation {
        precondition(features.count == featureCount, "\(Self.gameName) policy features: \(featureCount) values, buffer holds \(features.count)")
        let n = base.featureCount
        base.encode(observation, into: UnsafeMutableBufferPointer(rebasing: features[0..<n]))
        let rest = UnsafeMutableBufferPointer(rebasing: features[n...])
        for i in rest.indices { rest[i] = 0 }
        return rest
    }
}

/// Values a search reads at a leaf instead of (or after) a rollout: for each seat, the
/// expected match score (``Outcome/score(of:)``) of the position, in 0...1.
///
/// One evaluator serves one search (one seat of one match), so it may keep scratch
/// buffers without locks; the weights behind it are shared read-only.
public protocol LeafEvaluator<State>: AnyObject {
    associatedtype State: GameState

    /// Writes the value of `state` for every seat into `values` (`state.seatCount`
    /// entries). `state` is not terminal.
    func evaluate(_ state: State, into values: UnsafeMutableBufferPointer<Double>)
}

/// A symmetry of a game that its features express: a board's mirror image, say. The
/// symmetric position's features are a permutation of the original's, and so are its
/// action ids; a network can be trained on both (twice the data) and asked about both (a
/// steadier answer).
public struct FeatureSymmetry: Sendable, Equatable {
    /// The symmetric position's feature `i` is the original's feature `features[i]`.
    public let features: [Int]
    /// The original's action id `a` is the symmetric position's action id `actions[a]`.
    public let actions: [Int]

    public init(features: [Int], actions: [Int]) {
        precondition(Set(features).count == features.count && features.allSatisfy { features.indices.contains($0) }, "symmetry: features are not a permutation")
        precondition(Set(actions).count == actions.count && actions.allSatisfy { actions.indices.contains($0) }, "symmetry: actions are not a permutation")
        self.features = features
        self.actions = actions
    }

    /// Writes the symmetric image of `count` features at `source` to `target`.
    public func mapFeatures(_ source: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>) {
        for i in features.indices { target[i] = source[features[i]] }
    }

    /// Writes the symmetric image of per-action values (logits, policy targets, legal
    /// masks) at `source` to `target`.
    public func mapActions(_ source: UnsafePointer<Float>, to target: UnsafeMutablePointer<Float>) {
        for a in actions.indices { target[actions[a]] = source[a] }
    }
}
