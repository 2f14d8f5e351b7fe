import Foundation
import Testing

// `oplab bot check`: the example bots pass; each faulty bot of the fault suite
// (Tests/OplabCLITests/Bots/, breaking the matches whose id is divisible by 3) fails with
// its fault's kind; bad input is exit 2.

@Suite("oplab bot check")
struct BotCheckCLITests {
    @Test("Each example bot is conformant", arguments: [
        ("rail", "python3 examples/bots/random_bot.py"),
        ("quortex", "python3 examples/bots/random_bot.py"),
        ("rail", "python3 examples/bots/rail_cpu.py"),
        ("quortex", "node examples/bots/quortex_bot.js"),
    ])
    func examplesPass(game: String, command: String) throws {
        let run = try oplab("bot", "check", game, command, "--matches", "3")
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("faults: none"), "\(run.stdout)")
        #expect(run.stdout.contains("the same play in every match"), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("verdict: conformant\n"), "\(run.stdout)")
        // Latency quantiles are printed, the handshake names the bot's options.
        #expect(run.stdout.contains("latency per decision: p50 "), "\(run.stdout)")
        #expect(run.stdout.contains("options: ") && !run.stdout.contains("options: none"), "\(run.stdout)")
    }

    /// 3 matches per seat: match ids 0-2 (bot in seat 0) and 3-5 (seat 1), so the bot
    /// breaks matches 0 and 3: two faults of its kind.
    @Test("Each faulty bot fails with its fault's kind", arguments: [
        ("crash_bot.py", "crash 2", [String]()),
        ("sleepy_bot.py", "timeout 2", ["--timeout", "500"]),
        ("garbage_bot.py", "malformed 2", []),
        ("illegal_bot.py", "illegal 2", []),
        ("huge_line_bot.py", "malformed 2", []),
    ])
    func faultyBotsFail(bot: String, faults: String, flags: [String]) throws {
        let scratch = try Scratch("botcheck")
        defer { scratch.remove() }
        let run = try runArray(["bot", "check", "rail", "python3 Tests/OplabCLITests/Bots/\(bot) \(scratch.path)", "--matches", "3"] + flags)
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("\nfaults: \(faults)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("match 0, seat 0: "), "\(run.stdout)")
        #expect(run.stdout.hasSuffix("verdict: not conformant\n"), "\(run.stdout)")
        // Mended, the same bot passes: the verdict is the faults', not the bot's name.
        #expect(FileManager.default.createFile(atPath: scratch("mended"), contents: nil))
        let mended = try runArray(["bot", "check", "rail", "python3 Tests/OplabCLITests/Bots/\(bot) \(scratch.path)", "--matches", "3"] + flags)
        #expect(mended.status == 0, "\(mended.stdout)\(mended.stderr)")
    }

    @Test("A bot that never says ready fails its handshake, quoting its log")
    func neverReady() throws {
        let scratch = try Scratch("botcheck")
        defer { scratch.remove() }
        let run = try oplab("bot", "check", "rail", "python3 Tests/OplabCLITests/Bots/never_ready_bot.py \(scratch.path)", "--startup", "2000")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("handshake: FAILED: ") && run.stdout.contains("did not say ready within 2000 ms"), "\(run.stdout)")
        #expect(run.stdout.contains("still warming up, ready never comes"), "\(run.stdout)")
    }

    @Test("A bot whose play does not follow from its seeds is not conformant")
    func nondeterministic() throws {
        let scratch = try Scratch("botcheck")
        defer { scratch.remove() }
        let bot = scratch("unseeded.py")
        try """
            import json, random, sys
            for line in sys.stdin:
                m = json.loads(line)
                if m["type"] == "hello":
                    print(json.dumps({"type": "ready", "name": "unseeded"}), flush=True)
                elif m["type"] == "turn":
                    print(json.dumps({"type": "action", "id": random.choice(m["legal"])["id"]}), flush=True)
                elif m["type"] == "quit":
                    break
            """.write(toFile: bot, atomically: true, encoding: .utf8)
        let run = try oplab("bot", "check", "rail", "python3 \(bot)", "--matches", "3")
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("faults: none"), "\(run.stdout)")
        #expect(run.stdout.contains("determinism: FAILED: "), "\(run.stdout)")
    }

    @Test("Bad input exits 2", arguments: [
        ["bot", "check", "chess", "python3 examples/bots/random_bot.py"],
        ["bot", "check", "rail", "python3 examples/bots/random_bot.py", "--opt", "depth=3"],
        ["bot", "check", "rail", "python3 examples/bots/random_bot.py", "--opt", "first_bias=2"],
        ["bot", "check", "rail", "python3 examples/bots/random_bot.py", "--matches", "0"],
        ["bot", "check", "rail", "python3 examples/bots/random_bot.py", "--seats", "9"],
        ["bot", "check", "rail", "python3 examples/bots/random_bot.py", "--rule", "turnCap=0"],
        ["bot", "check", "quortex", ""],
        ["bot", "check", "quortex", "python3 \"x.py"],
    ])
    func badInput(arguments: [String]) throws {
        let run = try runArray(arguments)
        #expect(run.status == 2, "\(run.stdout)\(run.stderr)")
        #expect(run.stderr.hasPrefix("error: "), "\(run.stderr)")
        #expect(run.stdout.isEmpty, "\(run.stdout)")
    }
}
