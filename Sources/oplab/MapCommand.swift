import ArgumentParser
import Foundation
import LabCatalog
import LabCore

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Map files of the games that take one (rail).",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a map file.",
            discussion: """
                Checks a map against its game's rule book. Errors, each with its JSON path, make the \
                map unusable and exit with status 2. Warnings are printed on stderr as `warning: ...` \
                and keep exit status 0 when there are no errors.
                For rail: errors are unknown or duplicate cities, railroads to unknown cities, a \
                disconnected graph, railroad lengths outside 1...4, bad colours, coordinates outside \
                35...65 N / -10...45 E, missions naming unknown cities; warnings are railroad lengths \
                that break the distance rule (Haversine distance: under 500 km 1 slot, under 1000 km \
                2, under 1500 km 3, else 4) and are not one of the documented dual paths; information \
                lists the documented dual paths, which keep their lengths where the distance rule \
                says otherwise (London-Paris 2 blue and yellow, Berlin-Warsaw 3 red and green, \
                Paris-Berlin 4 blue and yellow). The shipped map is compiled into oplab; its file is \
                configs/maps/train-depot-europe.json.
                """
        )

        @Argument(help: "The map file (JSON).")
        var path: String

        @Option(help: "The game whose map it is (default: the one game that takes a map, rail).")
        var game: String?

        func run() throws {
            try reportingInputErrors {
                let entry = try game.map { name throws(InputError) in try Catalog.game(named: name) } ?? Catalog.mapGame()
                guard let check = entry.checkMapFile(path) else {
                    throw InputError("--game \(entry.name): the game takes no map; games with maps: "
                        + Catalog.games.filter(\.usesMap).map(\.name).joined(separator: ", "))
                }
                for finding in check.problems { printError("\(finding.severity): \(path): \(finding.path): \(finding.message)") }
                guard let name = check.name else {
                    printError("\(path): \(check.errorCount) error(s); the map is not valid")
                    throw ExitCode(2)
                }
                printOutput("\(path): \(name)")
                for line in check.lines { printOutput("  " + line) }
            }
        }
    }
}
