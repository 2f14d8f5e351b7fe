import Evaluators
import Foundation
import LabCore
import Synchronization

/// A model file loaded and checked for one game: what strategies need to play it.
struct LoadedModel<G: Game>: Sendable {
    let network: MLP
    /// A leaf evaluator for one search (its own scratch; the weights shared).
    let leaf: @Sendable () -> any LeafEvaluator<G.State>
    /// `blas-greedy` for one seat, averaging over `samples` draws of the hidden parts.
    let greedy: @Sendable (_ context: StrategyContext<G>, _ samples: Int) -> any Strategy<G>
}

/// A model compiled into `oplab` at build time from its file under configs/models/
/// (Plugins/EmbedConfigs), so the default model works from any folder.
package struct ShippedModel: Sendable {
    let file: EmbeddedFile

    /// The value of `model=` (the default) and `evaluator=` that names the game's shipped model.
    static let keyword = "shipped"

    /// The value models of `blas-greedy` and `mcts(evaluator=shipped)`.
    static let rail = ShippedModel(file: EmbeddedConfigs.railValue)
    static let quortex = ShippedModel(file: EmbeddedConfigs.quortexValue)
    /// The learned policy-value models of `game`, compiled in: `configs/models/learned/GAME.model`
    /// and `GAME-N.model` for another seat count (a model values one seat count), by path.
    static func learned(for game: String) -> [ShippedModel] {
        EmbeddedConfigs.all.filter { isLearned($0.path, of: game) }.map(ShippedModel.init(file:)).sorted { $0.path < $1.path }
    }

    /// Whether `path` names a learned model of `game`: `configs/models/learned/GAME.model`
    /// or `GAME-N.model` (N digits), not another game's whose name starts alike.
    package static func isLearned(_ path: String, of game: String) -> Bool {
        let prefix = "configs/models/learned/" + game, suffix = ".model"
        guard path.hasPrefix(prefix), path.hasSuffix(suffix), path.count >= prefix.count + suffix.count else { return false }
        let rest = path.dropFirst(prefix.count).dropLast(suffix.count)
        return rest.isEmpty || (rest.first == "-" && rest.count > 1 && rest.dropFirst().allSatisfy { $0.isASCII && $0.isNumber })
    }

    /// Every shipped model.
    package static var all: [ShippedModel] { EmbeddedConfigs.all.map(ShippedModel.init(file:)) }

    /// The file it is compiled from, relative to the package root.
    package var path: String { file.path }

    /// The file's bytes (a damaged embedded copy stops the program).
    package var bytes: [UInt8] { file.bytes }

    /// How messages name it.
    var label: String { "the shipped model (\(path))" }
}

/// How a game's learned value models are loaded, checked, played and trained: the one
/// place where a game's feature encoder meets the Evaluators module.
struct ModelSupport<G: Game>: Sendable {
    /// The shipped model: `model=shipped`, blas-greedy's default, and `evaluator=shipped`.
    let shipped: ShippedModel
    let load: @Sendable (_ path: String, _ game: G) throws(InputError) -> LoadedModel<G>
    let featureCount: @Sendable (G) -> Int
    /// Plays the teachers, labels the positions and trains a network on them.
    let train: @Sendable (_ game: G, _ teachers: [StrategyFactory<G>], _ request: TrainingRequest,
                          _ log: @escaping @Sendable (String) -> Void) -> ValueModel

    init<E: FeatureEncoder>(shipped: ShippedModel, encoder: @escaping @Sendable (G) -> E) where E.Observation == G.State.Observation {
        self.shipped = shipped
        load = { path, game throws(InputError) in
            let encoder = encoder(game)
            let isShipped = path == ShippedModel.keyword
            let model = try isShipped ? ModelStores.value.load(shipped) : ModelStores.value.load(path)
            try model.check(game: E.gameName, featureVersion: E.featureVersion, layout: encoder.layoutKey,
                            inputs: encoder.featureCount, file: isShipped ? shipped.label : path)
            // Parallelism is across matches: one OpenBLAS thread per worker.
            try BLASThreads.require(for: isShipped ? shipped.label : path)
            BLASThreads.pinToOne()
            let network = model.network
            return LoadedModel(network: network,
                               leaf: { ModelLeafEvaluator<G.State, E>(network: network, encoder: encoder) },
                               greedy: { context, samples in ValueGreedy<G, E>(context, network: network, encoder: encoder, samples: samples) })
        }
        featureCount = { encoder($0).featureCount }
        train = { game, teachers, request, log in
            let encoder = encoder(game)
            BLASThreads.pinToOne()
            let started = Date()
            let data = SelfPlay.positions(game: game, teachers: teachers, encoder: encoder, settings: request.selfPlay) { done in
                // A line per tenth (chunks of 32 matches report in turn).
                let total = request.selfPlay.matches
                if done * 10 / total > max(0, done - 32) * 10 / total {
                    log("self-play: \(done)/\(request.selfPlay.matches) matches")
                }
            }
            let playSeconds = Date().timeIntervalSince(started)
            log("self-play: \(data.count) rows (\(request.selfPlay.positionsPerMatch) positions per match x \(game.seatCount) seats) in \(String(format: "%.1f", playSeconds)) s")
            let shape = MLPShape(inputs: encoder.featureCount, hidden: request.hidden)
            log("training \(shape) (\(shape.parameterCount) parameters) for \(request.training.epochs) epochs, batch \(request.training.batchSize), Adam lr \(request.training.learningRate)")
            let trainStarted = Date()
            let result = Training.train(MLP(shape: shape, seed: Seeds.derive(request.training.seed, 0x6d6f_6465_6c)), on: data,
                                        settings: request.training) { r in
                log(String(format: "epoch %3d  train loss %.4f  validation loss %.4f  accuracy %.3f",
                           r.epoch, r.trainLoss, r.validationLoss, r.validationAccuracy))
            }
            let trainSeconds = Date().timeIntervalSince(trainStarted)
            log(String(format: "best epoch %d: validation loss %.4f (always-the-mean baseline %.4f), accuracy %.3f; %.1f s",
                       result.best.epoch, result.best.validationLoss, result.baselineLoss, result.best.validationAccuracy, trainSeconds))
            var notes = request.notes
            notes += [
                .init("rows", "\(data.count) (\(result.trainRows) trained, \(result.validationRows) held out)"),
                .init("best-epoch", "\(result.best.epoch) of \(request.training.epochs)"),
                .init("validation-loss", String(format: "%.4f", result.best.validationLoss)),
                .init("baseline-loss", String(format: "%.4f", result.baselineLoss)),
                .init("validation-accuracy", String(format: "%.4f", result.best.validationAccuracy)),
            ]
            return ValueModel(game: E.gameName, featureVersion: E.featureVersion, layout: encoder.layoutKey,
                              network: result.model, notes: notes)
        }
    }
}

