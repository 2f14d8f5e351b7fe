import ArgumentParser
import Foundation
import LabCatalog
import LabCore
import Reports
import Tournament

struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play one match and print its result.",
        discussion: """
            One --player per seat, in seat order (seat 0 moves first). A player is a strategy \
            spec: name or name(key=value, ...); `oplab strategies GAME` lists them. The match \
            is match 0 of --seed.
            Example: oplab play rail --player heuristic --player random --seed 7 --trace
            """
    )

    @Argument(help: "The game (`oplab games` lists them).")
    var game: String

    @Option(name: .customLong("player"), help: "A strategy spec for the next seat (repeat once per seat).")
    var players: [String] = []

    @OptionGroup var seeding: SeedOption

    @OptionGroup var setup: GameOptions

    @Flag(help: "Print every action and the mover's standing after it.")
    var trace = false

    @Flag(help: "Print the result as one JSON object.")
    var json = false

    @Option(help: "Also draw the final position as an SVG file (the game's picture: e.g. rail's map with each seat's railroads and missions; the move list for a game that draws none).")
    var svg: String?

    @Option(help: "Also write an HTML page that steps through the match move by move (self-contained, opens offline).")
    var html: String?

    func run() throws {
        try reportingInputErrors {
            let (entry, specs, table) = try parse()
            for warning in table.warnings { printError("warning: \(warning)") }
            if trace && !json {
                printOutput("\(entry.name): " + specs.enumerated().map { "P\($0.offset) \($0.element)" }.joined(separator: " vs ") + ", seed \(seeding.seed)")
                for line in table.setupLines { printOutput(line) }
            }
            defer { Catalog.closeDetachedBots() }
            let report = try play(table)
            if json {
                printOutput(jsonResult(entry: entry, specs: specs, report: report))
            } else {
                printResult(entry: entry, specs: specs, report: report)
            }
        }
    }

    /// The flags checked: the game, one strategy per seat, and the table they make.
    func parse() throws(InputError) -> (entry: any GameEntry, specs: [StrategySpec], table: any MatchTable) {
        let entry = try Catalog.game(named: game)
        guard !players.isEmpty else {
            throw InputError("no players: give one --player SPEC per seat (\(entry.name) takes \(entry.seatRange.lowerBound)-\(entry.seatRange.upperBound))")
        }
        try setup.checkMap(for: entry)
        var specs: [StrategySpec] = []
        for text in players { specs.append(try StrategySpec.parse(text)) }
        let table = try entry.makeTable(TableSetup(rules: try setup.rulePairs(), mapPath: setup.map, players: specs))
        return (entry, specs, table)
    }

    /// Plays match 0 of `--seed` on `table`, tracing each action with `--trace`; with
    /// `--svg` or `--html`, replays it to draw them (their paths checked before the match).
    func play(_ table: any MatchTable) throws(InputError) -> MatchReport {
        let matchSeed = Seeds.match(seeding.seed, match: 0)
        var buffer = ActionBuffer()
        let sink: ((TraceEvent) -> Void)? = trace && !json ? { event in
            printOutput("T\(event.turn) P\(event.seat) \(event.action)".padding(toLength: 64, withPad: " ", startingAt: 0) + " | " + event.detail)
            if let board = event.board { printOutput(board) }
        } : nil
        guard svg != nil || html != nil else { return table.play(seed: matchSeed, buffer: &buffer, trace: sink) }
        // The files are checked before the match is played, then written whole.
        if let svg { try OutputPaths.checkFile(svg, label: "--svg \(svg)", what: "the SVG", replacing: OutputPaths.svgPicture) }
        if let html { try OutputPaths.checkFile(html, label: "--html \(html)", what: "the replay page", replacing: OutputPaths.htmlPage) }
        let played = table.replay(seed: matchSeed, label: seeding.seed, buffer: &buffer, trace: sink)
        if let svg {
            try Files.writeAtomically(ReplayPage.svg(played.replay), to: svg)
            printError("wrote \(svg)")
        }
        if let html {
            try Files.writeAtomically(ReplayPage.html(played.replay), to: html)
            printError("wrote \(html)")
        }
        return played.report
    }

    func printResult(entry: any GameEntry, specs: [StrategySpec], report: MatchReport) {
        let o = report.outcome
        if let board = report.board { printOutput(board) }
        printOutput("end: \(o.endReason) after \(o.turns) turns" + (o.forfeit.map { " (P\($0.seat) forfeited: \($0.kind.rawValue))" } ?? ""))
        for fault in Catalog.detachedBotFaults() { printError(fault) }
        let headers = ["place", "seat", "result", "player"] + entry.seatStatNames
        var rows: [[String]] = []
        for seat in o.places.indices.sorted(by: { (o.places[$0], $0) < (o.places[$1], $1) }) {
            rows.append(["\(o.places[seat])", "P\(seat)", o.result(of: seat).rawValue, specs[seat].description]
                        + report.seatStats[seat].map(String.init))
        }
        printOutput(TextColumns.render(headers: headers, rows: rows))
    }

    func jsonResult(entry: any GameEntry, specs: [StrategySpec], report: MatchReport) -> String {
        let o = report.outcome
        let seats: [[String: Any]] = o.places.indices.map { seat in
            var item: [String: Any] = ["seat": seat, "player": specs[seat].description, "place": o.places[seat],
                                       "result": o.result(of: seat).rawValue, "score": o.score(of: seat)]
            for (name, value) in zip(entry.seatStatNames, report.seatStats[seat]) { item[name] = value }
            return item
        }
        var object: [String: Any] = ["game": entry.name, "seed": seeding.seed, "endReason": o.endReason, "turns": o.turns, "seats": seats]
        if let forfeit = o.forfeit { object["forfeit"] = ["seat": forfeit.seat, "kind": forfeit.kind.rawValue] }
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }
}

/// Plain aligned text tables for terminal output.
enum TextColumns {
    static func render(headers: [String], rows: [[String]]) -> String {
        var widths = headers.map(\.count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) } }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
                .joined(separator: "  ").droppingEndSpaces
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n")
    }
}

extension String {
    var droppingEndSpaces: String {
        var s = Substring(self)
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
