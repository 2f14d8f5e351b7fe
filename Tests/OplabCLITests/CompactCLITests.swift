import Foundation
import Testing

/// Runs `executable ARGUMENTS...` found on PATH, capturing its output bytes.
private func tool(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
    try runProcess("/usr/bin/env", arguments)
}

/// The names of a folder's matches files.
private func matchesFiles(in folder: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix("matches") }.sorted()
}

/// SplitMix64 (as LabCore's): the fixed-seed stream of the test's random moments.
private struct Moments {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The rows of a compact file as `zcat` gives them.
private func zcat(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
    let run = try tool(["zcat", path])
    #expect(run.status == 0, "zcat \(path): \(run.stderr)", sourceLocation: sourceLocation)
    return run.stdout
}

private func fileSize(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
}

/// The files besides the rows that a compact and a plain rail run share byte for byte.
private let otherFiles = ["summary.csv", "pairwise.csv", "ratings.csv", "railroads.csv"]

@Suite("Compact results on the command line")
struct CompactCLITests {
    @Test("kill -9 at 5 moments from a fixed seed, then --resume: the rows (and the members) are an uninterrupted run's")
    func killAndResumeFiveTimes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 3 tables x 1,500 blocks x 2 matches: about 9 members of 256 KiB of rows.
        let config = try scratch.config(railConfig(blocks: 1_500))
        let reference = scratch("reference"), killed = scratch("killed"), plain = scratch("plain")
        let whole = try tournament(config, out: reference, "--compact", "--threads", "2", "--no-report")
        try #require(whole.status == 0, "\(whole.stderr)")
        let finalSize = fileSize(reference + "/matches.csv.gz")
        let members = try zcat(reference + "/matches.csv.gz")
        #expect(!members.isEmpty)

