import Foundation
import Testing

/// One way to interrupt a run: the signal, and whether the rows are compact.
struct Interrupt: Sendable, CustomTestStringConvertible {
    var signal: Int32
    var name: String
    var compact: Bool
    var testDescription: String { "\(name), \(compact ? "matches.csv.gz" : "matches.csv")" }
}

/// Rows (newlines) past the header of `folder`'s matches file, plain or compact (via
/// zcat); 0 while it does not exist.
private func rowsWritten(_ folder: String, compact: Bool) throws -> Int {
    if compact {
        let run = try runProcess("/usr/bin/env", ["zcat", folder + "/matches.csv.gz"])
        return max(0, run.stdout.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1)
    }
    guard let data = FileManager.default.contents(atPath: folder + "/matches.csv") else { return 0 }
    return max(0, data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } - 1)
}

@Suite("Interrupted runs: SIGINT and SIGTERM")
struct InterruptCLITests {
    @Test("SIGINT or SIGTERM once rows are on disk: run.json holds the blocks done, one line says how to continue, exit 128 + n; --resume gives the uninterrupted run's bytes",
          arguments: [Interrupt(signal: SIGINT, name: "SIGINT", compact: false), Interrupt(signal: SIGTERM, name: "SIGTERM", compact: true)])
    func interruptAndResume(_ interrupt: Interrupt) throws {
        let scratch = try Scratch("interrupt")
        defer { scratch.remove() }
        // 3 tables x 1,500 blocks x 2 matches (compact: about 4 members of 256 KiB of rows).
        // The signal comes once rows are on disk (compact: once the file holds a member
        // past the header's), a condition on the files, not on speed: a run that ends first
        // is reported.
        let config = try scratch.config(railConfig(blocks: 1_500))
        let out = scratch("interrupted"), blocks = 3 * 1_500
        let format = interrupt.compact ? "--compact" : "--no-compact"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try oplabBinary())
        process.arguments = ["tournament", config, "--out", out, "--quiet", "--threads", "2", "--no-report", format]
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        process.standardOutput = FileHandle.nullDevice
        let stderr = Pipe()
        process.standardError = stderr
        try process.run()
        let file = out + (interrupt.compact ? "/matches.csv.gz" : "/matches.csv")
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline {
            let size = ((try? FileManager.default.attributesOfItem(atPath: file))?[.size] as? NSNumber)?.intValue ?? 0
            if interrupt.compact ? size > 4_096 : (try rowsWritten(out, compact: false)) >= 8 { break }
            usleep(1_000)
        }
        guard process.isRunning else {
            Issue.record("the run ended (status \(process.terminationStatus)) before its \(interrupt.name)")
            return
        }
        #expect(kill(process.processIdentifier, interrupt.signal) == 0)
        let message = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + interrupt.signal,
                "\(process.terminationReason) \(process.terminationStatus): \(message)")

        // run.json: interrupted, with the blocks the rows hold (whole blocks: no torn tail).
        let record = try runRecord(out)
        let done = try #require(record["blocksDone"] as? Int)
        #expect(record["status"] as? String == "interrupted")
        #expect(try rowsWritten(out, compact: interrupt.compact) == 4 * done, "run.json says \(done) blocks")
        #expect(done >= 2 && done < blocks, "\(done) blocks done")
        if !interrupt.compact { #expect(try contents(file).last == 0x0A, "a torn last line") }
        #expect(message == "interrupted (\(interrupt.name)) after \(done) of \(blocks) blocks; \(out) holds them; "
            + "run the same command with --resume to continue\n", "\(message)")
        let status = try oplab("status", out)
        #expect(status.stdout.hasPrefix("\(out): interrupted, ") && status.stdout.contains("; --resume continues it"), "\(status.stdout)")

        let resumed = try tournament(config, out: out, "--resume", "--threads", "2", "--no-report")
        try #require(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stderr.contains("resuming \(out) at block \(done) of \(blocks)"), "\(resumed.stderr)")
        #expect(try runRecord(out)["status"] as? String == "complete")
        let reference = scratch("reference")
        let whole = try tournament(config, out: reference, "--threads", "2", "--no-report", format)
        try #require(whole.status == 0, "\(whole.stderr)")
        let rows = interrupt.compact ? "matches.csv.gz" : "matches.csv"
        try expectSameFiles(reference, out, [rows] + summaryFiles.dropFirst())
    }
}
