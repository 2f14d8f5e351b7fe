import Dispatch
import Evaluators
import Foundation
import LabCore
import Search
import Reports
import Tournament

/// What `oplab learn` asks for.
public struct LearnRequest: Sendable, Equatable {
    public var game: String
    public var rules: [RuleSetting] = []
    public var map: String?
    public var seats = 2
    public var generations = 10
    /// Self-play games per generation.
    public var games = 64
    /// Simulations of a full search; a cheap one (playout-cap randomisation) has a quarter.
    public var sims = 32
    /// Share of the moves searched in full and recorded.
    public var fullShare = 0.25
    public var considered = 16
    /// Moves of each self-play game with root noise (then none).
    public var exploreMoves = 12
    /// The network self-play searches with.
    public enum SelfPlayer: String, Sendable, Equatable, CaseIterable {
        /// The trainee, trained on every generation (AlphaZero, 2018): the data improve
        /// as the network does; the gate decides only which network is published.
        case latest
        /// The last network the gate accepted (AlphaGo Zero, 2017): a gate that accepts
        /// rarely leaves self-play on an early network.
        case best
    }
    public var selfPlayer = SelfPlayer.latest
    /// σ's scale in every search of the learning (alphazero's `cscale`).
    public var cScale = GumbelSettings.defaultCScale
    /// Random playouts mixed into each leaf's value in every search of the learning
    /// (alphazero's `rollouts`, at its default depth and mix; 0: the network alone).
    public var rollouts = 0
    public var width = 128
    public var blocks = 2
    /// Generations whose positions the replay buffer keeps.
    public var window = 4
    /// Minibatches trained per generation (0: four passes over the new positions, at least 32).
    public var steps = 0
    public var batch = 256
    public var learningRate = 1e-3
    /// Seat-rotated blocks of the gate (candidate against the best; 0: no gate, every
    /// candidate becomes the best, as in AlphaZero 2018), and against each anchor.
    public var gateBlocks = 100
    public var anchorBlocks = 20
    /// Fixed opponents the best model is measured against each generation.
    public var anchors: [String] = []
    /// A warm start: strategies whose games (`teacherGames` of them) the network is
    /// trained on before the first generation (their moves as policies, their outcomes as
    /// values); none by default (self-play from a random network).
    public var teachers: [String] = []
    public var teacherGames = 0
    /// The share of the teachers' moves recorded (each kept with this probability, drawn
    /// from the seed): more games for the same memory, so the values see more outcomes.
    public var teacherKeep = 1.0
    /// A teacher move's policy target.
    public enum TeacherTargets: String, Sendable, Equatable, CaseIterable {
        /// All its weight on the move played (AlphaGo's supervised stage).
        case move
        /// A searching teacher's (`alphazero`'s) improved policy over the legal actions:
        /// what its search learned of every action, as self-play's targets.
        case search
    }
    public var teacherTargets = TeacherTargets.move
    /// A model file to start from instead of a random network (fine-tuning a learned
    /// model, e.g. at a lower learning rate); its shape sets the width and blocks.
    public var initial: String?
    /// Whether training sees each sampled position as itself or one of its symmetric
    /// images (the encoder's ``FeatureEncoder/symmetries``; AlphaGo Zero's augmentation).
    public var symmetries = false
    /// Whether the action features' weights read the trunk (``PolicyValueShape/contextualActions``);
    /// an `--init` model without them starts with that matrix at 0, so as the model it was.
    public var contextualActions = false
    public var seed: UInt64 = 1
    /// Games a lockstep chunk plays together (its leaves are one batch).
    public var chunk = 64

    public init(game: String) { self.game = game }

    /// `alphazero` on `model` with the learning's search knobs (the gate's and the anchors'
    /// player): the raw network, as self-play searches with it (no symmetric averaging).
    func searchSpec(_ model: String, gumbel: Double) -> String {
        "alphazero(model=\(model), sims=\(sims), gumbel=\(gumbel), cscale=\(cScale), considered=\(considered), rollouts=\(rollouts), symmetric=false)"
    }

