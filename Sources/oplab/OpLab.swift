import ArgumentParser
import Evaluators
import Foundation
import LabCore
import Tournament

@main
struct OpLab: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "oplab",
        abstract: "Opponent Lab: play, pit and judge computer opponents for board games (`oplab games` lists them).",
        version: OpLab.version,
        subcommands: [TournamentCommand.self, MergeCommand.self, PlayCommand.self, MapCommand.self, GamesCommand.self,
                      StrategiesCommand.self, TrainCommand.self, SPRTCommand.self, CalibrateCommand.self,
                      ReportCommand.self, StatusCommand.self, BotCommand.self, TuneCommand.self, LearnCommand.self]
    )

    /// The version and the OpenBLAS kernel that runs (a generic one is several times slower).
    static let version = OpponentLabVersion.string + "\nBLAS: " + BLASKernel.describe()
        + (BLASKernel.warning.map { "\nwarning: " + $0 } ?? "")

    /// As ArgumentParser's, but a usage error (unknown flag, missing argument, a value of
    /// the wrong type) exits with status 2, like every other bad input; a value an option
    /// cannot read is one line, `error: --threads abc: expected a whole number`, as every
    /// other bad value is (the rest keep ArgumentParser's usage lines). ``execute(_:)``
    /// does the work.
    static func main() {
        Foundation.exit(execute(Array(CommandLine.arguments.dropFirst())))
    }
}

/// Runs `body`; bad input is printed as `error: ...` on stderr and exits with status 2.
/// `run()` wraps its work in it, and `validate()` its checks of the flags' own values
/// (ranges, combinations), which ArgumentParser makes after parsing and before `run()`.
func reportingInputErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as InputError {
        printError("error: \(error.message)")
        throw ExitCode(2)
    }
}

/// Names the command-line flag behind a config field in errors of a config the command
/// built itself: entrant i's strategy is `entrants[i]`, rules are `--rule`, the map `--map`.
func flagLocator(entrants: [String]) -> (String, String) -> InputError {
    { field, message in
        var flag = field
        for (i, name) in entrants.enumerated() where field == "entrants[\(i)].strategy" { flag = name }
        if field.hasPrefix("rules") { flag = "--rule" } else if field == "map" { flag = "--map" } else if field == "game" { flag = "GAME" }
        return InputError("\(flag): \(message)")
    }
}
