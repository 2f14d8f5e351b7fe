import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Reports
import Tournament

struct TuneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tune",
        abstract: "Tune a strategy's numeric parameters with SPSA or NTBEA, for the most strength or a target score share, then verify.",
        discussion: """
            Each measurement plays the strategy at one point of its parameters in a gauntlet \
            against every --against spec, --blocks seat-rotated 2-seat blocks per opponent; its \
            score share (a win 1, a shared first place 1/2) is the objective (--objective max) or \
            its distance to P is (--objective target=P). --method spsa moves every parameter at \
            once along simultaneous-perturbation gradients (fishtest's gains: a_k = a/(A+k+1)^0.602, \
            c_k = c/(k+1)^0.101, A = 10 % of the iterations; integers rounded stochastically); \
            --method ntbea searches each parameter's grid (LOW..HIGH:STEP; integers step 1) with \
            TAG's N-tuple bandit (1-tuples and the full tuple, UCB, neighbourhood mutation) and \
            re-measures the --finalists points its model rates best with a fifth of the budget, \
            taking the one that scores best there (the model's own best is flattered by noise). The search stops when --budget matches are \
            played; then the tuned spec is verified: --verify-matches matches against the start \
            and against the field (seed + 1), with 95 % intervals over blocks. \
            The folder (--out) gets measurements.csv (every measurement; --resume replays it), \
            tuning.csv, verify/ (three tournaments), verification.csv, tuned.yaml, tune.json and \
            report.html. Several --objective target=P make one tuning per target (OUT/target-P) \
            and a difficulty ladder OUT/ladder.yaml.
            Parameters: any numeric parameter of a lab strategy (`oplab strategies GAME`), or an \
            int or float option an external bot declares in `ready`, as opt.NAME.
            Example: oplab tune rail --strategy planner --param focus=0..1:0.1 \
            --param hoard=0..1:0.25 --against heuristic --method ntbea --budget 20000
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Option(help: "The strategy spec to tune; values it gives the tuned parameters are the start.")
    var strategy: String

    @Option(name: .customLong("param"), help: "A parameter to tune, NAME=LOW..HIGH or NAME=LOW..HIGH:STEP (repeatable).")
    var params: [String] = []

    @Option(help: "A strategy spec to measure against (repeatable): the field.")
    var against: [String] = []

    /// The tuners by name.
    enum Method: String, CaseIterable, ExpressibleByArgument { case spsa, ntbea }

    @Option(help: "The search: spsa or ntbea.")
    var method: Method = .spsa

    @Option(help: "max (the most score share, the default) or target=P with P in (0, 1) (repeatable for targets: a ladder).")
    var objective: [String] = []

    @Option(parsing: .unconditional, help: "Matches the search may play, per objective (default 4000).", transform: CommandLineNumbers.integer)
    var budget: Int = 4_000

    @Option(parsing: .unconditional, help: "Seat-rotated blocks (2 matches) per opponent in one measurement (default 8).",
            transform: CommandLineNumbers.integer)
    var blocks: Int = 8

    @Option(name: .customLong("verify-matches"), parsing: .unconditional, help: "Matches of each verification tournament (default 1000).",
            transform: CommandLineNumbers.integer)
    var verifyMatches: Int = 1_000

    @Option(name: .customLong("spsa-a"), parsing: .unconditional, help: "SPSA's step gain a, in fractions of each range.")
    var spsaA: Double = SPSA.Settings().a

    @Option(name: .customLong("spsa-c"), parsing: .unconditional, help: "SPSA's first perturbation c, a fraction of each range in (0, 0.5].")
    var spsaC: Double = SPSA.Settings().c

    @Option(name: .customLong("ntbea-k"), parsing: .unconditional, help: "NTBEA's UCB exploration weight k (score units).")
    var ntbeaK: Double = NTBEA.Settings().k

    @Option(name: .customLong("neighbours"), parsing: .unconditional, help: "NTBEA's mutated neighbours per iteration (default 50).",
            transform: CommandLineNumbers.integer)
    var neighbours: Int = NTBEA.Settings().neighbours

    @Option(parsing: .unconditional, help: "NTBEA's finalists: the points its model rates best, each measured again with a fifth of the budget; the best of them wins (default 5; 1: the model's best).",
            transform: CommandLineNumbers.integer)
    var finalists: Int = 5

    @OptionGroup var seeding: SeedOption

    @OptionGroup var workers: ThreadsOption

    @OptionGroup var setup: GameOptions

    @Option(help: "The results folder (default: results/tune-GAME-STRATEGY).")
    var out: String?

    @Flag(help: "Finish the tuning in --out (killed or stopped) where it stopped.")
    var resume = false

    @OptionGroup var output: OutputFlags

    func run() throws {
        try reportingInputErrors {
            let parsed = try parse()
            var levels: [(request: TuningRequest, outcome: TuningOutcome)] = []
            for request in parsed.requests {
                let folder = parsed.requests.count == 1 ? parsed.folder
                    : parsed.folder + "/" + TunedFile.levelName(request.objective)
                if parsed.requests.count > 1 { try makeFolder(parsed.folder) }
                let outcome = try Catalog.tune(request, spec: parsed.spec,
                                               options: TuningOptions(directory: folder, threads: workers.threads, resume: resume,
                                                                      force: output.force, quiet: output.quiet),
                                               locate: flagLocator(entrants: ["--strategy"] + against.map { _ in "--against" }),
                                               progress: output.progress)
                try TuningReport.write(folder: folder)
                printOutput("\(TunedFile.levelName(request.objective)): \(outcome.tunedSpec)")
                for line in outcome.verification.verdicts(objective: request.objective) { printOutput("  " + line) }
                printOutput("wrote \(folder)/tuned.yaml, \(folder)/report.html")
                levels.append((request, outcome))
            }
            if levels.count > 1 {
                let path = parsed.folder + "/ladder.yaml"
                try TuningLadder.write(levels.map { ($0.request, $0.outcome) }, to: path)
                printOutput("wrote \(path)")
            }
        }
    }

    struct Parsed {
        var spec: StrategySpec
        var requests: [TuningRequest]
        var folder: String
    }

    /// The flags checked, in the order a user reads them; nothing is written.
    func parse() throws(InputError) -> Parsed {
        let entry = try Catalog.game(named: game)
        try setup.checkMap(for: entry)
        let rules = try setup.rulePairs()
        try entry.checkRules(rules)
        let spec: StrategySpec
        do { spec = try Catalog.validate(strategy, for: entry) } catch { throw InputError("--strategy \(error.message)") }
        guard !params.isEmpty else {
            throw InputError("--param: give at least one parameter to tune, NAME=LOW..HIGH[:STEP]; `oplab strategies \(entry.name)` lists them")
        }
        guard !against.isEmpty else { throw InputError("--against: give at least one strategy spec to measure against") }
        var field: [String] = []
        for text in against {
            do { field.append(try Catalog.validate(text, for: entry).description) } catch { throw InputError("--against \(error.message)") }
        }
        // An external bot is asked for its options (its lab parameters, epsilon, tune as any strategy's).
        let tunable = try Catalog.tunableParameters(of: spec, for: entry, rules: rules, mapPath: setup.map)
        var parameters: [TuningParameter] = []
        var start: [Double] = []
        for text in params {
            let p = try Catalog.tuningParameter(text, strategy: spec, tunable: tunable, of: entry)
            guard !parameters.contains(where: { $0.name == p.name }) else {
                throw InputError("--param \(text): \(p.name) is given twice; each parameter may be tuned once")
            }
            let declared = tunable.first { $0.name == p.name }!
            parameters.append(p)
            start.append(p.clamp(try Catalog.startValue(of: declared, in: spec)))
        }
        let tuningMethod: TuningMethod
        switch method {
        case .spsa: tuningMethod = .spsa(SPSA.Settings(a: spsaA, c: spsaC))
        case .ntbea: tuningMethod = .ntbea(NTBEA.Settings(neighbours: neighbours, k: ntbeaK, finalists: finalists))
        }
        var objectives: [TuningObjective] = []
        for text in objective.isEmpty ? ["max"] : objective {
            let o = try TuningObjective(parsing: text)
            guard !objectives.contains(o) else { throw InputError("--objective \(text) is given twice") }
            objectives.append(o)
        }
        if objectives.count > 1 && objectives.contains(.max) {
            throw InputError("--objective: max tunes one strategy; several objectives must all be target=P (a ladder)")
        }
        let folder = out ?? "results/tune-\(entry.name)-\(spec.name)"
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && !isFolder.boolValue {
            throw InputError("--out \(folder): a file is there; expected a results folder")
        }
        let command = (["oplab", "tune"] + Self.recordedArguments()).joined(separator: " ")
        var requests: [TuningRequest] = []
        for o in objectives.sorted(by: { Self.order($0) < Self.order($1) }) {
            let request = TuningRequest(game: entry.name, rules: try setup.ruleSettings(), map: setup.map, strategy: spec.description,
                                        startSpec: spec.description, parameters: parameters, start: start, field: field,
                                        method: tuningMethod, objective: o, budget: budget, blocks: blocks, verifyMatches: verifyMatches,
                                        seed: seeding.seed, command: command)
            try request.check()
            requests.append(request)
        }
        return Parsed(spec: spec, requests: requests, folder: folder)
    }

    /// The arguments that decide the tuning's results: calibrate's, less `--resume` and
    /// `--out DIR` (where a tuning is written or resumed does not change what it finds).
    static func recordedArguments() -> [String] {
        var words = CalibrateCommand.recordedArguments()
        var i = 0
        while i < words.count {
            if words[i] == "--resume" || words[i].hasPrefix("--out=") {
                words.remove(at: i)
            } else if words[i] == "--out" {
                words.removeSubrange(i..<min(words.count, i + 2))
            } else {
                i += 1
            }
        }
        return words
    }

    static func order(_ o: TuningObjective) -> Double {
        if case .target(let p) = o { return p }
        return 2
    }

    func makeFolder(_ path: String) throws(InputError) {
        do { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) } catch {
            throw InputError("--out \(path): cannot make the folder: \(Files.reason(error))")
        }
    }
}
