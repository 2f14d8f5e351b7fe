import LabCore
import Quortex
import RailGame
import Synchronization
import Testing
@testable import Search

/// A Quortex match of radius `radius` on edges `edges` (seat order) with the column
/// (r, 0), r = -R...R-1, channelled from edge 0 towards edge 3 by two-sharps tiles at
/// rotation 5, and a two-sharps tile drawn: placing it at rotation 5 on (R, 0)
/// completes the flow.
private func columnPosition(edges: String, radius: Int = 3) throws -> (QuortexGame, QuortexState) {
    let rules = try QuortexRules(settings: [(key: "edges", value: edges), (key: "radius", value: String(radius))])
    let game = try QuortexGame(rules: rules, seatCount: edges.split(separator: ",").count)
    var state = game.newMatch(seed: 11)
    for row in -radius..<radius { state.place(row: row, col: 0, type: 2, rotation: 5) }
    state.setDrawnTile(2)
    return (game, state)
}

/// A fake ``SearchClock`` for budget tests: each reading returns the time, then moves it
/// on by `step` nanoseconds; it counts its readings.
private final class FakeClock: Sendable {
    private let state = Mutex<(now: UInt64, readings: Int)>((now: 7_000_000_000, readings: 0))
    private let step: UInt64

    init(step: UInt64) { self.step = step }

    var clock: SearchClock {
        SearchClock { [self] in
            state.withLock { s in
                defer { s.now += step }
                s.readings += 1
                return s.now
            }
        }
    }

    var readings: Int { state.withLock { $0.readings } }
}

@Suite("Monte Carlo tree search")
struct MCTSTests {
    @Test("MCTS finds a one-move Quortex win with a modest budget, from the observation alone",
          arguments: [(radius: 2, iterations: 1_500, seed: UInt64(7)), (radius: 2, iterations: 1_500, seed: 8), (radius: 3, iterations: 3_000, seed: 7)])
    func findsTheWinningPlacement(_ radius: Int, _ iterations: Int, _ seed: UInt64) throws {
        let (game, state) = try columnPosition(edges: "0,1", radius: radius)
        #expect(state.currentSeat == 0)
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        let winning = state.action(row: radius, col: 0, rotation: 5)
        #expect(legal.contains(winning))
        #expect(legal.count > 30, "the win must be one of many placements")
        // The rollouts model the opponent by the reference AI, which never completes
        // the other side's flow: a move that does not win now leaves the race open.
        let reference: StrategyFactory<QuortexGame> = { _ in QuortexReferenceAI() }
        let search = MCTS(StrategyContext(game: game, seat: 0, seed: seed), settings: MCTSSettings(iterations: iterations), rollout: reference)
        #expect(search.chooseAction(state.observation(for: 0), legal: legal) == winning)
        #expect(search.rootMeans[winning] == 1, "every visit of the winning placement is a win")
    }

    @Test("millis=N is the budget instead of iterations: the search stops after the first iteration that ends with it spent",
          arguments: [(step: 1_000_000, iterations: 1, expected: 50), (step: 1_000_000, iterations: 10_000, expected: 50),
                      (step: 500_000, iterations: 1, expected: 100), (step: 7_000_000, iterations: 1, expected: 8),
                      (step: 50_000_000, iterations: 1, expected: 1), (step: 49_999_999, iterations: 1, expected: 2),
                      (step: 200_000_000, iterations: 800, expected: 1)])
    func timeBudget(_ step: UInt64, _ iterations: Int, _ expected: Int) throws {
        let (game, state) = try columnPosition(edges: "0,1")
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        // The fake clock moves `step` ns per reading: read once at the start and once after
        // each iteration, it stands at k steps after iteration k. 50 ms are spent after
        // ceil(50 ms / step) iterations, and at least one runs.
        let time = FakeClock(step: step)
        let search = MCTS(StrategyContext(game: game, seat: 0, seed: 3), settings: MCTSSettings(iterations: iterations, millis: 50),
                          clock: time.clock)
        _ = search.chooseAction(state.observation(for: 0), legal: legal)
        #expect(search.rootVisits.values.reduce(0, +) == expected, "every iteration passes through one root child")
        #expect(time.readings == expected + 1)
        // A second search starts its budget afresh.
        _ = search.chooseAction(state.observation(for: 0), legal: legal)
        #expect(search.rootVisits.values.reduce(0, +) == expected)
        #expect(time.readings == 2 * (expected + 1))
    }

