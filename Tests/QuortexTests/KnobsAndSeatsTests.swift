import LabCore
import Quortex
import Testing

/// Rule book knobs as `KEY=VALUE` settings, and the seat range.
@Suite("Knobs and seats")
struct KnobsAndSeatsTests {
    @Test func ruleSettingsSetEveryKnob() throws {
        let rules = try QuortexRules(settings: [(key: "radius", value: "4"), (key: "bag", value: "1, 0,12,60"), (key: "edges", value: "3,0")])
        #expect(rules.radius == 4)
        #expect(rules.bag == [1, 0, 12, 60])
        #expect(rules.edges == [3, 0])
    }

    @Test func defaultRulesAreRadiusThreeTenOfEachTileAndTheDefaultLayouts() {
        let rules = QuortexRules()
        #expect(rules.radius == 3)
        #expect(rules.bag == [10, 10, 10, 10])
        #expect(rules.edges == nil)
    }

    @Test func unknownRuleKnobIsRefusedListingTheKnobsThatExist() throws {
        let error = #expect(throws: InputError.self) {
            try QuortexRules(settings: [(key: "teams", value: "shared")])
        }
        let message = try #require(error?.message)
        #expect(message.contains("'teams'"))
        for knob in QuortexRules.knobs { #expect(message.contains(knob.name), "lists \(knob.name)") }
    }

    struct BadValue: Sendable, CustomTestStringConvertible {
        var knob: String
        var value: String
        var accepted: String
        var testDescription: String { "\(knob)=\(value)" }
    }