    /// The fields a resumed learning must share with the folder's, as `name: value` text.
    /// The generations are not among them: `--resume` with more goes on past the end.
    public var identity: [String] {
        ["game: \(game)", "rules: \(rules.map { "\($0.key)=\($0.value)" }.joined(separator: ","))", "map: \(map ?? "-")",
         "seats: \(seats)", "games: \(games)", "sims: \(sims)", "fullShare: \(fullShare)",
         "considered: \(considered)", "exploreMoves: \(exploreMoves)", "selfPlay: \(selfPlayer.rawValue)", "cScale: \(cScale)", "width: \(width)", "blocks: \(blocks)", "window: \(window)", "steps: \(steps)",
         "batch: \(batch)", "learningRate: \(learningRate)", "gateBlocks: \(gateBlocks)", "anchorBlocks: \(anchorBlocks)",
         "anchors: \(anchors.joined(separator: ";"))", "seed: \(seed)", "chunk: \(chunk)"]
            + (teachers.isEmpty ? [] : ["teachers: \(teachers.joined(separator: ";"))", "teacherGames: \(teacherGames)"])
            + (teacherKeep < 1 ? ["teacherKeep: \(teacherKeep)"] : [])
            + (teacherTargets == .search ? ["teacherTargets: search"] : [])
            + (initial.map { ["init: \($0)"] } ?? [])
            + (symmetries ? ["symmetries: true"] : [])
            + (contextualActions ? ["contextualActions: true"] : [])
            + (rollouts > 0 ? ["rollouts: \(rollouts)"] : [])
    }
}

/// How `oplab learn` runs: where, on how many threads, fresh or resumed.
public struct LearnOptions: Sendable {
    public var directory: String
    public var threads: Int
    public var resume: Bool
    public var force: Bool

    public init(directory: String, threads: Int, resume: Bool = false, force: Bool = false) {
        self.directory = directory
        self.threads = threads
        self.resume = resume
        self.force = force
    }
}

/// One line of `generations.csv`.
public struct GenerationRecord: Sendable, Equatable {
    public var generation: Int
    public var games: Int
    public var positions: Int
    public var buffer: Int
    public var loss: PolicyValueLoss
    public var accepted: Bool
    /// The gate's score; nil without a gate (`--gate-blocks 0`: every candidate is the best).
    public var gate: EntrantScore?
    public var anchors: [EntrantScore]
    public var evaluationsPerSecond: Double
    public var meanBatch: Double

    static func header(anchors: [String]) -> String {
        (["generation", "games", "positions", "buffer", "policy_loss", "value_loss", "policy_entropy", "gate", "gate_score",
          "gate_low", "gate_high"] + anchors.indices.flatMap { ["anchor\($0 + 1)_score", "anchor\($0 + 1)_low", "anchor\($0 + 1)_high"] }
         + ["evaluations_per_second", "mean_batch"]).joined(separator: ",")
    }

    var line: String {
        func f(_ x: Double) -> String { String(format: "%.4f", x) }
        return ([String(generation), String(games), String(positions), String(buffer), f(loss.policy), f(loss.value), f(loss.entropy),
                 gate == nil ? "ungated" : accepted ? "accepted" : "rejected"]
                + (gate.map { [f($0.mean), f($0.lower), f($0.upper)] } ?? ["", "", ""])
                + anchors.flatMap { [f($0.mean), f($0.lower), f($0.upper)] }
                + [String(format: "%.0f", evaluationsPerSecond), String(format: "%.1f", meanBatch)]).joined(separator: ",")
    }
}

/// What a game supplies to learn: its game from rules, map and seats, and its encoder.
public protocol GameLearning: Sendable {
    /// Runs `request` into `options.directory`.
    func learn(_ request: LearnRequest, options: LearnOptions, progress: @escaping @Sendable (String) -> Void) throws(InputError) -> [GenerationRecord]
}