    @Test("An iterations budget (millis=0) never reads the clock; mcts-perfect reads the clock it is given")
    func iterationsBudgetIgnoresTheClock() throws {
        let (game, state) = try columnPosition(edges: "0,1")
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        let unused = FakeClock(step: 1_000_000)
        let search = MCTS(StrategyContext(game: game, seat: 0, seed: 3), settings: MCTSSettings(iterations: 120), clock: unused.clock)
        _ = search.chooseAction(state.observation(for: 0), legal: legal)
        #expect(search.rootVisits.values.reduce(0, +) == 120)
        #expect(unused.readings == 0)
        let time = FakeClock(step: 2_000_000)
        let perfect = PerfectInformationMCTS(StrategyContext(game: game, seat: 0, seed: 3), settings: MCTSSettings(millis: 30),
                                             clock: time.clock)
        _ = perfect.chooseAction(state: state, legal: legal)
        #expect(perfect.search.rootVisits.values.reduce(0, +) == 15)
        #expect(time.readings == 16)
    }

    @Test("A single legal action is played without searching or reading the clock")
    func singleLegalAction() throws {
        let (game, state) = try columnPosition(edges: "0,1")
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        var one = ActionBuffer()
        one.append(legal[3])
        let time = FakeClock(step: 1_000_000)
        let search = MCTS(StrategyContext(game: game, seat: 0, seed: 3), settings: MCTSSettings(millis: 50), clock: time.clock)
        #expect(search.chooseAction(state.observation(for: 0), legal: one) == legal[3])
        #expect(time.readings == 0)
    }

    @Test("Same seed, same move and same tree; another seed searches differently")
    func deterministic() throws {
        let (game, state) = try columnPosition(edges: "0,1")
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        let a = MCTS(StrategyContext(game: game, seat: 0, seed: 3), settings: MCTSSettings(iterations: 200))
        let b = MCTS(StrategyContext(game: game, seat: 0, seed: 3), settings: MCTSSettings(iterations: 200))
        let c = MCTS(StrategyContext(game: game, seat: 0, seed: 4), settings: MCTSSettings(iterations: 200))
        let observation = state.observation(for: 0)
        #expect(a.chooseAction(observation, legal: legal) == b.chooseAction(observation, legal: legal))
        _ = c.chooseAction(observation, legal: legal)
        #expect(a.rootVisits == b.rootVisits)
        #expect(a.rootVisits != c.rootVisits)
        #expect(a.rootVisits.values.reduce(0, +) == 200, "every iteration passes through one root child")
    }

    @Test("Rewards: a sole win is 1, a tie splits, a team's win goes to both partners")
    func rewardVectors() throws {
        // Edges 0 and 1: the edge-0 player's flow.
        var (_, solo) = try columnPosition(edges: "0,1")
        solo.apply(solo.action(row: 3, col: 0, rotation: 5))
        #expect(solo.isTerminal)
        #expect(solo.searchValue(of: 0) == 1 && solo.searchValue(of: 1) == 0)
        // Edges 0 and 3: the channel joins both players' axis: a tie, half each.
        var (_, tie) = try columnPosition(edges: "0,3")
        tie.apply(tie.action(row: 3, col: 0, rotation: 5))
        #expect(tie.searchValue(of: 0) == 0.5 && tie.searchValue(of: 1) == 0.5)
        // Teams {0,3} and {1,4} on four edges: the team of edges 0 and 3 shares the win.
        var (_, team) = try columnPosition(edges: "0,1,3,4")
        team.apply(team.action(row: 3, col: 0, rotation: 5))
        #expect((0..<4).map(team.searchValue(of:)) == [0.5, 0, 0.5, 0])
        #expect(abs((0..<4).map(team.searchValue(of:)).reduce(0, +) - 1) < 1e-12)
    }

