import LabCore
import Testing
import RailGame

/// Rule book, "Build a railroad" and "Spent cards".
@Suite("Building")
struct BuildingTests {
    @Test func londonParisIsADualPathOfTwinRailroads() throws {
        let blue = try Rail.railroad("London", "Paris", .blue)
        let yellow = try Rail.railroad("London", "Paris", .yellow)
        let map = try Rail.map()
        #expect(map.railroads[blue].twin == yellow)
        #expect(map.railroads[yellow].twin == blue)
    }

    @Test func aSeatOwningOneRailroadOfADualPathCannotBuildTheOther() throws {
        var state = try Rail.quietMatch()
        state.give(try Rail.railroad("London", "Paris", .blue), to: 0)
        state.setHand(0, Rail.hand(yellow: 2))
        #expect(Rail.payOptions(state, try Rail.railroad("London", "Paris", .yellow)).isEmpty)
    }

    @Test func anotherSeatCanBuildTheOtherRailroadOfADualPath() throws {
        var state = try Rail.quietMatch()
        let yellow = try Rail.railroad("London", "Paris", .yellow)
        state.give(try Rail.railroad("London", "Paris", .blue), to: 0)
        state.setCurrentSeat(1)
        state.setHand(1, Rail.hand(yellow: 2))
        #expect(Rail.payOptions(state, yellow) == [Rail.yellow])
        state.apply(RailAction.build(yellow, pay: Rail.yellow))
        #expect(state.owner(of: yellow) == 1)
        #expect(state.invariantViolation() == nil)
    }

