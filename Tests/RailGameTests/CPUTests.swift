import Foundation
import LabCore
import Testing
import RailGame

/// The documented CPU (rule book, "The documented CPU heuristic") and the shipped one.
@Suite("CPU players")
struct CPUTests {
    /// Mover states from random play, each altered by `prepare` and kept if `keep`
    /// accepts its legal actions: varied boards and hands for the CPUs to decide in.
    static func decisionStates(_ count: Int, seats: Int = 3, prepare: (inout RailState) -> Void,
                               keep: ([Int]) -> Bool) throws -> [RailState] {
        let game = try Rail.game(seats: seats)
        var states: [RailState] = []
        var buffer = ActionBuffer()
        var seed: UInt64 = 0
        while states.count < count {
            var rng = LabRandom(seed: Seeds.derive(99, seed))
            var state = game.newMatch(seed: seed)
            seed += 1
            while !state.isTerminal && states.count < count {
                if state.turn % 4 == 0 {
                    var candidate = state
                    prepare(&candidate)
                    if !candidate.isTerminal, keep(Rail.legal(candidate)) { states.append(candidate) }
                }
                state.legalActions(into: &buffer)
                state.apply(buffer[rng.uniform(buffer.count)])
            }
        }
        return states
    }

    /// `decisions` choices of `strategy` cycling through `states`.
    static func choices(_ strategy: some Strategy<RailGame>, _ states: [RailState], decisions: Int) -> [(state: Int, action: Int)] {
        var buffer = ActionBuffer()
        return (0..<decisions).map { i in
            let state = states[i % states.count]
            state.legalActions(into: &buffer)
            return (i % states.count, strategy.chooseAction(state.observation(for: state.currentSeat), legal: buffer))
        }
    }

    /// Whether `count` successes in `n` trials is within 4.5 standard deviations of `p`.
    static func withinBinomialBound(_ count: Int, of n: Int, p: Double) -> Bool {
        abs(Double(count) - Double(n) * p) <= 4.5 * (Double(n) * p * (1 - p)).squareRoot()
    }

    static func hasBuild(_ legal: [Int]) -> Bool { legal.contains(where: RailAction.isBuild) }

    // MARK: Both CPUs

    @Test("a CPU handed no list chooses what it chooses from the list, from the same stream (the play loop lists none for it)",
          arguments: ["heuristic", "shipped-cpu"])
    func chooseAlikeWithoutTheList(kind: String) throws {
        let states = try Self.decisionStates(400, prepare: { _ in }, keep: { _ in true })
        func make() -> any Strategy<RailGame> { kind == "heuristic" ? RailHeuristicCPU(seed: 21) : RailShippedCPU(seed: 21) }
        let listed = make(), unlisted = make()
        #expect(!listed.readsLegalActions)
        var buffer = ActionBuffer()
        let empty = ActionBuffer()
        var builds = 0
        for i in 0..<(3 * states.count) {
            let state = states[i % states.count]
            state.legalActions(into: &buffer)
            let observation = state.observation(for: state.currentSeat)
            let fromList = listed.chooseAction(observation, legal: buffer)
            let alone = unlisted.chooseAction(observation, legal: empty)
            try #require(fromList == alone, "decision \(i): \(fromList) from the list, \(alone) without it")
            #expect(buffer.contains(fromList))
            if RailAction.isBuild(fromList) { builds += 1 }
        }
        #expect(builds > 100, "\(builds) builds")
    }

    /// Forwards to a CPU, reading the list: the play loop lists the legal actions for it.
    final class Listing: Strategy {
        typealias G = RailGame
        let inner: any Strategy<RailGame>
        init(_ inner: any Strategy<RailGame>) { self.inner = inner }
        func chooseAction(_ observation: RailObservation, legal: ActionBuffer) -> Int { inner.chooseAction(observation, legal: legal) }
    }

    @Test("the play loop's matches of the CPUs, for which it lists no legal actions, are those it plays listing them",
          arguments: [2, 4])
    func loopPlaysAlikeWithoutLists(seats: Int) throws {
        let game = try Rail.game(seats: seats)
        var buffer = ActionBuffer()
        for seed in 0..<20 as Range<UInt64> {
            func cpus() -> [any Strategy<RailGame>] {
                (0..<seats).map { s in
                    let stream = seed &* 10 &+ UInt64(s)
                    return s % 2 == 0 ? RailHeuristicCPU(seed: stream) : RailShippedCPU(seed: stream)
                }
            }
            var direct: [Int] = [], listed: [Int] = []
            let a = Match.play(game, seed: seed, strategies: cpus(), buffer: &buffer) { _, action, _ in direct.append(action) }
            let b = Match.play(game, seed: seed, strategies: cpus().map { Listing($0) }, buffer: &buffer) { _, action, _ in
                listed.append(action)
            }
            #expect(direct == listed, "seed \(seed)")
            #expect(a.outcome == b.outcome && direct.count > 50)
        }
    }

