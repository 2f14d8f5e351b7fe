import Evaluators
import Foundation
import LabCore
import Search
import Synchronization

/// A ``PolicyValueNet`` seen by a search through a game's feature encoder: the features
/// of the mover's observation only, and batched evaluations on BLAS. One per search
/// (its workspace is its own); the weights are shared read-only.
final class NetworkModel<G: Game, E: FeatureEncoder>: PolicyValueModel where E.Observation == G.State.Observation {
    typealias State = G.State
    let network: PolicyValueNet
    let encoder: E
    /// The symmetries each evaluation averages over (none: the network as it answers).
    private let symmetries: [FeatureSymmetry]
    private let workspace = PolicyValueWorkspace()
    private var images: [Float] = [], imageLogits: [Float] = [], imageValues: [Float] = []
    /// Evaluations made and positions evaluated (for the mean batch).
    private(set) var calls = 0
    private(set) var positions = 0

    /// Whether the first layer adds the non-zero features' weight rows (the encoder's
    /// ``FeatureEncoder/sparseInput``) rather than multiplying the whole matrix.
    private let sparseInput: Bool

    /// With `symmetric`, each position is evaluated with its symmetric images too (the
    /// encoder's ``FeatureEncoder/symmetries``) and the logits and values are their means.
    /// - Parameter dense: the whole product even for sparse features (self-play: the
    ///   learning's bytes stay those of the documented commands, made before the sparse path).
    init(network: PolicyValueNet, encoder: E, symmetric: Bool = false, dense: Bool = false) {
        self.network = network
        self.encoder = encoder
        symmetries = symmetric ? encoder.symmetries : []
        sparseInput = encoder.sparseInput && !dense
    }

    var featureCount: Int { encoder.featureCount }
    var actionCount: Int { network.shape.actions }
    var seatCount: Int { network.shape.seats }

    func encode(_ state: G.State, seat: Int, into features: UnsafeMutableBufferPointer<Float>) {
        encoder.encode(state.observation(for: seat), into: features)
    }

    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>) {
        calls += 1
        positions += batch
        if symmetries.isEmpty {
            network.evaluate(features, batch: batch, logits: logits, values: values, workspace: workspace,
                             sparseInput: sparseInput)
        } else {
            evaluateSymmetric(features, batch: batch, logits: logits, values: values)
        }
    }

    /// The originals and every symmetric image in one product; each position's logits
    /// (mapped back to its own action ids) and values are the means over its images.
    private func evaluateSymmetric(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>,
                                   values: UnsafeMutablePointer<Float>) {
        let f = featureCount, a = actionCount, s = seatCount, copies = 1 + symmetries.count
        let rows = copies * batch
        if images.count < rows * f { images = [Float](repeating: 0, count: rows * f) }
        if imageLogits.count < rows * a { imageLogits = [Float](repeating: 0, count: rows * a) }
        if imageValues.count < rows * s { imageValues = [Float](repeating: 0, count: rows * s) }
        images.withUnsafeMutableBufferPointer { x in
            x.baseAddress!.update(from: features, count: batch * f)
            for (k, symmetry) in symmetries.enumerated() {
                for b in 0..<batch { symmetry.mapFeatures(features + b * f, to: x.baseAddress! + ((k + 1) * batch + b) * f) }
            }
        }
        images.withUnsafeBufferPointer { x in
            imageLogits.withUnsafeMutableBufferPointer { l in
                imageValues.withUnsafeMutableBufferPointer { v in
                    network.evaluate(x.baseAddress!, batch: rows, logits: l.baseAddress!, values: v.baseAddress!, workspace: workspace)
                }
            }
        }
        let scale = 1 / Float(copies)
        for b in 0..<batch {
            for i in 0..<a { logits[b * a + i] = imageLogits[b * a + i] }
            for i in 0..<s { values[b * s + i] = imageValues[b * s + i] }
            for (k, symmetry) in symmetries.enumerated() {
                let row = (k + 1) * batch + b
                for i in 0..<a { logits[b * a + i] += imageLogits[row * a + symmetry.actions[i]] }
                for i in 0..<s { values[b * s + i] += imageValues[row * s + i] }
            }
            for i in 0..<a { logits[b * a + i] *= scale }
            for i in 0..<s { values[b * s + i] *= scale }
        }
    }
}

/// `alphazero(...)`: a Gumbel search on a learned policy-value model.
final class AlphaZeroPlayer<G: Game, E: FeatureEncoder>: Strategy where E.Observation == G.State.Observation {
    private let search: GumbelSearch<G.State>
    private var driver = SearchDriver<G.State>()
    private var rng: LabRandom
    private let seat: Int

