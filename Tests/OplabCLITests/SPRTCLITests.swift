import Foundation
import Testing

/// `oplab sprt` on the built binary: exit statuses, files and determinism.
@Suite("oplab sprt")
struct SPRTCLITests {
    private static func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    @Test("A much stronger candidate is accepted (exit 0) early; the folder holds exactly the blocks played, the same for 1 and 2 threads")
    func strongerCandidate() throws {
        let scratch = try Scratch("sprt")
        defer { scratch.remove() }
        let root = scratch.path
        var outputs: [String] = []
        for threads in ["1", "2"] {
            let out = root + "/t" + threads
            let run = try runArray(["sprt", "quortex", "--candidate", "reference", "--baseline", "random", "--threads", threads,
                                    "--seed", "5", "--out", out, "--quiet"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.hasPrefix("H1 accepted: the candidate is stronger (normalized elo >= 20"), "\(run.stdout)")
            #expect(run.stdout.contains("] (normalized elo, H0 0, H1 20), elo "), "the model is recorded: \(run.stdout)")
            let pairs = try #require(run.stdout.firstMatch(of: /\((\d+) game pairs\)/).map { Int($0.1)! })
            #expect(pairs < 100, "a 600-elo gap needs few pairs: \(pairs)")
            // Header plus two rows (one per seat) per match, two matches per pair.
            let rows = try Self.text(out + "/matches.csv").split(separator: "\n").count
            #expect(rows == 1 + 4 * pairs)
            #expect(try Self.text(out + "/run.json").contains("\"stopped\""))
            outputs.append(try Self.text(out + "/matches.csv") + Self.text(out + "/summary.csv"))
        }
        #expect(outputs[0] == outputs[1], "1 and 2 threads play and stop on the same blocks")
    }

    @Test("Equal players: H0 (exit 1) in a few mirrored pairs, or no decision (exit 3) within --max-matches")
    func equalPlayers() throws {
        let scratch = try Scratch("sprt")
        defer { scratch.remove() }
        let root = scratch.path
        let short = try runArray(["sprt", "rail", "--candidate", "random", "--baseline", "random", "--max-matches", "20",
                                  "--out", root + "/short", "--quiet"])
        #expect(short.status == 3, "\(short.stdout) \(short.stderr)")
        #expect(short.stdout.hasPrefix("no decision after 20 matches"), "\(short.stdout)")
        // The same player on both sides plays mirrored pairs (common random numbers):
        // every pair splits, so the counts are [0, 0, N, 0, 0] whatever the seed, and the
        // LLR of N split pairs decides when H0 comes. Logistic [0, 20]: fishtest's
        // LLR_logistic is -2.8934 at 49 pairs and -2.9526 at 50, past ln(1/19) = -2.9444.
        // Normalized [0, 20] (the default): LLR_normalized is -2.93790 at 446 pairs and
        // -2.94451 at 447 (the script in SPRTTests.fishtestValues): mirrored pairs say the
        // t-value is 0, but not more cheaply than any other sample at t = 0.
        for (seed, model, expected) in [("2", "logistic", 50), ("17", "logistic", 50), ("2", nil, 447)] {
            let same = try runArray(["sprt", "rail", "--candidate", "heuristic", "--baseline", "heuristic", "--seed", seed,
                                     "--out", root + "/same" + seed + (model ?? ""), "--quiet"] + (model.map { ["--model", $0] } ?? []))
            #expect(same.status == 1, "\(same.stdout)")
            let pairs = try #require(same.stdout.firstMatch(of: /\((\d+) game pairs\)/).map { Int($0.1)! })
            #expect(pairs == expected, "\(same.stdout)")
            #expect(same.stdout.contains("[0, 0, \(pairs), 0, 0]"), "\(same.stdout)")
            #expect(same.stdout.contains("(\(model ?? "normalized") elo, H0 0, H1 20)"), "\(same.stdout)")
        }
    }

    @Test("Bad input exits 2, names the flag, and creates no results folder",
          arguments: [
            (["--candidate", "nobody", "--baseline", "heuristic"], "--candidate: unknown strategy 'nobody'"),
            (["--candidate", "heuristic", "--baseline", "heuristic(missionProbability=2)"], "--baseline: strategy heuristic"),
            (["--candidate", "heuristic", "--baseline", "random", "--elo0", "10", "--elo1", "5"], "--elo1 5.0 must be above --elo0 10.0"),
            (["--candidate", "heuristic", "--baseline", "random", "--alpha", "0.7"], "--alpha 0.7"),
            (["--candidate", "heuristic", "--baseline", "random", "--elo1", "inf"], "error: --elo1 inf: expected a finite Elo difference\n"),
            (["--candidate", "heuristic", "--baseline", "random", "--elo0=-inf"], "error: --elo0 -inf: expected a finite Elo difference\n"),
            (["--candidate", "heuristic", "--baseline", "random", "--elo1", "nan"], "error: --elo1 nan: expected a finite Elo difference\n"),
            (["--candidate", "heuristic", "--baseline", "random", "--max-matches", "1.5"],
             "error: --max-matches 1.5: expected a whole number (see --help)\n"),
            (["--candidate", "heuristic", "--baseline", "random", "--rule", "turnCap=0"], "--rule: "),
            (["--candidate", "heuristic"], "Missing expected argument '--baseline"),
            (["--candidate", "heuristic", "--baseline", "random", "--model", "bogus"],
             "--model bogus: expected one of normalized, logistic"),
          ])
    func badInput(arguments: [String], message: String) throws {
        let scratch = try Scratch("sprt")
        defer { scratch.remove() }
        let root = scratch.path
        let out = root + "/never"
        let run = try runArray(["sprt", "rail"] + arguments + ["--out", out, "--quiet"])
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
