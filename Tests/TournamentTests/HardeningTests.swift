import Foundation
import LabCore
import Testing
@testable import Tournament

@Suite("Hardening: schedule by index, atomic writes, decision times")
struct HardeningTests {
    @Test("blocks(shard:) computes each shard's blocks by position: the stride's numbers, any size, O(1) memory")
    func shardBlocksByIndex() throws {
        let schedule = try Schedule(entrants: 3, seats: 2, format: .roundRobin, candidate: nil, blocksPerTable: 7)
        for count in 1...5 {
            for index in 1...count {
                let blocks = schedule.blocks(shard: try Shard(index: index, count: count))
                #expect(Array(blocks) == Array(stride(from: index - 1, to: 21, by: count)), "shard \(index)/\(count)")
            }
        }
        let huge = try Schedule(entrants: 3, seats: 2, format: .roundRobin, candidate: nil, blocksPerTable: 1_000_000_000_000)
        let shard = huge.blocks(shard: try Shard(index: 2, count: 4))
        #expect(shard.count == 750_000_000_000)
        #expect(shard[shard.count - 1] == 2_999_999_999_997)
        #expect(MemoryLayout.size(ofValue: shard) == 3 * MemoryLayout<Int>.size)
    }

    @Test("a schedule with more matches than it can number is refused, naming blocks and what is accepted")
    func unrepresentableSchedule() throws {
        #expect(throws: InputError.self) {
            _ = try Schedule(entrants: 3, seats: 2, format: .roundRobin, candidate: nil, blocksPerTable: Int.max)
        }
        do {
            _ = try Schedule(entrants: 4, seats: 4, format: .roundRobin, candidate: nil, blocksPerTable: 1 << 51)
            Issue.record("2^51 blocks of 4 matches were accepted")
        } catch {
            #expect(error.message.hasPrefix("blocks 2251799813685248:"))
            #expect(error.message.contains("expected blocks in 1...1125899906842624"))
        }
        _ = try Schedule(entrants: 4, seats: 4, format: .roundRobin, candidate: nil, blocksPerTable: 1 << 50)
    }

    @Test("the plain progress line writes 64-bit counts whole, and the clock days past 24 hours")
    func progressLine() {
        let line = Progress.plainLine(blocks: 135_216, total: 1_000_000_000_000, matches: 270_432, rate: 27_025.4, elapsed: 10,
                                      eta: 37_000_000, leader: "leader cpu 0.530")
        #expect(line == "progress: 135216/1000000000000 blocks (0.0%), 270432 matches this session, 27025 matches/s, "
                + "elapsed 0:00:10, ETA 428d 05:46:40, leader cpu 0.530\n")
        #expect(Progress.clock(3_725) == "1:02:05")
        #expect(Progress.clock(1e300) == "over 100 years")
    }

    @Test("a write whose rename fails leaves no .partial file behind")
    func atomicWriteCleansUp() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-atomic-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // The target is a non-empty folder: rename(2) cannot replace it.
        try FileManager.default.createDirectory(atPath: folder + "/report.html/x", withIntermediateDirectories: true)
        #expect(throws: InputError.self) { try Files.writeAtomically("<html>", to: folder + "/report.html") }
        #expect(!FileManager.default.fileExists(atPath: folder + "/report.html.partial"))
    }

    @Test("the timer counts every decision by seat and times each seat's first and every 64th, by position only")
    func timerSamples() {
        #expect(DecisionTimer.sampleInterval == 64)
        let timer = DecisionTimer()
        var timed: [Int] = []
        // Two seats in turn: seat 0 makes decisions 0, 2, 4, ...; seat 1 makes 1, 3, 5, ...
        for k in 0..<140 where timer.begin(seat: k % 2) { timed.append(k) }
        #expect(timed == [0, 1, 128, 129])
        #expect(timer.decisionsBySeat == [70, 70])
        #expect(timer.decisions(ofSeat: 1) == 70 && timer.decisions(ofSeat: 5) == 0)
        timer.removeAll()
        #expect(timer.decisionsBySeat == [0, 0])
        // Each seat's phase goes on across matches: seat 0's 128th decision is the next timed.
        var next: [Int] = []
        for k in 70..<140 where timer.begin(seat: 0) { next.append(k) }
        #expect(next == [128])
        // A phase of 69 (5 modulo 64) lets each seat's first 5 decisions pass.
        let late = DecisionTimer(phase: 69)
        #expect((0..<80).filter { _ in late.begin(seat: 0) } == [5, 69])
    }

    @Test("decision-time buckets: 8 per doubling from 16 ns; a bucket's middle lies inside it")
    func buckets() {
        #expect(DecisionTimes.bucket(ofNanoseconds: 0) == 0)
        #expect(DecisionTimes.bucket(ofNanoseconds: 16) == 0)
        #expect(DecisionTimes.bucket(ofNanoseconds: 18) == 1)   // 16 x 9/8
        #expect(DecisionTimes.bucket(ofNanoseconds: 32) == 8)
        #expect(DecisionTimes.bucket(ofNanoseconds: 1_000) == 6 * 8 - 1)  // 1000 in [960, 1024)
        #expect(DecisionTimes.bucket(ofNanoseconds: .max) == DecisionTimes.bucketCount - 1)
        #expect(DecisionTimes.middle(ofBucket: 0) == 17)    // [16, 18)
        #expect(DecisionTimes.middle(ofBucket: 47) == 992)
    }

    @Test("the p99 of known times, and totals that add across blocks and survive run.json")
    func quantilesAndRecords() {
        var times = DecisionTimes(entrants: 2)
        // Entrant 0: 1,600 decisions, of which 100 timed: 99 at 1,000 ns and one at 1,000,000 ns;
        // entrant 1: none.
        times.decisions[0] = 1_600
        for _ in 0..<99 { times.add(entrant: 0, nanoseconds: 1_000) }
        times.add(entrant: 0, nanoseconds: 1_000_000)
        #expect(times.quantile(0.99, entrant: 0) == 992)
        #expect(times.quantile(1, entrant: 0)! > 950_000 && times.quantile(1, entrant: 0)! < 1_050_000)
        #expect(times.quantile(0.99, entrant: 1) == nil)
        let records = times.records(entrants: ["a", "b"])
        #expect(records[0].decisions == 1_600)
        #expect(records[0].sampled == 100)
        #expect(records[0].sampledSeconds == 0.001099)
        #expect(abs(records[0].seconds - 0.017584) < 1e-12)   // 10.99 µs x 1,600
        #expect(abs(records[0].meanMicroseconds - 10.99) < 1e-9)
        #expect(records[0].p99Microseconds == 0.992)
        #expect(records[1] == DecisionRecord(entrant: "b", decisions: 0, seconds: 0, meanMicroseconds: 0, p99Microseconds: 0,
                                             sampled: 0, sampledSeconds: 0, histogram: []))

        var sum = DecisionTimes(records: records, entrants: ["a", "b"])
        #expect(sum == times)
        sum.add(times)
        #expect(sum.decisions == [3_200, 0])
        #expect(sum.sampled == [200, 0])
        #expect(sum.quantile(0.99, entrant: 0) == 992)
    }
}

