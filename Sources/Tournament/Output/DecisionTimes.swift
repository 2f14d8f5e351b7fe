import LabCore

/// Per entrant, how many decisions it made and how long they took: the count of every
/// decision, and over the timed sample (``DecisionTimer``) a count, a total and a
/// log-scale histogram (8 buckets per doubling, so a percentile read from it is within
/// 1/16 of the sample's), all of which add across blocks, resumed sessions and shards.
///
/// Clock figures: they go to `run.json` only, never into the deterministic files.
struct DecisionTimes: Sendable, Equatable {
    static let bucketsPerDoubling = 8
    /// Buckets cover 2^4 ns (16 ns) to 2^44 ns (about 4.9 hours); times outside fall
    /// into the end buckets.
    static let lowestDoubling = 4
    static let bucketCount = 40 * bucketsPerDoubling

    /// Every decision, timed or not.
    var decisions: [Int]
    /// The timed decisions and their total time.
    var sampled: [Int]
    var nanoseconds: [UInt64]
    /// Per entrant, ``bucketCount`` counts of timed decisions; empty until the first.
    var histograms: [[UInt64]]

    init(entrants: Int) {
        decisions = Array(repeating: 0, count: entrants)
        sampled = decisions
        nanoseconds = Array(repeating: 0, count: entrants)
        histograms = Array(repeating: [], count: entrants)
    }

    /// The bucket of a time: 8 per doubling, from 16 ns.
    static func bucket(ofNanoseconds ns: UInt64) -> Int {
        guard ns >= 1 << lowestDoubling else { return 0 }
        let doubling = 63 - ns.leadingZeroBitCount
        let eighth = Int((ns >> UInt64(doubling - 3)) & 7)
        return min(bucketCount - 1, (doubling - lowestDoubling) * bucketsPerDoubling + eighth)
    }

    /// The middle of a bucket, in nanoseconds.
    static func middle(ofBucket b: Int) -> Double {
        let doubling = b / bucketsPerDoubling + lowestDoubling, eighth = b % bucketsPerDoubling
        let low = Double(8 + eighth) * Double(UInt64(1) << UInt64(doubling - 3))
        let width = Double(UInt64(1) << UInt64(doubling - 3))
        return low + width / 2
    }

    /// Adds a timed decision (count it with ``decisions`` separately).
    mutating func add(entrant: Int, nanoseconds ns: UInt64) {
        sampled[entrant] += 1
        nanoseconds[entrant] &+= ns
        if histograms[entrant].isEmpty { histograms[entrant] = Array(repeating: 0, count: Self.bucketCount) }
        histograms[entrant][Self.bucket(ofNanoseconds: ns)] += 1
    }

    /// Adds a block's decisions.
    mutating func add(_ block: DecisionSamples) {
        for e in block.decisions.indices { decisions[e] += block.decisions[e] }
        for (e, ns) in zip(block.entrants, block.nanoseconds) { add(entrant: e, nanoseconds: ns) }
    }

    mutating func add(_ other: DecisionTimes) {
        for e in decisions.indices {
            decisions[e] += other.decisions[e]
            sampled[e] += other.sampled[e]
            nanoseconds[e] &+= other.nanoseconds[e]
            guard !other.histograms[e].isEmpty else { continue }
            if histograms[e].isEmpty { histograms[e] = other.histograms[e]; continue }
            for b in 0..<Self.bucketCount { histograms[e][b] += other.histograms[e][b] }
        }
    }

    /// The `q`-quantile of entrant `e`'s timed decisions in nanoseconds (a bucket's
    /// middle); nil before its first.
    func quantile(_ q: Double, entrant e: Int) -> Double? {
        guard sampled[e] > 0, !histograms[e].isEmpty else { return nil }
        let rank = max(1, Int((q * Double(sampled[e])).rounded(.up)))
        var seen: UInt64 = 0
        for (b, count) in histograms[e].enumerated() {
            seen += count
            if seen >= UInt64(rank) { return Self.middle(ofBucket: b) }
        }
        return Self.middle(ofBucket: Self.bucketCount - 1)
    }

    /// The `run.json` figures, one per entrant, in config order.
    func records(entrants names: [String]) -> [DecisionRecord] {
        names.indices.map { e in
            let mean = sampled[e] > 0 ? Double(nanoseconds[e]) / Double(sampled[e]) : 0
            return DecisionRecord(entrant: names[e], decisions: decisions[e], seconds: mean * Double(decisions[e]) / 1e9,
                                  meanMicroseconds: mean / 1e3, p99Microseconds: (quantile(0.99, entrant: e) ?? 0) / 1e3,
                                  sampled: sampled[e], sampledSeconds: Double(nanoseconds[e]) / 1e9,
                                  histogram: histograms[e].enumerated().filter { $0.element > 0 }.map { [$0.offset, Int($0.element)] })
        }
    }

    /// Totals read back from `run.json` (a resumed run or a shard), matched to the
    /// entrants by name; unknown names and bad buckets are ignored (they are clock
    /// figures, not results).
    init(records: [DecisionRecord], entrants names: [String]) {
        self.init(entrants: names.count)
        for record in records {
            guard let e = names.firstIndex(of: record.entrant) else { continue }
            decisions[e] += max(0, record.decisions)
            sampled[e] += max(0, record.sampled)
            nanoseconds[e] &+= UInt64(max(0, (record.sampledSeconds * 1e9).rounded()))
            for pair in record.histogram where pair.count == 2 && (0..<Self.bucketCount).contains(pair[0]) && pair[1] > 0 {
                if histograms[e].isEmpty { histograms[e] = Array(repeating: 0, count: Self.bucketCount) }
                histograms[e][pair[0]] += UInt64(pair[1])
            }
        }
    }
}

/// A block's decisions as the play loop left them: counts by entrant and the timed
/// sample, unbinned (the run's one ``DecisionTimes`` bins them, so a block allocates no
/// histogram).
struct DecisionSamples: Sendable {
    var decisions: [Int]
    var entrants: [Int] = []
    var nanoseconds: [UInt64] = []

    init(entrants: Int) {
        decisions = Array(repeating: 0, count: entrants)
    }

    /// Adds a match's decisions, the seat of each mapped to its entrant.
    mutating func add(_ timer: DecisionTimer, entrantOfSeat: [Int]) {
        for seat in entrantOfSeat.indices { decisions[entrantOfSeat[seat]] += timer.decisions(ofSeat: seat) }
        for (seat, ns) in zip(timer.seats, timer.nanoseconds) {
            entrants.append(entrantOfSeat[seat])
            nanoseconds.append(ns)
        }
    }
}

/// One entrant's time per decision in `run.json`: decisions made, seconds spent (the
/// mean times the decisions), the mean and the 99th percentile per decision, and what
/// they come from: the timed sample (one decision in 64), its total and its histogram
/// (`[bucket, count]` pairs; bucket b starts at 2^(4 + b/8) x (1 + (b mod 8)/8) ns).
public struct DecisionRecord: Codable, Equatable, Sendable {
    public var entrant: String
    public var decisions: Int
    public var seconds: Double
    public var meanMicroseconds: Double
    public var p99Microseconds: Double
    public var sampled: Int
    public var sampledSeconds: Double
    public var histogram: [[Int]]
}
