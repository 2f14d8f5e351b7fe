import Foundation
import Testing

@testable import Players

/// What becomes of a bot's standard error when its log cannot be written, or never ends.
@Suite("Bot logs")
struct BotLogTests {
    static func scratch() throws -> String {
        let path = NSTemporaryDirectory() + "oplab-botlog-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("a log file that cannot be opened is kept as a failure, and the session warns of it once at close")
    func unwritableLog() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // `bots` is a file, so bots/mine.log cannot be made.
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: folder + "/bots"))
        let session = BotSession()
        session.open(resultsFolder: folder)
        let log = session.log(for: "mine")
        log.write(lines: Array("hello\n".utf8)[...], process: 1)
        let failure = try #require(log.failure)
        #expect(failure.hasPrefix("cannot open \(folder)/bots/mine.log: "), "\(failure)")
        #expect(session.logWarnings == ["the log of mine was not kept: \(failure); what the bot wrote on its standard error "
                                        + "from then on is lost (its matches count as played)"])
        // The end of the log is still kept for errors.
        #expect(log.tail == "[1] hello\n")
        // A log that can be written has no failure.
        let fine = BotLog(path: folder + "/logs/fine.log")
        fine.write(lines: Array("ok\n".utf8)[...], process: 2)
        #expect(fine.failure == nil)
        #expect(try String(contentsOfFile: folder + "/logs/fine.log", encoding: .utf8) == "[2] ok\n")
    }

    @Test("one drain of a bot that writes to its standard error without end reads a bounded amount, so deadlines are checked")
    func endlessStandardError() throws {
        let flood = "import os\nchunk = b'flood ' * 10000 + b'\\n'\nwhile True:\n    os.write(2, chunk)\n"
        let process = try BotProcess(argv: ["python3", "-c", flood], log: BotLog(path: nil), number: 1)
        defer { process.terminate() }
        // Once the flood has begun, each drain stops at its budget (the pipe is never empty for long).
        var drained = 0
        for _ in 0..<10_000 where drained == 0 {
            drained = process.drainErrors()
            if drained == 0 { usleep(1000) }
        }
        try #require(drained > 0, "the bot wrote nothing")
        for _ in 0..<5 {
            #expect(process.drainErrors() <= BotProcess.drainBudget + 65536)
        }
        #expect(process.log.tail.hasSuffix("flood \n"))
        #expect(process.log.tail.utf8.count <= 2 * BotLog.tailSize)
    }
}
