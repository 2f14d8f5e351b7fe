import Evaluators
import LabCore
import Pictures
import RailGame
import Tournament

/// Train Depot Europe in the registry.
struct RailEntry: GameEntry {
    let name = RailGame.name
    let summary = "Train Depot Europe: 36 cities, 74 cards, missions (rules version 4)"
    let seatRange = RailGame.seatRange
    let knobs = RailRules.knobs
    let documentedCPU = "heuristic"
    var seatStatNames: [String] { RailState.seatStatNames }
    var usesMap: Bool { true }
    var boardDrawing: (any BoardCountDrawing)? { RailBoardDrawing() }

    func checkRules(_ rules: [(key: String, value: String)]) throws(InputError) { _ = try RailRules(settings: rules) }
    /// The map at `path`, or the shipped map (compiled in) when nil.
    func checkMap(_ path: String?) throws(InputError) { _ = try RailMapFile.load(path: path) }

    /// Every error and warning of the map file, and for a usable map its size, its
    /// missions and the documented dual paths whose lengths differ from the distance rule.
    func checkMapFile(_ path: String) -> MapCheck? {
        let report = RailMapFile.check(path: path)
        let problems = (report.errors + report.warnings).map { MapCheck.Finding(severity: $0.severity.rawValue, path: $0.path, message: $0.message) }
        guard let map = report.map else { return MapCheck(problems: problems, name: nil, lines: []) }
        let duals = map.railroads.filter { $0.twin >= 0 }.count / 2
        let grey = map.railroads.filter { $0.colour == .grey }.count
        let slots = map.railroads.reduce(0) { $0 + $1.length }
        var lines = ["\(map.cities.count) cities, \(map.railroads.count) railroads (\(duals) dual paths, \(grey) grey), \(slots) slots",
                     "missions: \(map.missions.map { "\($0.count) listed in the file" } ?? "\(RailState.generatedMissions) generated per match")"]
        if !report.infos.isEmpty {
            lines.append("\(report.infos.count) length(s) of documented dual paths differ from the distance rule (information):")
            lines += report.infos.map { "  info: \($0.path): \($0.message)" }
        }
        lines.append(report.warnings.isEmpty ? "ok"
            : "valid, with \(report.warnings.count) warning(s): length(s) that break the distance rule (see stderr)")
        return MapCheck(problems: problems, name: map.name, lines: lines)
    }

    /// The game's own strategies, then search over them (`mcts`, `mcts-perfect`), then the
    /// learned model's greedy player (`blas-greedy`), then bots over the player protocol
    /// (`external`).
    static let missionProbability = Parameter<Double>("missionProbability")
    static let focus = Parameter<Double>("focus")
    static let missionDraw = Parameter<Double>("missionDraw")
    static let hoard = Parameter<Double>("hoard")
    static let rainbows = Parameter<Double>("rainbows")
    static let pace = Parameter<Double>("pace")

    static let entries: [StrategyEntry<RailGame>] = baseEntries + SearchEntries.entries(base: baseEntries, models: models)
        + [ModelEntries.greedy(models)] + LearnedEntries.entries(learned) + [ExternalEntry.entry(for: RailGame.self)]

    /// Learned policy-value models (`oplab learn rail`): the value models' features and
    /// the tuned planner's verdict on each action (RailPolicyFeatures, version 2); the
    /// shipped one is configs/models/learned/rail.model (the shipped map's).
    static let learned = LearnedSupport<RailGame>(shipped: ShippedModel.learned(for: RailGame.name)) { RailPolicyFeatures(map: $0.map) }

    static let models = ModelSupport<RailGame>(shipped: .rail) { RailFeatures(map: $0.map) }