/// Self-play generations for one game (AlphaZero's loop with Gumbel search and KataGo's
/// batching and playout caps): play with the best model, train a candidate on the replay
/// buffer, gate it against the best.
struct Learner<G: Game, E: FeatureEncoder>: GameLearning where E.Observation == G.State.Observation {
    let makeGame: @Sendable (_ rules: [RuleSetting], _ map: String?, _ seats: Int) throws(InputError) -> G
    let encoder: @Sendable (G) -> E
    /// Searches take decisive moves (the game's `alphazero` default).
    var decisive = false
    /// The game's strategies for `--teacher` specs (the lab's own, no external bot).
    var teachers: (@Sendable (_ specs: [String], _ game: G) throws(InputError) -> [StrategyFactory<G>])? = nil

    func learn(_ request: LearnRequest, options: LearnOptions, progress: @escaping @Sendable (String) -> Void) throws(InputError) -> [GenerationRecord] {
        let game = try makeGame(request.rules, request.map, request.seats)
        let encoder = encoder(game)
        let actions = game.newMatch(seed: 0).actionSpaceSize
        let shape = PolicyValueShape(inputs: encoder.featureCount, width: request.width, blocks: request.blocks, actions: actions, seats: request.seats,
                                     actionFeatures: encoder.actionFeatures, contextualActions: request.contextualActions)
        if request.contextualActions && encoder.actionFeatures == 0 {
            throw InputError("--contextual-actions: \(E.gameName)'s features have no action features to weigh")
        }
        // Checked before the folder is made: a bad model writes nothing.
        if request.symmetries && encoder.symmetries.isEmpty {
            throw InputError("--symmetries: \(E.gameName)'s features have no symmetries to train on")
        }
        let initial = try request.initial.map { path throws(InputError) in try Self.initial(path, shape: shape, encoder: encoder) }
            ?? PolicyValueNet(shape: shape, seed: Seeds.derive(request.seed, 0x1ea7))
        let folder = try LearnFolder(options: options, request: request)
        BLASThreads.pinToOne()
        guard var state = try folder.start(initial: initial) else {
            progress("\(options.directory): complete, generation \(request.generations) of \(request.generations) done; its best model stands")
            return []
        }
        var records = state.records
        if state.generation > 0 { progress("resuming \(options.directory) after generation \(state.generation) of \(request.generations)") }
        if state.generation == 0 && state.buffer.count == 0 && !request.teachers.isEmpty {
            try warmStart(&state, game: game, encoder: encoder, shape: shape, folder: folder, request: request, threads: options.threads,
                          progress: progress)
        }
        let selfPlay = LearnedSelfPlaySettings(simulations: request.sims, cheapSimulations: max(2, request.sims / 4),
                                               fullShare: request.fullShare, considered: request.considered,
                                               exploreMoves: request.exploreMoves, decisive: decisive, cScale: request.cScale,
                                               rollouts: request.rollouts)
        while state.generation < request.generations {
            let generation = state.generation + 1
            let started = Date()
            // 1. Self-play, chunks in parallel, kept in game order.
            let player = request.selfPlayer == .latest ? state.trainee : state.best
            let yield = playGenerations(game: game, encoder: encoder, network: player, settings: selfPlay, request: request,
                                        generation: generation, threads: options.threads)
            let seconds = max(Date().timeIntervalSince(started), 1e-9)
            state.buffer.append(generation: generation, positions: yield.positions, window: request.window)
            progress("generation \(generation): \(yield.games) games, \(yield.positions.count) positions, "
                     + "\(yield.evaluations) evaluations in \(yield.batches) batches (mean \(String(format: "%.1f", Double(yield.evaluations) / Double(max(1, yield.batches))))), "
                     + "\(String(format: "%.0f", Double(yield.evaluations) / seconds)) evaluations/s")
            // 2. A candidate: the trainee (every generation's training, accepted or not, as
            // AlphaZero's trainer runs on) trained on the buffer.
            let (candidate, adam, loss) = train(state.trainee, adam: state.adam, on: state.buffer, request: request, generation: generation,
                                                newPositions: yield.positions.count, encoder: encoder)
            state.trainee = candidate
            state.adam = adam
            progress(String(format: "generation %d: trained, policy loss %.4f, value loss %.4f, entropy %.4f", generation, loss.policy, loss.value, loss.entropy))
            // 3. The gate (the candidate replaces the best when it is stronger), then the
            // best against the anchors.
            let (accepted, gate, anchorScores) = try judge(candidate, state: &state, game: game, encoder: encoder, shape: shape, folder: folder,
                                                           request: request, generation: generation, threads: options.threads, progress: progress)
            let record = GenerationRecord(generation: generation, games: yield.games, positions: yield.positions.count, buffer: state.buffer.count,
                                          loss: loss, accepted: accepted, gate: gate, anchors: anchorScores,
                                          evaluationsPerSecond: Double(yield.evaluations) / seconds,
                                          meanBatch: Double(yield.evaluations) / Double(max(1, yield.batches)))
            records.append(record)
            state.generation = generation
            state.records = records
            try folder.checkpoint(state)
            // The page, drawn from the files just written (oplab report draws it again).
            try Files.writeAtomically(try LearningReport.html(folder: options.directory), to: folder.path("report.html"))
            let took = Date().timeIntervalSince(started)
            let left = Double(request.generations - generation) * took
            progress(String(format: "generation %d of %d done in %.0f s; about %.0f min to go", generation, request.generations, took, left / 60))
        }
        try folder.finish()
        return records
    }

