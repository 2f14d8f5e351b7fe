import Foundation
import LabCore

/// Combines the folders of a sharded run into the folder one whole run would have
/// written: `matches.csv` and the summaries byte for byte. The merged rows are compact
/// (`matches.csv.gz`, the same rows) when any shard's are.
public enum TournamentMerge {
    /// The config a results folder was made from (its `run.json`), with `threads` 0.
    public static func config(of directory: String) throws(InputError) -> TournamentConfig {
        let c = try RunRecord.read(from: directory).config
        guard let format = TournamentFormat(rawValue: c.format), c.rules.allSatisfy({ $0.count == 2 }),
              c.entrants.allSatisfy({ $0.count == 2 }) else {
            throw InputError("\(directory)/\(RunRecord.fileName): the config in it is not one this version reads")
        }
        return TournamentConfig(name: c.name, game: c.game, rules: c.rules.map { RuleSetting(key: $0[0], value: $0[1]) }, map: c.map,
                                seats: c.seats, entrants: c.entrants.map { Entrant(name: $0[0], strategy: $0[1]) }, format: format,
                                candidate: c.candidate, blocks: c.blocks, seed: c.seed, threads: 0)
    }

    /// Merges complete shards 1/N ... N/N of one run into `directory`.
    /// - Throws: when a folder is not a results folder, the shards come from different
    ///   configs, a shard is missing, repeated or unfinished, or `directory` already
    ///   holds results (without `force`). Nothing is written before these checks pass.
    public static func merge(_ plan: TournamentPlan, shards: [String], into directory: String, force: Bool) throws(InputError) -> RunResult {
        let resolved = ResolvedConfig(plan.config)
        var byIndex: [Int: (path: String, record: RunRecord)] = [:]
        var count: Int?
        for path in shards {
            let record = try RunRecord.read(from: path)
            if let difference = resolved.difference(from: record.config) {
                throw InputError("\(path): a different run (\(difference)) from \(shards[0])")
            }
            let shard: Shard
            do { shard = try Shard.parse(record.shard, environment: [:]) } catch {
                throw InputError("\(path)/\(RunRecord.fileName): shard '\(record.shard)' is not K/N")
            }
            guard record.status == .complete else {
                throw InputError("\(path): shard \(shard) is unfinished (\(record.blocksDone) of \(record.blocks) blocks); finish it with --resume first")
            }
            if let count, count != shard.count { throw InputError("\(path): shard \(shard) of a \(shard.count)-way split; the others are of \(count)") }
            count = shard.count
            if let other = byIndex[shard.index] { throw InputError("shard \(shard) appears twice: \(other.path) and \(path)") }
            byIndex[shard.index] = (path, record)
        }
        guard let count else { throw InputError("merge needs at least one results folder") }
        let missing = (1...count).filter { byIndex[$0] == nil }
        guard missing.isEmpty else {
            throw InputError("shards \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) are missing; merge needs all \(count)")
        }
        let layout = MatchesLayout(plan: plan)
        var readers: [MatchesReader] = []
        for index in 1...count {
            let shard = try Shard(index: index, count: count)
            let folder = byIndex[index]!.path
            guard let rows = try MatchesFormat.path(in: folder) else {
                throw InputError("\(folder): no matches.csv or matches.csv.gz; a finished shard has one")
            }
            readers.append(try MatchesReader(path: rows, layout: layout, expecting: plan.schedule.blocks(shard: shard),
                                             keepsText: true))
        }
        let format: MatchesFormat = readers.contains { $0.source.format == .compact } ? .compact : .plain
        // Held, with a killed or refused merge's half-written files dropped. A folder this
        // merge makes goes again when the merge fails: a refusal leaves no folder behind.
        let made = PathKind(of: directory) == .missing
        do throws(InputError) {
            return try write(plan, readers: readers, byIndex: byIndex, count: count, format: format, into: directory, force: force)
        } catch {
            if made { try? FileManager.default.removeItem(atPath: directory) }
            throw error
        }
    }

    /// The merge's writing half, once its inputs are checked.
    private static func write(_ plan: TournamentPlan, readers: [MatchesReader], byIndex: [Int: (path: String, record: RunRecord)],
                              count: Int, format: MatchesFormat, into directory: String, force: Bool) throws(InputError) -> RunResult {
        let resolved = ResolvedConfig(plan.config)
        let layout = MatchesLayout(plan: plan)
        let (lock, contents) = try RunFolder.hold(directory, label: "--out \(directory)", ownFiles: TournamentRunner.ownFiles(of: plan))
        defer { withExtendedLifetime(lock) {} }
        if !contents.isEmpty {
            guard force else { throw InputError("\(directory) already holds results; pass --force to replace them") }
            try RunFolder.clear(directory, contents: contents, ownFiles: TournamentRunner.ownFiles(of: plan))
        }

        // Blocks come back in run order by taking them from the shards in turn.
        let started = RunRecord.now()
        let path = directory + "/" + format.fileName
        let partial = path + Files.partialSuffix
        // Whatever stops the merge before the rename, the half-written file goes with it.
        defer { try? FileManager.default.removeItem(atPath: partial) }
        var tally = Tally(plan: plan)
        do {
            // Written and closed (every member) before the rename.
            try MatchesWriter.create(partial, format: format, header: layout.headerLine)
            let output = try MatchesWriter(appendingTo: partial, format: format, compressors: ProcessInfo.processInfo.activeProcessorCount)
            for block in 0..<plan.schedule.blockCount {
                let reader = readers[block % count]
                guard let next = try reader.nextBlock(), next.block == block else {
                    throw InputError("\(reader.path): block \(block) is missing")
                }
                tally.add(block: next.rows)
                if let problem = output.append(Array(next.text.utf8)) { throw InputError("cannot write \(partial): \(problem)") }
            }
            if let problem = output.finish() { throw InputError("cannot write \(partial): \(problem)") }
        }
        for reader in readers {
            if try reader.nextBlock() != nil || reader.tailLength > 0 { throw InputError("\(reader.path): rows after the shard's last block") }
            if reader.source.damage != nil { throw InputError("\(reader.path): a torn gzip member after the shard's last block") }
        }
        guard rename(partial, path) == 0 else { throw InputError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let table = try TournamentRunner.writeSummaries(tally, to: directory)
        let records = (1...count).map { byIndex[$0]!.record }
        let seconds = records.reduce(0) { $0 + $1.seconds }
        let matches = plan.schedule.blockCount * plan.schedule.matchesPerBlock
        let record = RunRecord(config: resolved, shard: Shard.whole.description, status: .complete, blocks: plan.schedule.blockCount,
                               blocksDone: plan.schedule.blockCount, matchesDone: matches, threads: records.map(\.threads).max() ?? 0,
                               started: started, finished: RunRecord.now(), seconds: seconds, matchesThisSession: 0,
                               matchesPerSecond: seconds > 0 ? Double(matches) / seconds : 0, peakMemoryMB: Files.peakMemoryMB(),
                               mergedFrom: (1...count).map { byIndex[$0]!.path },
                               decisionTimes: records.reduce(into: DecisionTimes(entrants: plan.entrantNames.count)) {
                                   $0.add(DecisionTimes(records: $1.decisionTimes ?? [], entrants: plan.entrantNames))
                               }.records(entrants: plan.entrantNames))
        try record.write(to: directory)
        return RunResult(directory: directory, blocksPlayed: 0, matchesPlayed: 0, matchesPerSecond: record.matchesPerSecond,
                         threads: record.threads, table: table, notes: ["merged \(count) shards: \(tally.blocks) blocks, \(matches) matches"])
    }
}