    static let baseEntries: [StrategyEntry<RailGame>] = [
        StrategyEntry(name: "random", summary: "uniform over the legal actions") { _, _ in
            { context in UniformRandomStrategy<RailGame>(seed: context.seed) }
        },
        StrategyEntry(
            name: "heuristic",
            summary: "the documented CPU (SRS 4.5, 6.1.6): draw a mission with probability p, else build at random, else draw a card",
            parameters: [Self.missionProbability.spec(0...1, default: 0.7,
                                       "chance of drawing a mission when it holds fewer than 2")]
        ) { params, _ in
            let p = params[Self.missionProbability]
            return { context in RailHeuristicCPU(seed: context.seed, missionProbability: p) }
        },
        StrategyEntry(name: "shipped-cpu", summary: "the app's CPU as shipped: build first, else draw a mission, else a card") { _, _ in
            { context in RailShippedCPU(seed: context.seed) }
        },
        StrategyEntry(
            name: "planner",
            summary: "a CPU that builds toward its missions: the cheapest open route of each active mission (its own railroads free, "
                + "others' closed); knobs from well below the documented CPU (focus=0, pace=0: a score of 0.24 against it) to well above it (0.96 tuned); epsilon is its blunder rate",
            parameters: [
                Self.focus.spec(0...1, default: RailPlanner.defaultFocus,
                              "chance of building on a mission's route when it can (0: builds at random like the documented CPU)"),
                Self.missionDraw.spec(0...1, default: RailPlanner.defaultMissionDraw,
                              "chance of drawing a mission when it holds fewer than 2"),
                Self.hoard.spec(0...1, default: RailPlanner.defaultHoard,
                              "chance of drawing a card, to save for the route, when no route railroad is buildable yet"),
                Self.rainbows.spec(0...1, default: RailPlanner.defaultRainbows,
                              "chance of keeping its rainbow cards for its routes: a build off its routes that would spend rainbows is put off for a card draw"),
                Self.pace.spec(0...1, default: RailPlanner.defaultPace,
                              "chance of playing its turn as planned; otherwise it draws a card when it may (a slower player builds less)"),
            ]
        ) { params, _ in
            let (focus, draw, hoard, rainbows) = (params[Self.focus], params[Self.missionDraw], params[Self.hoard], params[Self.rainbows])
            let pace = params[Self.pace]
            return { context in RailPlanner(seed: context.seed, focus: focus, missionDraw: draw, hoard: hoard, rainbows: rainbows, pace: pace) }
        },
    ]

    var strategies: [StrategyInfo] { Self.entries.map(\.info) }

    var learning: (any GameLearning)? {
        Learner<RailGame, RailPolicyFeatures>(makeGame: { rules, map, seats throws(InputError) in
            try RailGame(map: try RailMapFile.load(path: map), rules: try RailRules(settings: rules.map { ($0.key, $0.value) }), seatCount: seats)
        }, encoder: { RailPolicyFeatures(map: $0.map) }, teachers: { specs, game throws(InputError) in
            try StrategyLookup.teachers(try specs.map { text throws(InputError) in try StrategySpec.parse(text) }, in: Self.entries, game: game)
        })
    }
    var trains: Bool { true }

    func train(_ request: TrainingRequest, rules: [(key: String, value: String)], mapPath: String?, seats: Int,
               log: @escaping @Sendable (String) -> Void) throws(InputError) -> ValueModel {
        let map = try RailMapFile.load(path: mapPath)
        let game = try RailGame(map: map, rules: try RailRules(settings: rules), seatCount: seats)
        let teachers = try StrategyLookup.teachers(request.teachers, in: Self.entries, game: game)
        return Self.models.train(game, teachers, request, log)
    }

    func makeTable(_ setup: TableSetup) throws(InputError) -> any MatchTable {
        let rules = try RailRules(settings: setup.rules)
        let map = try RailMapFile.load(path: setup.mapPath)
        let game = try RailGame(map: map, rules: rules, seatCount: setup.players.count)
        let factories = try StrategyLookup.resolve(setup.players, in: Self.entries, game: game, setup: setup)
        let changed = setup.rules.map { "\($0.key)=\($0.value)" }
        let source = setup.mapPath.map { " (\($0))" } ?? ", \(RailMapFile.shippedName)"
        return Table(game: game, players: setup.players,
                     setupLines: ["map \(map.name)\(source): \(map.cities.count) cities, \(map.railroads.count) railroads",
                                  "rules: " + (changed.isEmpty ? "defaults" : changed.joined(separator: ", "))],
                     loop: playLoop(game, factories), boardCounts: Self.boardCounts(map),
                     marks: { state, seat in [state.railroads(ownedBy: seat)] },
                     figureNames: seatStatNames, draw: RailGame.scene(of:))
    }

    /// A tournament's `railroads.csv`: per railroad and entrant, the matches in which the
    /// entrant built it, from the per-seat column `built_railroads` (a hex set). The railroad's
    /// cities, length, colour, lane (1: the second of a double) and both ends'
    /// coordinates come along, so the file draws a map by itself.
    static func boardCounts(_ map: RailMap) -> BoardCountsSpec {
        let elements = map.railroads.enumerated().map { index, r -> [String] in
            let (a, b) = (map.cities[r.from], map.cities[r.to])
            return [String(index), a.name, b.name, String(r.length), r.colour.name, String(map.lane(of: index)),
                    String(a.latitude), String(a.longitude), String(b.latitude), String(b.longitude)]
        }
        return BoardCountsSpec(file: "railroads.csv", elementName: "railroad",
                               elementColumns: ["railroad", "from", "to", "length", "colour", "lane", "from_latitude", "from_longitude",
                                                "to_latitude", "to_longitude"],
                               elements: elements, counts: [.init(name: "built", column: "built_railroads")])
    }
}