    /// The gate: `candidate` against the best, seat-rotated; it becomes the best when its
    /// score's interval lies above its fair share (1/2 at 2 seats; 1/teams at more). Then
    /// the best against each anchor. Both models are written first (the matches read them).
    private func judge(_ candidate: PolicyValueNet, state: inout LearnState, game: G, encoder: E, shape: PolicyValueShape, folder: LearnFolder,
                       request: LearnRequest, generation: Int, threads: Int,
                       progress: @escaping @Sendable (String) -> Void) throws(InputError) -> (Bool, EntrantScore?, [EntrantScore]) {
        var gate: EntrantScore?
        let accepted: Bool
        if request.gateBlocks == 0 {
            state.best = candidate
            accepted = true
            progress("generation \(generation): no gate (--gate-blocks 0): the candidate is the best")
        } else {
            try folder.writeModel(candidate, shape: shape, game: game, encoder: encoder, request: request, generation: generation, name: LearnFolder.candidateFile)
            try folder.writeModel(state.best, shape: shape, game: game, encoder: encoder, request: request, generation: generation - 1, name: LearnFolder.previousFile)
            let score = try measure(request.searchSpec(folder.path(LearnFolder.candidateFile), gumbel: 1),
                                    against: request.searchSpec(folder.path(LearnFolder.previousFile), gumbel: 1),
                                    request: request, blocks: request.gateBlocks, seed: Seeds.derive(request.seed, UInt64(generation), 0, 0x6a7e),
                                    threads: threads)
            gate = score
            accepted = score.lower > 1 / Double(Set(game.teams).count)
            if accepted { state.best = candidate }
            progress(String(format: "generation %d: gate %.3f [%.3f, %.3f] over %d matches: %@", generation, score.mean, score.lower, score.upper,
                            score.matches, accepted ? "accepted" : "rejected, the best stays"))
        }
        try folder.writeModel(state.best, shape: shape, game: game, encoder: encoder, request: request, generation: generation, name: LearnFolder.bestFile)
        var anchorScores: [EntrantScore] = []
        for (k, anchor) in request.anchors.enumerated() {
            let score = try measure(request.searchSpec(folder.path(LearnFolder.bestFile), gumbel: 0), against: anchor,
                                    request: request, blocks: request.anchorBlocks,
                                    seed: Seeds.derive(request.seed, UInt64(generation), UInt64(k + 1), 0xa7c4), threads: threads)
            anchorScores.append(score)
            progress(String(format: "generation %d: best against %@: %.3f [%.3f, %.3f]", generation, anchor, score.mean, score.lower, score.upper))
        }
        return (accepted, gate, anchorScores)
    }

