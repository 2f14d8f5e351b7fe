import LabCore

/// A parameter a strategy accepts, with its type, range and default.
public struct ParameterSpec: Sendable {
    public enum Kind: Sendable {
        case number(ClosedRange<Double>)
        case integer(ClosedRange<Int>)
        case flag
        case choice([String])
        case text
        /// A file path, or one of `keywords` (`none`, `shipped`). In a config file a
        /// relative path names a file in the config's folder (``resolving(_:with:)``).
        case file(keywords: [String])
    }

    public var name: String
    public var kind: Kind
    public var defaultValue: String
    public var summary: String

    public init(_ name: String, _ kind: Kind, default defaultValue: String, _ summary: String) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// ``accepted`` as the object of "takes": `a number in 0...1`, `true or false`, `one of a, b`.
    public var acceptedWithArticle: String {
        switch kind {
        case .flag, .choice: accepted
        default: "a " + accepted
        }
    }

    /// What the parameter accepts, e.g. `number in 0...1`.
    public var accepted: String {
        switch kind {
        case .number(let r): "number in \(Self.format(r.lowerBound))...\(Self.format(r.upperBound))"
        case .integer(let r): "integer in \(r.lowerBound)...\(r.upperBound)"
        case .flag: "true or false"
        case .choice(let options): "one of \(options.joined(separator: ", "))"
        case .text: "text"
        case .file(let keywords): keywords.isEmpty ? "file path" : "file path or \(keywords.joined(separator: ", "))"
        }
    }

    /// `value` with `resolve` applied when the parameter takes a file and `value` is a
    /// path, not a keyword; any other value as it is.
    public func resolving(_ value: String, with resolve: (String) -> String) -> String {
        guard case .file(let keywords) = kind, !keywords.contains(value) else { return value }
        return resolve(value)
    }

    static func format(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
    }
}

/// Parameter values checked against a strategy's ``ParameterSpec``s, defaults filled in.
public struct ResolvedParameters: Sendable {
    var values: [String: String]
    /// Parameters the spec gave (the others hold their defaults).
    var given: Set<String> = []
    let strategy: String
    /// The open parameters (`opt.NAME=VALUE`), prefix dropped, in the order given.
    public private(set) var open: [(key: String, value: String)] = []

    /// Checks `spec`'s parameters: unknown names and bad values are errors naming the
    /// parameter and what it accepts. Names starting with `openPrefix` are taken as they
    /// are (``open``).
    init(spec: StrategySpec, accepted: [ParameterSpec], openPrefix: String? = nil) throws(InputError) {
        strategy = spec.name
        values = [:]
        for p in accepted { values[p.name] = p.defaultValue }
        for (key, value) in spec.parameters {
            if let openPrefix, key.hasPrefix(openPrefix) {
                let name = String(key.dropFirst(openPrefix.count))
                guard !name.isEmpty else { throw InputError("strategy \(spec.name.excerpt()): '\(key.excerpt())' names no option; write \(openPrefix)NAME=VALUE") }
                open.append((name, value))
                continue
            }
            guard let p = accepted.first(where: { $0.name == key }) else {
                let list = (accepted.isEmpty ? "it takes no parameters"
                    : "accepted: " + accepted.map { "\($0.name) (\($0.accepted), default \($0.defaultValue))" }.joined(separator: "; "))
                    + (openPrefix.map { "; and \($0)NAME=VALUE for the bot's own options" } ?? "")
                throw InputError("strategy \(spec.name.excerpt()): unknown parameter '\(key.excerpt())'\(Suggestion.didYouMean(key, among: accepted.map(\.name))); \(list)")
            }
            let ok: Bool
            switch p.kind {
            case .number(let r): ok = Double(value).map { r.contains($0) && $0.isFinite } ?? false
            case .integer(let r): ok = Int(value).map(r.contains) ?? false
            case .flag: ok = value == "true" || value == "false"
            case .choice(let options): ok = options.contains(value)
            case .text, .file: ok = true
            }
            guard ok else {
                throw InputError("strategy \(spec.name): \(key)=\(value.excerpt()) is not accepted; \(key) takes \(p.acceptedWithArticle)")
            }
            values[key] = value
            given.insert(key)
        }
    }

    public func number(_ name: String) -> Double { Double(values[name]!)! }
    public func integer(_ name: String) -> Int { Int(values[name]!)! }
    public func flag(_ name: String) -> Bool { values[name] == "true" }
    public func text(_ name: String) -> String { values[name]! }
    /// Whether the spec set `name` (rather than leaving its default).
    public func isGiven(_ name: String) -> Bool { given.contains(name) }
}
