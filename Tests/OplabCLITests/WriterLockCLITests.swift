import Foundation
import Testing

/// A rail run big enough to outlast any test (3 tables x 10^6 blocks): started in the
/// background, watched through its files, ended with SIGKILL. Plain (`--no-compact`): its
/// rows are watched in matches.csv as they come.
final class BackgroundRun {
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

/// One writer per results folder: a second process is refused at once, naming the holder.
@Suite("One writer per results folder")
struct WriterLockCLITests {
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
}
