import LabCore

/// A strategy as users write it, in configs and on the command line:
/// `name` or `name(key=value, ...)`, e.g. `heuristic(missionProbability=0.7)`.
/// Values may nest parentheses (`rollout=heuristic(missionProbability=0.5)`) or be
/// double-quoted; in a quoted value `\"` is a quote and `\\` a backslash (any other
/// backslash is itself): `command="python3 \"my bot.py\""`.
public struct StrategySpec: Sendable, Equatable, CustomStringConvertible {
    public var name: String
    public var parameters: [(key: String, value: String)]

    public init(name: String, parameters: [(key: String, value: String)] = []) {
        self.name = name
        self.parameters = parameters
    }

    public static func == (l: StrategySpec, r: StrategySpec) -> Bool {
        l.name == r.name && l.parameters.count == r.parameters.count
            && zip(l.parameters, r.parameters).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// The spec written back in canonical form (``parse(_:)`` reads it back as it is).
    public var description: String {
        parameters.isEmpty ? name : "\(name)(\(parameters.map { "\($0.key)=\(Self.written($0.value))" }.joined(separator: ", ")))"
    }

    /// `value` as a spec writes it: in double quotes when it would not read back
    /// unquoted (a comma or an unmatched parenthesis outside parentheses, spaces at either
    /// end, an opening quote), with `\"` for a quote in it and `\\` for a backslash that
    /// would otherwise read as an escape (before a quote, a backslash or the closing quote).
    static func written(_ value: String) -> String {
        var depth = 0
        var plain = !value.isEmpty && value.first != "\"" && value.trimmingSpaces == value
        for c in value where plain {
            if c == "(" {
                depth += 1
            } else if c == ")" {
                if depth == 0 { plain = false } else { depth -= 1 }
            } else if c == ",", depth == 0 {
                plain = false
            }
        }
        if plain && depth == 0 { return value }
        var quoted = "\""
        var rest = Substring(value)
        while let c = rest.popFirst() {
            if c == "\"" {
                quoted += "\\\""
            } else if c == "\\", rest.first.map({ $0 == "\"" || $0 == "\\" }) ?? true {
                quoted += "\\\\"
            } else {
                quoted.append(c)
            }
        }
        return quoted + "\""
    }

    /// Parses `text`; errors name the position and what was expected.
    public static func parse(_ text: String) throws(InputError) -> StrategySpec {
        let chars = Array(text)
        var i = 0
        func fail(_ what: String) -> InputError {
            InputError("strategy spec '\(text.excerpt(limit: 120))': \(what) at character \(i + 1); expected name or name(key=value, ...)")
        }
        func skipSpaces() { while i < chars.count, chars[i] == " " || chars[i] == "\t" { i += 1 } }
        func identifier() -> String {
            let start = i
            while i < chars.count, chars[i].isLetter || chars[i].isNumber || chars[i] == "_" || chars[i] == "-" || chars[i] == "." { i += 1 }
            return String(chars[start..<i])
        }
        skipSpaces()
        let name = identifier()
        guard !name.isEmpty else { throw fail("missing strategy name") }
        skipSpaces()
        var parameters: [(key: String, value: String)] = []
        if i < chars.count, chars[i] == "(" {
            i += 1
            skipSpaces()
            if i < chars.count, chars[i] == ")" { i += 1 } else {
                while true {
                    skipSpaces()
                    let key = identifier()
                    guard !key.isEmpty else { throw fail("missing parameter name") }
                    skipSpaces()
                    guard i < chars.count, chars[i] == "=" else { throw fail("missing '=' after '\(key.excerpt())'") }
                    i += 1
                    skipSpaces()
                    var value = ""
                    if i < chars.count, chars[i] == "\"" {
                        i += 1
                        while i < chars.count, chars[i] != "\"" {
                            // `\"` and `\\` are a quote and a backslash; any other backslash is itself.
                            if chars[i] == "\\", i + 1 < chars.count, chars[i + 1] == "\"" || chars[i + 1] == "\\" { i += 1 }
                            value.append(chars[i])
                            i += 1
                        }
                        guard i < chars.count else { throw fail("unterminated quoted value") }
                        i += 1
                    } else {
                        var depth = 0
                        while i < chars.count {
                            let c = chars[i]
                            if c == "(" { depth += 1 } else if c == ")" {
                                if depth == 0 { break }
                                depth -= 1
                            } else if c == ",", depth == 0 { break }
                            value.append(c)
                            i += 1
                        }
                        value = value.trimmingSpaces
                        guard depth == 0 else { throw fail("unbalanced parentheses in the value of '\(key.excerpt())'") }
                    }
                    guard !value.isEmpty else { throw fail("empty value for '\(key.excerpt())'") }
                    if parameters.contains(where: { $0.key == key }) { throw fail("parameter '\(key.excerpt())' given twice") }
                    parameters.append((key, value))
                    skipSpaces()
                    guard i < chars.count else { throw fail("missing ')'") }
                    if chars[i] == "," { i += 1; continue }
                    if chars[i] == ")" { i += 1; break }
                    throw fail("unexpected '\(String(chars[i]).excerpt(limit: 1))'")
                }
            }
            skipSpaces()
        }
        guard i == chars.count else { throw fail("unexpected '\(String(chars[i]).excerpt(limit: 1))'") }
        return StrategySpec(name: name, parameters: parameters)
    }
}
