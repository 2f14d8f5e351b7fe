import LabCore
import Testing

@Suite("Seeded randomness")
struct RandomTests {
    @Test("The same seed gives the same stream; different seeds differ")
    func sameSeedSameStream() {
        var a = LabRandom(seed: 42), b = LabRandom(seed: 42), c = LabRandom(seed: 43)
        let xs = (0..<100).map { _ in a.next() }
        #expect(xs == (0..<100).map { _ in b.next() })
        #expect(xs != (0..<100).map { _ in c.next() })
    }

    @Test("uniform(n) stays in 0..<n and hits every value about equally often")
    func uniformIsUniform() {
        var rng = LabRandom(seed: 7)
        let n = 7, draws = 70_000
        var counts = [Int](repeating: 0, count: n)
        for _ in 0..<draws {
            let x = rng.uniform(n)
            #expect((0..<n).contains(x))
            counts[x] += 1
        }
        let expected = Double(draws) / Double(n)
        let chiSquare = counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(chiSquare < 22.46)  // 6 degrees of freedom, p = 0.001
    }

    @Test("unit() lies in [0, 1) and chance(p) fires with frequency p")
    func unitAndChance() {
        var rng = LabRandom(seed: 9)
        var hits = 0
        for _ in 0..<20_000 {
            let u = rng.unit()
            #expect(u >= 0 && u < 1)
            if rng.chance(0.3) { hits += 1 }
        }
        // 4.5 sigma around 6000 (sigma = sqrt(20000 * 0.3 * 0.7) = 64.8).
        #expect(abs(hits - 6000) < 292)
    }

    @Test("A shuffle is a permutation")
    func shuffleIsPermutation() {
        var rng = LabRandom(seed: 3)
        var values = Array(0..<50)
        values.withUnsafeMutableBufferPointer { rng.shuffle($0) }
        #expect(values.sorted() == Array(0..<50))
        #expect(values != Array(0..<50))
    }

    @Test("Derived seeds differ by match, seat and purpose")
    func derivedSeedsAreDistinct() {
        var seen = Set<UInt64>()
        for match in 0..<200 as Range<UInt64> {
            let m = Seeds.match(1, match: match)
            seen.insert(m)
            for seat in 0..<6 { seen.insert(Seeds.strategy(m, seat: seat)) }
        }
        #expect(seen.count == 200 * 7)
        #expect(Seeds.match(1, match: 5) == Seeds.match(1, match: 5))
        #expect(Seeds.match(1, match: 5) != Seeds.match(2, match: 5))
    }
}
