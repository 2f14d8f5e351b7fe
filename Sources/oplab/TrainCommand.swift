import ArgumentParser
import Evaluators
import Foundation
import LabCatalog
import LabCore
import Tournament

struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Train a value model by self-play of teacher strategies.",
        discussion: """
            Plays --matches matches of the teacher in every seat (with several --teacher, seat \
            s of match m plays teacher (m + s) mod count, so they meet in every seating; each \
            move is uniformly random with probability --random-moves, for variety), keeps --positions positions per \
            match, labels every seat's view of each with that seat's final score (1 win, 1/k \
            shared, 0 loss), and fits a multilayer perceptron (ReLU hidden layers, logistic \
            output) by Adam on the cross-entropy, holding out --validation of the rows. The \
            model of the epoch with the lowest held-out loss is written to --out.
            Deterministic: the same flags give the same file, for any --threads (self-play is \
            parallel; training runs on one thread, OpenBLAS pinned to one thread); --seed \
            seeds the self-play, the split and the minibatch order.
            Example: oplab train rail --teacher heuristic --matches 20000 --hidden 128,64 \
            --epochs 20 --out configs/models/rail-mlp.model
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Option(name: .customLong("teacher"), help: ArgumentHelp(
        "A strategy spec whose play makes the data (repeatable: seat s of match m plays teacher (m + s) mod count).",
        valueName: "spec"))
    var teachers: [String] = []

    @Option(parsing: .unconditional, help: "Self-play matches.", transform: CommandLineNumbers.integer)
    var matches: Int = 10_000

    @Option(help: "Hidden layer widths, comma-separated (e.g. 128,64).")
    var hidden: String = "128,64"

    @Option(parsing: .unconditional, help: "Passes over the training rows.")
    var epochs: Int = 20

    @Option(help: "The model file to write (e.g. configs/models/NAME.model).")
    var out: String

    @Option(parsing: .unconditional, help: "Positions kept per match.")
    var positions: Int = 8

    @Option(name: .customLong("random-moves"), parsing: .unconditional, help: "Chance that a self-play move is uniformly random (0...1).")
    var randomMoves: Double = 0.1

    @Option(parsing: .unconditional, help: "Minibatch size.")
    var batch: Int = 256

    @Option(name: .customLong("learning-rate"), parsing: .unconditional, help: "Adam's step size.")
    var learningRate: Double = 0.001

    @Option(name: .customLong("weight-decay"), parsing: .unconditional, help: "Decoupled weight decay (AdamW), e.g. 0.01 (0: plain Adam).")
    var weightDecay: Double = 0

    @Option(parsing: .unconditional, help: "Share of the rows held out to pick the best epoch (0...0.5).")
    var validation: Double = 0.1

    @Option(parsing: .unconditional, help: "Seats at the table.")
    var seats: Int = 2

    @OptionGroup var setup: GameOptions

    @OptionGroup var seeding: SeedOption

    @Option(parsing: .unconditional, help: "Self-play worker threads (default: every core).", transform: CommandLineNumbers.integer)
    var threads: Int?

    @OptionGroup var output: OutputFlags

    func run() throws {
        try reportingInputErrors {
            let (entry, request, rules) = try parse()
            try BLASThreads.require(for: "train \(entry.name)")
            // One writer at a time in the model's folder (two trainings into one file race),
            // taken once the flags are checked: bad input writes nothing.
            let lock = try FolderHold(folder(of: out))
            defer { withExtendedLifetime(lock) {} }
            let quiet = output.quiet
            let model = try entry.train(request, rules: rules, mapPath: setup.map, seats: seats) { line in
                if !quiet { printError(line) }
            }
            guard model.network.parameters.allSatisfy(\.isFinite) else {
                throw InputError("training diverged (weights are not finite numbers); try a lower --learning-rate; nothing written")
            }
            do {
                try model.write(to: out)
            } catch {
                throw InputError("--out \(out): cannot write the model: \(Files.reason(error))")
            }
            printOutput("wrote \(out): \(entry.name) features v\(model.featureVersion) (\(model.layout)), \(model.network.shape), "
                  + "validation loss \(model.note("validation-loss") ?? "?") (baseline \(model.note("baseline-loss") ?? "?")), "
                  + "accuracy \(model.note("validation-accuracy") ?? "?")")
        }
    }

    /// The training's own numbers, checked before the game is looked up.
    func validate() throws {
        try reportingInputErrors {
            guard matches >= 1 else { throw InputError("--matches \(matches): expected at least 1") }
            guard (1...10_000).contains(epochs) else { throw InputError("--epochs \(epochs): expected 1...10000") }
            guard (1...1_000).contains(positions) else { throw InputError("--positions \(positions): expected 1...1000") }
            guard (0...1).contains(randomMoves) else { throw InputError("--random-moves \(randomMoves): expected a number in 0...1") }
            guard (1...65_536).contains(batch) else { throw InputError("--batch \(batch): expected 1...65536") }
            guard learningRate > 0 && learningRate < 1 else { throw InputError("--learning-rate \(learningRate): expected a number in (0, 1)") }
            guard (0...1).contains(weightDecay) else { throw InputError("--weight-decay \(weightDecay): expected a number in 0...1") }
            guard (0...0.5).contains(validation) else { throw InputError("--validation \(validation): expected a number in 0...0.5") }
        }
    }

    /// The flags checked, in the order a user reads them: the game, the training asked
    /// of it and the rules.
    func parse() throws(InputError) -> (entry: any GameEntry, request: TrainingRequest, rules: [(key: String, value: String)]) {
        let entry = try Catalog.game(named: game)
        guard entry.seatRange.contains(seats) else {
            throw InputError("--seats \(seats): \(entry.name) takes \(entry.seatRange.lowerBound)-\(entry.seatRange.upperBound)")
        }
        try setup.checkMap(for: entry)
        let widths = try Self.parseHidden(hidden)
        let workers = threads ?? ProcessInfo.processInfo.activeProcessorCount
        guard (1...1_024).contains(workers) else { throw InputError("--threads \(workers): expected 1...1024") }
        guard out.hasSuffix(".model") else { throw InputError("--out \(out): a model file name ends in .model") }
        try output.checkReplaceable(out, what: "the model", inputs: [setup.map].compactMap { $0 })
        guard !teachers.isEmpty else { throw InputError("no teacher: give --teacher SPEC (a strategy of \(entry.name); repeatable)") }
        var teacherSpecs: [StrategySpec] = []
        for text in teachers { teacherSpecs.append(try Catalog.validate(text, for: entry)) }
        let seed = seeding.seed
        let request = TrainingRequest(
            teachers: teacherSpecs,
            selfPlay: SelfPlaySettings(matches: matches, positionsPerMatch: positions, randomMoveRate: randomMoves, seed: seed, threads: workers),
            hidden: widths,
            training: TrainingSettings(epochs: epochs, batchSize: batch, learningRate: learningRate, validationFraction: validation, seed: seed,
                                       weightDecay: weightDecay),
            notes: [.init("teacher", teacherSpecs.map(\.description).joined(separator: "; ")), .init("matches", "\(matches)"), .init("seats", "\(seats)"),
                    .init("seed", "\(seed)"), .init("command", Self.recordedCommand()), .init("oplab", OpLab.version)])
        return (entry, request, try setup.rulePairs())
    }

    /// The command as run, without the flags that do not change the model (`--threads N`,
    /// `--quiet`, `--force`).
    static func recordedCommand() -> String {
        var words = Array(CommandLine.arguments.dropFirst())
        for flag in ["--threads", "--quiet", "--force"] {
            while let at = words.firstIndex(where: { $0 == flag || $0.hasPrefix(flag + "=") }) {
                let takesValue = flag == "--threads" && !words[at].contains("=") && at + 1 < words.count
                words.removeSubrange(at...(takesValue ? at + 1 : at))
            }
        }
        return (["oplab"] + words).joined(separator: " ")
    }

    static func parseHidden(_ text: String) throws(InputError) -> [Int] {
        if text.trimmingSpaces.isEmpty || text == "none" { return [] }
        var widths: [Int] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let w = Int(String(part).trimmingSpaces), (1...4096).contains(w) else {
                throw InputError("--hidden \(text): expected layer widths 1...4096 separated by commas, e.g. 128,64 (or none)")
            }
            widths.append(w)
        }
        return widths
    }
}
