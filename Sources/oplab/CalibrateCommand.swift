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
            level is then measured again with another seed and --matches matches; that \
            measurement and its 95 % interval go into the ladder file (--out, default \
            configs/difficulty/GAME.yaml) with the strategy spec a game can load.
            Every strategy takes epsilon (the chance of a random legal move), so any strategy \
            is a family: --family blas-greedy --knob epsilon --range 0..1.
            Example: oplab calibrate quortex --family reference --knob epsilon --range 0..1 \
            --reference reference --targets 0.1,0.2,0.3,0.4,0.5
            """
    )

    @Argument(help: "The game: rail or quortex.")
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

    @Option(parsing: .unconditional, help: "Master seed of the probes (the final measurements use seed + 1).", transform: CommandLineNumbers.seed)
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: "Worker threads (0 = every core).", transform: CommandLineNumbers.integer)
    var threads: Int = 0

    @Option(name: .customLong("rule"), help: "A rule knob KEY=VALUE (repeatable).")
    var rules: [String] = []

    @Option(help: "Map file (rail only).")
    var map: String?

    @Option(help: "The ladder file to write (default: configs/difficulty/GAME.yaml).")
    var out: String?

    @Flag(help: "Replace --out if it exists.")
    var force = false

    @Flag(help: "Print only the table.")
    var quiet = false

    func run() throws {
        try reportingInputErrors {
            let entry = try Catalog.game(named: game)
            let familySpec = try Catalog.validate(family, for: entry)
            guard let info = entry.strategies.first(where: { $0.name == familySpec.name }),
                  let parameter = info.parameters.first(where: { $0.name == knob }) else {
                let names = entry.strategies.first { $0.name == familySpec.name }?.parameters.map(\.name).joined(separator: ", ") ?? ""
                throw InputError("--knob \(knob): \(familySpec.name) has no such parameter; it takes \(names)")
            }
            let integer: Bool
            let allowed: ClosedRange<Double>
            switch parameter.kind {
            case .integer(let r): integer = true; allowed = Double(r.lowerBound)...Double(r.upperBound)
            case .number(let r): integer = false; allowed = r
            default: throw InputError("--knob \(knob): a numeric parameter is needed; \(knob) takes \(parameter.accepted)")
            }
            let parts = range.components(separatedBy: "..")
            guard parts.count == 2, let lo = Double(parts[0]), let hi = Double(parts[1]), lo < hi,
                  allowed.contains(lo), allowed.contains(hi) else {
                throw InputError("--range \(range): expected LO..HI with LO < HI inside \(knob)'s \(parameter.accepted)")
            }
            var targetList: [Double] = []
            for part in targets.split(separator: ",") {
                guard let t = Double(String(part).trimmingSpaces), t > 0, t < 1 else {
                    throw InputError("--targets \(targets): expected win rates in (0, 1) separated by commas")
                }
                targetList.append(t)
            }
            targetList.sort()
            let levelNames = try names.map { text throws(InputError) -> [String] in
                let list = text.split(separator: ",").map { String($0).trimmingSpaces }
                guard list.count == targetList.count, list.allSatisfy({ !$0.isEmpty }) else {
                    throw InputError("--names \(text): expected \(targetList.count) names, one per target")
                }
                return list
            } ?? (targetList.count == 5 ? ["beginner", "easy", "medium", "hard", "expert"] : (1...targetList.count).map { "level-\($0)" })
            guard matches >= 2 else { throw InputError("--matches \(matches): expected at least 2") }
            guard (1...30).contains(probes) else { throw InputError("--probes \(probes): expected 1...30") }
            guard (0...CommandLineNumbers.maxThreads).contains(threads) else {
                throw InputError("--threads \(threads): expected 0 (every core) to \(CommandLineNumbers.maxThreads)")
            }
            let path = out ?? "configs/difficulty/\(entry.name).yaml"
            try checkWritable(path, what: "the ladder")
            if FileManager.default.fileExists(atPath: path) && !force {
                throw InputError("--out \(path) exists; pass --force to replace it")
            }
            let referenceSpec = try Catalog.validate(reference, for: entry)
            let ruleSettings = try parseRuleSettings(rules)
            // One writer at a time in the ladder's folder, once the flags are checked.
            let lock = try ResultsLock(directory: folder(of: path))
            defer { withExtendedLifetime(lock) {} }

            func spec(_ value: Double) -> String {
                var s = familySpec
                s.parameters.removeAll { $0.key == knob }
                s.parameters.append((knob, integer ? String(Int(value)) : Self.number(value)))
                return s.description
            }
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-calibrate-\(ProcessInfo.processInfo.processIdentifier)").path
            defer { try? FileManager.default.removeItem(atPath: scratch) }
            let quiet = self.quiet
            func measure(_ value: Double, seed: UInt64) throws(InputError) -> WinRateMeasurement {
                let config = TournamentConfig(name: "calibrate", game: entry.name, rules: ruleSettings, map: map, seats: 2,
                                              entrants: [Entrant(name: "level", strategy: spec(value)), Entrant(name: "reference", strategy: referenceSpec.description)],
                                              format: .roundRobin, blocks: (matches + 1) / 2, seed: seed, threads: threads)
                let plan = try Catalog.plan(config, locate: flagLocator(entrants: ["--family", "--reference"]))
                _ = try TournamentRunner.run(plan, options: RunOptions(directory: scratch, threads: threads, force: true, quiet: true))
                let m = try Self.levelRow(scratch + "/summary.csv")
                if !quiet { printError("  \(spec(value)): win rate \(Self.number(m.winRate, 3)) [\(Self.number(m.low, 3)), \(Self.number(m.high, 3))] over \(m.matches) matches") }
                return m
            }
            if !quiet { printError("calibrate \(entry.name): \(familySpec) by \(knob) in \(range) against \(referenceSpec), targets \(targetList.map { Self.number($0) }.joined(separator: ", "))") }
            let found = try Calibration.search(targets: targetList, range: lo...hi, integer: integer, probes: probes) { v throws(InputError) in
                try measure(v, seed: seed)
            }
            if !quiet { printError("final measurements (seed \(seed &+ 1)):") }
            var lines = [
                "# Difficulty levels for \(entry.name), measured against `\(referenceSpec)` (2 seats, seat-rotated).",
                "# Made by: oplab calibrate \(Self.recordedArguments().joined(separator: " "))",
                "# Each level's win rate and its 95 % interval over seat-rotation blocks come from its own run of",
                "# \(matches) matches with seed \(seed &+ 1) (the search used seed \(seed)); `remeasure` is where a new run",
                "# of as many matches with another seed lands 95 % of the time (the noise of both runs).",
                "game: \(entry.name)",
                "reference: \"\(referenceSpec)\"",
                "seats: 2",
                "levels:",
            ]
            // Where a new run of the same size lands 95 % of the time: both runs' noise, √2
            // times one run's, whose 95 % half-width is half the interval over blocks.
            func spread(_ m: WinRateMeasurement) -> Double {
                2.0.squareRoot() * (m.high - m.low) / 2
            }
            var table = ["level     target  strategy                                  win rate  95 % interval"]
            var finals: [Double: WinRateMeasurement] = [:]
            for (k, level) in found.enumerated() {
                // Two targets out of reach can share an end: measure each value once.
                let m = try finals[level.value] ?? measure(level.value, seed: seed &+ 1)
                finals[level.value] = m
                lines += [
                    "  - name: \(levelNames[k])",
                    "    strategy: \"\(spec(level.value))\"",
                    "    target: \(Self.number(level.target))",
                    "    win_rate: \(Self.number(m.winRate, 4))",
                    "    interval: [\(Self.number(m.low, 4)), \(Self.number(m.high, 4))]",
                    "    remeasure: [\(Self.number(max(0, m.winRate - spread(m)), 4)), \(Self.number(min(1, m.winRate + spread(m)), 4))]",
                    "    matches: \(m.matches)",
                ] + (level.outOfRange ? ["    note: the target lies outside what \(knob) in \(range) reaches; this is the nearest end"] : [])
                table.append(levelNames[k].padding(toLength: 10, withPad: " ", startingAt: 0)
                             + Self.number(level.target, 2).padding(toLength: 8, withPad: " ", startingAt: 0)
                             + spec(level.value).padding(toLength: 42, withPad: " ", startingAt: 0)
                             + Self.number(m.winRate, 4).padding(toLength: 10, withPad: " ", startingAt: 0)
                             + "[\(Self.number(m.low, 4)), \(Self.number(m.high, 4))]" + (level.outOfRange ? "  (target out of range)" : ""))
            }
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
            } catch {
                throw InputError("--out \(path): cannot write the ladder: \(error.localizedDescription)")
            }
            for line in table { print(line) }
            print("wrote \(path)")
            // A ladder must get stronger level by level; say so when the measurements do not.
            var rates: [Double] = []
            for level in found { rates.append(finals[level.value]!.winRate) }
            for k in 1..<max(1, rates.count) where rates[k] <= rates[k - 1] {
                printError("warning: \(levelNames[k]) (\(Self.number(rates[k], 4))) is not stronger than \(levelNames[k - 1]) (\(Self.number(rates[k - 1], 4))); use more --matches, fewer targets or a wider --range")
            }
        }
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

    /// The `level` entrant's win rate, matches and the win rate's 95 % interval over
    /// blocks (`win_rate_low`, `win_rate_high`) from a run's summary.csv.
    static func levelRow(_ path: String) throws(InputError) -> WinRateMeasurement {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw InputError("cannot read \(path)") }
        let lines = text.split(separator: "\n").map(String.init)
        guard let header = lines.first.flatMap({ CSV.fields(Substring($0)) }),
              let row = lines.dropFirst().compactMap({ CSV.fields(Substring($0)) }).first(where: { $0.first == "level" }),
              let m = header.firstIndex(of: "matches"), let r = header.firstIndex(of: "win_rate"),
              let lo = header.firstIndex(of: "win_rate_low"), let hi = header.firstIndex(of: "win_rate_high"),
              let matches = Int(row[m]), let rate = Double(row[r]), let low = Double(row[lo]), let high = Double(row[hi]) else {
            throw InputError("\(path): no row for the level with matches and win_rate columns")
        }
        return WinRateMeasurement(winRate: rate, low: low, high: high, matches: matches)
    }

    /// A number without trailing zeros (up to `digits` decimals).
    static func number(_ x: Double, _ digits: Int = 3) -> String {
        var s = String(format: "%.\(digits)f", x)
        while s.contains(".") && (s.hasSuffix("0") || s.hasSuffix(".")) { s.removeLast() }
        return s == "-0" ? "0" : s
    }
}