/// What `oplab train` asks for.
public struct TrainingRequest: Sendable {
    /// Seat s of match m plays `teachers[(m + s) % teachers.count]`.
    public var teachers: [StrategySpec]
    public var selfPlay: SelfPlaySettings
    public var hidden: [Int]
    public var training: TrainingSettings
    /// Written into the model file (`note.KEY: value`).
    public var notes: [ValueModel.Note]

    public init(teachers: [StrategySpec], selfPlay: SelfPlaySettings, hidden: [Int], training: TrainingSettings, notes: [ValueModel.Note] = []) {
        precondition(!teachers.isEmpty, "at least one teacher")
        self.teachers = teachers
        self.selfPlay = selfPlay
        self.hidden = hidden
        self.training = training
        self.notes = notes
    }
}

/// Model files read once per process and shared (the weights are read-only): a file is
/// read again only when its size or modification time changes; a shipped model is decoded
/// once. One cache per kind of model (value models, learned policy-value models).
final class ModelCache<Model: Sendable>: Sendable {
    private let cache = Mutex<[String: (stamp: String, model: Model)]>([:])
    private let read: @Sendable (String) throws(InputError) -> Model
    private let decode: @Sendable ([UInt8], String) throws(InputError) -> Model

    init(read: @escaping @Sendable (_ path: String) throws(InputError) -> Model,
         decode: @escaping @Sendable (_ bytes: [UInt8], _ file: String) throws(InputError) -> Model) {
        self.read = read
        self.decode = decode
    }

    func load(_ path: String) throws(InputError) -> Model {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let stamp = "\(attributes?[.size] ?? "-")/\((attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)"
        if let hit = cache.withLock({ $0[path] }), hit.stamp == stamp { return hit.model }
        let model = try read(path)
        cache.withLock { $0[path] = (stamp, model) }
        return model
    }

    func load(_ shipped: ShippedModel) throws(InputError) -> Model {
        let key = "\(ShippedModel.keyword):\(shipped.path)"
        if let hit = cache.withLock({ $0[key] }) { return hit.model }
        let model = try decode(shipped.bytes, shipped.label)
        cache.withLock { $0[key] = ("", model) }
        return model
    }
}

/// The process's model caches.
enum ModelStores {
    /// Value models (`oplab train`): blas-greedy, mcts's evaluator.
    static let value = ModelCache<ValueModel>(read: { path throws(InputError) in try ValueModel.load(path: path) },
                                              decode: { bytes, file throws(InputError) in try ValueModel.decode(bytes, file: file) })
    /// Learned policy-value models (`oplab learn`): alphazero, policy.
    static let learned = ModelCache<LearnedModel>(read: { path throws(InputError) in try LearnedModel.load(path: path) },
                                                  decode: { bytes, file throws(InputError) in try LearnedModel.decode(bytes, file: file) })
}

/// `blas-greedy(model=PATH, samples=K)` for a game with a model.
enum ModelEntries {
    static let model = Parameter<String>("model")
    static let samples = Parameter<Int>("samples")

    static func greedy<G: Game>(_ support: ModelSupport<G>) -> StrategyEntry<G> {
        StrategyEntry(
            name: "blas-greedy",
            summary: "one ply on a learned value model: every successor of every legal action, over samples of the hidden parts, evaluated in one batched sgemm pass",
            parameters: [
                model.file(keywords: [ShippedModel.keyword], default: ShippedModel.keyword,
                              "the model file (from `oplab train`); shipped: \(support.shipped.path), compiled into oplab"),
                samples.spec(1...256, default: 8,
                              "draws of the hidden parts and chance (cards, tiles) each action is averaged over"),
            ]
        ) { params, game throws(InputError) in
            let loaded = try support.load(params[model], game)
            let samples = params[Self.samples]
            return { context in loaded.greedy(context, samples) }
        }
    }
}
