import ArgumentParser
import LabCore
import Tournament

/// Numbers on the command line. Their options read the next word unconditionally, so
/// `--threads -1` reaches the command's own check ("expected ...") instead of being
/// taken for a flag and answered "Missing value"; a word that is no number at all is
/// refused here with what would be accepted, and ``OpLab/main()`` prints it as one
/// line, `error: --threads abc: expected a whole number`.
enum CommandLineNumbers {
    /// The most worker threads a command accepts: far above any machine's cores, low
    /// enough that a typo (`--threads 20000`) is caught before it makes 20,000 table sets.
    static let maxThreads = RunOptions.maxThreads

    static func seed(_ text: String) throws -> UInt64 {
        guard let value = UInt64(text) else {
            throw ValidationError("expected a whole number in 0...\(UInt64.max)")
        }
        return value
    }

    static func integer(_ text: String) throws -> Int {
        guard let value = Int(text) else { throw ValidationError("expected a whole number") }
        return value
    }

    /// `nil`, or the error for a thread count outside 0...maxThreads (0: every core).
    static func checkThreads(_ threads: Int?) throws(InputError) {
        guard let threads, !(0...maxThreads).contains(threads) else { return }
        throw InputError("--threads \(threads): expected 0 (every core) to \(maxThreads)")
    }

    /// ArgumentParser's message for a value an option could not read, `The value 'abc' is
    /// invalid for '--threads <threads>': expected a whole number`, as oplab's one line
    /// `--threads abc: expected a whole number` (the value cut short when long); nil for
    /// any other message.
    static func valueError(_ message: String) -> String? {
        let head = "The value '", middle = "' is invalid for '"
        guard message.hasPrefix(head), let between = message.range(of: middle) else { return nil }
        let value = String(message[message.index(message.startIndex, offsetBy: head.count)..<between.lowerBound])
        let rest = message[between.upperBound...]
        guard let close = rest.firstIndex(of: "'") else { return nil }
        guard let flag = rest[..<close].split(separator: " ").first, flag.hasPrefix("-") else { return nil }
        var reason = rest[rest.index(after: close)...]
        if reason.hasPrefix(":") { reason = reason.dropFirst() }
        let because = String(reason).trimmingSpaces
        // A closed set (an ExpressibleByArgument enum): ". Please provide one of 'a', 'b' and 'c'."
        let choices = ". Please provide one of "
        if because.hasPrefix(choices) {
            let names = because.dropFirst(choices.count).split(separator: "'", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            return "\(flag) \(value.excerpt()): expected one of \(names.joined(separator: ", "))"
        }
        guard because.isEmpty else { return "\(flag) \(value.excerpt()): \(because)" }
        // An option without a reason of its own takes an Int or a Double: a value that
        // reads as a Double was refused by an Int.
        return "\(flag) \(value.excerpt()): expected \(Double(value) == nil ? "a number" : "a whole number") (see --help)"
    }
}
