/// Bad input from a user: a config, a map, a model file, a strategy spec, a flag.
///
/// The message names what was wrong, where (file, line, field or JSON path) and what
/// would be accepted. The command line prints it and exits with status 2.
///
/// No line of a message is longer than ``maxLineLength`` characters: whatever a message
/// quotes (a 1 MB field, a path of thousands of characters), a longer line keeps its start
/// and its end and says how much was cut from its middle.
public struct InputError: Error, CustomStringConvertible, Sendable, Equatable {
    public var message: String

    public init(_ message: String) { self.message = Self.capped(message) }

    /// The longest line a message holds, in characters.
    public static let maxLineLength = 500

    /// `message` with each line over ``maxLineLength`` characters cut in its middle.
    static func capped(_ message: String) -> String {
        guard message.utf8.count > maxLineLength else { return message }
        return message.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            let count = line.count
            guard count > maxLineLength else { return String(line) }
            // 440 characters kept; the note (under 60) says how many of the rest were cut.
            let keep = maxLineLength - 60
            let note = " [... \(count - keep) characters cut ...] "
            return String(line.prefix(keep - keep / 3)) + note + String(line.suffix(keep / 3))
        }.joined(separator: "\n")
    }

    public var description: String { message }
}

/// A variant rule a game exposes (rule book "knobs"), for listings and errors.
public struct RuleKnob: Sendable, Equatable {
    public var name: String
    /// What values are accepted, e.g. `recycle | discard` or `1...64`.
    public var accepted: String
    public var defaultValue: String
    public var summary: String

    public init(name: String, accepted: String, defaultValue: String, summary: String) {
        self.name = name
        self.accepted = accepted
        self.defaultValue = defaultValue
        self.summary = summary
    }
}

/// Helpers for parsing `KEY=VALUE` settings against a list of knobs.
public enum KnobParsing {
    /// The knob named `key`, or an error listing the knobs that exist.
    public static func knob(_ key: String, in knobs: [RuleKnob], game: String) throws(InputError) -> RuleKnob {
        guard let knob = knobs.first(where: { $0.name == key }) else {
            let names = knobs.map(\.name)
            throw InputError("unknown rule knob '\(key.excerpt())' for \(game)\(Suggestion.didYouMean(key, among: names)); accepted: \(names.joined(separator: ", "))")
        }
        return knob
    }

    public static func int(_ value: String, _ knob: RuleKnob, range: ClosedRange<Int>) throws(InputError) -> Int {
        guard let v = Int(value.trimmingSpaces), range.contains(v) else {
            throw InputError("rule \(knob.name)=\(value.excerpt()): expected an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    public static func bool(_ value: String, _ knob: RuleKnob) throws(InputError) -> Bool {
        switch value.trimmingSpaces.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw InputError("rule \(knob.name)=\(value.excerpt()): expected true or false")
        }
    }

    public static func choice<E: RawRepresentable & CaseIterable>(_ value: String, _ knob: RuleKnob, as type: E.Type) throws(InputError) -> E where E.RawValue == String {
        guard let v = E(rawValue: value.trimmingSpaces) else {
            let accepted = E.allCases.map(\.rawValue).joined(separator: " | ")
            throw InputError("rule \(knob.name)=\(value.excerpt()): expected one of \(accepted)")
        }
        return v
    }

    /// Splits `KEY=VALUE` into its halves.
    public static func split(_ setting: String) throws(InputError) -> (key: String, value: String) {
        guard let eq = setting.firstIndex(of: "=") else {
            throw InputError("rule '\(setting.excerpt())': expected KEY=VALUE")
        }
        return (String(setting[..<eq]).trimmingSpaces, String(setting[setting.index(after: eq)...]).trimmingSpaces)
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs (no Foundation needed).
    public var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
