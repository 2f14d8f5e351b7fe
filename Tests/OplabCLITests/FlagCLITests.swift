import Foundation
import Testing

/// Flags: numbers the program reads itself, suggestions for unknown names, --force and
/// --resume on folders that are not what they expect.
@Suite("Flags and their refusals")
struct FlagCLITests {
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
}
