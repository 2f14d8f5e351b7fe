import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Tournament

struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "How far runs are: one results folder, or many shard folders.",
        discussion: """
            Reads each folder's run.json, which a running tournament rewrites every few \
            seconds, and prints one line per folder: running, complete, stopped or interrupted (by \
            Ctrl-C or SIGTERM; --resume continues it); blocks done of \
            the total; matches/s; ETA; the leader's score share with its 95 % interval over \
            blocks; forfeits. A running folder not updated for --stalled-after seconds, or that no \
            process on this machine holds, is marked STALLED (`oplab tournament ... --resume` \
            continues it). With several folders a last line adds them up. A tuning's folder \
            (`oplab tune`, tune.json) gets a line of its own: iteration, matches, rate, ETA and the \
            point last measured; so does a learning's (`oplab learn`, learn.json), and each begun \
            stage of a learning in stages (`oplab learn --stages`, DIR/stage-N).
            Example: oplab status results/overnight-shard-*-of-8
            """
    )

    @Argument(help: "Results folders (one, or the shards of a run).")
    var directories: [String]

    @Option(help: "Seconds without an update after which a running folder counts as stalled.")
    var stalledAfter: Double = RunStatus.defaultStalledAfter

    func run() throws {
        try reportingInputErrors {
            guard !directories.isEmpty else { throw InputError("no folder: give one or more results folders") }
            guard stalledAfter > 0, stalledAfter.isFinite else {
                throw InputError("--stalled-after \(stalledAfter): expected a number of seconds above 0")
            }
            var statuses: [RunStatus] = []
            for directory in directories {
                // A tuning's folder (tune.json) gets its own line and stays out of the total.
                if FileManager.default.fileExists(atPath: directory + "/" + TuningState.fileName) {
                    printOutput(try TuningState.statusLine(directory, stalledAfter: stalledAfter))
                    continue
                }
                // So does a learning's (`oplab learn`, learn.json).
                if FileManager.default.fileExists(atPath: directory + "/" + LearnStatus.recordFile) {
                    printOutput(try LearnStatus.line(directory, stalledAfter: stalledAfter))
                    continue
                }
                // A learning in stages (`oplab learn --stages`): a line for each stage begun.
                let stages = (0...).lazy.map { LearnStages.folder($0, in: directory) }
                    .prefix { FileManager.default.fileExists(atPath: $0 + "/" + LearnStatus.recordFile) }
                if !stages.isEmpty && !FileManager.default.fileExists(atPath: directory + "/" + RunRecord.fileName) {
                    for stage in stages { printOutput(try LearnStatus.line(stage, stalledAfter: stalledAfter)) }
                    continue
                }
                statuses.append(try RunStatus.read(directory))
            }
            for status in statuses { printOutput(status.line(stalledAfter: stalledAfter)) }
            if statuses.count > 1 { printOutput(RunStatus.total(statuses, stalledAfter: stalledAfter)) }
        }
    }
}