    @Test("Before the end, the game's estimate is a share in 0...1 summing to 1 over the seats",
          arguments: [2, 3, 4])
    func estimatesAreShares(_ seats: Int) throws {
        let quortex = try QuortexGame(seatCount: seats)
        var state = quortex.newMatch(seed: 5)
        playRandomly(&state, moves: 8, seed: 1)
        try #require(!state.isTerminal)
        let values = (0..<seats).map(state.searchValue(of:))
        #expect(values.allSatisfy { (0...1).contains($0) })
        #expect(abs(values.reduce(0, +) - 1) < 1e-9)
    }

    @Test("The search samples hidden state: a sampled rail state observes the same, and samples differ in what is hidden")
    func samplesAgreeWithTheObservation() throws {
        let map = try RailMapFile.load(path: packageRoot + "/" + RailMapFile.defaultPath)
        let game = try RailGame(map: map, rules: RailRules(), seatCount: 2)
        var state = game.newMatch(seed: 21)
        playRandomly(&state, moves: 30, seed: 9)
        try #require(!state.isTerminal)
        let observation = state.observation(for: state.currentSeat)
        var rng = LabRandom(seed: 2)
        var otherHands: Set<[Int]> = []
        for _ in 0..<20 {
            let sample = observation.sampleState(using: &rng)
            #expect(sample.observation(for: observation.seat) == observation)
            otherHands.insert((0..<6).map { sample.cards(1 - observation.seat, $0) })
        }
        #expect(otherHands.count > 1, "the opponent's hand is re-dealt, not read")
    }

    @Test("mcts-perfect is handed the true state by the play loop; mcts never is")
    func perfectInformationIsByName() throws {
        let (game, state) = try columnPosition(edges: "0,1")
        var legal = ActionBuffer()
        state.legalActions(into: &legal)
        let reference: StrategyFactory<QuortexGame> = { _ in QuortexReferenceAI() }
        let perfect = PerfectInformationMCTS(StrategyContext(game: game, seat: 0, seed: 7), settings: MCTSSettings(iterations: 3_000),
                                             rollout: reference)
        // With the bag known and deterministic rollouts, several moves may win for sure;
        // the one chosen must be one of them, and the immediate win is.
        let chosen = perfect.chooseAction(state: state, legal: legal)
        #expect(perfect.search.rootMeans[chosen] == 1)
        #expect(perfect.search.rootMeans[state.action(row: 3, col: 0, rotation: 5)] == 1)
        let strategies: [any Strategy<QuortexGame>] = [perfect, MCTS(StrategyContext(game: game, seat: 1, seed: 1), settings: MCTSSettings())]
        #expect(strategies[0] is any PerfectInformationStrategy<QuortexGame>)
        #expect(!(strategies[1] is any PerfectInformationStrategy<QuortexGame>))
        // What the play loop asks instead of casting: the same answer.
        #expect(strategies.map(\.readsState) == [true, false])
        #expect(!EpsilonStrategy<QuortexGame>(inner: perfect, epsilon: 0.5, seed: 1).readsState)
    }
}

