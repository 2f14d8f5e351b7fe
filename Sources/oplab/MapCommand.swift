import ArgumentParser
import Foundation
import RailGame

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "map",
        abstract: "Rail maps.",
        subcommands: [Check.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validate a rail map file.",
            discussion: """
                Checks a map against the rule book. Errors, each with its JSON path, make the map \
                unusable and exit with status 2: unknown or duplicate cities, railroads to unknown \
                cities, a disconnected graph, railroad lengths outside 1...4, bad colours, coordinates \
                outside 35...65 N / -10...45 E, missions naming unknown cities.
                Warnings are printed on stderr as `warning: ...` and keep exit status 0 when there \
                are no errors: railroad lengths that break the distance rule (Haversine distance: \
                under 500 km 1 slot, under 1000 km 2, under 1500 km 3, else 4) and are not one of \
                the documented dual paths.
                Information: the documented dual paths, which keep their lengths where the distance \
                rule says otherwise (London-Paris 2 blue and yellow, Berlin-Warsaw 3 red and green, \
                Paris-Berlin 4 blue and yellow).
                The shipped map is compiled into oplab; its file is configs/maps/train-depot-europe.json.
                """
        )

        @Argument(help: "The map file (JSON).")
        var path: String

        func run() throws {
            let report = RailMapFile.check(path: path)
            for finding in report.errors + report.warnings {
                printError("\(finding.severity.rawValue): \(path): \(finding.path): \(finding.message)")
            }
            guard let map = report.map else {
                printError("\(path): \(report.errors.count) error(s); the map is not valid")
                throw ExitCode(2)
            }
            let duals = map.railroads.filter { $0.twin >= 0 }.count / 2
            let grey = map.railroads.filter { $0.colour == .grey }.count
            let slots = map.railroads.reduce(0) { $0 + $1.length }
            print("\(path): \(map.name)")
            print("  \(map.cities.count) cities, \(map.railroads.count) railroads (\(duals) dual paths, \(grey) grey), \(slots) slots")
            print("  missions: \(map.missions.map { "\($0.count) listed in the file" } ?? "\(RailState.generatedMissions) generated per match")")
            if !report.infos.isEmpty {
                print("  \(report.infos.count) length(s) of documented dual paths differ from the distance rule (information):")
                for finding in report.infos { print("    info: \(finding.path): \(finding.message)") }
            }
            if report.warnings.isEmpty {
                print("  ok")
            } else {
                print("  valid, with \(report.warnings.count) warning(s): length(s) that break the distance rule (see stderr)")
            }
        }
    }
}
