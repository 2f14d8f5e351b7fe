import Foundation
import Testing

/// Runs of any size start at once: the block list is never built.
@Suite("Blocks by index")
struct HugeRunCLITests {
    @Test("blocks: 10^12 starts at once and writes rows (the block list is never built)")
    func hugeBlocksStart() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 1_000_000_000_000))
        let run = try BackgroundRun(config: config, out: scratch("out"))
        defer { run.kill9() }
        #expect(run.waitForRows(4), "no block written")
        let record = try runRecord(scratch("out"))
        #expect(record["blocks"] as? Int == 3_000_000_000_000)
    }

    @Test("a blocks value the schedule cannot number is refused with exit 2 naming blocks and the accepted range")
    func unrepresentableBlocks() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: Int.max))
        let run = try tournament(config, out: scratch("out"))
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("blocks"), "\(run.stderr)")
        #expect(run.stderr.contains("expected blocks in 1..."), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch("out")))
        let flag = try tournament(config, out: scratch("out"), "--blocks", "4000000000000000")
        #expect(flag.status == 2, "\(flag.stderr)")
    }
}
