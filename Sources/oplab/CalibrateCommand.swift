import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Tournament

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Find the knob values of a strategy family that reach target win rates against a reference: difficulty levels.",
        discussion: """
            For each target win rate, a monotone search (bisection between the ends of --range, \
            each probe --matches seat-rotated 2-seat matches of FAMILY(KNOB=value) against the \
            reference, probes cached) finds the knob value whose win rate comes closest. Each \
            level is then measured again with --seed + 1 and --matches matches; that \
            measurement and its 95 % interval go into the ladder file (--out, default \
            configs/difficulty/GAME.yaml) with the strategy spec a game can load.
            Every strategy takes epsilon (the chance of a random legal move), so any strategy \
            is a family: --family blas-greedy --knob epsilon --range 0..1.
            Example: oplab calibrate quortex --family reference --knob epsilon --range 0..1 \
            --reference reference --targets 0.1,0.2,0.3,0.4,0.5
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Option(help: "The strategy family: a spec without the knob, e.g. blas-greedy or \"mcts(rolloutDepth=0)\".")
    var family: String

    @Option(help: "The numeric parameter to turn, e.g. epsilon or iterations.")
    var knob: String

    @Option(help: "The knob's range, LO..HI.")
    var range: String

    @Option(help: "The strategy spec the win rates are measured against (the documented CPU, usually).")
    var reference: String

    @Option(help: "Target win rates, comma-separated, each in (0, 1).")
    var targets: String = "0.2,0.35,0.5,0.65,0.8"

    @Option(help: "Level names, comma-separated (default: beginner, easy, medium, hard, expert for five; else level-1...).")
    var names: String?

    @Option(parsing: .unconditional, help: "Matches per probe and for each level's final measurement.", transform: CommandLineNumbers.integer)
    var matches: Int = 1_000

    @Option(parsing: .unconditional, help: "Bisection steps per target at most.", transform: CommandLineNumbers.integer)
    var probes: Int = 7

    @OptionGroup var seeding: SeedOption

    @OptionGroup var workers: ThreadsOption

    @OptionGroup var setup: GameOptions

    @Option(help: "The ladder file to write (default: configs/difficulty/GAME.yaml).")
    var out: String?

    @OptionGroup var output: OutputFlags

    /// The measurement's own numbers, checked before the game is looked up.
    func validate() throws {
        try reportingInputErrors {
            guard matches >= 2 else { throw InputError("--matches \(matches): expected at least 2") }
            guard (1...30).contains(probes) else { throw InputError("--probes \(probes): expected 1...30") }
        }
    }

    func run() throws {
        try reportingInputErrors {
            let (request, knob, rules, path) = try parse()
            // One writer at a time in the ladder's folder, once the flags are checked.
            let lock = try FolderHold(folder(of: path))
            defer { withExtendedLifetime(lock) {} }
            let ladder = try Catalog.calibrate(request, knob: knob, rules: rules, map: setup.map, threads: workers.threads,
                                               locate: flagLocator(entrants: ["--family", "--reference"]), progress: output.progress)
            try ladder.write(to: path)
            for line in ladder.table { printOutput(line) }
            printOutput("wrote \(path)")
            for warning in ladder.warnings { printError("warning: \(warning)") }
        }
    }

    /// The flags checked, in the order a user reads them: the calibration asked, the knob
    /// turned, the rules and the ladder file (which may be replaced).
    func parse() throws(InputError) -> (request: CalibrationRequest, knob: StrategyKnob, rules: [RuleSetting], path: String) {
        let entry = try Catalog.game(named: game)
        let familySpec = try Catalog.validate(family, for: entry)
        let knob: StrategyKnob
        do { knob = try Catalog.knob(self.knob, of: familySpec, for: entry) } catch { throw InputError("--knob \(error.message)") }
        let parts = range.components(separatedBy: "..")
        guard parts.count == 2, let lo = Double(parts[0]), let hi = Double(parts[1]), lo < hi,
              knob.allowed.contains(lo), knob.allowed.contains(hi) else {
            throw InputError("--range \(range): expected LO..HI with LO < HI inside \(self.knob)'s \(knob.accepted)")
        }
        let (targetList, levelNames) = try CalibrationRequest.levels(targets: targets, names: names)
        let path = out ?? "configs/difficulty/\(entry.name).yaml"
        try output.checkReplaceable(path, what: "the ladder", inputs: [setup.map].compactMap { $0 })
        let referenceSpec = try Catalog.validate(reference, for: entry)
        let request = CalibrationRequest(
            game: entry.name, family: familySpec.description, knob: knob.name, range: lo...hi, rangeText: range, integer: knob.integer,
            reference: referenceSpec.description, targets: targetList, names: levelNames, matches: matches, probes: probes,
            seed: seeding.seed, command: (["oplab", "calibrate"] + Self.recordedArguments()).joined(separator: " "))
        return (request, knob, try setup.ruleSettings(), path)
    }

    /// The command's arguments without the flags that do not change the ladder
    /// (`--force`, `--quiet`, `--threads N`), quoted where the shell needs it.
    static func recordedArguments() -> [String] {
        var words = Array(CommandLine.arguments.dropFirst(2))
        var i = 0
        while i < words.count {
            if words[i] == "--force" || words[i] == "--quiet" || words[i].hasPrefix("--threads=") {
                words.remove(at: i)
            } else if words[i] == "--threads" {
                words.removeSubrange(i..<min(words.count, i + 2))
            } else {
                i += 1
            }
        }
        // Quoted for a POSIX shell: single quotes unless the word holds one.
        return words.map { word in
            guard word.contains(where: { " ()\"'$`\\*?;&|<>".contains($0) }) else { return word }
            return word.contains("'") ? "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "$", with: "\\$").replacingOccurrences(of: "`", with: "\\`") + "\"" : "'" + word + "'"
        }
    }
}
