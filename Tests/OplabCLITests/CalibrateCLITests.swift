import Foundation
import Testing

/// `oplab calibrate` on the built binary.
@Suite("oplab calibrate")
struct CalibrateCLITests {
    @Test("It writes a ladder: one level per target, weakest first, each with its strategy, measured rate and interval")
    func writesALadder() throws {
        let scratch = try Scratch("calibrate")
        defer { scratch.remove() }
        let root = scratch.path
        let out = root + "/quortex.yaml"
        let run = try runArray(["calibrate", "quortex", "--family", "reference", "--knob", "epsilon", "--range", "0..1",
                                "--reference", "random", "--targets", "0.5,0.9", "--matches", "60", "--probes", "3", "--out", out, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        #expect(text.contains("game: quortex") && text.contains("reference: \"random\""))
        let strategies = text.split(separator: "\n").filter { $0.contains("strategy: \"reference(epsilon=") }
        #expect(strategies.count == 2, "\(text)")
        let rates = text.split(separator: "\n").compactMap { line -> Double? in
            line.hasPrefix("    win_rate: ") ? Double(line.dropFirst("    win_rate: ".count)) : nil
        }
        #expect(rates.count == 2 && rates[0] < rates[1], "levels get stronger: \(rates)")
        #expect(text.contains("- name: level-1") && text.contains("- name: level-2"))
        #expect(text.split(separator: "\n").filter { $0.hasPrefix("    remeasure: [") }.count == 2)
        #expect(!text.contains("--quiet"), "flags that do not change the ladder are not recorded")
        // An existing ladder is kept without --force.
        let again = try runArray(["calibrate", "quortex", "--family", "reference", "--knob", "epsilon", "--range", "0..1",
                                  "--reference", "random", "--targets", "0.5", "--out", out])
        #expect(again.status == 2 && again.stderr.contains("exists; pass --force"))
    }

    @Test("Targets out of reach share the nearest end, and the ladder warns that its levels do not get stronger")
    func warnsWhenLevelsCoincide() throws {
        let scratch = try Scratch("calibrate")
        defer { scratch.remove() }
        let root = scratch.path
        // With at least half its moves random, the reference cannot beat random 98 or 99 % of
        // the time: both targets lie beyond the range's strong end.
        let run = try runArray(["calibrate", "quortex", "--family", "reference", "--knob", "epsilon", "--range", "0.5..1",
                                "--reference", "random", "--targets", "0.98,0.99", "--matches", "40", "--probes", "2",
                                "--out", root + "/w.yaml", "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("(target out of range)"), "\(run.stdout)")
        #expect(run.stderr.contains("warning: level-2 (") && run.stderr.contains(") is not stronger than level-1 ("), "\(run.stderr)")
    }

    @Test("--out may be a bare file name: the ladder lands in the current folder")
    func bareFileName() throws {
        let scratch = try Scratch("calibrate")
        defer { scratch.remove() }
        let run = try runArray(["calibrate", "quortex", "--family", "reference", "--knob", "epsilon", "--range", "0..1",
                                "--reference", "random", "--targets", "0.5", "--matches", "4", "--probes", "1", "--out", "ladder.yaml",
                                "--quiet"], in: scratch.path)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("wrote ladder.yaml\n"), "\(run.stdout)")
        let text = try String(contentsOfFile: scratch("ladder.yaml"), encoding: .utf8)
        #expect(text.hasPrefix("# Difficulty levels for quortex, measured against `random` (2 seats, seat-rotated).\n"))
    }

    @Test("Bad input exits 2 and says what is accepted",
          arguments: [
            (["--knob", "depth", "--range", "0..1"], "--knob depth: reference has no such parameter; it takes epsilon"),
            (["--knob", "epsilon", "--range", "1..0"], "--range 1..0: expected LO..HI with LO < HI"),
            (["--knob", "epsilon", "--range", "0..2"], "inside epsilon's number in 0...1"),
            (["--knob", "epsilon", "--range", "0..1", "--targets", "0.5,1.2"], "--targets 0.5,1.2: expected win rates in (0, 1)"),
            (["--knob", "epsilon", "--range", "0..1", "--names", "a,b"], "--names a,b: expected 5 names"),
            (["--knob", "epsilon", "--range", "0..1", "--targets", ""], "--targets : expected win rates in (0, 1)"),
            (["--knob", "epsilon", "--range", "0..1", "--threads", "-1"], "--threads -1: expected 0 (every core) to 1024"),
            (["--knob", "epsilon", "--range", "0..1", "--targets", "0.2,0.5", "--names", "a,a"], "--names a,a: 'a' is given twice"),
            (["--knob", "epsilon", "--range", "0..1", "--targets", "0.5,0.5"], "--targets 0.5,0.5: 0.5 is given twice"),
          ])
    func badInput(arguments: [String], message: String) throws {
        let scratch = try Scratch("calibrate")
        defer { scratch.remove() }
        let root = scratch.path
        let run = try runArray(["calibrate", "quortex", "--family", "reference", "--reference", "reference", "--out", root + "/x.yaml"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: root + "/x.yaml"))
    }
}
