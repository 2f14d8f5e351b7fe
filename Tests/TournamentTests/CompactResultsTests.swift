import Foundation
import LabCore
import Synchronization
import Testing
@testable import Tournament

/// Compact results (`matches.csv.gz`): gzip members of whole blocks, read back member by
/// member; a torn or corrupt last member cut off and its blocks played again; the rows
/// the same bytes as `matches.csv` whatever the thread count, shard or resume point.
@Suite("Compact results: matches.csv.gz")
struct CompactResultsTests {
    // MARK: Fixtures

    /// A scripted head-to-head of `blocks` blocks (4 rows each, about 65 bytes a row).
    static func plan(blocks: Int = 300, compact: Bool? = nil) throws -> TournamentPlan {
        let config = TournamentConfig(name: "compact-toy", game: "toy", entrants: [Entrant(name: "a", strategy: "x"), Entrant(name: "b", strategy: "y")],
                                      blocks: blocks, seed: 7, threads: 1, compact: compact)
        return try ScriptedPlans.headToHead(config) { $0 % 3 != 1 }
    }

    /// Runs `plan` into `folder`; compact runs gather members of 1 KiB (about 4 blocks),
    /// so a small run has dozens of them.
    @discardableResult
    static func run(_ plan: TournamentPlan, in folder: String, compact: Bool? = true, threads: Int = 1, resume: Bool = false,
                    shard: Shard = .whole, onBlock: ((Int, [Double?]) -> Bool)? = nil) throws -> RunResult {
        var options = RunOptions(directory: folder, threads: threads, resume: resume, shard: shard, quiet: true, compact: compact)
        options.memberBytes = 1024
        return try TournamentRunner.run(plan, options: options, onBlock: onBlock)
    }

    /// The rows of a compact file: every member, checked.
    static func rows(_ path: String) throws -> [UInt8] {
        let reader = try GzipMemberReader(path: path)
        var bytes: [UInt8] = []
        while let member = try reader.nextMember() { bytes += member }
        #expect(reader.damage == nil, "\(path): \(String(describing: reader.damage))")
        return bytes
    }

    /// Where each member of a compact file ends (compressed offsets).
    static func memberEnds(_ path: String) throws -> [Int] {
        let reader = try GzipMemberReader(path: path)
        var ends: [Int] = []
        while try reader.nextMember() != nil { ends.append(reader.completeLength) }
        return ends
    }

