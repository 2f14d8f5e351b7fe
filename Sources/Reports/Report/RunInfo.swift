import Foundation
import LabCore
import Tournament

/// What the report shows from `run.json`: the resolved config and the run's record
/// (status, speed, times), as the page uses them.
struct RunInfo {
    struct Entrant {
        var name: String
        var strategy: String
    }

    var name: String
    var game: String
    var seats: Int
    var format: String
    var seed: UInt64
    var entrants: [Entrant]
    var rules: [(key: String, value: String)]
    var map: String?
    var candidate: String?
    /// Blocks per table, as configured.
    var blocksPerTable: Int
    /// Blocks of the whole run, and how many are done.
    var blocks: Int
    var blocksDone: Int
    var matchesDone: Int
    var status: String
    var shard: String?
    var threads: Int
    var matchesPerSecond: Double
    var seconds: Double
    var started: String
    var finished: String?
    var version: String?
    /// Per entrant, its time per decision (absent in records of earlier versions).
    var decisionTimes: [DecisionRecord]?
    /// Per entrant that forfeited, its forfeits by kind (run.json).
    var forfeitKinds: [RunRecord.ForfeitRecord] = []
    /// For a run still playing or killed before its end: the complete blocks the page is
    /// drawn from, of the run's blocks.
    var inProgress: (done: Int, total: Int)? = nil

    /// Reads `directory/run.json` through the harness's own reader (``RunRecord``),
    /// whose errors name the path and the key.
    static func read(directory: String) throws(InputError) -> RunInfo {
        let record = try RunRecord.read(from: directory)
        let path = directory + "/" + RunRecord.fileName
        let config = record.config
        let entrants = try config.entrants.enumerated().map { (i, pair) throws(InputError) -> Entrant in
            guard pair.count == 2 else { throw InputError("\(path): key 'config.entrants[\(i)]': expected [name, strategy] (two strings)") }
            return Entrant(name: pair[0], strategy: pair[1])
        }
        guard !entrants.isEmpty else { throw InputError("\(path): key 'config.entrants': no entrants") }
        let rules = try config.rules.enumerated().map { (i, pair) throws(InputError) -> (key: String, value: String) in
            guard pair.count == 2 else { throw InputError("\(path): key 'config.rules[\(i)]': expected [knob, value] (two strings)") }
            return (pair[0], pair[1])
        }
        guard config.seats >= 1 else { throw InputError("\(path): key 'config.seats': \(config.seats) is not a seat count (1 or more)") }
        return RunInfo(
            name: config.name, game: config.game, seats: config.seats, format: config.format, seed: config.seed, entrants: entrants,
            rules: rules, map: config.map, candidate: config.candidate, blocksPerTable: config.blocks, blocks: record.blocks,
            blocksDone: record.blocksDone, matchesDone: record.matchesDone, status: record.status.rawValue, shard: record.shard,
            threads: record.threads, matchesPerSecond: record.matchesPerSecond, seconds: record.seconds, started: record.started,
            finished: record.finished, version: record.version, decisionTimes: record.decisionTimes,
            forfeitKinds: record.forfeits ?? [])
    }

    /// The entrant called `name`, by its index in the config.
    func entrantIndex(_ name: String) -> Int? { entrants.firstIndex { $0.name == name } }
}
