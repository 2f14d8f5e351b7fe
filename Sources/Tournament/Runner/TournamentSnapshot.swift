import Foundation
import LabCore

/// The summaries of a run that has not finished (still playing, or killed), from the
/// complete blocks of its `matches.csv` so far. Reads the folder and writes nothing in it:
/// the process still playing there keeps it to itself.
public struct TournamentSnapshot: Sendable {
    /// Complete blocks read, and the blocks of the run (or shard).
    public var blocksDone: Int
    public var blocks: Int
    /// The bytes of rows (of `matches.csv`, or unpacked from `matches.csv.gz`) that hold
    /// those blocks, header included; what follows is an unfinished block, or blocks
    /// written since.
    public var matchesLength: Int

    /// Reads the complete blocks of `directory`'s `matches.csv` (a run of `plan`) and
    /// writes `summary.csv`, `pairwise.csv`, `ratings.csv` and the board counts for them
    /// into `folder`.
    /// - Throws: ``InputError`` when the folder is not a run of `plan` or a block does
    ///   not read.
    public static func write(_ plan: TournamentPlan, of directory: String, into folder: String) throws(InputError) -> TournamentSnapshot {
        let record = try RunRecord.read(from: directory)
        let shard: Shard
        do { shard = try Shard.parse(record.shard, environment: [:]) } catch {
            throw InputError("\(directory)/\(RunRecord.fileName): shard '\(record.shard)' is not K/N")
        }
        // matches.csv or matches.csv.gz; a member being written is a torn tail, not damage.
        let file = try MatchesFormat.present(in: directory)?.fileName ?? "matches.csv"
        let reader = try MatchesReader(path: directory + "/" + file, layout: MatchesLayout(plan: plan),
                                       expecting: plan.schedule.blocks(shard: shard), acceptsCorruptTail: true)
        var tally = Tally(plan: plan)
        while let block = try reader.nextBlock() { tally.add(block: block.rows) }
        _ = try TournamentRunner.writeSummaries(tally, to: folder)
        return TournamentSnapshot(blocksDone: reader.blocksRead, blocks: plan.schedule.blocks(shard: shard).count,
                                  matchesLength: reader.validLength)
    }
}
