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

    /// ``accepted`` as the object of "takes": `a number in 0...1`, `an integer in 1...9`, `true or false`, `one of a, b`.
    public var acceptedWithArticle: String {
        switch kind {
        case .flag, .choice: accepted
        case .integer: "an " + accepted
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

    /// The checked value of `parameter`. Every value was checked against its spec when
    /// the parameters were resolved, so only a strategy reading a parameter it does not
    /// declare (a programming error, caught by the catalog's tests) stops here.
    public subscript<Value>(_ parameter: Parameter<Value>) -> Value {
        guard let value = ifDeclared(parameter) else {
            preconditionFailure("strategy \(strategy) reads parameter \(parameter.name), which it does not declare as \(Value.self)")
        }
        return value
    }

    /// The value of `parameter`, or nil when the strategy does not declare it (a parameter
    /// some games offer and others not, such as `mcts`'s `evaluator`).
    public func ifDeclared<Value>(_ parameter: Parameter<Value>) -> Value? {
        values[parameter.name].flatMap(Value.init(parameterText:))
    }

    /// Whether the spec set `parameter` (rather than leaving its default).
    public func isGiven<Value>(_ parameter: Parameter<Value>) -> Bool { given.contains(parameter.name) }
}

/// A type a strategy parameter's checked text converts to.
public protocol ParameterValue: Sendable {
    init?(parameterText: String)
}

extension Int: ParameterValue {
    public init?(parameterText: String) { self.init(parameterText) }
}

extension Double: ParameterValue {
    public init?(parameterText: String) { self.init(parameterText) }
}

extension Bool: ParameterValue {
    public init?(parameterText: String) {
        switch parameterText {
        case "true": self = true
        case "false": self = false
        default: return nil
        }
    }
}

extension String: ParameterValue {
    public init?(parameterText: String) { self = parameterText }
}

extension ParameterValue where Self: RawRepresentable, RawValue == String {
    public init?(parameterText: String) { self.init(rawValue: parameterText) }
}

/// A strategy parameter's typed handle: its name and the type its value reads as. The
/// strategy declares it (``spec(_:default:_:)`` and its kin give the ``ParameterSpec``
/// that `oplab strategies` lists and the checks use) and reads it as
/// `params[handle]`: no string key and no conversion at the reading site.
public struct Parameter<Value: ParameterValue>: Sendable {
    public let name: String

    public init(_ name: String) { self.name = name }
}

extension Parameter where Value == Int {
    public func spec(_ range: ClosedRange<Int>, default value: Int, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .integer(range), default: String(value), summary)
    }
}

extension Parameter where Value == Double {
    public func spec(_ range: ClosedRange<Double>, default value: Double, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .number(range), default: ParameterSpec.format(value), summary)
    }
}

extension Parameter where Value == Bool {
    public func spec(default value: Bool, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .flag, default: String(value), summary)
    }
}

extension Parameter where Value == String {
    /// Free text.
    public func text(default value: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .text, default: value, summary)
    }

    /// A file path or one of `keywords`.
    public func file(keywords: [String], default value: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .file(keywords: keywords), default: value, summary)
    }

    /// One of `options`, known only when the catalog is built (e.g. a game's strategy names).
    public func choice(_ options: [String], default value: String, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .choice(options), default: value, summary)
    }
}

extension Parameter where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of `Value`'s cases, by raw value.
    public func spec(default value: Value, _ summary: String) -> ParameterSpec {
        ParameterSpec(name, .choice(Value.allCases.map(\.rawValue)), default: value.rawValue, summary)
    }
}
