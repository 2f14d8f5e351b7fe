import ArgumentParser
import Foundation
import LabCore

/// Prints `text` and a newline on stdout, or into the task's capture when a caller runs
/// `oplab` in-process (``OpLab/execute(_:)`` inside `Diagnostics.$capture.withValue`, as
/// the command-line tests do for every refusal: a bad flag, value, config or file is
/// checked without launching the binary).
func printOutput(_ text: String) {
    if let capture = Diagnostics.capture { capture.append(out: text + "\n") } else { print(text) }
}

/// Prints `text` and a newline on stderr (or into the task's capture).
func printError(_ text: String) {
    Diagnostics.write(text + "\n")
}

extension OpLab {
    /// Runs the command line `arguments` (the program name left out) and returns its exit
    /// status: 0, 2 for bad input of any kind (an unknown command, flag or value as much
    /// as a bad config or file), or the status a command chose (130 after Ctrl-C). Help
    /// and the version go to stdout with status 0, as ArgumentParser's `exit(withError:)`
    /// sends them. `main` exits with it; the tests call it in-process.
    static func execute(_ arguments: [String]) -> Int32 {
        if let refusal = unknownCommand(arguments) {
            printError(refusal)
            return 2
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                if let line = CommandLineNumbers.valueError(message(for: error)) {
                    printError("error: \(line)")
                } else {
                    printError(fullMessage(for: error))
                }
                return 2
            }
            let text = fullMessage(for: error)
            if !text.isEmpty {
                if code == .success { printOutput(text) } else { printError(text) }
            }
            return code.rawValue
        }
    }

    /// `oplab tournement ...`: the refusal that names the nearest command (ArgumentParser
    /// would say only "Unexpected argument"), or nil when the first word is a command or
    /// a flag.
    static func unknownCommand(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        return "error: unknown command '\(word)'\(Suggestion.didYouMean(word, among: names)); commands: "
            + names.joined(separator: ", ") + " (oplab --help describes them)"
    }
}
