import ArgumentParser
import LabCatalog
import LabCore

struct GamesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "games", abstract: "List the games with their seats and rule knobs.")

    func run() throws {
        for game in Catalog.games {
            printOutput("\(game.name): \(game.summary)")
            let seats = game.seatRange.count == 1 ? "\(game.seatRange.lowerBound)" : "\(game.seatRange.lowerBound)-\(game.seatRange.upperBound)"
            printOutput("  seats: \(seats); documented CPU: \(game.documentedCPU)")
            printOutput(game.knobs.isEmpty ? "  rule knobs: none (the standard rules only)" : "  rule knobs (--rule KEY=VALUE):")
            for knob in game.knobs {
                printOutput("    \(knob.name)=\(knob.accepted)  default \(knob.defaultValue): \(knob.summary)")
            }
        }
    }
}

struct StrategiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "strategies", abstract: "List the strategies of a game (or of all games) with their parameters.")

    @Argument(help: "A game name; all games when omitted.")
    var game: String?

    func run() throws {
        try reportingInputErrors {
            let games = try game.map { [try Catalog.game(named: $0)] } ?? Catalog.games
            for entry in games {
                printOutput("\(entry.name):")
                for s in entry.strategies {
                    printOutput("  \(s.name): \(s.summary)")
                    for p in s.parameters {
                        printOutput("    \(p.name) = \(p.defaultValue)  (\(p.accepted)): \(p.summary)")
                    }
                    if let prefix = s.openPrefix {
                        printOutput("    \(prefix)NAME=VALUE: the bot's own options, as it declares them in its ready")
                    }
                }
            }
        }
    }
}
