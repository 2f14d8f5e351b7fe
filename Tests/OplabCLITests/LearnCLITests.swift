import Foundation
import Testing

/// `oplab learn` end to end: kill -9 and --resume, and bad input refused before anything
/// is written (the loop itself is tested in-process in LabCatalogTests' LearningTests).
@Suite("oplab learn", .serialized)
struct LearnCLITests {
    static let small = ["learn", "connect4", "--generations", "3", "--games", "48", "--sims", "8", "--seed", "5", "--width", "16",
                        "--blocks", "1", "--gate-blocks", "4", "--anchor-blocks", "0", "--quiet"]

    /// The generations `learn.json` in `folder` says are done (nil before it exists).
    static func done(_ folder: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: folder + "/learn.json"),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return object["generationsDone"] as? Int
    }

    @Test("kill -9 after a generation, then --resume: the model and checkpoint bytes of a run straight through")
    func killAndResume() throws {
        let scratch = try Scratch("learn")
        defer { scratch.remove() }
        let straight = try runArray(Self.small + ["--out", scratch("straight"), "--threads", "2"])
        #expect(straight.status == 0, "\(straight.stderr)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try oplabBinary())
        process.arguments = Self.small + ["--out", scratch("killed"), "--threads", "1"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline && (Self.done(scratch("killed")) ?? 0) < 1 { usleep(2_000) }
        let killedAt = Self.done(scratch("killed")) ?? 0
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(killedAt < 3, "the run ended before it could be killed")
        let status = try runArray(["status", scratch("killed")])
        #expect(status.stdout.contains("learning connect4"), "\(status.stdout)")
        let resumed = try runArray(Self.small + ["--out", scratch("killed"), "--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        for name in ["best.model", "checkpoint.bin"] {
            let a = FileManager.default.contents(atPath: scratch("straight/" + name))
            #expect(a != nil && a == FileManager.default.contents(atPath: scratch("killed/" + name)), "\(name) differs")
        }
    }

    @Test("bad input exits 2, names what is accepted and writes nothing",
          arguments: [
            (["learn", "chess"], "unknown game 'chess'"),
            (["learn", "connect4", "--sims", "0"], "--sims 0: expected 1...100000 simulations"),
            (["learn", "connect4", "--self-play", "worst"], "--self-play worst: expected one of latest, best"),
            (["learn", "connect4", "--cscale", "0"], "--cscale 0: expected 0.001...100"),
            (["learn", "connect4", "--considered", "0"], "--considered 0: expected 1...256"),
            (["learn", "connect4", "--generations", "0"], "--generations 0: expected 1...100000"),
            (["learn", "connect4", "--anchor", "nobody"], "--anchor unknown strategy 'nobody'"),
            (["learn", "connect4", "--teacher", "nobody"], "--teacher unknown strategy 'nobody'"),
            (["learn", "connect4", "--init", "no-such.model"], "no-such.model"),
            (["learn", "connect4", "--teacher-games", "5"], "--teacher-games needs --teacher"),
            (["learn", "connect4", "--teacher", "mcts", "--teacher-games", "0"], "--teacher-games 0: expected 1...1000000"),
            (["learn", "connect4", "--teacher-keep", "0.5"], "--teacher-keep needs --teacher"),
            (["learn", "connect4", "--teacher", "mcts", "--teacher-keep", "0"], "--teacher-keep 0.0: expected a share in (0, 1]"),
            (["learn", "connect4", "--teacher", "external(command=\"python3 x.py\")"], "an external bot cannot teach"),
            (["learn", "connect4", "--teacher-targets", "search"], "--teacher-targets needs --teacher"),
            (["learn", "connect4", "--teacher", "mcts", "--teacher-targets", "search"], "--teacher-targets search: --teacher mcts does not search"),
            (["learn", "connect4", "--teacher", "alphazero", "--teacher-targets", "soft"], "--teacher-targets soft: expected one of move, search"),
            (["play", "connect4", "--player", "policy(temperature=-1)", "--player", "random"], "temperature"),
            (["play", "connect4", "--player", "alphazero(sims=0)", "--player", "random"], "sims"),
          ])
    func badInput(arguments: [String], expected: String) throws {
        let scratch = try Scratch("learn-bad")
        defer { scratch.remove() }
        let run = try runArray(arguments + (arguments[0] == "learn" ? ["--out", scratch("out")] : []))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("error: ") && run.stderr.contains(expected), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
