import LabCore
import Players
import Tournament

/// A run's external bots, as the harness sees them.
extension BotSession: RunResources {}

extension Catalog {
    /// Checks a loaded config against the games, knobs and strategies, and makes the
    /// tournament's plan (a table per seating). Errors name the config's file, line and
    /// field. The paths in the config resolve against its folder
    /// (``ConfigDocument/resolve(_:)``): the plan's config, which run.json records and
    /// resume and merge compare, holds them resolved.
    public static func plan(_ document: ConfigDocument) throws(InputError) -> TournamentPlan {
        try plan(resolvingPaths(document.config, with: document.resolve)) { field, message in document.error(at: field, message) }
    }

    /// `config` with `resolve` applied to the paths in it: `map`, and the file parameters
    /// (`model=`, `evaluator=`) of the entrants' strategies, except keywords (`shipped`,
    /// `none`). A strategy that does not parse or is unknown stays as written, for the
    /// plan's checks to refuse; a strategy without paths stays as written.
    public static func resolvingPaths(_ config: TournamentConfig, with resolve: (String) -> String) -> TournamentConfig {
        var config = config
        config.map = config.map.map(resolve)
        guard let game = try? Catalog.game(named: config.game) else { return config }
        for i in config.entrants.indices {
            guard let spec = try? StrategySpec.parse(config.entrants[i].strategy),
                  let info = game.strategies.first(where: { $0.name == spec.name }) else { continue }
            var resolved = spec
            for (k, parameter) in spec.parameters.enumerated() {
                guard let accepted = info.parameters.first(where: { $0.name == parameter.key }) else { continue }
                resolved.parameters[k].value = accepted.resolving(parameter.value, with: resolve)
            }
            if resolved != spec { config.entrants[i].strategy = resolved.description }
        }
        return config
    }