    static func bytes(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path))) }

    static func write(_ bytes: [UInt8], to path: String) throws { try Data(bytes).write(to: URL(fileURLWithPath: path)) }

    static let summaries = ["summary.csv", "pairwise.csv", "ratings.csv"]

    /// Expects `folder`'s compact rows and summaries to be the plain run's in `plain`.
    static func expectSameRows(_ folder: String, as plain: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(!FileManager.default.fileExists(atPath: folder + "/matches.csv"), sourceLocation: sourceLocation)
        let rows = try Self.rows(folder + "/matches.csv.gz"), reference = try bytes(plain + "/matches.csv")
        #expect(rows == reference, "\(rows.count) bytes of rows, \(reference.count) in matches.csv", sourceLocation: sourceLocation)
        for file in summaries {
            #expect(try bytes(folder + "/" + file) == bytes(plain + "/" + file), "\(file) differs", sourceLocation: sourceLocation)
        }
    }

    /// A fresh scratch folder, removed when `body` returns.
    static func scratch<T>(_ body: (String) throws -> T) throws -> T {
        let folder = ScriptedPlans.temporaryPath("compact")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        return try body(folder)
    }

    // MARK: Members

    @Test("gzip members round trip: concatenated members read back one by one, each whole, the end offsets exact")
    func memberRoundTrip() throws {
        var random = SplitMix64(seed: 18)
        let texts: [[UInt8]] = [Array("run,block\n".utf8), [], (0..<100_000).map { _ in UInt8(truncatingIfNeeded: random.next() % 7 + 48) },
                                (0..<3000).map { _ in UInt8(truncatingIfNeeded: random.next()) }]
        let members = texts.map { GzipMember.compress($0) }
        try Self.scratch { folder in
            let path = folder + "/m.gz"
            try Self.write(members.flatMap { $0 }, to: path)
            let reader = try GzipMemberReader(path: path)
            var ends = 0
            for (k, text) in texts.enumerated() {
                #expect(try reader.nextMember() == text, "member \(k)")
                ends += members[k].count
                #expect(reader.completeLength == ends)
            }
            #expect(try reader.nextMember() == nil)
            #expect(reader.damage == nil)
        }
    }

    @Test("a member's header has no name and no time: the same rows give the same bytes")
    func membersAreDeterministic() {
        let rows = Array(String(repeating: "compact-toy,1,2,0,0,a,x,99,1,win,scripted,1,\n", count: 50).utf8)
        let member = GzipMember.compress(rows)
        #expect(member == GzipMember.compress(rows))
        // ID1 ID2 CM FLG, then MTIME 0 (RFC 1952 section 2.3).
        #expect(Array(member.prefix(8)) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0])
    }

    @Test("a torn member ends the rows before it (damage: torn); a corrupt one too (damage: corrupt), and MatchesSource throws on it")
    func damagedMembers() throws {
        let first = Array("run,block\n".utf8), second = Array(String(repeating: "row,1,2\n", count: 400).utf8)
        let file = GzipMember.compress(first) + GzipMember.compress(second)
        try Self.scratch { folder in
            let torn = folder + "/torn.gz", corrupt = folder + "/corrupt.csv.gz"
            try Self.write(Array(file.dropLast(3)), to: torn)
            let reader = try GzipMemberReader(path: torn)
            #expect(try reader.nextMember() == first)
            #expect(try reader.nextMember() == nil)
            #expect(reader.damage == .torn && reader.completeLength == GzipMember.compress(first).count)

            var flipped = file
            flipped[flipped.count - 12] ^= 0x20
            try Self.write(flipped, to: corrupt)
            let damaged = try GzipMemberReader(path: corrupt)
            #expect(try damaged.nextMember() == first)
            #expect(try damaged.nextMember() == nil)
            guard case .corrupt = damaged.damage else {
                Issue.record("a flipped byte read as \(String(describing: damaged.damage))")
                return
            }
            // Reading rows (the report, merge) stops with an error naming the member.
            let source = try MatchesSource(path: corrupt)
            #expect(throws: InputError.self) { while try !source.read(upToCount: 1 << 20).isEmpty {} }
            let lenient = try MatchesSource(path: corrupt, acceptsCorruptTail: true)
            #expect(try lenient.read(upToCount: 1 << 20) == Data(first))
        }
    }

    // MARK: Runs

    @Test("a compact run's rows are the plain run's matches.csv byte for byte, at 1, 2 and 8 threads; members hold whole blocks")
    func compactEqualsPlain() throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            try Self.run(plan, in: folder + "/plain", compact: false)
            try Self.run(plan, in: folder + "/one", threads: 1)
            try Self.run(plan, in: folder + "/two", threads: 2)
            // More workers and compressors than cores: members still land in order.
            try Self.run(plan, in: folder + "/eight", threads: 8)
            for run in ["one", "two", "eight"] { try Self.expectSameRows(folder + "/" + run, as: folder + "/plain") }
            // Where a member ends depends on the rows alone: the compressed files match too.
            #expect(try Self.bytes(folder + "/one/matches.csv.gz") == Self.bytes(folder + "/two/matches.csv.gz"))
            #expect(try Self.bytes(folder + "/one/matches.csv.gz") == Self.bytes(folder + "/eight/matches.csv.gz"))
            // Every member ends at a line that ends a block (4 rows), the first after the header.
            let reader = try GzipMemberReader(path: folder + "/one/matches.csv.gz")
            var lines: [Int] = []
            var total = 0
            while let member = try reader.nextMember() {
                total += member.count { $0 == 0x0A }
                lines.append(total)
            }
            #expect(lines.count > 20, "\(lines.count) members")
            #expect(lines.first == 1 && lines.dropFirst().allSatisfy { ($0 - 1) % 4 == 0 }, "\(lines)")
            #expect(lines.last == 1 + 300 * 4)
        }
    }

    @Test("a torn last member is cut back to the last complete member and resumed: rows byte-exact, at 5 cut points")
    func tornMemberResumed() throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            let complete = folder + "/complete", plain = folder + "/plain"
            try Self.run(plan, in: plain, compact: false)
            try Self.run(plan, in: complete)
            let file = try Self.bytes(complete + "/matches.csv.gz")
            let ends = try Self.memberEnds(complete + "/matches.csv.gz")
            // Cut points from a fixed seed, anywhere past the header's member.
            var random = SplitMix64(seed: 2026)
            for trial in 0..<5 {
                var cut = ends[0] + 1 + Int(random.next() % UInt64(file.count - ends[0] - 1))
                if ends.contains(cut) { cut -= 1 }
                let keep = ends.last { $0 < cut }!
                let out = folder + "/cut-\(trial)"
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
                try Self.write(Array(file.prefix(cut)), to: out + "/matches.csv.gz")
                try FileManager.default.copyItem(atPath: complete + "/run.json", toPath: out + "/run.json")
                let resumed = try Self.run(plan, in: out, resume: true)
                #expect(resumed.notes.contains("dropped \(cut - keep) bytes of a torn gzip member at the end of matches.csv.gz; its blocks are played again"),
                        "cut at \(cut): \(resumed.notes)")
                try Self.expectSameRows(out, as: plain)
                #expect(try Self.bytes(out + "/matches.csv.gz") == file, "cut at \(cut): the members differ from the uninterrupted run's")
            }
        }
    }

    @Test("a corrupt byte in the last member: the member is cut off and its blocks played again")
    func corruptLastMember() throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            let complete = folder + "/complete", plain = folder + "/plain", out = folder + "/out"
            try Self.run(plan, in: plain, compact: false)
            try Self.run(plan, in: complete)
            var file = try Self.bytes(complete + "/matches.csv.gz")
            let ends = try Self.memberEnds(complete + "/matches.csv.gz")
            let last = ends[ends.count - 2]
            // A byte inside the last member's deflate data (past its 10-byte header).
            file[(last + 10 + file.count - 8) / 2] ^= 0x41
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            try Self.write(file, to: out + "/matches.csv.gz")
            try FileManager.default.copyItem(atPath: complete + "/run.json", toPath: out + "/run.json")
            let resumed = try Self.run(plan, in: out, resume: true)
            #expect(resumed.notes.contains { $0.hasPrefix("dropped \(file.count - last) bytes from a damaged gzip member (") }, "\(resumed.notes)")
            #expect(resumed.blocksPlayed > 0)
            try Self.expectSameRows(out, as: plain)
        }
    }

    @Test("a damaged member before the last stops --resume, naming the member, its blocks and those after it; --drop-damaged plays them again")
    func damagedMiddleMember() throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            let complete = folder + "/complete", plain = folder + "/plain", out = folder + "/out"
            try Self.run(plan, in: plain, compact: false)
            try Self.run(plan, in: complete)
            var file = try Self.bytes(complete + "/matches.csv.gz")
            // Blocks per member (4 rows a block; the first member is the header's).
            let reader = try GzipMemberReader(path: complete + "/matches.csv.gz")
            var ends: [Int] = [], blocks: [Int] = []
            while let member = try reader.nextMember() {
                ends.append(reader.completeLength)
                blocks.append(member.count { $0 == 0x0A } / 4)
            }
            // Member 7 of the file (index 6) damaged: a byte inside its deflate data.
            let damaged = 6, start = ends[damaged - 1]
            file[(start + 10 + ends[damaged] - 8) / 2] ^= 0x41
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            try Self.write(file, to: out + "/matches.csv.gz")
            try FileManager.default.copyItem(atPath: complete + "/run.json", toPath: out + "/run.json")
            let before = blocks[..<damaged].reduce(0, +), held = blocks[damaged], after = blocks[(damaged + 1)...].reduce(0, +)
            let error = #expect(throws: InputError.self) { try Self.run(plan, in: out, resume: true) }
            let message = error?.message ?? ""
            #expect(message.hasPrefix("\(out)/matches.csv.gz: gzip member 7 (counting the header's as the first), at byte \(start), is damaged ("),
                    "\(message)")
            #expect(message.contains("; it held \(held) blocks, \(before) to \(before + held - 1), and the \(ends.count - damaged - 1) intact "
                + "members after it hold \(after) more, blocks \(before + held) to 299. --resume stops here rather than throw them away: "
                + "pass --drop-damaged to cut the file at that member and play every block from block \(before) on again, or --force to "
                + "play the whole run again"), "\(message)")
            #expect(try Self.bytes(out + "/matches.csv.gz") == file, "the refused resume changed the file")
            #expect(try RunRecord.read(from: out) == RunRecord.read(from: complete), "the refused resume rewrote run.json")

            var options = RunOptions(directory: out, threads: 2, resume: true, quiet: true, compact: true)
            options.memberBytes = 1024
            options.dropDamaged = true
            let resumed = try TournamentRunner.run(plan, options: options)
            #expect(resumed.notes.contains { $0.hasPrefix("dropped \(file.count - start) bytes of matches.csv.gz from its damaged gzip member 7 (at byte \(start); ") },
                    "\(resumed.notes)")
            #expect(resumed.notes.contains { $0.hasSuffix("to the end, with the \(ends.count - damaged - 1) intact members after it (--drop-damaged): "
                + "every block from block \(before) on is played again") }, "\(resumed.notes)")
            #expect(resumed.blocksPlayed == 300 - before)
            try Self.expectSameRows(out, as: plain)
            #expect(try Self.bytes(out + "/matches.csv.gz") == Self.bytes(complete + "/matches.csv.gz"))
        }
    }

    @Test("a compact file of only the header resumes from block 0")
    func headerOnly() throws {
        let plan = try Self.plan(blocks: 40)
        try Self.scratch { folder in
            let plain = folder + "/plain", out = folder + "/out"
            try Self.run(plan, in: plain, compact: false)
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            try MatchesWriter.create(out + "/matches.csv.gz", format: .compact, header: MatchesLayout(plan: plan).headerLine)
            try FileManager.default.copyItem(atPath: plain + "/run.json", toPath: out + "/run.json")
            let resumed = try Self.run(plan, in: out, compact: nil, resume: true)
            #expect(resumed.notes.contains("resuming \(out) at block 0 of 40"), "\(resumed.notes)")
            try Self.expectSameRows(out, as: plain)
        }
    }

    @Test("a run stopped by onBlock writes its gathered rows: the files hold exactly the blocks up to the stop")
    func stoppedRunFlushes() throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            try Self.run(plan, in: folder + "/plain", compact: false) { block, _ in block == 37 }
            try Self.run(plan, in: folder + "/compact", threads: 2) { block, _ in block == 37 }
            try Self.expectSameRows(folder + "/compact", as: folder + "/plain")
            #expect(try RunRecord.read(from: folder + "/compact").status == .stopped)
        }
    }

    @Test("a run stopped by a signal keeps the blocks written (compact: up to its last member), says so in run.json and the result; --resume gives the same bytes",
          arguments: [false, true])
    func interruptedRun(compact: Bool) throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            let complete = folder + "/complete", out = folder + "/out"
            try Self.run(plan, in: complete, compact: compact)
            // The signal comes as block 151 is about to be written (polled before each block);
            // compact, the blocks gathered since the last member are dropped.
            var ends = [0]
            if compact {
                let reader = try GzipMemberReader(path: complete + "/matches.csv.gz")
                while let member = try reader.nextMember() { ends.append(ends.last! + member.count { $0 == 0x0A } / 4) }
            }
            let expected = compact ? ends.last { $0 <= 151 }! : 151
            let seen = Mutex(0)
            var options = RunOptions(directory: out, threads: 2, quiet: true, compact: compact)
            options.memberBytes = 1024
            options.stopRequest = { seen.withLock { count in
                count += 1
                return count > 151 ? SIGINT : nil
            } }
            let stopped = try TournamentRunner.run(plan, options: options)
            let record = try RunRecord.read(from: out)
            let rows = compact ? try Self.rows(out + "/matches.csv.gz") : try Self.bytes(out + "/matches.csv")
            let onDisk = rows.count { $0 == 0x0A } / 4
            #expect(record.status == .interrupted && record.blocksDone == onDisk && record.matchesDone == 2 * onDisk)
            #expect(stopped.interruption == RunInterruption(signal: SIGINT, blocksDone: onDisk, blocks: 300))
            #expect(record.leader?.matches == 2 * onDisk, "the leader of the blocks written")
            #expect(onDisk == expected && (!compact || expected < 151), "\(onDisk) blocks on disk, \(expected) expected")
            #expect(!FileManager.default.fileExists(atPath: out + "/summary.csv"))

            options.stopRequest = nil
            options.resume = true
            let resumed = try TournamentRunner.run(plan, options: options)
            #expect(resumed.notes.contains("resuming \(out) at block \(onDisk) of 300"), "\(resumed.notes)")
            let file = compact ? "/matches.csv.gz" : "/matches.csv"
            #expect(try Self.bytes(out + file) == Self.bytes(complete + file))
            for name in Self.summaries { #expect(try Self.bytes(out + "/" + name) == Self.bytes(complete + "/" + name), "\(name)") }
        }
    }

    @Test("a resumed run keeps the format its folder holds, and says that --no-compact does not apply")
    func resumeKeepsFormat() throws {
        let plan = try Self.plan(blocks: 40)
        try Self.scratch { folder in
            let out = folder + "/out"
            try Self.run(plan, in: folder + "/plain", compact: false)
            try Self.run(plan, in: out)
            try Self.write(Array(try Self.bytes(out + "/matches.csv.gz").prefix(300)), to: out + "/matches.csv.gz")
            let resumed = try Self.run(plan, in: out, compact: false, resume: true)
            #expect(resumed.notes.contains { $0.hasPrefix("--no-compact does not apply: \(out) holds matches.csv.gz") }, "\(resumed.notes)")
            try Self.expectSameRows(out, as: folder + "/plain")
        }
    }

    @Test("--resume refuses a folder holding both matches.csv and matches.csv.gz, naming both")
    func bothFormatsRefused() throws {
        let plan = try Self.plan(blocks: 10)
        try Self.scratch { folder in
            try Self.run(plan, in: folder)
            try Data("run\n".utf8).write(to: URL(fileURLWithPath: folder + "/matches.csv"))
            let error = #expect(throws: InputError.self) { try Self.run(plan, in: folder, resume: true) }
            #expect(error?.message.contains("holds both matches.csv and matches.csv.gz") == true, "\(String(describing: error))")
        }
    }

    @Test("a complete member that ends inside a block is refused on resume: not a file a run wrote")
    func memberInsideBlockRefused() throws {
        let plan = try Self.plan(blocks: 10)
        try Self.scratch { folder in
            try Self.run(plan, in: folder + "/plain", compact: false)
            let text = try Self.bytes(folder + "/plain/matches.csv")
            let lines = text.split(separator: 0x0A, omittingEmptySubsequences: false)
            // The header and a block and a half (6 rows) in one member.
            let member: [UInt8] = lines.prefix(7).flatMap { Array($0) + [0x0A] }
            let out = folder + "/out"
            try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
            try Self.write(GzipMember.compress(member), to: out + "/matches.csv.gz")
            try FileManager.default.copyItem(atPath: folder + "/plain/run.json", toPath: out + "/run.json")
            let error = #expect(throws: InputError.self) { try Self.run(plan, in: out, resume: true) }
            #expect(error?.message.contains("end inside a block") == true, "\(String(describing: error))")
        }
    }

    @Test("merge of compact shards writes compact rows, byte for byte the whole run's")
    func mergeCompactShards() throws {
        let plan = try Self.plan()
        try Self.scratch { folder in
            try Self.run(plan, in: folder + "/plain", compact: false)
            var shards: [String] = []
            for index in 1...3 {
                let shard = folder + "/shard-\(index)"
                try Self.run(plan, in: shard, threads: 2, shard: try Shard(index: index, count: 3))
                shards.append(shard)
            }
            // One shard plain: the merge reads both formats, and writes compact.
            try Self.write(try Self.rows(shards[1] + "/matches.csv.gz"), to: shards[1] + "/matches.csv")
            try FileManager.default.removeItem(atPath: shards[1] + "/matches.csv.gz")
            let merged = folder + "/merged"
            _ = try TournamentMerge.merge(plan, shards: shards.reversed(), into: merged, force: false)
            try Self.expectSameRows(merged, as: folder + "/plain")
            #expect(!FileManager.default.fileExists(atPath: merged + "/matches.csv.gz.partial"))
        }
    }

    @Test("merge of plain shards stays plain")
    func mergePlainShards() throws {
        let plan = try Self.plan(blocks: 20)
        try Self.scratch { folder in
            try Self.run(plan, in: folder + "/whole", compact: false)
            let shards = try (1...2).map { index in
                let shard = folder + "/shard-\(index)"
                try Self.run(plan, in: shard, compact: false, shard: try Shard(index: index, count: 2))
                return shard
            }
            _ = try TournamentMerge.merge(plan, shards: shards, into: folder + "/merged", force: false)
            #expect(try Self.bytes(folder + "/merged/matches.csv") == Self.bytes(folder + "/whole/matches.csv"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/merged/matches.csv.gz"))
        }
    }

    @Test("compact by default above 100,000 matches; the config's compact, then the command line, override it")
    func defaultRule() throws {
        // One table, 2 matches a block: 50,000 blocks are 100,000 matches.
        #expect(MatchesFormat.forNewRun(try Self.plan(blocks: 50_000), option: nil) == .plain)
        #expect(MatchesFormat.forNewRun(try Self.plan(blocks: 50_001), option: nil) == .compact)
        #expect(MatchesFormat.forNewRun(try Self.plan(blocks: 50_001, compact: false), option: nil) == .plain)
        #expect(MatchesFormat.forNewRun(try Self.plan(blocks: 10, compact: true), option: nil) == .compact)
        #expect(MatchesFormat.forNewRun(try Self.plan(blocks: 10, compact: true), option: false) == .plain)
        #expect(MatchesFormat.forNewRun(try Self.plan(blocks: 50_001, compact: false), option: true) == .compact)
    }

    @Test("--force replaces a compact run with a plain one: matches.csv.gz goes")
    func forceReplacesCompact() throws {
        let plan = try Self.plan(blocks: 10)
        try Self.scratch { folder in
            try Self.run(plan, in: folder)
            var options = RunOptions(directory: folder, threads: 1, force: true, quiet: true, compact: false)
            options.memberBytes = 1024
            _ = try TournamentRunner.run(plan, options: options)
            #expect(FileManager.default.fileExists(atPath: folder + "/matches.csv"))
            #expect(!FileManager.default.fileExists(atPath: folder + "/matches.csv.gz"))
        }
    }
}
