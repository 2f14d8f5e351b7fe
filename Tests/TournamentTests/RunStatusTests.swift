import Foundation
import LabCore
import Testing
@testable import Tournament

/// The live state a run keeps in run.json, and `oplab status`'s reading of it.
@Suite("Live run state")
struct RunStatusTests {
    static func config(blocks: Int) -> TournamentConfig {
        TournamentConfig(name: "live", game: "none", seats: 2, entrants: [Entrant(name: "a", strategy: "s"), Entrant(name: "b", strategy: "s")],
                         blocks: blocks)
    }

    @Test("while a run plays, run.json says running with the blocks done, the rate, an ETA and the leader with its interval")
    func liveRecord() throws {
        let folder = ScriptedPlans.temporaryPath("live")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let plan = try ScriptedPlans.headToHead(Self.config(blocks: 64)) { $0 % 4 != 3 }
        var options = RunOptions(directory: folder, threads: 1, quiet: true)
        options.statusInterval = 0
        var seen: [RunRecord] = []
        _ = try TournamentRunner.run(plan, options: options) { block, _ in
            if block == 40 { seen.append(try! RunRecord.read(from: folder)) }
            return false
        }
        let live = try #require(seen.first)
        #expect(live.status == .running)
        #expect(live.blocksDone == 32, "written at the 32nd block, the last multiple of 16 before block 40")
        #expect(live.matchesDone == 64 && live.blocks == 64)
        #expect(live.etaSeconds != nil && live.updated != nil)
        let leader = try #require(live.leader)
        #expect(leader.entrant == "a" && leader.matches == 64 && abs(leader.scoreShare - 0.75) < 1e-12)
        #expect(leader.low < 0.75 && leader.high > 0.75)
        let done = try RunRecord.read(from: folder)
        #expect(done.status == .complete && done.etaSeconds == nil && done.updated == done.finished && done.leader?.matches == 128)
    }

    /// A finished run's folder whose run.json is rewritten by `edit` (as JSON).
    static func folder(_ edit: (inout [String: Any]) -> Void) throws -> String {
        let folder = ScriptedPlans.temporaryPath("status")
        let plan = try ScriptedPlans.headToHead(Self.config(blocks: 4)) { _ in true }
        _ = try TournamentRunner.run(plan, options: RunOptions(directory: folder, threads: 1, quiet: true))
        let path = folder + "/run.json"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        edit(&json)
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: path))
        return folder
    }

    @Test("a complete folder: its matches and the last session, the leader, never stalled")
    func complete() throws {
        let folder = try Self.folder { _ in }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let status = try RunStatus.read(folder)
        #expect(!status.isStalled(after: 1))
        let line = status.line()
        #expect(line.hasPrefix("\(folder): complete, 4/4 blocks (100.0%), 8 matches, last session "), "\(line)")
        #expect(line.contains("leader a 1.0000 [") && line.hasSuffix("] over 8 matches"), "\(line)")
    }

    @Test("a running folder nobody holds, or not updated for longer than the limit, is stalled; a held fresh one is not")
    func stalled() throws {
        let updated = Date(timeIntervalSince1970: 1_800_000_000)
        let folder = try Self.folder { json in
            json["status"] = "running"
            json["blocksDone"] = 2
            json["etaSeconds"] = 30.0
            json["updated"] = ISO8601DateFormatter().string(from: updated)
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let orphan = try RunStatus.read(folder, now: updated.addingTimeInterval(5))
        #expect(orphan.holder == nil && orphan.isStalled(after: 60), "no process holds it")
        #expect(orphan.line().contains("; STALLED: no update for 0:00:05 and no process holds the folder"), "\(orphan.line())")
        let lock = try ResultsLock(directory: folder)
        defer { withExtendedLifetime(lock) {} }
        let fresh = try RunStatus.read(folder, now: updated.addingTimeInterval(5))
        #expect(fresh.holder == getpid() && !fresh.isStalled(after: 60))
        #expect(fresh.line().hasSuffix("ETA 0:00:30, leader a 1.0000 [\(f(fresh.record.leader!.low)), 1.0000] over 8 matches; updated 0:00:05 ago by pid \(getpid())"),
                "\(fresh.line())")
        let old = try RunStatus.read(folder, now: updated.addingTimeInterval(600))
        #expect(old.isStalled(after: 60) && old.line().contains("; STALLED: no update for 0:10:00"), "\(old.line())")
        #expect(RunStatus.total([fresh, old], stalledAfter: 60)
            == "all 2 folders: 4/8 blocks (50.0%), 0 complete, 1 running at \(NumberText.grouped(Int(fresh.record.matchesPerSecond.rounded()))) matches/s, ETA 0:00:30, 1 stalled")
    }
}

@Suite("Status of a tuning's folder")
struct TuningStatusTests {
    @Test("a tune.json that does not read is named, without advice status cannot follow (it has no --force)")
    func unreadableTuning() throws {
        let folder = ScriptedPlans.temporaryPath("status-tune")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("{bad".utf8).write(to: URL(fileURLWithPath: folder + "/" + TuningState.fileName))
        do {
            _ = try TuningState.statusLine(folder, stalledAfter: 60)
            Issue.record("a broken tune.json was read")
        } catch {
            #expect(error.message.hasPrefix("\(folder)/tune.json: not a tuning's record ("), "\(error.message)")
            #expect(!error.message.contains("--force"), "\(error.message)")
        }
        // Where tune --resume reads it, --force is the way out.
        #expect(throws: InputError.self) { try TuningState.read(from: folder) }
        do { _ = try TuningState.read(from: folder) } catch { #expect(error.message.hasSuffix("; pass --force to start over")) }
    }
}
