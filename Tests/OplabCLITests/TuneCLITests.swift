import Foundation
import Testing

/// `oplab tune` on the built binary: determinism at any thread count, resume after
/// kill -9, the verification, the ladder, a bot's options through the protocol, and
/// bad input.
@Suite("oplab tune")
struct TuneCLITests {
    /// A small NTBEA tuning of the rail planner against the documented CPU: 6 iterations
    /// of 4 matches, 8 matches per verification tournament.
    static func small(_ out: String, threads: Int = 2, extra: [String] = []) -> [String] {
        ["tune", "rail", "--strategy", "planner", "--param", "focus=0..1:0.25", "--param", "missionDraw=0..1:0.5",
         "--against", "heuristic", "--method", "ntbea", "--budget", "24", "--blocks", "2", "--verify-matches", "8",
         "--seed", "11", "--threads", String(threads), "--out", out, "--quiet"] + extra
    }

    /// The deterministic files of a tuning's folder.
    static let outputs = ["measurements.csv", "tuning.csv", "verification.csv", "tuned.yaml", "report.html",
                          "verify/tuned-vs-start/matches.csv", "verify/tuned-vs-field/summary.csv", "verify/start-vs-field/pairwise.csv"]

    static func contents(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for name in outputs { out[name] = FileManager.default.contents(atPath: folder + "/" + name) }
        return out
    }

