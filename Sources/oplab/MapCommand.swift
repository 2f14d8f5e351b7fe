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
                Errors (exit 2), each with its JSON path: unknown or duplicate cities, railroads to \
                unknown cities, a disconnected graph, lengths outside 1...6, bad colours, \
                coordinates outside 35...65 N / -10...45 E, missions naming unknown cities. \
                Information: railroad lengths that disagree with the Haversine distance rule.
                """
        )

        @Argument(help: "The map file (JSON).")
        var path: String

        func run() throws {
            let report = RailMapFile.check(path: path)
            for finding in report.errors { printError("\(path): \(finding)") }
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
                print("  \(report.infos.count) length(s) differ from the distance rule (information):")
                for finding in report.infos { print("    info: \(finding.path): \(finding.message)") }
            }
            print("  ok")
        }
    }
}
