import Foundation
import Testing

/// What a run leaves in a results folder: no leftovers, and a resume of a finished run
/// changes nothing.
@Suite("Results folders: leftovers and a finished resume")
struct ResultsFolderCLITests {
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
}
