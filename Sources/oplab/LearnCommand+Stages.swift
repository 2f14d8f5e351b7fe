import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Players
import Tournament

/// `oplab learn GAME --stages FILE`: a learning as a sequence of `oplab learn` runs
/// (``LearnStages``), stage N into DIR/stage-N, the last one's best model copied to
/// DIR/best.model.
extension LearnCommand {
    func runStages(_ path: String) throws {
        try reportingInputErrors {
            let plan = try LearnStages.load(path)
            let entry = try Catalog.game(named: game)
            try refuseLearningFlags()
            let directory = out ?? "results/learn-\(entry.name)"
            // Every stage's flags are checked before the first one plays; a stage that reads
            // the model of one not yet learned is checked further when its turn comes.
            var commands: [LearnCommand] = []
            for k in plan.stages.indices {
                let command = try stageCommand(plan, k, directory: directory)
                let waits = plan.stages[k].readsPrevious && PathKind(of: LearnStages.bestModel(k - 1, in: directory)) != .file
                if !waits { _ = try checked(command, plan.location(k)) }
                commands.append(command)
            }
            if dryRun {
                for k in commands.indices {
                    let words = [game] + plan.words(k, in: directory) + ["--out", LearnStages.folder(k, in: directory)]
                    printOutput("stage \(k + 1) (\(plan.location(k))): oplab learn " + CommandWords.join(words))
                }
                return
            }
            for (k, command) in commands.enumerated() {
                output.progress("stage \(k + 1) of \(commands.count) (\(plan.location(k))) -> \(LearnStages.folder(k, in: directory))")
                let (stageEntry, request, options) = try checked(command, plan.location(k))
                try command.learn(entry: stageEntry, request: request, options: options)
            }
            let last = LearnStages.bestModel(commands.count - 1, in: directory)
            let bytes = try BoundedFile.contents(last, limit: 1 << 31, what: "the last stage's model")
            try Files.writeAtomically(bytes, to: directory + "/best.model")
            printOutput("best model: \(directory)/best.model (stage \(commands.count)'s)")
        }
    }

    /// A stage's request, its errors naming the stage's line.
    private func checked(_ command: LearnCommand, _ location: String) throws(InputError) -> (any GameEntry, LearnRequest, LearnOptions) {
        do { return try command.parse() } catch { throw InputError("\(location): \(error.message)") }
    }

    /// Stage `k` as the command it stands for: its flags, and the command line's folder,
    /// threads, resume, force, quiet, rules and map.
    private func stageCommand(_ plan: LearnStages, _ k: Int, directory: String) throws -> LearnCommand {
        var words = [game] + plan.words(k, in: directory) + setupWords
        words += ["--out", LearnStages.folder(k, in: directory), "--threads", String(workers.threads), "--stage-of", plan.location(k)]
        if resume { words.append("--resume") }
        if output.force { words.append("--force") }
        if output.quiet { words.append("--quiet") }
        do {
            return try LearnCommand.parse(words)
        } catch {
            let message = LearnCommand.message(for: error)
            // validate() has printed its error, naming the stage, and asks for its exit code.
            if message.isEmpty { throw LearnCommand.exitCode(for: error) }
            throw InputError("\(plan.location(k)): \(message)")
        }
    }

    /// With --stages the file gives the learning's flags: one given on the command line as
    /// well would be silently ignored, so it is refused.
    private func refuseLearningFlags() throws(InputError) {
        guard let plain = try? LearnCommand.parse([game] + setupWords) else { return }
        // The identity leaves the generations out (a resume may ask for more).
        let given = try parse().1.identity + ["generations: \(generations)"]
        let defaults = try plain.parse().1.identity + ["generations: \(plain.generations)"]
        if let k = given.indices.first(where: { $0 >= defaults.count || given[$0] != defaults[$0] }) {
            throw InputError("--stages: the stages file gives the learning's flags, not the command line (here \(given[k].excerpt(limit: 60))); "
                + "with --stages it takes only --out, --threads, --resume, --force, --quiet, --rule and --map")
        }
        if given.count < defaults.count {
            throw InputError("--stages: the stages file gives the learning's flags; with --stages the command line takes only --out, --threads, --resume, --force, --quiet, --rule and --map")
        }
    }

    /// The command line's rules and map, as flags every stage gets.
    private var setupWords: [String] {
        setup.rules.flatMap { ["--rule", $0] } + (setup.map.map { ["--map", $0] } ?? [])
    }
}