    @Test func anOwnedRailroadCannotBeBuilt() throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Paris", "Brussels", .black)
        state.give(r, to: 1)
        state.setHand(0, Rail.hand(black: 3))
        #expect(Rail.payOptions(state, r).isEmpty)
    }

    @Test func colouredRailroadIsPaidWithItsColourPlusRainbows() throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Berlin", "Warsaw", .green)  // 3 slots
        state.setHand(0, Rail.hand(green: 1, rainbow: 2))
        #expect(Rail.payOptions(state, r) == [Rail.green])
        state.setHand(0, Rail.hand(red: 3, green: 1, rainbow: 1))
        #expect(Rail.payOptions(state, r).isEmpty)
    }

    @Test func greyRailroadCannotBePaidByMixingTwoColours() throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Marseille", "Paris", .grey)  // 2 slots
        state.setHand(0, Rail.hand(red: 1, blue: 1))
        #expect(Rail.payOptions(state, r).isEmpty)
    }

    @Test func greyRailroadCanBePaidWithRainbowsAlone() throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Marseille", "Paris", .grey)
        state.setHand(0, Rail.hand(rainbow: 2))
        #expect(Rail.payOptions(state, r) == [Rail.rainbow])
    }

    @Test func greyRailroadHasOneBuildActionPerPayableColour() throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Marseille", "Paris", .grey)
        // red 2 pays alone; blue and green pay with the rainbow; one rainbow is too few alone.
        state.setHand(0, Rail.hand(red: 2, blue: 1, green: 1, rainbow: 1))
        #expect(Rail.payOptions(state, r) == [Rail.red, Rail.blue, Rail.green])
    }

    struct Payment: Sendable, CustomTestStringConvertible {
        var before: [Int]
        var after: [Int]
        var testDescription: String { "\(before) -> \(after)" }
    }

    @Test("canonical payment on a coloured railroad: as many coloured cards as possible, then rainbows", arguments: [
        Payment(before: Rail.hand(red: 1, green: 2, rainbow: 3), after: Rail.hand(red: 1, rainbow: 2)),
        Payment(before: Rail.hand(green: 4, rainbow: 2), after: Rail.hand(green: 1, rainbow: 2)),
        Payment(before: Rail.hand(rainbow: 3), after: Rail.hand()),
    ])
    func canonicalPaymentOnAColouredRailroad(payment: Payment) throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Berlin", "Warsaw", .green)  // 3 slots
        state.setHand(0, payment.before)
        state.apply(RailAction.build(r, pay: Rail.green))
        #expect(Rail.handOf(state, 0) == payment.after)
        #expect(state.handSize(0) == payment.after.reduce(0, +))
    }

    @Test func canonicalPaymentOnAGreyRailroadUsesTheNamedColourThenRainbows() throws {
        let r = try Rail.railroad("Marseille", "Paris", .grey)  // 2 slots
        var state = try Rail.quietMatch()
        state.setHand(0, Rail.hand(blue: 2, black: 1, rainbow: 2))
        state.apply(RailAction.build(r, pay: Rail.black))
        #expect(Rail.handOf(state, 0) == Rail.hand(blue: 2, rainbow: 1))

        var rainbowsAlone = try Rail.quietMatch()
        rainbowsAlone.setHand(0, Rail.hand(blue: 2, black: 1, rainbow: 2))
        rainbowsAlone.apply(RailAction.build(r, pay: Rail.rainbow))
        #expect(Rail.handOf(rainbowsAlone, 0) == Rail.hand(blue: 2, black: 1))
    }

    @Test func buildingGivesTheRailroadToTheBuilder() throws {
        var state = try Rail.quietMatch()
        let r = try Rail.railroad("Paris", "Brussels", .black)
        state.setHand(0, Rail.hand(black: 1))
        state.apply(RailAction.build(r, pay: Rail.black))
        #expect(state.owner(of: r) == 0)
        #expect(state.railroadsOwned(0) == 1)
        #expect(state.joined(0, try Rail.city("Paris"), try Rail.city("Brussels")))
        #expect(state.currentSeat == 1)
    }

    @Test func spentCardsDiscardLeaveTheGame() throws {
        var state = try Rail.quietMatch(["spentCards": "discard"])
        state.setHand(0, Rail.hand(green: 2, rainbow: 2))
        let deck = state.deckCount
        state.apply(RailAction.build(try Rail.railroad("Berlin", "Warsaw", .green), pay: Rail.green))
        #expect((0..<6).map(state.discarded) == Rail.hand(green: 2, rainbow: 1))
        #expect(state.deckCount == deck)
        #expect(state.invariantViolation() == nil)
    }

    @Test func spentCardsRecycleReturnToTheDeck() throws {
        var state = try Rail.quietMatch()  // recycle is the default
        state.setHand(0, Rail.hand(green: 2, rainbow: 2))
        let deck = state.deckCount
        let before = (0..<6).map(state.deckCount(ofColour:))
        state.apply(RailAction.build(try Rail.railroad("Berlin", "Warsaw", .green), pay: Rail.green))
        #expect(state.deckCount == deck + 3)
        #expect((0..<6).map(state.deckCount(ofColour:)) == zip(before, Rail.hand(green: 2, rainbow: 1)).map(+))
        #expect((0..<6).map(state.discarded) == Rail.hand())
    }

    @Test func recycledCardsAreShuffledIntoTheDeckNotLaidOnTop() throws {
        // Spend 6 rainbows into a deck holding none: if they went on top, the top six
        // cards would always be rainbows. Count how often they are, over many deals.
        var onTop = 0
        let trials = 200
        for seed in 0..<trials {
            var state = try Rail.quietMatch(seed: UInt64(seed))
            state.setHand(0, Rail.hand(rainbow: 6))
            state.discardDeck(keeping: 40)  // what stays may hold rainbows; move the rest away
            let rainbowsLeft = state.deckCount(ofColour: Rail.rainbow)
            state.apply(RailAction.build(try Rail.railroad("Berlin", "Warsaw", .green), pay: Rail.green))
            #expect(state.deckCount(ofColour: Rail.rainbow) == rainbowsLeft + 3)
            if state.deckOrder.suffix(3).allSatisfy({ $0 == Rail.rainbow }) { onTop += 1 }
        }
        // Uniform insertion puts all three on top with probability about (3/43)^3.
        #expect(onTop < 5)
    }

    @Test("railroads(ownedBy:) is the set of railroads owner(of:) gives the seat, at every turn of random matches", arguments: [2, 4])
    func ownedSets(seats: Int) throws {
        let game = try Rail.game(seats: seats)
        var buffer = ActionBuffer()
        var owned = 0
        for seed in 0..<3 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: 70 + seed)
            while !state.isTerminal {
                for seat in 0..<seats {
                    var expected: UInt128 = 0
                    for r in 0..<state.map.railroads.count where state.owner(of: r) == seat { expected |= UInt128(1) << UInt128(r) }
                    #expect(state.railroads(ownedBy: seat) == expected, "seed \(seed), turn \(state.turn), seat \(seat)")
                    owned += expected.nonzeroBitCount
                }
                state.legalActions(into: &buffer)
                state.apply(buffer[rng.uniform(buffer.count)])
            }
        }
        try #require(owned > 1000, "only \(owned) owned railroads seen")
    }
}
