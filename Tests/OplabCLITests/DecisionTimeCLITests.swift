import Foundation
import Testing

@Suite("Time per decision")
struct DecisionTimeCLITests {
    @Test("run.json gives each entrant's decisions and time per decision; the report shows them")
    func decisionTimes() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let config = try scratch.config(railConfig(blocks: 5))
        let out = scratch("out")
        let run = try tournament(config, out: out)
        try #require(run.status == 0, "\(run.stderr)")
        let times = try #require(try runRecord(out)["decisionTimes"] as? [[String: Any]])
        #expect(times.map { $0["entrant"] as? String } == ["cpu", "shipped", "rnd"])
        var decisions = 0
        for t in times {
            let n = try #require(t["decisions"] as? Int), seconds = try #require(t["seconds"] as? Double)
            let mean = try #require(t["meanMicroseconds"] as? Double), p99 = try #require(t["p99Microseconds"] as? Double)
            let histogram = try #require(t["histogram"] as? [[Int]])
            let sampled = try #require(t["sampled"] as? Int), sampledSeconds = try #require(t["sampledSeconds"] as? Double)
            #expect(n > 0 && seconds > 0 && mean > 0 && p99 > 0, "\(t)")
            #expect(abs(mean * Double(n) / 1e6 - seconds) <= seconds * 1e-6, "mean x decisions is the time spent: \(t)")
            #expect(abs(mean * Double(sampled) / 1e6 - sampledSeconds) <= sampledSeconds * 1e-6, "the mean is the sample's: \(t)")
            #expect(histogram.reduce(0) { $0 + $1[1] } == sampled, "the histogram counts every timed decision: \(t)")
            // One in 64 of each seat's decisions in a block, from a phase set by the block:
            // within one decision of n/64 per seat and block (5 blocks, 2 tables, 2 seats).
            #expect(abs(sampled - n / 64) <= 20, "one decision in 64 is timed: \(t)")
            decisions += n
        }
        // Every action of every match is one decision of its mover.
        let rows = try String(contentsOfFile: out + "/matches.csv", encoding: .utf8).split(separator: "\n").dropFirst()
        let header = try String(contentsOfFile: out + "/matches.csv", encoding: .utf8).split(separator: "\n")[0].split(separator: ",")
        let turns = try #require(header.firstIndex(of: "turns")), seat = try #require(header.firstIndex(of: "seat"))
        let actions = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false) }.filter { $0[seat] == "0" }
            .reduce(0) { $0 + Int($1[turns])! }
        #expect(decisions == actions)
        let page = try String(contentsOfFile: out + "/report.html", encoding: .utf8)
        #expect(page.contains("Time per decision"))
        #expect(page.contains("p99 per decision"))
    }
}