    /// The network of the model file at `path`, checked for this game and the requested shape.
    static func initial(_ path: String, shape: PolicyValueShape, encoder: E) throws(InputError) -> PolicyValueNet {
        let model = try LearnedModel.load(path: path)
        try model.check(game: E.gameName, featureVersion: E.featureVersion, layout: encoder.layoutKey, inputs: shape.inputs,
                        actions: shape.actions, seats: shape.seats, file: path)
        let found = model.network.shape
        if found == shape { return model.network }
        guard found.withContextualActions == shape.withContextualActions else {
            throw InputError("--init \(path): the model is \(found.width) wide with \(found.blocks) blocks; "
                + "pass --width \(found.width) --blocks \(found.blocks)")
        }
        guard shape.contextualActions else {
            throw InputError("--init \(path): the model's action weights read the trunk; pass --contextual-actions")
        }
        // Widened: the trunk's matrix Wφ at 0 after the model's parameters, the same play.
        let widened = model.network.parameters + [Float](repeating: 0, count: shape.parameterCount - found.parameterCount)
        return PolicyValueNet(shape: shape, parameters: widened)
    }

    /// The teachers' games into the buffer (as generation 0) and the network trained on them:
    /// the trainee and the best both start from there. Checkpointed, so a resume after it
    /// does not play them again.
    private func warmStart(_ state: inout LearnState, game: G, encoder: E, shape: PolicyValueShape, folder: LearnFolder, request: LearnRequest,
                           threads: Int, progress: @escaping @Sendable (String) -> Void) throws(InputError) {
        guard let resolve = teachers else { throw InputError("--teacher: \(request.game) has no strategies to teach with") }
        let factories = try resolve(request.teachers, game)
        let started = Date()
        let total = request.teacherGames, names = request.teachers.joined(separator: ", ")
        var teacherPlay = TeacherPlay(game: game, encoder: encoder, teachers: factories, keep: request.teacherKeep)
        teacherPlay.searchTargets = request.teacherTargets == .search
        let positions = teacherPlay.play(games: total, seed: Seeds.derive(request.seed, 0x7eac), threads: threads) { done in
            let left = Date().timeIntervalSince(started) * Double(total - done) / Double(done)
            progress(String(format: "warm start: %d of %d games of %@; about %.0f min to go", done, total, names, left / 60))
        }
        state.buffer.append(generation: 0, positions: positions, window: request.window)
        progress(String(format: "warm start: %d games of %@, %d positions in %.0f s", total, names, positions.count,
                        Date().timeIntervalSince(started)))
        let (trained, adam, loss) = train(state.trainee, adam: state.adam, on: state.buffer, request: request, generation: 0,
                                          newPositions: positions.count, encoder: encoder)
        state.trainee = trained
        state.adam = adam
        state.best = trained
        progress(String(format: "warm start: trained, policy loss %.4f, value loss %.4f, entropy %.4f", loss.policy, loss.value, loss.entropy))
        try folder.writeModel(trained, shape: shape, game: game, encoder: encoder, request: request, generation: 0, name: LearnFolder.bestFile)
        try folder.checkpoint(state)
    }

