import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Tournament

// Options several commands share, each group used with `@OptionGroup`. A group holds an
// option only where its meaning, default and checks are the same in every command that
// takes it; the rest stay in their commands:
// - `tournament`'s `--seed` and `--threads` override the config's and default to it;
// - `train`'s `--threads` defaults to every core and takes 1...1024 (not 0);
// - `--out` names a file in some commands and a results folder in others, each with its
//   own default (or none: `train`, `merge`);
// - `merge`'s `--force` has no `--quiet` beside it.

/// `--rule KEY=VALUE` (repeatable) and `--map FILE`: the game's rule knobs and map.
struct GameOptions: ParsableArguments {
    @Option(name: .customLong("rule"), help: "A rule knob KEY=VALUE (repeatable); `oplab games` lists them.")
    var rules: [String] = []

    @Option(help: "Map file (games with a map).")
    var map: String?

    /// The `--rule` settings as `KEY=VALUE` pairs.
    func rulePairs() throws(InputError) -> [(key: String, value: String)] {
        var out: [(key: String, value: String)] = []
        for setting in rules { out.append(try KnobParsing.split(setting)) }
        return out
    }

    /// The `--rule` settings as a config's rules.
    func ruleSettings() throws(InputError) -> [RuleSetting] {
        try rulePairs().map { RuleSetting(key: $0.key, value: $0.value) }
    }

    /// `play`'s and `train`'s check of `--map`.
    func checkMap(for entry: any GameEntry) throws(InputError) {
        if map != nil && !entry.usesMap {
            throw InputError("--map: \(entry.name) has no map; games with maps: "
                + Catalog.games.filter(\.usesMap).map(\.name).joined(separator: ", "))
        }
    }
}

/// `--seed N`: the master seed (default 1) from which every random draw of the command
/// is seeded; the same seed, the same result.
struct SeedOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Master seed (default 1): the same seed gives the same result.",
            transform: CommandLineNumbers.seed)
    var seed: UInt64 = 1
}

/// `--threads N`: worker threads, 0 (the default) for every core.
struct ThreadsOption: ParsableArguments {
    @Option(parsing: .unconditional, help: "Worker threads (0 = every core, the default).", transform: CommandLineNumbers.integer)
    var threads: Int = 0

    /// Refuses a thread count outside 0...``CommandLineNumbers/maxThreads`` (ArgumentParser
    /// validates an option group with the command that holds it).
    func validate() throws {
        try reportingInputErrors {
            guard (0...CommandLineNumbers.maxThreads).contains(threads) else {
                throw InputError("--threads \(threads): expected 0 (every core) to \(CommandLineNumbers.maxThreads)")
            }
        }
    }
}

/// `--force` and `--quiet`: what to do with an existing output, and whether to say how
/// the work goes.
struct OutputFlags: ParsableArguments {
    @Flag(help: "Replace the output (--out) if it exists.")
    var force = false

    @Flag(help: "No progress on stderr.")
    var quiet = false

    /// Refuses a file `path` that cannot be written, that names a results folder's data or
    /// one of the command's `inputs`, or that exists without `--force`
    /// (``OutputPaths/checkFile(_:label:what:inputs:replacing:)``).
    func checkReplaceable(_ path: String, what: String, inputs: [String] = []) throws(InputError) {
        try OutputPaths.checkFile(path, label: "--out \(path)", what: what, inputs: inputs, replacing: .withForce(force))
    }

    /// Prints `line` on stderr unless `--quiet`.
    func progress(_ line: String) {
        if !quiet { printError(line) }
    }
}