        // Each moment: once the file has grown past a share (5-80 %) of its final size, a
        // further 0-20 ms, so that kills land between members and inside them. A condition
        // on the file, not on speed: a run that ends before its kill is reported.
        var random = Moments(state: 20261125)
        let thresholds = (0..<5).map { _ in Int(Double(finalSize) * (0.05 + 0.75 * Double(random.next() % 1000) / 1000)) }.sorted()
        let delays = (0..<5).map { _ in UInt32(random.next() % 20_000) }
        for (moment, threshold) in thresholds.enumerated() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try oplabBinary())
            process.arguments = ["tournament", config, "--out", killed, "--quiet", "--threads", "2", "--no-report"]
                + (moment == 0 ? ["--compact"] : ["--resume"])
            process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning && Date() < deadline && fileSize(killed + "/matches.csv.gz") < threshold { usleep(1_000) }
            usleep(delays[moment])
            guard process.isRunning else {
                Issue.record("moment \(moment): the run ended (status \(process.terminationStatus)) before its kill at \(threshold) bytes")
                break
            }
            #expect(kill(process.processIdentifier, SIGKILL) == 0)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
        }
        #expect(try runRecord(killed)["status"] as? String == "running")
        // A kill lands inside a member's write only by rare chance (one write of about 60 KB):
        // tear the last member as such a kill would.
        let rows = killed + "/matches.csv.gz"
        let torn = try contents(rows).dropLast(100)
        try torn.write(to: URL(fileURLWithPath: rows))

        let resumed = try tournament(config, out: killed, "--resume", "--threads", "2", "--no-report")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming"), "\(resumed.stderr)")
        #expect(resumed.stderr.contains("of a torn gzip member at the end of matches.csv.gz; its blocks are played again"), "\(resumed.stderr)")
        #expect(try runRecord(killed)["status"] as? String == "complete")
        #expect(try zcat(killed + "/matches.csv.gz") == members, "the rows differ from the uninterrupted run's")
        // Members end where the rows say: the compressed files are the same too.
        #expect(try contents(killed + "/matches.csv.gz") == contents(reference + "/matches.csv.gz"))
        try expectSameFiles(reference, killed, otherFiles)

        // And the plain run's matches.csv is the same rows.
        let text = try tournament(config, out: plain, "--no-compact", "--threads", "2", "--no-report")
        try #require(text.status == 0, "\(text.stderr)")
        #expect(try contents(plain + "/matches.csv") == members)
        #expect(!FileManager.default.fileExists(atPath: plain + "/matches.csv.gz"))
        try expectSameFiles(reference, plain, otherFiles)
    }

    @Test("fifty bytes flipped a third of the way into a killed run's matches.csv.gz: --resume stops (exit 2) naming the member; --resume --drop-damaged ends as an uninterrupted run")
    func damagedMemberBeforeTheLast() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        // 3 tables x 1,500 blocks x 2 matches: about 9 members of 256 KiB of rows.
        let config = try scratch.config(railConfig(blocks: 1_500))
        let reference = scratch("reference"), damaged = scratch("damaged")
        let whole = try tournament(config, out: reference, "--compact", "--threads", "2", "--no-report")
        try #require(whole.status == 0, "\(whole.stderr)")
        // As a kill leaves it (the last member torn, run.json running), with 50 bytes flipped at a third.
        try FileManager.default.createDirectory(atPath: damaged, withIntermediateDirectories: false)
        var bytes = Array(try contents(reference + "/matches.csv.gz"))
        bytes = Array(bytes.prefix(bytes.count * 4 / 5))
        for i in 0..<50 { bytes[bytes.count * 5 / 12 + i] ^= 0x5A }
        try Data(bytes).write(to: URL(fileURLWithPath: damaged + "/matches.csv.gz"))
        var record = try runRecord(reference)
        record["status"] = "running"
        try JSONSerialization.data(withJSONObject: record).write(to: URL(fileURLWithPath: damaged + "/run.json"))
        let before = try contents(damaged + "/run.json")

        let refused = try tournament(config, out: damaged, "--resume", "--threads", "2", "--no-report")
        #expect(refused.status == 2, "\(refused.stderr)")
        #expect(refused.stderr.hasPrefix("error: \(damaged)/matches.csv.gz: gzip member "), "\(refused.stderr)")
        #expect(refused.stderr.contains(" is damaged ("), "\(refused.stderr)")
        #expect(refused.stderr.contains(" intact members after it hold "), "\(refused.stderr)")
        #expect(refused.stderr.contains("--resume stops here rather than throw them away: pass --drop-damaged to cut the file at that "
            + "member and play every block from block "), "\(refused.stderr)")
        #expect(try contents(damaged + "/matches.csv.gz") == Data(bytes), "the refused resume changed the rows")
        #expect(try contents(damaged + "/run.json") == before, "the refused resume rewrote run.json")

        let resumed = try tournament(config, out: damaged, "--resume", "--drop-damaged", "--threads", "2", "--no-report")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains(" intact members after it (--drop-damaged): every block from block "), "\(resumed.stderr)")
        #expect(try contents(damaged + "/matches.csv.gz") == contents(reference + "/matches.csv.gz"))
        try expectSameFiles(reference, damaged, otherFiles)

        let alone = try tournament(config, out: scratch("alone"), "--drop-damaged")
        #expect(alone.status == 2 && alone.stderr.contains("--drop-damaged applies to --resume only"), "\(alone.stderr)")
    }

    @Test("zcat and Python's gzip and csv (and pandas, where installed) read matches.csv.gz as matches.csv")
    func readByOtherTools() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 40))
        let compact = try tournament(config, out: scratch("compact"), "--compact", "--no-report")
        let plain = try tournament(config, out: scratch("plain"), "--no-report")
        try #require(compact.status == 0 && plain.status == 0, "\(compact.stderr)\(plain.stderr)")
        let gz = scratch("compact") + "/matches.csv.gz", csv = scratch("plain") + "/matches.csv"
        #expect(try zcat(gz) == contents(csv))

        let python = try tool(["python3", "-c", """
            import csv, gzip, sys
            with gzip.open(sys.argv[1], "rt", newline="") as f: a = list(csv.reader(f))
            with open(sys.argv[2], newline="") as f: b = list(csv.reader(f))
            print(len(a))
            sys.exit(0 if a == b else 1)
            """, gz, csv])
        #expect(python.status == 0, "python's gzip and csv: \(python.stderr)")
        #expect(String(decoding: python.stdout, as: UTF8.self) == "\(1 + 3 * 40 * 4)\n")

        guard try tool(["python3", "-c", "import pandas"]).status == 0 else { return }  // pandas is optional
        let pandas = try tool(["python3", "-c", """
            import sys, pandas
            a, b = pandas.read_csv(sys.argv[1]), pandas.read_csv(sys.argv[2])
            print(len(a))
            sys.exit(0 if a.equals(b) else 1)
            """, gz, csv])
        #expect(pandas.status == 0, "pandas: \(pandas.stderr)")
        #expect(String(decoding: pandas.stdout, as: UTF8.self) == "\(3 * 40 * 4)\n")
    }

    @Test("config compact: true writes matches.csv.gz, --no-compact overrides it; a small run is plain; report and merge read compact folders")
    func switchesReportAndMerge() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let small = try scratch.config(railConfig(blocks: 30), name: "small.yaml")
        let compact = try scratch.config(railConfig(blocks: 30) + "compact: true\n", name: "compact.yaml")
        for (config, flags, file) in [(small, [String](), "matches.csv"), (compact, [], "matches.csv.gz"),
                                      (compact, ["--no-compact"], "matches.csv"), (small, ["--compact"], "matches.csv.gz")] {
            let out = scratch("out-\(UUID().uuidString)")
            let run = try runArray(["tournament", config, "--out", out, "--quiet"] + flags)
            try #require(run.status == 0, "\(run.stderr)")
            #expect(try matchesFiles(in: out) == [file], "\(config) \(flags)")
        }

        // The report draws a compact folder, listing its file.
        let whole = scratch("whole")
        try #require(try tournament(small, out: whole, "--no-report").status == 0)
        let shards = try runShards(compact, in: scratch, "--no-report")
        let report = try oplab("report", shards[0])
        #expect(report.status == 0, "\(report.stderr)")
        #expect(try String(decoding: contents(shards[0] + "/report.html"), as: UTF8.self).contains("<code>matches.csv.gz</code>"))

        // Merged compact shards are compact, with the whole run's rows and summaries.
        let merge = try runArray(["merge", shards[1], shards[2], shards[0], "--out", scratch("merged")])
        try #require(merge.status == 0, "\(merge.stderr)")
        #expect(try zcat(scratch("merged") + "/matches.csv.gz") == contents(whole + "/matches.csv"))
        #expect(!FileManager.default.fileExists(atPath: scratch("merged") + "/matches.csv"))
        try expectSameFiles(whole, scratch("merged"), otherFiles)
        #expect(FileManager.default.fileExists(atPath: scratch("merged") + "/report.html"))
    }
}