    // MARK: Documented CPU

    @Test func heuristicMissionProbabilityDefaultsToSevenTenths() {
        #expect(RailHeuristicCPU.defaultMissionProbability == 0.7)
        #expect(RailHeuristicCPU(seed: 1).missionProbability == 0.7)
    }

    @Test("the heuristic draws a mission with probability missionProbability when it may", arguments: [nil, 0.3] as [Double?])
    func heuristicDrawsAMissionWithItsProbability(probability: Double?) throws {
        let states = try Self.decisionStates(200, prepare: { $0.clearMissions($0.currentSeat) },
                                             keep: { $0.contains(RailAction.drawMission) && $0.count > 1 })
        let cpu = probability.map { RailHeuristicCPU(seed: 5, missionProbability: $0) } ?? RailHeuristicCPU(seed: 5)
        let picks = Self.choices(cpu, states, decisions: 20_000)
        let missions = picks.count(where: { $0.action == RailAction.drawMission })
        #expect(Self.withinBinomialBound(missions, of: picks.count, p: probability ?? 0.7),
                "\(missions) mission draws in \(picks.count) decisions")
    }

    @Test func heuristicFallsThroughToABuildWhenABuildIsPossible() throws {
        let states = try Self.decisionStates(100, prepare: {
            $0.clearMissions($0.currentSeat)
            $0.setHand($0.currentSeat, Rail.hand(red: 2, blue: 1, rainbow: 1))
        }, keep: { $0.contains(RailAction.drawMission) && Self.hasBuild($0) })
        let picks = Self.choices(RailHeuristicCPU(seed: 6), states, decisions: 5_000)
        let builds = picks.count(where: { RailAction.isBuild($0.action) })
        #expect(picks.allSatisfy { $0.action == RailAction.drawMission || RailAction.isBuild($0.action) })
        #expect(Self.withinBinomialBound(builds, of: picks.count, p: 0.3), "\(builds) builds in \(picks.count)")
    }

    @Test func heuristicFallsThroughToDrawingACardWhenNothingCanBeBuilt() throws {
        let states = try Self.decisionStates(100, prepare: {
            $0.clearMissions($0.currentSeat)
            $0.setHand($0.currentSeat, Rail.hand())
        }, keep: { $0.contains(RailAction.drawMission) && $0.contains(RailAction.drawCard) })
        let picks = Self.choices(RailHeuristicCPU(seed: 7), states, decisions: 5_000)
        let cards = picks.count(where: { $0.action == RailAction.drawCard })
        #expect(picks.allSatisfy { $0.action == RailAction.drawMission || $0.action == RailAction.drawCard })
        #expect(Self.withinBinomialBound(cards, of: picks.count, p: 0.3), "\(cards) card draws in \(picks.count)")
    }

    @Test func heuristicDrawsACardWhenItCannotDrawAMissionOrBuild() throws {
        let states = try Self.decisionStates(50, prepare: { $0.setHand($0.currentSeat, Rail.hand()) },
                                             keep: { !$0.contains(RailAction.drawMission) && $0.contains(RailAction.drawCard) })
        let picks = Self.choices(RailHeuristicCPU(seed: 8), states, decisions: 500)
        #expect(picks.allSatisfy { $0.action == RailAction.drawCard })
    }

    /// Seat 0 of a fresh match (two missions held, so no mission draw) with `hand`.
    static func buildPosition(_ hand: [Int]) throws -> RailState {
        var state = try Rail.game().newMatch(seed: 21)
        state.setHand(0, hand)
        return state
    }

    @Test func heuristicBuildsUniformlyAmongBuildableRailroadsNotBuildActions() throws {
        let state = try Self.buildPosition(Rail.hand(red: 2, blue: 2, rainbow: 2))
        let legal = Rail.legal(state)
        let buildable = Set(legal.filter(RailAction.isBuild).map(RailAction.railroad(of:)))
        let grey = buildable.filter { state.map.railroads[$0].colour == .grey }
        // The test means something only if grey railroads have more than one build action.
        #expect(grey.contains { r in legal.count(where: { RailAction.isBuild($0) && RailAction.railroad(of: $0) == r }) > 1 })

        let n = 20_000
        let picks = Self.choices(RailHeuristicCPU(seed: 9), [state], decisions: n)
        #expect(picks.allSatisfy { legal.contains($0.action) })
        var counts: [Int: Int] = [:]
        for pick in picks { counts[RailAction.railroad(of: pick.action), default: 0] += 1 }
        #expect(Set(counts.keys) == buildable)

        // Chi-square against uniform over railroads, bound at 4.5 standard deviations.
        let expected = Double(n) / Double(buildable.count)
        let chiSquare = buildable.map { r in pow(Double(counts[r, default: 0]) - expected, 2) / expected }.reduce(0, +)
        let dof = Double(buildable.count - 1)
        #expect(chiSquare <= dof + 4.5 * (2 * dof).squareRoot(), "chi-square \(chiSquare) over \(buildable.count) railroads")
        // Grey railroads together get their share of railroads, not of actions.
        let greyPicks = grey.map { counts[$0, default: 0] }.reduce(0, +)
        #expect(Self.withinBinomialBound(greyPicks, of: n, p: Double(grey.count) / Double(buildable.count)),
                "\(greyPicks) grey picks for \(grey.count) of \(buildable.count) railroads")
    }

    struct GreyPayment: Sendable, CustomTestStringConvertible {
        var hand: [Int]
        var pays: Int
        var testDescription: String { "\(hand) pays \(RailColour.cardNames[pays])" }
    }

    @Test("the heuristic pays a grey railroad with the colour it holds most", arguments: [
        GreyPayment(hand: Rail.hand(red: 2, blue: 3, rainbow: 1), pays: Rail.blue),
        GreyPayment(hand: Rail.hand(red: 3, black: 1, rainbow: 2), pays: Rail.red),
        GreyPayment(hand: Rail.hand(yellow: 1, green: 2), pays: Rail.green),
        GreyPayment(hand: Rail.hand(rainbow: 3), pays: Rail.rainbow),
    ])
    func heuristicPaysGreyWithTheColourHeldMost(payment: GreyPayment) throws {
        let state = try Self.buildPosition(payment.hand)
        let picks = Self.choices(RailHeuristicCPU(seed: 10), [state], decisions: 2_000)
        let greyPays = picks.filter { state.map.railroads[RailAction.railroad(of: $0.action)].colour == .grey }
            .map { RailAction.payColour(of: $0.action) }
        #expect(!greyPays.isEmpty)
        #expect(greyPays.allSatisfy { $0 == payment.pays })
    }

    @Test func heuristicPassesOnlyWhenNothingElseIsLegal() throws {
        var state = try Rail.quietMatch()
        state.clearMissionDeck()
        state.setHand(0, Rail.hand(red: 6))
        for (r, rr) in state.map.railroads.enumerated() where rr.colour == .red || rr.colour == .grey { state.give(r, to: 1) }
        #expect(Self.choices(RailHeuristicCPU(seed: 11), [state], decisions: 10).allSatisfy { $0.action == RailAction.pass })
    }

    // MARK: Shipped CPU

    @Test func shippedCPUBuildsWheneverItCan() throws {
        let states = try Self.decisionStates(100, prepare: {
            $0.clearMissions($0.currentSeat)
            $0.setHand($0.currentSeat, Rail.hand(red: 2, blue: 1, rainbow: 1))
        }, keep: { $0.contains(RailAction.drawMission) && Self.hasBuild($0) })
        let picks = Self.choices(RailShippedCPU(seed: 12), states, decisions: 1_000)
        #expect(picks.allSatisfy { RailAction.isBuild($0.action) })
    }

    @Test func shippedCPUDrawsAMissionWhenItCannotBuild() throws {
        let states = try Self.decisionStates(100, prepare: {
            $0.clearMissions($0.currentSeat)
            $0.setHand($0.currentSeat, Rail.hand())
        }, keep: { $0.contains(RailAction.drawMission) && $0.contains(RailAction.drawCard) })
        let picks = Self.choices(RailShippedCPU(seed: 13), states, decisions: 500)
        #expect(picks.allSatisfy { $0.action == RailAction.drawMission })
    }

    @Test func shippedCPUDrawsACardWhenItCannotBuildOrDrawAMission() throws {
        let states = try Self.decisionStates(50, prepare: { $0.setHand($0.currentSeat, Rail.hand()) },
                                             keep: { !$0.contains(RailAction.drawMission) && $0.contains(RailAction.drawCard) })
        let picks = Self.choices(RailShippedCPU(seed: 14), states, decisions: 500)
        #expect(picks.allSatisfy { $0.action == RailAction.drawCard })
    }

    @Test func shippedCPUBuildsUniformlyAmongBuildableRailroads() throws {
        let state = try Self.buildPosition(Rail.hand(red: 2, blue: 2, rainbow: 2))
        let buildable = Set(Rail.legal(state).filter(RailAction.isBuild).map(RailAction.railroad(of:)))
        let grey = buildable.filter { state.map.railroads[$0].colour == .grey }
        let n = 10_000
        let picks = Self.choices(RailShippedCPU(seed: 15), [state], decisions: n)
        let greyPicks = picks.count(where: { grey.contains(RailAction.railroad(of: $0.action)) })
        #expect(Self.withinBinomialBound(greyPicks, of: n, p: Double(grey.count) / Double(buildable.count)))
    }
}
