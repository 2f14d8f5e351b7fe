import Foundation
import LabCore

/// Resuming a run whose rows end torn or damaged: what is cut, and what is refused.
extension RunFolder {
    /// Cuts what follows the last complete block of a file read to its end by `reader`:
    /// a torn line or unfinished block of `matches.csv`; a torn or corrupt last gzip member
    /// of `matches.csv.gz` (its blocks are played again). A corrupt member that intact
    /// members follow (damage, not a kill mid-write) is cut, with all after it, only with
    /// `dropDamaged`. Returns what was dropped, for the notes; nil when nothing was.
    /// - Parameter blocks: the blocks the file holds in order (the run's or its shard's).
    /// - Throws: when a complete member ends inside a block (oplab's members hold whole
    ///   blocks), a damaged member has intact members after it and `dropDamaged` is off
    ///   (naming the member, its blocks and theirs), or the file cannot be truncated;
    ///   nothing is written before.
    static func cutTail(of reader: MatchesReader, blocks: ShardBlocks, dropDamaged: Bool) throws(InputError) -> String? {
        let path = reader.path
        switch reader.source.format {
        case .plain:
            guard reader.tailLength > 0 else { return nil }
            try truncate(path, to: reader.validLength)
            return "dropped \(reader.tailLength) bytes of an unfinished block at the end of matches.csv"
        case .compact:
            guard reader.tailLength == 0 else {
                throw InputError("\(path): its complete gzip members end inside a block (after block \(reader.blocksRead) of the "
                    + "file): oplab's members hold whole blocks, so this is not a file a run wrote; pass --force to start over")
            }
            let length: Int
            do { length = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0 } catch {
                throw InputError("cannot read \(path): \(Files.reason(error))")
            }
            let kept = reader.source.completeLength
            guard length > kept else { return nil }
            if case .corrupt(let why) = reader.source.damage,
               let after = try GzipMemberReader.followers(of: path, after: kept) {
                let lost = damagedMember(reader, why: why, followers: after, blocks: blocks)
                guard dropDamaged else {
                    throw InputError("\(path): \(lost.text). --resume stops here rather than throw them away: pass --drop-damaged to "
                        + "cut the file at that member and play every block from \(lost.from) on again, or --force to play the whole run again")
                }
                try truncate(path, to: kept)
                return "dropped \(length - kept) bytes of matches.csv.gz from its damaged gzip member \(reader.source.membersRead + 1) "
                    + "(at byte \(kept); \(why)) to the end, with the \(after.members) intact members after it (--drop-damaged): "
                    + "every block from \(lost.from) on is played again"
            }
            try truncate(path, to: kept)
            return switch reader.source.damage {
            case .corrupt(let why):
                "dropped \(length - kept) bytes from a damaged gzip member (\(why)) to the end of matches.csv.gz; their blocks are played again"
            case .torn, nil:
                "dropped \(length - kept) bytes of a torn gzip member at the end of matches.csv.gz; its blocks are played again"
            }
        }
    }

    /// What a damaged member followed by intact ones holds, in words: its number and byte
    /// offset, the blocks it held and those of the members after it (read from their first
    /// and last rows); and the first block lost with it (`block 1200`).
    private static func damagedMember(_ reader: MatchesReader, why: String, followers after: GzipMemberReader.Followers,
                                      blocks: ShardBlocks) -> (text: String, from: String) {
        let lostAt = reader.blocksRead
        let first = lostAt < blocks.count ? blocks[lostAt] : nil
        let from = first.map { "block \($0)" } ?? "the end of the run"
        var text = "gzip member \(reader.source.membersRead + 1) (counting the header's as the first), at byte "
            + "\(reader.source.completeLength), is damaged (\(why))"
        // The position in `blocks` of the block a row names.
        func position(ofRow row: [UInt8]) -> Int? {
            guard let fields = CSV.fields(Substring(String(decoding: row, as: UTF8.self))), fields.count > 1,
                  let block = Int(fields[1]), block >= blocks.offset, (block - blocks.offset) % blocks.step == 0 else { return nil }
            let p = (block - blocks.offset) / blocks.step
            return p < blocks.count ? p : nil
        }
        let members = "\(after.members) intact member\(after.members == 1 ? "" : "s")"
        if let first, let start = position(ofRow: after.firstRow), let end = position(ofRow: after.lastRow), start > lostAt, end >= start {
            let held = start - lostAt
            text += "; it held \(held == 1 ? "block \(first)" : "\(held) blocks, \(first) to \(blocks[start - 1])"), and the \(members) "
                + "after it hold \(end - start + 1) more, blocks \(blocks[start]) to \(blocks[end])"
        } else {
            text += "; the blocks from \(from) on were in it, and \(members) (\(after.rows) rows) follow it"
        }
        return (text, from)
    }

    static func truncate(_ path: String, to length: Int) throws(InputError) {
        guard let handle = FileHandle(forWritingAtPath: path) else { throw InputError("cannot open \(path) to drop its torn tail") }
        defer { try? handle.close() }
        do { try handle.truncate(atOffset: UInt64(length)) } catch {
            throw InputError("cannot truncate \(path): \(Files.reason(error))")
        }
    }
}
