import Foundation
import Testing

/// A rail run big enough to outlast any test (3 tables x 10^6 blocks): started in the
/// background, watched through its files, ended with SIGKILL. Plain (`--no-compact`): its
/// rows are watched in matches.csv as they come.
private final class BackgroundRun {
    let process = Process()
    let out: String

    init(config: String, out: String, _ extra: [String] = []) throws {
        self.out = out
        process.executableURL = URL(fileURLWithPath: try oplabBinary())
        process.arguments = ["tournament", config, "--out", out, "--quiet", "--threads", "1", "--no-report", "--no-compact"] + extra
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }

    /// Waits (up to a generous minute: a condition, not a speed) until matches.csv holds
    /// `rows` rows past its header; false when the run ended or never got there.
    func waitForRows(_ rows: Int) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            if let data = FileManager.default.contents(atPath: out + "/matches.csv"),
               data.reduce(0, { $0 + ($1 == 0x0A ? 1 : 0) }) - 1 >= rows {
                return true
            }
            usleep(5_000)
        }
        return false
    }

    func kill9() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

@Suite("Hardening: locks, huge runs, leftovers, resume, flags", .serialized)
struct HardeningCLITests {
    // MARK: One writer per results folder

    @Test("a second writer of a running folder is refused at once with exit 2 naming the holder's pid; kill -9 frees it")
    func secondWriterRefused() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 1_000_000))
        let out = scratch("out")
        let holder = try BackgroundRun(config: config, out: out)
        defer { holder.kill9() }
        try #require(holder.waitForRows(8), "the first run did not start")

        let attempts: [(String, [String])] = [
            ("tournament --resume", ["tournament", config, "--out", out, "--resume", "--quiet"]),
            ("tournament --force", ["tournament", config, "--out", out, "--force", "--quiet"]),
            ("sprt", ["sprt", "rail", "--candidate", "random", "--baseline", "random", "--out", out, "--force", "--quiet"]),
        ]
        for (label, arguments) in attempts {
            let second = try runArray(arguments)
            #expect(second.status == 2, "\(label): status \(second.status), stderr: \(second.stderr)")
            #expect(second.stderr.contains("pid \(holder.pid)"), "\(label): \(second.stderr)")
            #expect(second.stderr.contains("in use"), "\(label): \(second.stderr)")
        }
        #expect(holder.process.isRunning, "a refused writer stopped the holder")
        // A report only reads the folder: it draws the complete blocks so far, marked in
        // progress, and leaves the run alone.
        let report = try runArray(["report", out])
        #expect(report.status == 0, "report: \(report.stderr)")
        #expect(try String(contentsOfFile: out + "/report.html", encoding: .utf8).contains("<p class=\"in-progress\">In progress: "))
        #expect(holder.process.isRunning, "a report stopped the holder")

        // A killed holder releases the folder: the next writer gets it.
        holder.kill9()
        let resumed = try runArray(["tournament", config, "--out", out, "--force", "--quiet", "--blocks", "2", "--no-report"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
    }

    /// Holds `folder`'s lock in this test process, as another oplab (pid 4242) would.
    private func holdLock(of folder: String) throws -> Int32 {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let lockFile = folder + "/.oplab.lock"
        try "4242\n".write(toFile: lockFile, atomically: false, encoding: .utf8)
        let fd = open(lockFile, O_RDWR)
        try #require(flock(fd, LOCK_EX | LOCK_NB) == 0)
        return fd
    }

    @Test("train refuses a second writer of its output folder, naming the holder's pid")
    func trainLocksItsOutput() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let fd = try holdLock(of: scratch.path)
        defer { close(fd) }
        let run = try runArray(["train", "rail", "--teacher", "random", "--matches", "4", "--epochs", "1", "--out", scratch("m.model")])
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("pid 4242"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("m.model")))
    }

    @Test("merge and calibrate refuse an output folder another process holds, naming its pid")
    func mergeAndCalibrateLock() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 2))
        let shards = try runShards(config, in: scratch)
        let fd = try holdLock(of: scratch("held"))
        defer { close(fd) }
        let merge = try runArray(["merge"] + shards + ["--out", scratch("held")])
        #expect(merge.status == 2, "\(merge.stderr)")
        #expect(merge.stderr.contains("in use by oplab (pid 4242)"), "\(merge.stderr)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: scratch("held"))) == [".oplab.lock"])
        let calibrate = try runArray(["calibrate", "quortex", "--family", "reference", "--knob", "epsilon", "--range", "0..1",
                                      "--reference", "random", "--targets", "0.5", "--matches", "4", "--out", scratch("held") + "/l.yaml"])
        #expect(calibrate.status == 2, "\(calibrate.stderr)")
        #expect(calibrate.stderr.contains("pid 4242"), "\(calibrate.stderr)")
    }

    // MARK: Blocks by index

    @Test("blocks: 10^12 starts at once and writes rows (the block list is never built)")
    func hugeBlocksStart() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 1_000_000_000_000))
        let run = try BackgroundRun(config: config, out: scratch("out"))
        defer { run.kill9() }
        #expect(run.waitForRows(4), "no block written")
        let record = try runRecord(scratch("out"))
        #expect(record["blocks"] as? Int == 3_000_000_000_000)
    }

    @Test("a blocks value the schedule cannot number is refused with exit 2 naming blocks and the accepted range")
    func unrepresentableBlocks() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: Int.max))
        let run = try tournament(config, out: scratch("out"))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("blocks"), "\(run.stderr)")
        #expect(run.stderr.contains("expected blocks in 1..."), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("out")))
        let flag = try tournament(config, out: scratch("out"), "--blocks", "4000000000000000")
        #expect(flag.status == 2, "\(flag.stderr)")
    }

    // MARK: Leftovers

    @Test("a merge's leftover matches.csv.partial does not block the next merge")
    func mergeLeftover() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 4))
        let shards = try runShards(config, in: scratch)
        let merged = scratch("merged")
        try FileManager.default.createDirectory(atPath: merged, withIntermediateDirectories: true)
        try "run,block\n1,".write(toFile: merged + "/matches.csv.partial", atomically: false, encoding: .utf8)
        let run = try runArray(["merge"] + shards + ["--out", merged])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: merged + "/matches.csv.partial"))
        let whole = try tournament(config, out: scratch("whole"))
        try #require(whole.status == 0, "\(whole.stderr)")
        try expectSameFiles(scratch("whole"), merged)
    }

    @Test("a report that cannot be written is said, exits 4, leaves no .partial, and keeps the CSV files")
    func reportFailureExits4() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 4))
        let out = scratch("out")
        let first = try tournament(config, out: out, "--no-report")
        try #require(first.status == 0, "\(first.stderr)")
        let before = try snapshot(out).filter { $0.key != "report.html" }
        // report.html as a non-empty folder: the page cannot take its place.
        try FileManager.default.createDirectory(atPath: out + "/report.html/x", withIntermediateDirectories: true)
        let again = try tournament(config, out: out, "--resume")
        #expect(again.status == 4, "\(again.stderr)")
        #expect(again.stderr.contains("report.html not written"), "\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out + "/report.html.partial"))
        for (name, bytes) in before { #expect(try contents(out + "/" + name) == bytes, "\(name) changed") }
    }

    // MARK: A no-op resume

    @Test("--resume on a finished run leaves run.json byte for byte as it was")
    func noOpResumeKeepsRecord() throws {
        let (scratch, config, out, before) = try finishedRun()
        defer { scratch.remove() }
        let again = try runArray(["tournament", config, "--out", out, "--resume"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr.contains("nothing to resume"), "\(again.stderr)")
        let after = try snapshot(out)
        #expect(after["run.json"] == before["run.json"])
        #expect(after["matches.csv"] == before["matches.csv"])
        #expect(after["summary.csv"] == before["summary.csv"])
    }

    // MARK: Flags

    @Test("negative and out-of-range numbers get the program's own message, not 'Missing value'",
          arguments: [
              (["--threads", "-1"], "--threads -1: expected 0 (every core) to 1024"),
              (["--threads", "5000"], "--threads 5000: expected 0 (every core) to 1024"),
              (["--blocks", "-1"], "--blocks -1: expected 1 or more"),
              (["--seed", "-1"], "expected a whole number in 0...18446744073709551615"),
          ])
    func numericFlags(_ flags: [String], _ expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 2))
        let run = try runArray(["tournament", config, "--out", scratch("out")] + flags)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!run.stderr.contains("Missing value"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("out")))
    }

    @Test("sprt reads negative numbers as values: a negative elo0 is accepted, a negative count refused with what is accepted",
          arguments: [
              (["--elo0", "-5", "--elo1", "-10"], "--elo1 -10.0 must be above --elo0 -5.0"),
              (["--threads", "-1"], "--threads -1: expected 0 (every core) to 1024"),
              (["--max-matches", "-4"], "--max-matches -4: expected at least 2"),
              (["--seed", "-1"], "expected a whole number in 0...18446744073709551615"),
          ])
    func sprtNumbers(_ flags: [String], _ expected: String) throws {
        let run = try runArray(["sprt", "rail", "--candidate", "random", "--baseline", "random", "--out", "/nonexistent/x"] + flags)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
        #expect(!run.stderr.contains("Missing value"), "\(run.stderr)")
    }

    @Test("--force on a folder that is neither empty nor a results folder is refused and the folder kept")
    func forceOnForeignFolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 2))
        let out = scratch("thesis")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try "my notes".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)
        let run = try tournament(config, out: out, "--force")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("not a results folder"), "\(run.stderr)")
        #expect(Set(try snapshot(out).keys) == ["notes.txt"])

        // A run killed between its first file and run.json left only matches.csv: that is
        // a results folder, and --force replaces it.
        let killedEarly = scratch("killed-early")
        try FileManager.default.createDirectory(atPath: killedEarly, withIntermediateDirectories: true)
        try "run,block\n".write(toFile: killedEarly + "/matches.csv", atomically: true, encoding: .utf8)
        let forced = try tournament(config, out: killedEarly, "--force")
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test("--resume on a missing folder starts the run and says so on stderr")
    func resumeMissingFolder() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 2))
        let run = try tournament(config, out: scratch("new"), "--resume")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("holds no run yet; starting it"), "\(run.stderr)")
        #expect(try runRecord(scratch("new"))["status"] as? String == "complete")
    }

    @Test("unknown names suggest the nearest one", arguments: [
        (["tournement", "x.yaml"], "unknown command 'tournement' (did you mean 'tournament'?)"),
        (["play", "rail", "--player", "heuristc", "--player", "random"], "did you mean 'heuristic'?"),
        (["play", "rail", "--player", "heuristic(missionProb=0.5)", "--player", "random"], "did you mean 'missionProbability'?"),
        (["play", "rail", "--player", "heuristic", "--player", "random", "--rule", "turncap=3"], "did you mean 'turnCap'?"),
        (["play", "quortx", "--player", "random", "--player", "random"], "did you mean 'quortex'?"),
    ])
    func suggestions(_ arguments: [String], _ expected: String) throws {
        let run = try runArray(arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(expected), "\(run.stderr)")
    }

    // MARK: Time per decision

    @Test("run.json gives each entrant's decisions and time per decision; the report shows them")
    func decisionTimes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 5))
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        let times = try #require(try runRecord(out)["decisionTimes"] as? [[String: Any]])
        #expect(times.map { $0["entrant"] as? String } == ["cpu", "shipped", "rnd"])
        var decisions = 0
        for t in times {
            let n = try #require(t["decisions"] as? Int), seconds = try #require(t["seconds"] as? Double)
            let mean = try #require(t["meanMicroseconds"] as? Double), p99 = try #require(t["p99Microseconds"] as? Double)
            let histogram = try #require(t["histogram"] as? [[Int]])
            let sampled = try #require(t["sampled"] as? Int), sampledSeconds = try #require(t["sampledSeconds"] as? Double)
            #expect(n > 0 && seconds > 0 && mean > 0 && p99 > 0, "\(t)")
            #expect(abs(mean * Double(n) / 1e6 - seconds) <= seconds * 1e-6, "mean x decisions is the time spent: \(t)")
            #expect(abs(mean * Double(sampled) / 1e6 - sampledSeconds) <= sampledSeconds * 1e-6, "the mean is the sample's: \(t)")
            #expect(histogram.reduce(0) { $0 + $1[1] } == sampled, "the histogram counts every timed decision: \(t)")
            // One in 64 of each seat's decisions in a block, from a phase set by the block:
            // within one decision of n/64 per seat and block (5 blocks, 2 tables, 2 seats).
            #expect(abs(sampled - n / 64) <= 20, "one decision in 64 is timed: \(t)")
            decisions += n
        }
        // Every action of every match is one decision of its mover.
        let rows = try String(contentsOfFile: out + "/matches.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        let header = try String(contentsOfFile: out + "/matches.csv", encoding: .utf8).split(separator: "\n")[0].split(separator: ",")
        let turns = try #require(header.firstIndex(of: "turns")), seat = try #require(header.firstIndex(of: "seat"))
        let actions = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false) }.filter { $0[seat] == "0" }
            .reduce(0) { $0 + Int($1[turns])! }
        #expect(decisions == actions)
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(page.contains("Time per decision"))
        #expect(page.contains("p99 per decision"))
    }
}
