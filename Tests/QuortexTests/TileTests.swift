import Quortex
import Testing

/// Rule book, "Tiles": the channels of each type at each rotation.
@Suite("Tiles")
struct TileTests {
    /// The rule book's pairs at rotation 0, turned by r (side s becomes s + r mod 6),
    /// written out: `ruleBookPairs[type][rotation]`.
    static let ruleBookPairs: [[[[Int]]]] = [
        [[[0, 2], [1, 4], [3, 5]], [[0, 4], [1, 3], [2, 5]], [[0, 3], [1, 5], [2, 4]],
         [[0, 2], [1, 4], [3, 5]], [[0, 4], [1, 3], [2, 5]], [[0, 3], [1, 5], [2, 4]]],
        [[[0, 5], [1, 3], [2, 4]], [[0, 1], [2, 4], [3, 5]], [[0, 4], [1, 2], [3, 5]],
         [[0, 4], [1, 5], [2, 3]], [[0, 2], [1, 5], [3, 4]], [[0, 2], [1, 3], [4, 5]]],
        [[[0, 5], [1, 4], [2, 3]], [[0, 1], [2, 5], [3, 4]], [[0, 3], [1, 2], [4, 5]],
         [[0, 5], [1, 4], [2, 3]], [[0, 1], [2, 5], [3, 4]], [[0, 3], [1, 2], [4, 5]]],
        [[[0, 5], [1, 2], [3, 4]], [[0, 1], [2, 3], [4, 5]], [[0, 5], [1, 2], [3, 4]],
         [[0, 1], [2, 3], [4, 5]], [[0, 5], [1, 2], [3, 4]], [[0, 1], [2, 3], [4, 5]]],
    ]

    @Test("each tile type joins the rule book's pairs at every rotation", arguments: 0..<4)
    func tileTypeJoinsTheRuleBooksPairs(type: Int) {
        for r in 0..<6 {
            #expect(QuortexTile.pairs(type: type, rotation: r) == Self.ruleBookPairs[type][r], "\(QuortexTile.names[type]) r\(r)")
        }
    }

    @Test("the partner table joins each side to its pair's other side", arguments: 0..<4)
    func partnerTableJoinsEachSideToItsPairsOtherSide(type: Int) {
        for r in 0..<6 {
            let code = type * 6 + r
            for pair in Self.ruleBookPairs[type][r] {
                #expect(QuortexTile.partner[code * 6 + pair[0]] == pair[1], "T\(type) r\(r) side \(pair[0])")
                #expect(QuortexTile.partner[code * 6 + pair[1]] == pair[0], "T\(type) r\(r) side \(pair[1])")
            }
        }
    }

    @Test func distinctRotationsAreThreeSixThreeAndTwoLowestFirst() {
        #expect(QuortexTile.distinctRotations == [[0, 1, 2], [0, 1, 2, 3, 4, 5], [0, 1, 2], [0, 1]])
        #expect(QuortexTile.distinctRotationMasks == [0b111, 0b111111, 0b111, 0b11])
        // The constant the turns read agrees with the table worked out from the pairs.
        #expect((0..<4).map(QuortexTile.distinctRotationMask) == QuortexTile.distinctRotationMasks)
    }

    @Test("a rotation's canonical rotation is the lowest with the same pairs", arguments: 0..<4)
    func canonicalRotationIsTheLowestWithTheSamePairs(type: Int) {
        for r in 0..<6 {
            let canonical = QuortexTile.canonicalRotation(type: type, r)
            #expect(QuortexTile.distinctRotations[type].contains(canonical))
            #expect(Self.ruleBookPairs[type][canonical] == Self.ruleBookPairs[type][r])
            #expect((0..<canonical).allSatisfy { Self.ruleBookPairs[type][$0] != Self.ruleBookPairs[type][r] })
        }
    }
}