/// A 3-seat table whose every match ends with seats 0 and 1 sharing first place.
private struct SharedFirstTable: SeatedTable {
    func play(dealSeed: UInt64, strategySeed: UInt64, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer?) -> MatchRecord {
        timer?.record(seat: 0, nanoseconds: 1_000)
        return MatchRecord(outcome: Outcome(places: [1, 1, 3], endReason: "test", turns: 1), seatColumns: [[], [], []])
    }
}

@Suite("The runner's block scores")
struct BlockScoreTests {
    @Test("onBlock scores a first place shared by k seats 1/k, as the summaries do (not 1/2)")
    func sharedFirstPlace() throws {
        let schedule = try Schedule(entrants: 3, seats: 3, format: .roundRobin, candidate: nil, blocksPerTable: 2)
        let config = TournamentConfig(name: "shared", game: "none", seats: 3,
                                      entrants: ["a", "b", "c"].map { Entrant(name: $0, strategy: "s") }, blocks: 2)
        let plan = TournamentPlan(config: config, schedule: schedule, seatings: [Array(repeating: SharedFirstTable(), count: 3)],
                                  columns: [], anchor: nil)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oplab-shared-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var seen: [[Double?]] = []
        _ = try TournamentRunner.run(plan, options: RunOptions(directory: folder, threads: 1, quiet: true)) { _, scores in
            seen.append(scores)
            return false
        }
        // Each entrant sits in seats 0, 1 and 2 once per block: (1/2 + 1/2 + 0) / 3.
        #expect(seen.count == 2)
        let third: Double? = 1.0 / 3
        let expected: [Double?] = [third, third, third]
        for scores in seen { #expect(scores == expected) }
    }
}