    @Test("the same seed gives the same files on 1 and 2 threads; the folder holds every output")
    func deterministicAcrossThreads() throws {
        let scratch = try Scratch("tune")
        defer { scratch.remove() }
        let one = try runArray(Self.small(scratch("one"), threads: 1))
        let two = try runArray(Self.small(scratch("two"), threads: 2))
        #expect(one.status == 0, "\(one.stderr)")
        #expect(two.status == 0, "\(two.stderr)")
        let a = Self.contents(scratch("one")), b = Self.contents(scratch("two"))
        #expect(a.count == Self.outputs.count, "missing: \(Self.outputs.filter { a[$0] == nil })")
        for name in Self.outputs { #expect(a[name] == b[name], "\(name) differs between 1 and 2 threads") }
        let tuning = String(decoding: a["tuning.csv"] ?? Data(), as: UTF8.self).split(separator: "\n")
        #expect(tuning.first == "iteration,focus,missionDraw,matches,score")
        #expect(tuning.count == 7, "6 iterations and the header")
        let tuned = String(decoding: a["tuned.yaml"] ?? Data(), as: UTF8.self)
        #expect(tuned.contains("strategy: \"planner(focus="))
        #expect(tuned.contains("tuned_vs_start: {score: "))
        #expect(one.stdout.contains("tuned against start: score "))
        let state = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: scratch("one") + "/tune.json"))) as? [String: Any]
        #expect(state?["status"] as? String == "complete")
        #expect(state?["matchesDone"] as? Int == 24)
        let status = try runArray(["status", scratch("one")])
        #expect(status.status == 0)
        #expect(status.stdout.hasPrefix("\(scratch("one")): tuning complete, iteration 6/6, 24 matches, tuned planner("), "\(status.stdout)")
    }

    @Test("kill -9 during the search or the verification, then --resume: the files of an uninterrupted run")
    func killAndResume() throws {
        let scratch = try Scratch("tune-kill")
        defer { scratch.remove() }
        let args = { (out: String) in
            ["tune", "rail", "--strategy", "planner", "--param", "focus=0..1:0.25", "--param", "missionDraw=0..1:0.5",
             "--against", "heuristic", "--method", "spsa", "--budget", "240", "--blocks", "2", "--verify-matches", "40",
             "--seed", "5", "--threads", "2", "--quiet"] + ["--out", out]
        }
        let reference = try runArray(args(scratch("reference")))
        #expect(reference.status == 0, "\(reference.stderr)")
        // Kill when the journal holds a given number of lines (a condition on the files,
        // not on speed), then resume; and once more inside the verification.
        let killed = scratch("killed")
        for (moment, condition) in [(1, "measurements.csv:12"), (2, "measurements.csv:40"), (3, "verify/tuned-vs-field/run.json")] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try oplabBinary())
            process.arguments = args(killed) + (moment == 1 ? [] : ["--resume"])
            process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let parts = condition.split(separator: ":")
            let deadline = Date().addingTimeInterval(300)
            func reached() -> Bool {
                guard let data = FileManager.default.contents(atPath: killed + "/" + parts[0]) else { return false }
                return parts.count == 1 || data.count(where: { $0 == UInt8(ascii: "\n") }) >= Int(parts[1])!
            }
            while process.isRunning && Date() < deadline && !reached() { usleep(500) }
            guard process.isRunning else {
                Issue.record("moment \(moment): the run ended (status \(process.terminationStatus)) before its kill")
                continue
            }
            #expect(kill(process.processIdentifier, SIGKILL) == 0)
            process.waitUntilExit()
            if moment == 1 {
                // Killed mid-search: running by its record, held by no process.
                let status = try runArray(["status", killed])
                #expect(status.stdout.contains("tuning running") && status.stdout.contains("STALLED"), "\(status.stdout)")
            }
        }
        let resumed = try runArray(args(killed) + ["--resume"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming \(killed)"))
        let a = Self.contents(scratch("reference")), b = Self.contents(killed)
        for name in Self.outputs { #expect(a[name] != nil && a[name] == b[name], "\(name) differs after kill -9 and --resume") }
    }

    @Test("a folder with a tuning is refused without --resume or --force; --resume with other flags names the difference")
    func folderRules() throws {
        let scratch = try Scratch("tune-folder")
        defer { scratch.remove() }
        let out = scratch("t")
        #expect(try runArray(Self.small(out)).status == 0)
        let before = Self.contents(out)
        let again = try runArray(Self.small(out))
        #expect(again.status == 2)
        #expect(again.stderr.contains("already holds results; pass --resume to finish that tuning or --force to replace it"), "\(again.stderr)")
        var other = Self.small(out, extra: ["--resume"])
        other[other.firstIndex(of: "24")!] = "48"
        let differs = try runArray(other)
        #expect(differs.status == 2)
        #expect(differs.stderr.contains("made with a different request (budget: 48 now, 24 in the folder)"), "\(differs.stderr)")
        #expect(Self.contents(out) == before, "a refused run changes nothing")
        let replaced = try runArray(Self.small(out, extra: ["--force"]))
        #expect(replaced.status == 0)
        #expect(replaced.stderr.contains("replaced the tuning in \(out)"))
        #expect(Self.contents(out) == before, "the same request, the same files")
        // A folder that is not a tuning's is never cleared by --force.
        let foreign = scratch("foreign")
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        try "keep".write(toFile: foreign + "/notes.txt", atomically: true, encoding: .utf8)
        let refused = try runArray(Self.small(foreign, extra: ["--force"]))
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("is a folder of other files ('notes.txt'), not a results folder"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: foreign + "/notes.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: foreign) == ["notes.txt"], "a refused --force left a lock file")
    }

    @Test("bad input: a clear error, exit 2, and no folder made", arguments: [
        (["--param", "fokus=0..1"], "--param fokus=0..1: planner has no numeric parameter 'fokus' (did you mean 'focus'?)"),
        (["--param", "focus=0..2"], "--param focus=0..2: 0..2 is outside focus's declared range (number in 0...1)"),
        (["--param", "focus=0.8..0.2"], "tuning parameter focus: LOW must be below HIGH"),
        (["--param", "focus=0.5..0.5"], "tuning parameter focus: LOW must be below HIGH"),
        (["--param", "focus=a..b"], "--param focus=a..b: expected NAME=LOW..HIGH or NAME=LOW..HIGH:STEP"),
        (["--param", "focus=0..1", "--method", "ntbea"], "NTBEA needs a grid: give tuning parameter focus a step"),
        (["--param", "focus=0..1", "--objective", "target=1"], "--objective target=1: the target 1 is outside (0, 1)"),
        (["--param", "focus=0..1", "--objective", "target=0"], "--objective target=0: the target 0 is outside (0, 1)"),
        (["--param", "focus=0..1", "--objective", "best"], "--objective best: expected max or target=P"),
        (["--param", "focus=0..1", "--method", "cmaes"], "--method cmaes: expected one of spsa, ntbea"),
        (["--param", "focus=0..1", "--budget", "10"], "--budget 10: one spsa iteration plays 32 matches"),
    ] as [([String], String)])
    func badInput(extra: [String], message: String) throws {
        let scratch = try Scratch("tune-bad")
        defer { scratch.remove() }
        let out = scratch("never")
        let run = try runArray(["tune", "rail", "--strategy", "planner", "--against", "heuristic", "--out", out] + extra)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing is written for bad input")
    }

    @Test("a non-numeric parameter and an unknown strategy are refused, naming what is accepted")
    func nonNumeric() throws {
        let rollout = try runArray(["tune", "quortex", "--strategy", "mcts", "--param", "rollout=0..1", "--against", "reference"])
        #expect(rollout.status == 2)
        #expect(rollout.stderr.contains("--param rollout=0..1: rollout takes one of random, reference, not a number to tune; numeric parameters: "),
                "\(rollout.stderr)")
        let unknown = try runArray(["tune", "rail", "--strategy", "planer", "--param", "focus=0..1", "--against", "heuristic"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("did you mean 'planner'?"), "\(unknown.stderr)")
    }

    @Test("several targets: one tuning each and a ladder, weakest first")
    func targetsMakeALadder() throws {
        let scratch = try Scratch("tune-ladder")
        defer { scratch.remove() }
        let out = scratch("ladder")
        let run = try runArray(["tune", "rail", "--strategy", "planner", "--param", "missionDraw=0..1:0.25", "--against", "heuristic",
                                "--method", "ntbea", "--objective", "target=0.7", "--objective", "target=0.3", "--budget", "16",
                                "--blocks", "2", "--verify-matches", "8", "--out", out, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let ladder = (try? String(contentsOfFile: out + "/ladder.yaml", encoding: .utf8)) ?? ""
        let names = ladder.split(separator: "\n").filter { $0.hasPrefix("  - name: ") }
        #expect(names == ["  - name: target-0.3", "  - name: target-0.7"])
        #expect(ladder.contains("    target: 0.3\n"))
        for level in ["target-0.3", "target-0.7"] {
            #expect(FileManager.default.fileExists(atPath: out + "/\(level)/tuned.yaml"))
        }
    }

    /// The example random bot (any game; a float `first_bias` and a bool `verbose`) on
    /// tic-tac-toe, whose matches are a few turns, on small budgets: each candidate's bot
    /// processes start afresh, and those starts are the test's cost.
    @Test("a bot's declared options tune through the protocol, the same on 1 and 2 threads")
    func botOptions() throws {
        let scratch = try Scratch("tune-bot")
        defer { scratch.remove() }
        let bot = "external(command=\"python3 examples/bots/random_bot.py\")"
        let args = { (out: String, threads: String) in
            ["tune", "tictactoe", "--strategy", bot, "--param", "opt.first_bias=0..1:0.5", "--against", "random",
             "--method", "ntbea", "--budget", "8", "--blocks", "2", "--verify-matches", "2", "--threads", threads,
             "--out", out, "--quiet"]
        }
        let one = try runArray(args(scratch("one"), "1"))
        let two = try runArray(args(scratch("two"), "2"))
        #expect(one.status == 0, "\(one.stderr)")
        #expect(two.status == 0, "\(two.stderr)")
        let a = Self.contents(scratch("one")), b = Self.contents(scratch("two"))
        for name in Self.outputs { #expect(a[name] != nil && a[name] == b[name], "\(name) differs between 1 and 2 threads") }
        #expect(one.stdout.contains("tuned: external(command=python3 examples/bots/random_bot.py, opt.first_bias="), "\(one.stdout)")
        #expect(one.stdout.contains("tuned against start: score "))
        // An option the bot does not declare, or a bool one, is refused with the declared ones.
        let undeclared = try runArray(["tune", "tictactoe", "--strategy", bot, "--param", "opt.noise=0..1", "--against", "random",
                                       "--out", scratch("never")])
        #expect(undeclared.status == 2)
        #expect(undeclared.stderr.contains("external has no numeric parameter 'opt.noise'"), "\(undeclared.stderr)")
        #expect(undeclared.stderr.contains("opt.first_bias"), "\(undeclared.stderr)")
        // A lab parameter every strategy takes tunes on a bot too.
        let epsilon = try runArray(["tune", "tictactoe", "--strategy", bot, "--param", "epsilon=0..0.5:0.5", "--against", "random",
                                    "--method", "ntbea", "--budget", "4", "--blocks", "2", "--verify-matches", "2",
                                    "--out", scratch("epsilon"), "--quiet"])
        #expect(epsilon.status == 0, "\(epsilon.stderr)")
        #expect(epsilon.stdout.contains("tuned: external(command=python3 examples/bots/random_bot.py, epsilon="), "\(epsilon.stdout)")
        let bool = try runArray(["tune", "tictactoe", "--strategy", bot, "--param", "opt.verbose=0..1", "--against", "random",
                                 "--out", scratch("never")])
        #expect(bool.status == 2)
        #expect(!FileManager.default.fileExists(atPath: scratch("never")))
    }
}