    /// ``plan(_:)`` for a config that did not come from a file (merge, tests): errors
    /// name the field. `startingBots` false makes external bots' tables without starting
    /// them (a merge plays no match, and may run where the bots are not).
    public static func plan(_ config: TournamentConfig,
                            locate: (String, String) -> InputError = { field, message in InputError("\(field): \(message)") },
                            startingBots: Bool = true)
        throws(InputError) -> TournamentPlan {
        let game: any GameEntry
        do { game = try Catalog.game(named: config.game) } catch { throw locate("game", error.message) }
        let seats = game.tournamentSeats
        guard seats.contains(config.seats) else {
            let alone = config.seats < seats.lowerBound && game.seatRange.contains(config.seats)
                ? " (a match of 1 seat has no opponent, so every match would count as a win; `oplab play` plays it)" : ""
            throw locate("seats", "\(game.name) seats \(seats.lowerBound)-\(seats.upperBound) players in a tournament, not \(config.seats)\(alone)")
        }
        var specs: [StrategySpec] = []
        for (i, entrant) in config.entrants.enumerated() {
            do { specs.append(try validate(entrant.strategy, for: game)) } catch { throw locate("entrants[\(i)].strategy", error.message) }
        }
        let knobNames = game.knobs.map(\.name)
        for rule in config.rules where !knobNames.contains(rule.key) {
            throw locate("rules.\(rule.key)", "unknown rule knob '\(rule.key.excerpt())' for \(game.name)\(Suggestion.didYouMean(rule.key, among: knobNames)); "
                + "accepted: \(knobNames.joined(separator: ", "))")
        }
        let rules = config.rules.map { (key: $0.key, value: $0.value) }
        do { try game.checkRules(rules) } catch { throw locate("rules", error.message) }
        if config.map != nil && !game.usesMap { throw locate("map", "\(game.name) has no map; remove the field") }
        do { try game.checkMap(config.map) } catch { throw locate("map", error.message) }
        let candidate = config.candidate.flatMap { name in config.entrants.firstIndex { $0.name == name } }
        // The tables first (a seat count the entrants cannot fill is the seats' fault), then
        // the run's size (a block count it cannot number is the blocks' fault).
        do {
            _ = try Schedule(entrants: config.entrants.count, seats: config.seats, format: config.format, candidate: candidate,
                             blocksPerTable: 1)
        } catch { throw locate("seats", error.message) }
        let schedule: Schedule
        do {
            schedule = try Schedule(entrants: config.entrants.count, seats: config.seats, format: config.format, candidate: candidate,
                                    blocksPerTable: config.blocks)
        } catch { throw locate("blocks", error.message) }

        // One table per distinct seating; external bots' processes and logs in one session.
        let checkedSpecs = specs
        let bots = BotSession(handshakes: startingBots)
        let names = config.entrants.map(\.name)
        typealias Built = (seatings: [[any SeatedTable]], setupLines: [String], warnings: [String], boardCounts: BoardCountsSpec?)
        let build: @Sendable () throws(InputError) -> Built = {
            var made: [[String]: any MatchTable] = [:]
            var seatings: [[any SeatedTable]] = []
            var setupLines: [String] = []
            var warnings: [String] = []
            var boardCounts: BoardCountsSpec?
            for t in schedule.tables.indices {
                var row: [any SeatedTable] = []
                for rotation in 0..<schedule.seats {
                    let seating = schedule.seating(table: t, rotation: rotation)
                    let key = seating.map { config.entrants[$0].name }
                    let table: any MatchTable
                    if let known = made[key] {
                        table = known
                    } else {
                        table = try game.makeTable(TableSetup(rules: rules, mapPath: config.map, players: seating.map { checkedSpecs[$0] },
                                                              entrants: seating.map { names[$0] }, bots: bots))
                        made[key] = table
                        if setupLines.isEmpty {
                            setupLines = table.setupLines
                            boardCounts = table.boardCounts
                        }
                        for warning in table.warnings where !warnings.contains(warning) { warnings.append(warning) }
                    }
                    row.append(CatalogSeatedTable(table: table, game: game))
                }
                seatings.append(row)
            }
            return (seatings, setupLines, warnings, boardCounts)
        }
        let first: Built
        do { first = try build() } catch {
            // A strategy that reads a file (a model) fails only when it is made, after the
            // checks above: name the entrant whose strategy fails on a table of its own
            // where the documented CPU does not.
            let alone = { (spec: StrategySpec) throws(InputError) in
                _ = try game.makeTable(TableSetup(rules: rules, mapPath: config.map, players: Array(repeating: spec, count: config.seats),
                                                  bots: bots))
            }
            if (try? alone(StrategySpec(name: game.documentedCPU))) != nil {
                for (i, spec) in specs.enumerated() {
                    do { try alone(spec) } catch { throw locate("entrants[\(i)].strategy", error.message) }
                }
            }
            throw locate("rules", error.message)
        }
        // The documented CPU, as documented (no parameters), anchors the ratings.
        let anchor = specs.firstIndex { $0.name == game.documentedCPU && $0.parameters.isEmpty }
        return TournamentPlan(config: config, schedule: schedule, seatings: first.seatings, columns: game.tournamentColumns,
                              anchor: anchor, setupLines: first.setupLines, warnings: first.warnings, boardCounts: first.boardCounts,
                              makeSeatings: { () throws(InputError) in try build().seatings }, resources: bots)
    }
}

/// A catalog table as the harness plays it.
struct CatalogSeatedTable: SeatedTable {
    let table: any MatchTable
    let game: any GameEntry

    func play(dealSeed: UInt64, strategySeed: UInt64, match: Int, buffer: inout ActionBuffer, timer: DecisionTimer?) -> MatchRecord {
        let report = table.play(seed: dealSeed, strategySeed: strategySeed, match: match, render: false, buffer: &buffer, trace: nil,
                                timer: timer)
        var record = MatchRecord(outcome: report.outcome, marks: report.marks)
        for seat in 0..<table.seatCount {
            game.appendTournamentFields(report, seat: seat, to: &record)
            record.endSeat()
        }
        return record
    }
}