/// A rail match where seat 0 has completed four missions and one build (Brussels-Frankfurt,
/// grey, paid with its one black card) joins London and Munich for its fifth: the win.
private func fifthMissionPosition() throws -> (RailGame, RailState, build: Int) {
    let map = try RailMapFile.load(path: packageRoot + "/" + RailMapFile.defaultPath)
    let game = try RailGame(map: map, rules: RailRules(), seatCount: 2)
    func city(_ name: String) throws -> Int { try #require(map.cityIndex(name)) }
    func railroad(_ a: String, _ b: String, _ colour: RailColour) throws -> Int {
        let (x, y) = (try city(a), try city(b))
        return try #require(map.railroads.firstIndex { Set([$0.from, $0.to]) == Set([x, y]) && $0.colour == colour })
    }
    var state = game.newMatch(seed: 1)
    for seat in 0..<2 { state.clearMissions(seat) }
    state.give(try railroad("London", "Brussels", .red), to: 0)
    state.give(try railroad("Frankfurt", "Munich", .red), to: 0)
    state.setMission(0, slot: 0, from: try city("London"), to: try city("Munich"))
    state.setHand(0, [0, 0, 0, 0, 1, 0])
    state.setCompleted(0, 4)
    return (game, state, RailAction.build(try railroad("Brussels", "Frankfurt", .grey), pay: RailColour.black.rawValue))
}

@Test("MCTS finds the rail build that completes the fifth mission, from the observation alone")
func findsTheFifthMission() throws {
    let (game, state, build) = try fifthMissionPosition()
    #expect(state.currentSeat == 0)
    var legal = ActionBuffer()
    state.legalActions(into: &legal)
    #expect(legal.contains(build))
    #expect(legal.count > 2, "the win must be one of several actions")
    var won = state
    won.apply(build)
    #expect(won.isTerminal && won.searchValue(of: 0) == 1)
    let search = MCTS(StrategyContext(game: game, seat: 0, seed: 5), settings: MCTSSettings(iterations: 300))
    #expect(search.chooseAction(state.observation(for: 0), legal: legal) == build)
    #expect(search.rootMeans[build] == 1)
}

@Test("reuse=true keeps the subtree of the moves played; without it each search starts afresh", arguments: [false, true])
func reuseKeepsTheSubtree(_ reuse: Bool) throws {
    // A small board, so the chosen move's node has children for most replies.
    let game = try QuortexGame(rules: QuortexRules(settings: [(key: "radius", value: "1")]), seatCount: 2)
    var state = game.newMatch(seed: 8)
    let budget = 300
    let search = MCTS(StrategyContext(game: game, seat: 0, seed: 2), settings: MCTSSettings(iterations: budget, reuse: reuse))
    #expect(search.followsActions == reuse)
    var legal = ActionBuffer()
    var visitsAtSecondSearch = 0
    for move in 0..<2 {
        // Seat 0 searches; then seat 1 plays its first legal action. Both are reported.
        state.legalActions(into: &legal)
        let mine = search.chooseAction(state.observation(for: 0), legal: legal)
        if move == 1 { visitsAtSecondSearch = search.rootVisits.values.reduce(0, +) }
        state.apply(mine)
        search.didApply(mine, by: 0)
        state.legalActions(into: &legal)
        let theirs = legal[0]
        state.apply(theirs)
        search.didApply(theirs, by: 1)
    }
    if reuse {
        // The kept node already had visits from the first search (when the first search
        // reached it), so the root's children hold at least this search's budget.
        #expect(visitsAtSecondSearch >= budget)
        #expect(search.treeSize > budget + 1, "the first search's nodes are still in the arena")
    } else {
        #expect(visitsAtSecondSearch == budget)
        #expect(search.treeSize <= budget + 1)
    }
}

/// Counts how the play loop asks it for moves.
private final class PerfectSpy: PerfectInformationStrategy {
    typealias G = QuortexGame
    var stateCalls = 0, observationCalls = 0
    func chooseAction(state: QuortexState, legal: ActionBuffer) -> Int { stateCalls += 1; return legal[0] }
    func chooseAction(_ observation: QuortexObservation, legal: ActionBuffer) -> Int { observationCalls += 1; return legal[0] }
}

@Test("Match.play hands a perfect-information strategy the state and every other strategy its observation")
func playLoopHandsStateOnlyToPerfectStrategies() throws {
    let game = try QuortexGame(seatCount: 2)
    let spy = PerfectSpy(), plain = PerfectSpy()
    final class ObservationOnly: Strategy {
        typealias G = QuortexGame
        let inner: PerfectSpy
        init(_ inner: PerfectSpy) { self.inner = inner }
        func chooseAction(_ observation: QuortexObservation, legal: ActionBuffer) -> Int { inner.chooseAction(observation, legal: legal) }
    }
    var buffer = ActionBuffer()
    _ = Match.play(game, seed: 4, strategies: [spy, ObservationOnly(plain)], buffer: &buffer)
    #expect(spy.stateCalls > 0 && spy.observationCalls == 0)
    #expect(plain.observationCalls > 0 && plain.stateCalls == 0)
}

/// Records the actions the play loop reports.
private final class Follower: Strategy {
    typealias G = QuortexGame
    var seen: [(action: Int, seat: Int)] = []
    var followsActions: Bool { true }
    func chooseAction(_ observation: QuortexObservation, legal: ActionBuffer) -> Int { legal[legal.count / 2] }
    func didApply(_ action: Int, by seat: Int) { seen.append((action, seat)) }
}

@Test("Match.play reports every action, with its seat, to a strategy that follows actions")
func playLoopReportsActions() throws {
    let game = try QuortexGame(seatCount: 2)
    let follower = Follower()
    var buffer = ActionBuffer()
    var trace: [(Int, Int)] = []
    let result = Match.play(game, seed: 6, strategies: [follower, UniformRandomStrategy<QuortexGame>(seed: 1)], buffer: &buffer) { before, action, _ in
        trace.append((action, before.currentSeat))
    }
    #expect(follower.seen.count == result.outcome.turns)
    #expect(follower.seen.map(\.action) == trace.map(\.0))
    #expect(follower.seen.map(\.seat) == trace.map(\.1))
}

/// Plays up to `moves` uniformly random actions.
private func playRandomly<S: GameState>(_ state: inout S, moves: Int, seed: UInt64) {
    var rng = LabRandom(seed: seed)
    var buffer = ActionBuffer()
    for _ in 0..<moves where !state.isTerminal {
        state.legalActions(into: &buffer)
        state.apply(buffer[rng.uniform(buffer.count)])
    }
}

/// Forwards to the documented rail CPU, reading the list: a search lists the legal actions
/// for its rollouts' moves.
final class ListingHeuristic: Strategy {
    typealias G = RailGame
    let inner: RailHeuristicCPU
    init(seed: UInt64) { inner = RailHeuristicCPU(seed: seed) }
    func chooseAction(_ observation: RailObservation, legal: ActionBuffer) -> Int { inner.chooseAction(observation, legal: legal) }
}

@Test("Rollouts by a strategy that reads no list (the rail CPUs) search as when they are handed one: the same move and tree")
func rolloutsWithoutListsSearchAlike() throws {
    let map = try RailMapFile.load(path: packageRoot + "/" + RailMapFile.defaultPath)
    let game = try RailGame(map: map, rules: RailRules(), seatCount: 2)
    var state = game.newMatch(seed: 8)
    var rng = LabRandom(seed: 9)
    var legal = ActionBuffer()
    var searched = 0
    while !state.isTerminal && searched < 6 {
        state.legalActions(into: &legal)
        if state.turn % 7 == 3 {
            let context = StrategyContext(game: game, seat: state.currentSeat, seed: UInt64(state.turn))
            let settings = MCTSSettings(iterations: 120)
            let plain = MCTS(context, settings: settings, rollout: { RailHeuristicCPU(seed: $0.seed) })
            let listing = MCTS(context, settings: settings, rollout: { ListingHeuristic(seed: $0.seed) })
            let observation = state.observation(for: state.currentSeat)
            #expect(plain.chooseAction(observation, legal: legal) == listing.chooseAction(observation, legal: legal))
            #expect(plain.rootVisits == listing.rootVisits && plain.rootMeans == listing.rootMeans, "turn \(state.turn)")
            searched += 1
        }
        state.apply(legal[rng.uniform(legal.count)])
    }
    #expect(searched == 6)
}

let packageRoot = String(#filePath.prefix(upTo: #filePath.range(of: "/Tests/")!.lowerBound))