    /// A generation's games in chunks of `request.chunk`, the chunks spread over the
    /// threads, their yields joined in game order.
    private func playGenerations(game: G, encoder: E, network: PolicyValueNet, settings: LearnedSelfPlaySettings, request: LearnRequest,
                                 generation: Int, threads: Int) -> SelfPlayYield {
        let seed = Seeds.derive(request.seed, UInt64(generation), 0, 0x5e1f)
        let chunks = stride(from: 0, to: request.games, by: request.chunk).map { $0..<min($0 + request.chunk, request.games) }
        let results = ChunkResults(count: chunks.count)
        let player = LockstepSelfPlay(game: game, encoder: encoder, network: network, settings: settings)
        let workers = max(1, min(threads, chunks.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for c in stride(from: worker, to: chunks.count, by: workers) { results.set(c, player.play(chunks[c], seed: seed)) }
        }
        var total = SelfPlayYield()
        for y in results.all {
            total.positions += y.positions
            total.games += y.games
            total.evaluations += y.evaluations
            total.batches += y.batches
        }
        return total
    }

    /// The trainee trained on minibatches drawn from the buffer (one thread: the same bytes
    /// at any thread count); the losses of the last tenth of the steps.
    private func train(_ trainee: PolicyValueNet, adam: PolicyValueTrainer.AdamState?, on buffer: ReplayBuffer, request: LearnRequest,
                       generation: Int, newPositions: Int, encoder: E) -> (PolicyValueNet, PolicyValueTrainer.AdamState, PolicyValueLoss) {
        let symmetries = request.symmetries ? encoder.symmetries : []
        let rate = Float(request.learningRate)
        let trainer = adam.map { PolicyValueTrainer(network: trainee, state: $0, learningRate: rate) }
            ?? PolicyValueTrainer(network: trainee, learningRate: rate)
        let best = trainee
        let steps = request.steps > 0 ? request.steps : max(32, 4 * newPositions / request.batch)
        var rng = LabRandom(seed: Seeds.derive(request.seed, UInt64(generation), 0, 0x74a1))
        var batch = PolicyValueBatch(shape: best.shape, rows: min(request.batch, max(1, buffer.count)))
        var sum = PolicyValueLoss(), counted = 0
        for step in 0..<steps where buffer.count > 0 {
            buffer.fill(&batch, rng: &rng, symmetries: symmetries)
            let loss = trainer.step(on: batch)
            if step >= steps - max(1, steps / 10) {
                sum.policy += loss.policy
                sum.value += loss.value
                sum.entropy += loss.entropy
                counted += 1
            }
        }
        let n = Double(max(1, counted))
        return (trainer.network, trainer.adamState, PolicyValueLoss(policy: sum.policy / n, value: sum.value / n, entropy: sum.entropy / n))
    }

    /// `spec`'s score against `opponent`: a seat-rotated head-to-head in memory.
    private func measure(_ spec: String, against opponent: String, request: LearnRequest, blocks: Int, seed: UInt64,
                         threads: Int) throws(InputError) -> EntrantScore {
        // At a table of more than 2 seats the others are copies of the opponent.
        let others = request.seats == 2 ? [Entrant(name: "opponent", strategy: opponent)]
            : (1..<request.seats).map { Entrant(name: "opponent\($0)", strategy: opponent) }
        let config = TournamentConfig(name: "learn-gate", game: request.game, rules: request.rules, map: request.map, seats: request.seats,
                                      entrants: [Entrant(name: "candidate", strategy: spec)] + others,
                                      format: .gauntlet, candidate: "candidate", blocks: blocks, seed: seed, threads: 0)
        return try EntrantScore.measure(try Catalog.plan(config), threads: threads)
    }
}

/// Each chunk's yield, written by the thread that played it.
private final class ChunkResults: @unchecked Sendable {
    private var slots: [SelfPlayYield?]
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: SelfPlayYield) { lock.withLock { slots[index] = value } }

    var all: [SelfPlayYield] { lock.withLock { slots.map { $0 ?? SelfPlayYield() } } }
}
