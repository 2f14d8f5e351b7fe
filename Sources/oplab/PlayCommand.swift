import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Reports

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play one match and print its result.",
        discussion: """
            One --player per seat, in seat order (seat 0 moves first). A player is a strategy \
            spec: name or name(key=value, ...); `oplab strategies GAME` lists them.
            Example: oplab play rail --player heuristic --player random --seed 7 --trace
            """
    )

    @Argument(help: "The game: rail or quortex.")
    var game: String

    @Option(name: .customLong("player"), help: "A strategy spec for the next seat (repeat once per seat).")
    var players: [String] = []

    @Option(parsing: .unconditional, help: "Master seed; the match is match 0 of this seed.", transform: CommandLineNumbers.seed)
    var seed: UInt64 = 1

    @Option(name: .customLong("rule"), help: "A rule knob KEY=VALUE (repeatable); `oplab games` lists them.")
    var rules: [String] = []

    @Option(help: "Map file (rail only).")
    var map: String?

    @Flag(help: "Print every action and the mover's standing after it.")
    var trace = false

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Option(help: "Also draw the final position as an SVG file (rail: the map with each seat's railroads and missions; Quortex: the board with its tiles and flows).")
    var svg: String?

    @Option(help: "Also write an HTML page that steps through the match move by move (self-contained, opens offline).")
    var html: String?

    func run() throws {
        try reportingInputErrors {
            let entry = try Catalog.game(named: game)
            guard !players.isEmpty else {
                throw InputError("no players: give one --player SPEC per seat (\(entry.name) takes \(entry.seatRange.lowerBound)-\(entry.seatRange.upperBound))")
            }
            if map != nil && entry.name != "rail" { throw InputError("--map applies to rail only") }
            var specs: [StrategySpec] = []
            for text in players { specs.append(try StrategySpec.parse(text)) }
            let table = try entry.makeTable(TableSetup(rules: try parseRules(rules), mapPath: map, players: specs))
            for warning in table.warnings { printError("warning: \(warning)") }
            let matchSeed = Seeds.match(seed, match: 0)
            var buffer = ActionBuffer()
            if trace && !json {
                print("\(entry.name): " + specs.enumerated().map { "P\($0.offset) \($0.element)" }.joined(separator: " vs ") + ", seed \(seed)")
                for line in table.setupLines { print(line) }
            }
            let sink: ((TraceEvent) -> Void)? = trace && !json ? { event in
                print("T\(event.turn) P\(event.seat) \(event.action)".padding(toLength: 64, withPad: " ", startingAt: 0) + " | " + event.detail)
                if let board = event.board { print(board) }
            } : nil
            let report: MatchReport
            defer { Catalog.closeDetachedBots() }
            if svg != nil || html != nil {
                // The files are checked before the match is played, then written whole.
                for path in [svg, html].compactMap({ $0 }) { try checkWritable(path) }
                let played = table.replay(seed: matchSeed, label: seed, buffer: &buffer, trace: sink)
                report = played.report
                if let svg {
                    try writeWhole(ReplayPage.svg(played.replay), to: svg, what: "the SVG")
                    printError("wrote \(svg)")
                }
                if let html {
                    try writeWhole(ReplayPage.html(played.replay), to: html, what: "the replay page")
                    printError("wrote \(html)")
                }
            } else {
                report = table.play(seed: matchSeed, buffer: &buffer, trace: sink)
            }
            if json {
                print(jsonResult(entry: entry, specs: specs, report: report))
            } else {
                printResult(entry: entry, specs: specs, report: report)
            }
        }
    }

    func printResult(entry: any GameEntry, specs: [StrategySpec], report: MatchReport) {
        let o = report.outcome
        if let board = report.board { print(board) }
        print("end: \(o.endReason) after \(o.turns) turns" + (o.forfeit.map { " (P\($0.seat) forfeited: \($0.kind.rawValue))" } ?? ""))
        for fault in Catalog.detachedBotFaults() { printError(fault) }
        let headers = ["place", "seat", "result", "player"] + entry.seatStatNames
        var rows: [[String]] = []
        for seat in o.places.indices.sorted(by: { (o.places[$0], $0) < (o.places[$1], $1) }) {
            rows.append(["\(o.places[seat])", "P\(seat)", o.result(of: seat).rawValue, specs[seat].description]
                        + report.seatStats[seat].map(String.init))
        }
        print(TextTable.render(headers: headers, rows: rows))
    }

    func jsonResult(entry: any GameEntry, specs: [StrategySpec], report: MatchReport) -> String {
        let o = report.outcome
        let seats: [[String: Any]] = o.places.indices.map { seat in
            var item: [String: Any] = ["seat": seat, "player": specs[seat].description, "place": o.places[seat],
                                       "result": o.result(of: seat).rawValue, "score": o.score(of: seat)]
            for (name, value) in zip(entry.seatStatNames, report.seatStats[seat]) { item[name] = value }
            return item
        }
        var object: [String: Any] = ["game": entry.name, "seed": seed, "endReason": o.endReason, "turns": o.turns, "seats": seats]
        if let forfeit = o.forfeit { object["forfeit"] = ["seat": forfeit.seat, "kind": forfeit.kind.rawValue] }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

/// Plain aligned text tables for terminal output.
enum TextTable {
    static func render(headers: [String], rows: [[String]]) -> String {
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").trimmingTrailingSpaces
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    var trimmingTrailingSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
