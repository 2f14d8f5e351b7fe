import LabCore
import Testing

@Suite("Outcome")
struct OutcomeTests {
    @Test("Places use competition ranking: equal keys share, the next place skips")
    func competitionRanking() {
        #expect(Outcome.places(fromKeys: [5, 9, 5, 1]) == [2, 1, 2, 4])
        #expect(Outcome.places(fromKeys: [3, 3]) == [1, 1])
        #expect(Outcome.places(fromKeys: [1, 2, 3]) == [3, 2, 1])
    }

    @Test("A sole first place scores 1 and wins; a shared first place scores 1/k and draws")
    func scoresAndResults() {
        let sole = Outcome(places: [1, 2, 3], endReason: "x", turns: 1)
        #expect(sole.score(of: 0) == 1)
        #expect(sole.score(of: 1) == 0)
        #expect(sole.result(of: 0) == .win)
        #expect(sole.result(of: 2) == .loss)
        let shared = Outcome(places: [1, 1, 1, 4], endReason: "x", turns: 1)
        #expect(abs(shared.score(of: 2) - 1.0 / 3.0) < 1e-12)
        #expect(shared.result(of: 0) == .draw)
        #expect(shared.result(of: 3) == .loss)
    }

    @Test("ActionBuffer keeps its actions in order and empties without losing them twice")
    func actionBuffer() {
        var buffer = ActionBuffer(capacity: 4)
        for a in [3, 1, 4, 1000] { buffer.append(a) }
        #expect(buffer.actions == [3, 1, 4, 1000])
        #expect(buffer.contains(1000))
        #expect(!buffer.contains(2))
        buffer.removeAll()
        #expect(buffer.isEmpty)
        buffer.append(9)
        #expect(buffer.actions == [9])
    }

    @Test("A shorter fill hides what a longer one left behind, and appends continue after it")
    func actionBufferReuse() {
        var buffer = ActionBuffer(capacity: 2)
        buffer.fill(upTo: 6) { out in
            for i in 0..<5 { out[i] = Int32(10 + i) }
            return 5
        }
        #expect(buffer.actions == [10, 11, 12, 13, 14])
        buffer.fill(upTo: 6) { out in
            out[0] = 7
            return 1
        }
        #expect(buffer.count == 1)
        #expect(buffer.actions == [7])
        #expect(!buffer.contains(12))
        buffer.append(8)
        #expect(buffer.actions == [7, 8])
        #expect(buffer[1] == 8)
    }
}
