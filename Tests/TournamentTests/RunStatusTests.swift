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

    /// A run.json number out of what a run writes, and the error it must give.
    struct BadNumber: Sendable, CustomTestStringConvertible {
        var key: String
        var edit: @Sendable (inout [String: Any]) -> Void
        var message: String
        var testDescription: String { key }
    }

    static let badNumbers: [BadNumber] = [
        BadNumber(key: "matchesPerSecond", edit: { $0["matchesPerSecond"] = 1e308 },
                  message: "key 'matchesPerSecond': 1e+308 is out of range; expected a finite number in 0...1e9"),
        BadNumber(key: "blocksDone", edit: { $0["blocksDone"] = -3 },
                  message: "key 'blocksDone': -3 is out of range; expected a whole number in 0...blocks (4)"),
        BadNumber(key: "blocks", edit: { $0["blocks"] = -1 },
                  message: "key 'blocks': -1 is out of range; expected a whole number in 0...4503599627370496"),
        BadNumber(key: "threads", edit: { $0["threads"] = 1_000_000 },
                  message: "key 'threads': 1000000 is out of range; expected a whole number in 0...65536"),
        BadNumber(key: "seconds", edit: { $0["seconds"] = -1.5 },
                  message: "key 'seconds': -1.5 is out of range; expected a finite number in 0...1e9"),
        BadNumber(key: "etaSeconds", edit: { $0["etaSeconds"] = 1e300 },
                  message: "key 'etaSeconds': 1e+300 is out of range; expected a finite number in 0...1e15"),
        BadNumber(key: "resumedAtBlock", edit: { $0["resumedAtBlock"] = 5 },
                  message: "key 'resumedAtBlock': 5 is out of range; expected a whole number in 0...blocks (4)"),
        BadNumber(key: "config.blocks", edit: { json in
            var config = json["config"] as! [String: Any]
            config["blocks"] = -3
            json["config"] = config
        }, message: "key 'config.blocks': -3 is out of range; expected a whole number in 1...4503599627370496"),
        BadNumber(key: "config.seats", edit: { json in
            var config = json["config"] as! [String: Any]
            config["seats"] = 0
            json["config"] = config
        }, message: "key 'config.seats': 0 is out of range; expected a whole number in 1...256"),
        BadNumber(key: "leader.scoreShare", edit: { json in
            var leader = json["leader"] as! [String: Any]
            leader["scoreShare"] = 2.5
            json["leader"] = leader
        }, message: "key 'leader.scoreShare': 2.5 is out of range; expected a finite number in 0...1"),
        BadNumber(key: "decisionTimes[1].sampledSeconds", edit: { json in
            var times = json["decisionTimes"] as! [[String: Any]]
            times[1]["sampledSeconds"] = 1e20
            json["decisionTimes"] = times
        }, message: "key 'decisionTimes[1].sampledSeconds': 1e+20 is out of range; expected a finite number in 0...1e9"),
        BadNumber(key: "decisionTimes[0].histogram", edit: { json in
            var times = json["decisionTimes"] as! [[String: Any]]
            times[0]["histogram"] = [[3, -7]]
            json["decisionTimes"] = times
        }, message: "key 'decisionTimes[0].histogram[0][1]': -7 is out of range; expected a whole number in 0...100000000000000000"),
        BadNumber(key: "forfeits[0].crash", edit: { json in
            json["forfeits"] = [["entrant": "a", "timeout": 0, "crash": -2, "illegal": 0, "malformed": 0]]
        }, message: "key 'forfeits[0].crash': -2 is out of range; expected a whole number in 0...4503599627370496"),
    ]

    @Test("a run.json number out of range is refused by the reader and by status, naming the file, key, value and range",
          arguments: badNumbers)
    func numberOutOfRange(_ bad: BadNumber) throws {
        let folder = try Self.folder(bad.edit)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let expected = InputError("\(folder)/run.json: \(bad.message)")
        #expect(throws: expected) { try RunRecord.read(from: folder) }
        #expect(throws: expected) { try RunStatus.read(folder).line() }
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