    init(_ context: StrategyContext<G>, network: PolicyValueNet, encoder: E, settings: GumbelSettings, symmetric: Bool) {
        search = GumbelSearch(model: NetworkModel<G, E>(network: network, encoder: encoder, symmetric: symmetric), settings: settings)
        rng = LabRandom(seed: Seeds.derive(context.seed, 0x617a, 0, SeedPurpose.sampling.rawValue))
        seat = context.seat
    }

    private var searched = false

    func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        searched = legal.count > 1
        if legal.count == 1 { return legal[0] }
        let root = observation.sampleState(using: &rng)
        search.begin(state: root, seat: seat, legal: legal, rng: LabRandom(seed: rng.next()), sample: observation.sampler())
        driver.run(search)
        return search.action
    }

    var searchPolicy: [(action: Int, probability: Double)]? { searched ? search.improvedPolicy : nil }
}

/// `policy(...)`: the network alone, sampling its policy over the legal actions at a
/// temperature (0: its most likely action).
final class PolicyPlayer<G: Game, E: FeatureEncoder>: Strategy where E.Observation == G.State.Observation {
    private let model: NetworkModel<G, E>
    private let temperature: Double
    private var rng: LabRandom
    private var features: [Float]
    private var logits: [Float]
    private var values: [Float]

    init(_ context: StrategyContext<G>, network: PolicyValueNet, encoder: E, temperature: Double, symmetric: Bool) {
        model = NetworkModel(network: network, encoder: encoder, symmetric: symmetric)
        self.temperature = temperature
        rng = LabRandom(seed: Seeds.derive(context.seed, 0x706f, 0, SeedPurpose.sampling.rawValue))
        features = [Float](repeating: 0, count: encoder.featureCount)
        logits = [Float](repeating: 0, count: network.shape.actions)
        values = [Float](repeating: 0, count: network.shape.seats)
    }

    func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        if legal.count == 1 { return legal[0] }
        features.withUnsafeMutableBufferPointer { model.encoder.encode(observation, into: $0) }
        model.evaluate(features, batch: 1, logits: &logits, values: &values)
        return Self.sample((0..<legal.count).map { legal[$0] }, logits: logits, temperature: temperature, rng: &rng)
    }

    /// An action of `actions` drawn from softmax(logits / temperature); the most likely
    /// (the lower action on a tie) at temperature 0.
    static func sample(_ actions: [Int], logits: [Float], temperature: Double, rng: inout LabRandom) -> Int {
        guard temperature > 0 else {
            var best = actions[0]
            for a in actions where logits[a] > logits[best] || (logits[a] == logits[best] && a < best) { best = a }
            return best
        }
        let scaled = actions.map { Double(logits[$0]) / temperature }
        let top = scaled.max()!
        let weights = scaled.map { exp($0 - top) }
        var u = rng.unit() * weights.reduce(0, +)
        for (k, w) in weights.enumerated() {
            u -= w
            if u < 0 { return actions[k] }
        }
        return actions[actions.count - 1]
    }
}

/// How a game's learned policy-value models are loaded and checked: where its feature
/// encoder meets the network.
struct LearnedSupport<G: Game>: Sendable {
    /// The shipped models (compiled in from configs/models/learned/), one a seat count; none
    /// for a game without one yet.
    let shipped: [ShippedModel]
    /// Whether a match ends on a winning move (Connect Four, Quortex), so that searches
    /// take decisive moves by default.
    let decisive: Bool
    /// `alphazero`'s default `rollouts`: 0 where the network's value alone searches best.
    let rollouts: Int
    /// `alphazero`'s default `sims`.
    let sims: Int
    /// The network of a model file, checked for the game.
    let load: @Sendable (_ path: String, _ game: G, _ seats: Int) throws(InputError) -> LoadedPolicyValue
    let alphazero: @Sendable (_ context: StrategyContext<G>, _ network: PolicyValueNet, _ settings: GumbelSettings, _ symmetric: Bool) -> any Strategy<G>
    let policy: @Sendable (_ context: StrategyContext<G>, _ network: PolicyValueNet, _ temperature: Double, _ symmetric: Bool) -> any Strategy<G>
    /// How many symmetries the game's features have (so whether `symmetric` means something).
    let symmetryCount: @Sendable (G) -> Int

