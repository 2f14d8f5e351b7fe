import LabCore

/// A strategy as users write it, in configs and on the command line:
/// `name` or `name(key=value, ...)`, e.g. `heuristic(missionProbability=0.7)`.
/// Values may nest parentheses (`rollout=heuristic(missionProbability=0.5)`) or be
/// double-quoted.
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
    /// end, an opening quote), unless it holds a quote itself.
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
        return plain && depth == 0 || value.contains("\"") ? value : "\"\(value)\""
    }

    /// Parses `text`; errors name the position and what was expected.
    public static func parse(_ text: String) throws(InputError) -> StrategySpec {
        let chars = Array(text)
        var i = 0
        func fail(_ what: String) -> InputError {
            InputError("strategy spec '\(text)': \(what) at character \(i + 1); expected name or name(key=value, ...)")
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
                    guard i < chars.count, chars[i] == "=" else { throw fail("missing '=' after '\(key)'") }
                    i += 1
                    skipSpaces()
                    var value = ""
                    if i < chars.count, chars[i] == "\"" {
                        i += 1
                        while i < chars.count, chars[i] != "\"" { value.append(chars[i]); i += 1 }
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
                        guard depth == 0 else { throw fail("unbalanced parentheses in the value of '\(key)'") }
                    }
                    guard !value.isEmpty else { throw fail("empty value for '\(key)'") }
                    if parameters.contains(where: { $0.key == key }) { throw fail("parameter '\(key)' given twice") }
                    parameters.append((key, value))
                    skipSpaces()
                    guard i < chars.count else { throw fail("missing ')'") }
                    if chars[i] == "," { i += 1; continue }
                    if chars[i] == ")" { i += 1; break }
                    throw fail("unexpected '\(chars[i])'")
                }
            }
            skipSpaces()
        }
        guard i == chars.count else { throw fail("unexpected '\(chars[i])'") }
        return StrategySpec(name: name, parameters: parameters)
    }
}
