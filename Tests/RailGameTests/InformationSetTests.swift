import LabCore
import Testing
import RailGame

/// Rule book, "What players see": an observation holds the public table and the seat's
/// own hand and missions; sampling redeals everything else.
@Suite("Information sets")
struct InformationSetTests {
    /// A mid-game state: 40 turns of a 3-seat match of random players (railroads owned,
    /// cards spent), then hands of several colours dealt to every seat from the deck.
    static func midGame(_ settings: [String: String] = [:]) throws -> RailState {
        var state = try Rail.game(seats: 3, settings).newMatch(seed: 31)
        var rng = LabRandom(seed: 32)
        for _ in 0..<40 {
            let legal = Rail.legal(state)
            state.apply(legal[rng.uniform(legal.count)])
        }
        #expect(!state.isTerminal)
        state.setHand(0, Rail.hand(red: 2, blue: 1))
        state.setHand(1, Rail.hand(green: 2, black: 1, rainbow: 1))
        state.setHand(2, Rail.hand(red: 1, yellow: 3))
        #expect(state.invariantViolation() == nil)
        return state
    }

    @Test func observationsShowOnlyTheSeatsOwnHand() throws {
        var state = try Rail.quietMatch()
        state.setHand(1, Rail.hand(red: 2))
        let before = state.observation(for: 0)
        state.setHand(1, Rail.hand(blue: 2))  // same size, different cards
        #expect(state.observation(for: 0) == before)
        #expect(state.observation(for: 1) != before)
    }

    @Test func sampledStatesGiveTheObserverItsObservationAndKeepItsHandAndMissions() throws {
        let truth = try Self.midGame()
        var rng = LabRandom(seed: 4)
        for seat in 0..<3 {
            let view = truth.observation(for: seat)
            for _ in 0..<20 {
                let sample = view.sampleState(using: &rng)
                #expect(sample.observation(for: seat) == view)
                #expect(sample.invariantViolation() == nil)
                #expect(Rail.handOf(sample, seat) == Rail.handOf(truth, seat))
                #expect(sample.heldMissions(seat).map(\.mission) == truth.heldMissions(seat).map(\.mission))
                #expect((0..<3).map(sample.handSize) == (0..<3).map(truth.handSize))
            }
        }
    }

    @Test func sampledStatesVaryOtherHandsTheirMissionsAndTheDeckOrder() throws {
        let truth = try Self.midGame()
        #expect(truth.handSize(1) > 0 && truth.handSize(2) > 0)
        var rng = LabRandom(seed: 5)
        let view = truth.observation(for: 0)
        let samples = (0..<20).map { _ in view.sampleState(using: &rng) }
        #expect(Set(samples.map { Rail.handOf($0, 1) + Rail.handOf($0, 2) }).count > 1)
        #expect(Set(samples.map(\.deckOrder)).count > 1)
        #expect(Set(samples.map { $0.heldMissions(1).map { "\($0.mission)" } }).count > 1)
    }

    @Test func sampledHiddenCardsAreExactlyTheCardsTheObserverCannotSee() throws {
        let truth = try Self.midGame(["spentCards": "discard"])
        #expect((0..<6).map(truth.discarded).reduce(0, +) > 0)
        var rng = LabRandom(seed: 6)
        let sample = truth.observation(for: 2).sampleState(using: &rng)
        for c in 0..<6 {
            let hidden = { (s: RailState) in s.deckCount(ofColour: c) + s.cards(0, c) + s.cards(1, c) }
            #expect(hidden(sample) == hidden(truth), "\(RailColour.cardNames[c])")
        }
    }

    @Test func theMoversSampledStatesHaveTheTrueLegalActions() throws {
        let truth = try Self.midGame()
        var rng = LabRandom(seed: 7)
        let view = truth.observation(for: truth.currentSeat)
        #expect(Rail.legal(truth).contains(where: RailAction.isBuild))
        for _ in 0..<20 {
            #expect(Rail.legal(view.sampleState(using: &rng)) == Rail.legal(truth))
        }
    }
}