    @Test("a bad knob value is refused naming the knob and what is accepted", arguments: [
        BadValue(knob: "radius", value: "0", accepted: "1...6"),
        BadValue(knob: "radius", value: "7", accepted: "1...6"),
        BadValue(knob: "radius", value: "three", accepted: "1...6"),
        BadValue(knob: "bag", value: "10,10,10", accepted: "four counts 0...60"),
        BadValue(knob: "bag", value: "10,10,10,10,10", accepted: "four counts 0...60"),
        BadValue(knob: "bag", value: "61,0,0,0", accepted: "four counts 0...60"),
        BadValue(knob: "bag", value: "-1,5,5,5", accepted: "four counts 0...60"),
        BadValue(knob: "bag", value: "a,5,5,5", accepted: "four counts 0...60"),
        BadValue(knob: "bag", value: "0,0,0,0", accepted: "at least one tile"),
        BadValue(knob: "edges", value: "0,0", accepted: "its own edge"),
        BadValue(knob: "edges", value: "0,6", accepted: "0...5"),
        BadValue(knob: "edges", value: "-1,2", accepted: "0...5"),
        BadValue(knob: "edges", value: "north,south", accepted: "0...5"),
    ])
    func badKnobValueIsRefused(bad: BadValue) throws {
        let error = #expect(throws: InputError.self) {
            try QuortexRules(settings: [(key: bad.knob, value: bad.value)])
        }
        let message = try #require(error?.message)
        #expect(message.contains("\(bad.knob)=\(bad.value)"))
        #expect(message.contains(bad.accepted))
    }

    @Test("quortex refuses a table of 1 or 7 seats", arguments: [1, 7])
    func quortexRefusesSeatCount(seats: Int) throws {
        let error = #expect(throws: InputError.self) { try QuortexGame(seatCount: seats) }
        #expect(error?.message.contains("2 to 6 seats") == true)
        #expect(error?.message.contains("\(seats)") == true)
    }

    @Test func edgesMustNameOneEdgePerSeat() throws {
        var rules = QuortexRules()
        rules.edges = [0, 3]
        let error = #expect(throws: InputError.self) { try QuortexGame(rules: rules, seatCount: 3) }
        let message = try #require(error?.message)
        #expect(message.contains("edges=0,3"))
        #expect(message.contains("2 edges for 3 seats"))
    }

    @Test func explicitOppositeSoloEdgesAreAllowedAndReported() throws {
        #expect(try Q.game(edges: [0, 3]).setup.opposedSoloSeats.map { [$0.0, $0.1] } == [[0, 1]])
        #expect(try Q.game(edges: [1, 2, 4]).setup.opposedSoloSeats.map { [$0.0, $0.1] } == [[0, 2]])
        #expect(try Q.game(edges: [0, 2]).setup.opposedSoloSeats.isEmpty)
    }

    @Test func partnersOnOppositeEdgesAreATeamNotAnOpposedPair() throws {
        let setup = try Q.game(edges: [0, 1, 3, 4]).setup
        #expect(setup.opposedSoloSeats.isEmpty)
        #expect(setup.sideOfSeat == [0, 1, 0, 1])
    }

    @Test("the radius knob sets the board's cells and ports per edge", arguments: 1...QuortexBoard.maxRadius)
    func radiusKnobSetsTheBoard(radius: Int) throws {
        let game = try Q.game(seats: 2, ["radius": "\(radius)"])
        #expect(game.setup.board.cells.count == 1 + 3 * radius * (radius + 1))
        #expect(game.setup.board.ports(of: 0).count == 2 * radius + 1)
        #expect(game.newMatch(seed: 1).actionSpaceSize == game.setup.board.cells.count * 6)
    }

    @Test("the default bag is ceil(cells / 4) of each type: the board's cells or more", arguments: 1...QuortexBoard.maxRadius)
    func defaultBagCoversTheBoard(radius: Int) throws {
        let rules = try QuortexRules(settings: [(key: "radius", value: "\(radius)")])
        let cells = QuortexBoard(radius: radius).cells.count
        let each = (cells + 3) / 4
        #expect(rules.bag == [each, each, each, each])
        #expect(rules.bag.reduce(0, +) >= cells)
        #expect(rules.warnings.isEmpty)
        let state = try Q.game(seats: 2, ["radius": "\(radius)"]).newMatch(seed: 1)
        #expect(state.tilesInBag + 1 == 4 * each, "the match is dealt the default bag")
    }

    @Test func theDefaultBagIsTenOfEachAtRadiusThreeAndSixteenAtFour() throws {
        #expect(QuortexRules().bag == [10, 10, 10, 10])
        #expect(try QuortexRules(settings: [(key: "radius", value: "4")]).bag == [16, 16, 16, 16])
        #expect(try QuortexRules(settings: [(key: "radius", value: "2")]).bag == [5, 5, 5, 5])
    }

    @Test func aSetBagIsKeptWhateverTheRadiusAndWhicheverComesFirst() throws {
        let bagFirst = try QuortexRules(settings: [(key: "bag", value: "10,10,10,10"), (key: "radius", value: "4")])
        let radiusFirst = try QuortexRules(settings: [(key: "radius", value: "4"), (key: "bag", value: "10,10,10,10")])
        #expect(bagFirst.bag == [10, 10, 10, 10])
        #expect(bagFirst == radiusFirst)
        #expect(bagFirst != (try QuortexRules(settings: [(key: "radius", value: "4")])))
        #expect(QuortexRules() == (try QuortexRules(settings: [(key: "bag", value: "10,10,10,10")])), "the same game")
    }

    @Test func aBagSmallerThanTheBoardIsWarnedAbout() throws {
        let rules = try QuortexRules(settings: [(key: "radius", value: "4"), (key: "bag", value: "10,10,10,10")])
        let warning = try #require(rules.warnings.first)
        #expect(rules.warnings.count == 1)
        for part in ["bag=10,10,10,10", "40 tiles", "61 cells", "radius-4", "16,16,16,16"] { #expect(warning.contains(part), "names \(part)") }
        #expect(try QuortexRules(settings: [(key: "bag", value: "9,9,9,9")]).warnings.count == 1, "36 tiles for 37 cells")
    }

    @Test("a bag that covers the board is not warned about", arguments: [
        ["radius": "3", "bag": "10,10,10,10"], ["radius": "3", "bag": "37,0,0,0"], ["radius": "4", "bag": "16,16,16,16"],
        ["radius": "4", "bag": "0,0,30,31"], ["radius": "1", "bag": "2,2,2,1"], ["radius": "4"], [:],
    ])
    func anAdequateBagIsNotWarnedAbout(settings: [String: String]) throws {
        let rules = try QuortexRules(settings: settings.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) })
        #expect(rules.warnings.isEmpty)
    }

    /// At radius 4 the rule book's 40 tiles ran out before the 61 cells filled, and every
    /// random game ended with a constraint win for the seat that drew from the empty bag.
    @Test func randomGamesAtRadiusFourWithTheDefaultBagDoNotRunOutOfTiles() throws {
        let game = try Q.game(seats: 2, ["radius": "4"])
        var emptyBag = 0
        for seed in 0..<12 as Range<UInt64> {
            var state = game.newMatch(seed: seed)
            var rng = LabRandom(seed: Seeds.derive(seed, 8))
            Q.playOut(&state, &rng)
            if state.endReason == .constraint && state.drawnTile == nil { emptyBag += 1 }
        }
        #expect(emptyBag == 0, "games that ended on an empty bag")
        // The set bag is still honoured (and can run out, as the warning says).
        let small = try Q.game(seats: 2, ["radius": "4", "bag": "10,10,10,10"])
        var smallEmpty = 0
        for seed in 0..<4 as Range<UInt64> {
            var state = small.newMatch(seed: seed)
            var rng = LabRandom(seed: Seeds.derive(seed, 8))
            Q.playOut(&state, &rng)
            if state.endReason == .constraint && state.drawnTile == nil { smallEmpty += 1 }
        }
        #expect(smallEmpty > 0)
    }

    @Test func bagKnobSetsTheMixDealt() throws {
        let state = try Q.game(seats: 2, ["bag": "0,3,0,2"]).newMatch(seed: 4)
        let drawn = try #require(state.drawnTile)
        #expect([1, 3].contains(drawn))
        #expect(state.tilesInBag == 4)
        let view = state.observation(for: 0)
        #expect((0..<4).map { view.remaining($0) + (drawn == $0 ? 1 : 0) } == [0, 3, 0, 2])
    }

    // MARK: Default layouts (rule book, "Seats, edges and teams")

    struct Layout: Sendable, CustomTestStringConvertible {
        var seats: Int
        var edges: [Int]
        var sides: [Int]
        var axes: [Int]
        var turnOrder: [Int]
        var testDescription: String { "\(seats) seats" }
    }

    static let layouts = [
        Layout(seats: 2, edges: [0, 2], sides: [0, 1], axes: [0, 2], turnOrder: [0, 1]),
        Layout(seats: 3, edges: [0, 2, 4], sides: [0, 1, 2], axes: [0, 2, 1], turnOrder: [0, 1, 2]),
        Layout(seats: 4, edges: [0, 1, 3, 4], sides: [0, 1, 0, 1], axes: [0, 1], turnOrder: [0, 1, 2, 3]),
        Layout(seats: 5, edges: [0, 1, 2, 3, 4], sides: [0, 1, 2, 0, 1], axes: [0, 1, 2], turnOrder: [0, 1, 2, 3, 4, 2]),
        Layout(seats: 6, edges: [0, 1, 2, 3, 4, 5], sides: [0, 1, 2, 0, 1, 2], axes: [0, 1, 2], turnOrder: [0, 1, 2, 3, 4, 5]),
    ]

    @Test("each seat count has the rule book's default layout, teams and turn order", arguments: layouts)
    func defaultLayout(layout: Layout) throws {
        let game = try Q.game(seats: layout.seats)
        #expect(game.setup.edges == layout.edges)
        #expect(game.setup.sideOfSeat == layout.sides)
        #expect(game.teams == layout.sides)
        #expect(game.setup.sideAxis == layout.axes)
        #expect(game.setup.turnOrder == layout.turnOrder)
        #expect(game.setup.opposedSoloSeats.isEmpty, "defaults never seat opposed solo players")
    }

    @Test func theFivePlayerSoloSeatJoinsEdgeTwoToEdgeFiveAndMovesTwiceARound() throws {
        let setup = try Q.game(seats: 5).setup
        #expect(setup.seats(ofSide: setup.sideOfSeat[2]) == [2])
        #expect(setup.sideAxis[setup.sideOfSeat[2]] == 5 % 3)
        #expect(setup.turnOrder.count(where: { $0 == 2 }) == 2)
    }

    @Test func playGoesClockwiseByEdgeFromSeatZero() throws {
        #expect(try Q.game(edges: [3, 0]).setup.turnOrder == [0, 1])
        #expect(try Q.game(edges: [4, 2, 0]).setup.turnOrder == [0, 2, 1])
    }
}
