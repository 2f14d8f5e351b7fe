import ArgumentParser
import Evaluators
import Foundation
import LabCatalog
import LabCore
import Tournament

struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Learn a policy-value model by self-play: Gumbel search, a replay buffer, training on BLAS, a gate.",
        discussion: """
            Each generation plays --games games of self-play with the network in training \
            (--self-play best: the last one the gate accepted), with a full search of --sims \
            simulations on a quarter of the moves, whose improved policies are recorded, and a \
            cheap one of a quarter as many elsewhere. It trains a candidate on the positions of \
            the last --window generations and publishes it as best.model only when it beats the best \
            over --gate-blocks seat-rotated blocks with its 95 % interval above 1/2. The best is \
            measured against each --anchor (default: the game's documented CPU). DIR holds \
            best.model (play it with alphazero(model=DIR/best.model) or policy(model=...)), \
            generations.csv, learn.json and a checkpoint: --resume goes on after the last \
            complete generation, even after kill -9, with the same bytes as an uninterrupted run.
            Example: oplab learn connect4 --generations 8 --games 64 --sims 16 --out results/learn-c4
            With --stages FILE the learning is a sequence of such runs, each line of FILE the \
            flags of one (a line ending in \\ goes on on the next; {previous} names the best model \
            of the stage before): DIR/stage-N holds stage N, DIR/best.model is the last one's, and \
            --resume goes on with the stage a kill interrupted. On the command line only \
            --out, --threads, --resume, --force, --quiet, --rule and --map go with it.
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Option(help: "The learning's folder (default: results/learn-GAME).")
    var out: String?

    @Option(parsing: .unconditional, help: "Generations of self-play, training and gating.", transform: CommandLineNumbers.integer)
    var generations: Int = 10

    @Option(parsing: .unconditional, help: "Self-play games per generation.", transform: CommandLineNumbers.integer)
    var games: Int = 64

    @Option(parsing: .unconditional, help: "Simulations of a full search (a cheap one has a quarter).", transform: CommandLineNumbers.integer)
    var sims: Int = 32

    @Option(name: .customLong("explore-moves"), parsing: .unconditional,
            help: "Moves of each self-play game played with Gumbel noise at the root; the rest without.", transform: CommandLineNumbers.integer)
    var exploreMoves: Int = 12

    @Option(name: .customLong("self-play"), parsing: .unconditional,
            help: "The network self-play searches with: latest (the trainee, AlphaZero's way; the gate decides best.model only) or best (AlphaGo Zero's: the last one the gate accepted).")
    var selfPlay: LearnRequest.SelfPlayer = .latest

    @Option(parsing: .unconditional,
            help: "Root actions a search considers (the top of the Gumbel-perturbed policy): fewer get more simulations each, so chance (a tile or card drawn) averages out.",
            transform: CommandLineNumbers.integer)
    var considered: Int = 16

    @Option(parsing: .unconditional,
            help: "σ's scale in every search of the learning (alphazero's cscale): larger trusts the search's values more against the network's priors.")
    var cscale: Double = LearnRequest(game: "").cScale

    @Option(parsing: .unconditional,
            help: "Random playouts mixed into each leaf's value in every search of the learning (alphazero's rollouts, at its default depth and mix); 0: the network alone.",
            transform: CommandLineNumbers.integer)
    var rollouts: Int = 0

    @Option(parsing: .unconditional, help: "Width of the network's trunk.", transform: CommandLineNumbers.integer)
    var width: Int = 128

    @Option(parsing: .unconditional, help: "Residual blocks in the trunk.", transform: CommandLineNumbers.integer)
    var blocks: Int = 2

    @Option(parsing: .unconditional, help: "Generations whose positions the replay buffer keeps.", transform: CommandLineNumbers.integer)
    var window: Int = 4

    @Option(parsing: .unconditional, help: "Minibatches per generation (0: four passes over its new positions, at least 32).", transform: CommandLineNumbers.integer)
    var steps: Int = 0

    @Option(parsing: .unconditional, help: "Positions per minibatch.", transform: CommandLineNumbers.integer)
    var batch: Int = 256

    @Option(name: .customLong("learning-rate"), parsing: .unconditional, help: "Adam's step size.")
    var learningRate: Double = 1e-3

    @Option(name: .customLong("gate-blocks"), parsing: .unconditional, help: "Seat-rotated blocks of the gate; 0: no gate, every generation's candidate becomes the best (AlphaZero 2018).", transform: CommandLineNumbers.integer)
    var gateBlocks: Int = 100

    @Option(name: .customLong("anchor-blocks"), parsing: .unconditional, help: "Seat-rotated blocks against each anchor (0: none).",
            transform: CommandLineNumbers.integer)
    var anchorBlocks: Int = 20

    @Option(name: .customLong("anchor"), help: "A strategy spec the best is measured against each generation (repeatable; default: the documented CPU).")
    var anchors: [String] = []

    @Option(parsing: .unconditional, help: "Seats at the table.", transform: CommandLineNumbers.integer)
    var seats: Int = 2

    @Option(name: .customLong("teacher"),
            help: "A warm start: a lab strategy whose games the network imitates before the first generation (repeatable: seats rotate over them).")
    var teachers: [String] = []

    @Option(name: .customLong("init"), help: "A model file (from `oplab learn`) to start from instead of a random network; --width and --blocks must match it.")
    var initial: String?

    @Option(name: .customLong("teacher-games"), parsing: .unconditional, help: "Games of the teachers for the warm start.",
            transform: CommandLineNumbers.integer)
    var teacherGames: Int?

    @Option(name: .customLong("teacher-keep"), parsing: .unconditional,
            help: "The share of the teachers' moves recorded (0 < F <= 1; default 1): more games in the same memory.")
    var teacherKeep: Double?

    @Option(name: .customLong("teacher-targets"), parsing: .unconditional,
            help: "A teacher move's policy target: move (all its weight on the move played; the default) or search (an alphazero teacher's improved policy over the legal actions).")
    var teacherTargets: LearnRequest.TeacherTargets?

    @Flag(help: "Train on each sampled position as itself or one of its symmetric images (Connect Four: the mirror), drawn at random.")
    var symmetries = false

    @Flag(name: .customLong("contextual-actions"),
          help: "Weigh each action's features by the position (weights read from the trunk), not one weight vector for every position; an --init model without such weights starts with them at 0.")
    var contextualActions = false

    @OptionGroup var setup: GameOptions

    @OptionGroup var seeding: SeedOption

    @OptionGroup var workers: ThreadsOption

    @Flag(help: "Go on with the learning in --out after its last complete generation.")
    var resume = false

    @Option(help: "A stages file: the learning as a sequence of `oplab learn` runs, one a line of flags (see above).")
    var stages: String?

    @Flag(name: .customLong("dry-run"), help: "With --stages: check every stage's flags and print each stage's command, without learning.")
    var dryRun = false

    /// Where the flags come from when not the command line (a stage's `FILE:LINE`): errors name it.
    @Option(name: .customLong("stage-of"), help: .hidden)
    var stageOf: String?

    @OptionGroup var output: OutputFlags

    func run() throws {
        if let stages {
            try runStages(stages)
            return
        }
        try reportingInputErrors {
            let (entry, request, options) = try parse()
            try learn(entry: entry, request: request, options: options)
        }
    }

    /// One learning: `request` into `options.directory`.
    func learn(entry: any GameEntry, request: LearnRequest, options: LearnOptions) throws(InputError) {
        guard let learning = entry.learning else { throw InputError("\(entry.name) cannot be learned yet") }
        try BLASThreads.require(for: "learn \(entry.name)")
        if let warning = BLASKernel.warning { printError("warning: \(warning)") }
        output.progress("learn \(entry.name): \(request.generations) generation\(request.generations == 1 ? "" : "s") of \(request.games) games, \(request.sims) simulations, "
                        + "network \(request.width) wide with \(request.blocks) blocks, BLAS \(BLASKernel.coreName) -> \(options.directory)")
        let quiet = output.quiet
        let records = try learning.learn(request, options: options) { line in if !quiet { printError(line) } }
        if let last = records.last {
            printOutput((last.gate.map { String(format: "generation %d: gate %@ %.3f [%.3f, %.3f]", last.generation, last.accepted ? "accepted" : "rejected",
                                          $0.mean, $0.lower, $0.upper) } ?? "generation \(last.generation): ungated")
                  + zip(request.anchors, last.anchors).map { String(format: "; against %@ %.3f [%.3f, %.3f]", $0, $1.mean, $1.lower, $1.upper) }.joined())
        }
        printOutput("best model: \(options.directory)/best.model")
    }

    /// The flags' own values, checked before the game is looked up or anything is read.
    func validate() throws {
        try reportingInputErrors {
            do throws(InputError) { try checkFlags() } catch {
                guard let stageOf else { throw error }
                throw InputError("\(stageOf): \(error.message)")
            }
        }
    }

    private func checkFlags() throws(InputError) {
        guard generations >= 1 && generations <= 100_000 else { throw InputError("--generations \(generations): expected 1...100000") }
        guard games >= 1 && games <= 1_000_000 else { throw InputError("--games \(games): expected 1...1000000") }
        guard sims >= 1 && sims <= 100_000 else { throw InputError("--sims \(sims): expected 1...100000 simulations") }
        guard exploreMoves >= 0 && exploreMoves <= 100_000 else { throw InputError("--explore-moves \(exploreMoves): expected 0...100000") }
        guard considered >= 1 && considered <= 256 else { throw InputError("--considered \(considered): expected 1...256") }
        guard rollouts >= 0 && rollouts <= 10_000 else { throw InputError("--rollouts \(rollouts): expected 0...10000") }
        guard cscale >= 0.001 && cscale <= 100 else { throw InputError("--cscale \(String(format: "%g", cscale)): expected 0.001...100")  }
        guard width >= 1 && width <= 4_096 else { throw InputError("--width \(width): expected 1...4096") }
        guard blocks >= 0 && blocks <= 32 else { throw InputError("--blocks \(blocks): expected 0...32") }
        guard window >= 1 && window <= 1_000 else { throw InputError("--window \(window): expected 1...1000 generations") }
        guard steps >= 0 && steps <= 10_000_000 else { throw InputError("--steps \(steps): expected 0...10000000") }
        guard batch >= 1 && batch <= 65_536 else { throw InputError("--batch \(batch): expected 1...65536") }
        guard learningRate > 0 && learningRate < 1 else { throw InputError("--learning-rate \(learningRate): expected a number in (0, 1)") }
        guard gateBlocks >= 0 && gateBlocks <= 1_000_000 else { throw InputError("--gate-blocks \(gateBlocks): expected 0...1000000 (0: no gate)") }
        guard anchorBlocks >= 0 && anchorBlocks <= 1_000_000 else { throw InputError("--anchor-blocks \(anchorBlocks): expected 0...1000000") }
        guard !(resume && output.force) else { throw InputError("--resume and --force exclude each other") }
        guard !dryRun || stages != nil else { throw InputError("--dry-run needs --stages (it prints the stages' commands)") }
    }

    /// The flags checked, before anything is written.
    func parse() throws(InputError) -> (any GameEntry, LearnRequest, LearnOptions) {
        let entry = try Catalog.game(named: game)
        guard entry.seatRange.contains(seats) else {
            throw InputError("--seats \(seats): \(entry.name) takes \(entry.seatRange.lowerBound)-\(entry.seatRange.upperBound)")
        }
        try setup.checkMap(for: entry)
        try entry.checkRules(try setup.rulePairs())
        var request = LearnRequest(game: entry.name)
        request.rules = try setup.ruleSettings()
        request.map = setup.map
        request.seats = seats
        request.generations = generations
        request.games = games
        request.sims = sims
        request.width = width
        request.exploreMoves = exploreMoves
        request.selfPlayer = selfPlay
        request.cScale = cscale
        request.considered = considered
        request.rollouts = rollouts
        request.blocks = blocks
        request.window = window
        request.steps = steps
        request.batch = batch
        request.learningRate = learningRate
        request.gateBlocks = gateBlocks
        request.anchorBlocks = anchorBlocks
        request.seed = seeding.seed
        let anchorSpecs = anchorBlocks == 0 ? [] : (anchors.isEmpty ? [entry.documentedCPU] : anchors)
        for text in anchorSpecs {
            do { request.anchors.append(try Catalog.validate(text, for: entry).description) } catch { throw InputError("--anchor \(error.message)") }
        }
        if let teacherGames, teachers.isEmpty || !(1...1_000_000).contains(teacherGames) {
            throw InputError(teachers.isEmpty ? "--teacher-games needs --teacher" : "--teacher-games \(teacherGames): expected 1...1000000")
        }
        for text in teachers {
            let spec: StrategySpec
            do { spec = try Catalog.validate(text, for: entry) } catch { throw InputError("--teacher \(error.message)") }
            guard spec.name != "external" else {
                throw InputError("--teacher \(text.excerpt()): an external bot cannot teach (the warm start plays on every core from one table); teach with the lab's own strategies")
            }
            request.teachers.append(spec.description)
        }
        request.teacherGames = teachers.isEmpty ? 0 : (teacherGames ?? 1_000)
        if let teacherKeep {
            guard !teachers.isEmpty else { throw InputError("--teacher-keep needs --teacher") }
            guard teacherKeep > 0 && teacherKeep <= 1 else { throw InputError("--teacher-keep \(teacherKeep): expected a share in (0, 1]") }
            request.teacherKeep = teacherKeep
        }
        if let teacherTargets {
            guard !teachers.isEmpty else { throw InputError("--teacher-targets needs --teacher") }
            if teacherTargets == .search, let other = request.teachers.first(where: { !$0.hasPrefix("alphazero") }) {
                throw InputError("--teacher-targets search: --teacher \(other.excerpt()) does not search; only alphazero teachers give a search's policy (or use --teacher-targets move)")
            }
            request.teacherTargets = teacherTargets
        }
        if let initial, PathKind(of: initial) != .file { throw InputError("--init \(initial.excerpt()): no such model file") }
        request.initial = initial
        request.symmetries = symmetries
        request.contextualActions = contextualActions
        let directory = out ?? "results/learn-\(entry.name)"
        let threads = workers.threads == 0 ? ProcessInfo.processInfo.activeProcessorCount : workers.threads
        return (entry, request, LearnOptions(directory: directory, threads: threads, resume: resume, force: output.force))
    }
}

extension LearnRequest.SelfPlayer: ExpressibleByArgument {}
extension LearnRequest.TeacherTargets: ExpressibleByArgument {}