    init<E: FeatureEncoder>(shipped: [ShippedModel] = [], decisive: Bool = false, rollouts: Int = 0, sims: Int = 32,
                            encoder: @escaping @Sendable (G) -> E) where E.Observation == G.State.Observation {
        self.shipped = shipped
        self.decisive = decisive
        self.rollouts = rollouts
        self.sims = sims
        load = { path, game, seats throws(InputError) in
            let encoder = encoder(game)
            let file: String
            let model: LearnedModel
            if path == ShippedModel.keyword {
                (file, model) = try Self.shippedModel(shipped, seats: seats, game: E.gameName)
            } else {
                file = path
                model = try ModelStores.learned.load(path)
            }
            try model.check(game: E.gameName, featureVersion: E.featureVersion, layout: encoder.layoutKey, inputs: encoder.featureCount,
                            actions: game.newMatch(seed: 0).actionSpaceSize, seats: seats, file: file)
            try BLASThreads.require(for: file)
            BLASThreads.pinToOne()
            let scale = model.note(LearnedModel.searchScaleNote).flatMap(Double.init).flatMap { (0.001...100).contains($0) ? $0 : nil }
            return LoadedPolicyValue(network: model.network, scale: scale, symmetric: model.learnedWithSymmetries)
        }
        alphazero = { context, network, settings, symmetric in
            AlphaZeroPlayer<G, E>(context, network: network, encoder: encoder(context.game), settings: settings, symmetric: symmetric)
        }
        policy = { context, network, temperature, symmetric in
            PolicyPlayer<G, E>(context, network: network, encoder: encoder(context.game), temperature: temperature, symmetric: symmetric)
        }
        symmetryCount = { game in encoder(game).symmetries.count }
    }
}

extension LearnedSupport {
    /// The shipped model that values `seats` seats: `model=shipped` at that table.
    static func shippedModel(_ shipped: [ShippedModel], seats: Int, game: String) throws(InputError) -> (label: String, model: LearnedModel) {
        guard !shipped.isEmpty else {
            throw InputError("model=shipped: \(game) has no shipped learned model yet; pass model=FILE (`oplab learn \(game)` writes one)")
        }
        // The one named for the seat count first, then GAME.model: a table reads only its
        // own model, and the others only to name them in a refusal.
        let named = "-\(seats).model", base = "/\(game).model"
        let ordered = shipped.sorted { a, b in
            func rank(_ m: ShippedModel) -> Int { m.path.hasSuffix(named) ? 0 : m.path.hasSuffix(base) ? 1 : 2 }
            return rank(a) < rank(b)
        }
        var served: [(seats: Int, path: String)] = []
        for candidate in ordered {
            let model = try ModelStores.learned.load(candidate)
            if model.network.shape.seats == seats { return (candidate.label, model) }
            served.append((model.network.shape.seats, candidate.path))
        }
        let list = served.sorted { $0.seats < $1.seats }.map { "\($0.seats) seats (\($0.path))" }
        throw InputError("model=shipped: \(game)'s shipped learned models are for \(list.joined(separator: " and ")); "
            + "this table has \(seats) seats: pass model=FILE (`oplab learn \(game) --seats \(seats)` writes one)")
    }
}

/// A learned model read for play: its network, the σ scale its search was learned with
/// (its note `search.cscale`) if it says, and whether it was learned on symmetric images.
struct LoadedPolicyValue: Sendable {
    let network: PolicyValueNet
    let scale: Double?
    let symmetric: Bool
}

/// `alphazero(...)` and `policy(...)` for a game with learned models.
enum LearnedEntries {
    static let model = Parameter<String>("model")
    static let sims = Parameter<Int>("sims")
    static let considered = Parameter<Int>("considered")
    static let gumbel = Parameter<Double>("gumbel")
    static let cscale = Parameter<Double>("cscale")
    static let decisive = Parameter<Bool>("decisive")
    static let temperature = Parameter<Double>("temperature")
    static let rollouts = Parameter<Int>("rollouts")
    static let rolloutDepth = Parameter<Int>("rolloutDepth")
    static let mix = Parameter<Double>("mix")
    static let symmetric = Parameter<Symmetric>("symmetric")

    /// `symmetric=`: whether play averages over the features' symmetric images.
    enum Symmetric: String, CaseIterable, ParameterValue {
        /// As the model was learned (on after `oplab learn --symmetries`).
        case model
        case on = "true"
        case off = "false"
    }

    static func entries<G: Game>(_ support: LearnedSupport<G>) -> [StrategyEntry<G>] {
        let modelSpec = model.file(keywords: [ShippedModel.keyword], default: ShippedModel.keyword,
                                  "the policy-value model file (from `oplab learn`); shipped: "
                                  + (support.shipped.isEmpty ? "none yet for this game"
                                      : support.shipped.map(\.path).joined(separator: " and ") + ", compiled into oplab, the one for the table's seat count"))
        return [
            StrategyEntry(
                name: "alphazero",
                summary: "Gumbel AlphaZero search on a learned policy-value model: sequential halving at the root, leaves evaluated in batches on BLAS",
                parameters: [
                    modelSpec,
                    sims.spec(1...100_000, default: support.sims, "simulations per move"),
                    considered.spec(1...256, default: 16, "root actions considered (top of the Gumbel-perturbed policy)"),
                    gumbel.spec(0...10, default: 0, "Gumbel noise at the root (0 in play: the best action; 1 in self-play)"),
                    cscale.spec(0...100, default: 0,
                                  "weight of the search's values against the network's priors: σ(q) = (50 + max visits) · cscale · q, q rescaled to [0, 1] (mctx's value_scale); 0: the one the model was learned with (its note search.cscale), else \(GumbelSettings.defaultCScale)"),
                    decisive.spec(default: support.decisive,
                                  "a move that wins on the spot is taken at every node of the search, before the network is asked"),
                    rollouts.spec(0...10_000, default: support.rollouts,
                                  "random playouts from each evaluated leaf (hidden state dealt afresh from the mover's view), their mean mixed into the network's value (AlphaGo's λ)"),
                    rolloutDepth.spec(0...10_000, default: GumbelSettings.defaultRolloutDepth,
                                      "uniformly random actions a playout plays before the game's estimate values it"),
                    mix.spec(0...1, default: GumbelSettings.defaultMix, "the playouts' weight against the network's value (0: the network alone)"),
                    symmetricParameter,
                ]
            ) { params, game throws(InputError) in
                try Self.checkSymmetric(params, game, support)
                let loaded = try support.load(params[model], game, game.seatCount)
                let symmetric = Self.symmetric(params, game, support, loaded)
                let network = loaded.network
                let scale = params[cscale] > 0 ? params[cscale] : loaded.scale ?? GumbelSettings.defaultCScale
                let settings = GumbelSettings(simulations: params[sims], considered: params[considered],
                                              cScale: scale, gumbelScale: params[gumbel],
                                              decisive: params[decisive], rollouts: params[rollouts],
                                              rolloutDepth: params[rolloutDepth], mix: params[mix])
                return { context in support.alphazero(context, network, settings, symmetric) }
            },
            StrategyEntry(
                name: "policy",
                summary: "a learned policy-value model's policy alone, sampled at a temperature: the difficulty dial below alphazero",
                parameters: [
                    modelSpec,
                    temperature.spec(0...100, default: 0, "0: the most likely action; higher: a weaker, more varied player"),
                    symmetricParameter,
                ]
            ) { params, game throws(InputError) in
                try Self.checkSymmetric(params, game, support)
                let loaded = try support.load(params[model], game, game.seatCount)
                let symmetric = Self.symmetric(params, game, support, loaded), network = loaded.network
                let temperature = params[temperature]
                return { context in support.policy(context, network, temperature, symmetric) }
            },
        ]
    }

    static let symmetricParameter = symmetric.spec(
        default: .model,
        "evaluate each position with its symmetric images too (Connect Four: the mirror; tic-tac-toe: eight) and average; "
            + "model: as the model was learned (on after oplab learn --symmetries); true is refused where the features have no symmetries")

    /// `symmetric=true` is refused for a game whose features have no symmetries (before
    /// the model is read).
    private static func checkSymmetric<G: Game>(_ params: ResolvedParameters, _ game: G, _ support: LearnedSupport<G>) throws(InputError) {
        if params[symmetric] == .on && support.symmetryCount(game) == 0 {
            throw InputError("symmetric=true: \(G.name)'s features have no symmetries to average over; leave it false")
        }
    }

    /// Whether play averages over the symmetries: as asked, or as the model was learned.
    private static func symmetric<G: Game>(_ params: ResolvedParameters, _ game: G, _ support: LearnedSupport<G>, _ loaded: LoadedPolicyValue) -> Bool {
        switch params[symmetric] {
        case .on: true
        case .off: false
        case .model: loaded.symmetric && support.symmetryCount(game) > 0
        }
    }
}
