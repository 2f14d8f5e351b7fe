import LabCore
import Players
import Tournament

/// A numeric parameter a strategy declares, as tuning sees it: its range, whether it
/// takes integers, its default and what it accepts in words.
public struct TunableParameter: Sendable, Equatable {
    public var name: String
    public var range: ClosedRange<Double>
    public var integer: Bool
    /// The default value; nil when the strategy (a bot) declares none.
    public var defaultValue: Double?
    /// What it accepts, as the listings write it (`number in 0...1`, `an int in 0...60`).
    public var accepted: String
}

extension Catalog {
    /// The parameters of `spec` that can be tuned: a lab strategy's numeric parameters
    /// (`epsilon` included); for `external`, the `int` and `float` options the bot
    /// declares in `ready` (as `opt.NAME`; the bot is started once to ask, with the
    /// spec's `command` and `startup`, at a 2-seat table as tuning plays).
    /// - Throws: ``InputError`` for an unknown strategy, or a bot that fails its handshake.
    public static func tunableParameters(of spec: StrategySpec, for game: any GameEntry, rules: [(key: String, value: String)] = [],
                                         mapPath: String? = nil) throws(InputError) -> [TunableParameter] {
        _ = try validate(spec.description, for: game)  // an unknown strategy throws, naming those there are
        let info = game.strategies.first { $0.name == spec.name }!
        var out: [TunableParameter] = []
        for p in info.parameters {
            switch p.kind {
            case .number(let r):
                out.append(TunableParameter(name: p.name, range: r, integer: false, defaultValue: Double(p.defaultValue), accepted: p.accepted))
            case .integer(let r):
                out.append(TunableParameter(name: p.name, range: Double(r.lowerBound)...Double(r.upperBound), integer: true,
                                            defaultValue: Double(p.defaultValue), accepted: p.accepted))
            default:
                continue
            }
        }
        if let prefix = info.openPrefix {
            for option in try botIdentity(of: spec, for: game, seats: 2, rules: rules, mapPath: mapPath)?.options ?? [] {
                guard option.kind == .int || option.kind == .float else { continue }
                let low = option.min ?? -Double.greatestFiniteMagnitude, high = option.max ?? Double.greatestFiniteMagnitude
                let range = (option.min.map(BotOption.format) ?? "") + "..." + (option.max.map(BotOption.format) ?? "")
                out.append(TunableParameter(name: prefix + option.name, range: low...high, integer: option.kind == .int,
                                            defaultValue: option.defaultValue?.double,
                                            accepted: "\(option.kind == .int ? "an int" : "a float") in \(range) (declared by the bot)"))
            }
        }
        return out
    }

    /// What an external bot says of itself in `ready` (its options among it): it is
    /// started once, with the spec's `command` and `startup` and no options, in seat 0 of
    /// a `seats`-seat table of `random` players, and quit.
    /// - Throws: ``InputError`` naming the command when the handshake fails.
    static func botIdentity(of spec: StrategySpec, for game: any GameEntry, seats: Int, rules: [(key: String, value: String)],
                            mapPath: String?) throws(InputError) -> BotIdentity? {
        let bare = StrategySpec(name: spec.name, parameters: spec.parameters.filter { $0.key == "command" || $0.key == "startup" })
        let probe = BotSession()
        defer { probe.close() }
        var players = Array(repeating: StrategySpec(name: "random"), count: seats)
        players[0] = bare
        var entrants = Array(repeating: "random", count: seats)
        entrants[0] = "bot"
        _ = try game.makeTable(TableSetup(rules: rules, mapPath: mapPath, players: players, entrants: entrants, bots: probe))
        return probe.programs.first?.identity
    }

    /// The parameter `text` (`NAME=LOW..HIGH` or `NAME=LOW..HIGH:STEP`) among `tunable`
    /// (``tunableParameters(of:for:rules:mapPath:)`` of `spec`): a numeric parameter the
    /// strategy has, a range inside the declared one, LOW below HIGH. An integer
    /// parameter tunes as an integer (step 1 unless given).
    /// - Throws: ``InputError`` naming `--param`, the parameter and what is accepted.
    public static func tuningParameter(_ text: String, strategy spec: StrategySpec, tunable: [TunableParameter],
                                       of game: any GameEntry) throws(InputError) -> TuningParameter {
        let accepted = "NAME=LOW..HIGH or NAME=LOW..HIGH:STEP"
        guard let equals = text.firstIndex(of: "=") else { throw InputError("--param \(text): expected \(accepted)") }
        let name = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        let names = tunable.map(\.name)
        guard let declared = tunable.first(where: { $0.name == name }) else {
            if let info = game.strategies.first(where: { $0.name == spec.name }),
               let other = info.parameters.first(where: { $0.name == name }) {
                throw InputError("--param \(text): \(name) takes \(other.accepted), not a number to tune; numeric parameters: "
                    + names.joined(separator: ", "))
            }
            throw InputError("--param \(text): \(spec.name) has no numeric parameter '\(name)'\(Suggestion.didYouMean(name, among: names)); "
                + "numeric parameters: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        }
        let range = declared.range
        let (bounds, stepText) = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            .map(String.init).splitFirst()
        let ends = bounds.components(separatedBy: "..")
        guard ends.count == 2, let low = Double(ends[0]), let high = Double(ends[1]) else {
            let example = range.lowerBound > -1e300 && range.upperBound < 1e300
                ? "\(ParameterSpec.format(range.lowerBound))..\(ParameterSpec.format(range.upperBound))" : "0..1"
            throw InputError("--param \(text): expected \(accepted), e.g. \(name)=\(example)")
        }
        var step: Double?
        if let stepText {
            guard let s = Double(stepText) else { throw InputError("--param \(text): the step '\(stepText)' is not a number") }
            step = s
        }
        guard range.contains(low), range.contains(high) else {
            throw InputError("--param \(text): \(ParameterSpec.format(low))..\(ParameterSpec.format(high)) is outside \(name)'s declared range (\(declared.accepted))")
        }
        return try TuningParameter(name: name, low: low, high: high, step: step, integer: declared.integer)
    }

    /// ``tuningParameter(_:strategy:tunable:of:)`` for a lab strategy (no bot is asked).
    public static func tuningParameter(_ text: String, strategy spec: StrategySpec, of game: any GameEntry) throws(InputError) -> TuningParameter {
        try tuningParameter(text, strategy: spec, tunable: try tunableParameters(of: spec, for: game), of: game)
    }

    /// The value `spec` gives parameter `p` (or its declared default).
    /// - Throws: ``InputError`` when neither exists (a bot option without a default).
    public static func startValue(of p: TunableParameter, in spec: StrategySpec) throws(InputError) -> Double {
        if let given = spec.parameters.last(where: { $0.key == p.name }) {
            guard let v = Double(given.value) else { throw InputError("\(spec.name): \(p.name)=\(given.value) is not a number") }
            return v
        }
        guard let d = p.defaultValue else {
            throw InputError("--param \(p.name): the bot declares no default for it; give the start in the spec, e.g. \(p.name)=\(ParameterSpec.format(p.range.lowerBound))")
        }
        return d
    }

    /// `spec` with the tuned parameters at `point` (each replaced, in the order tuned, at the end).
    public static func spec(_ spec: StrategySpec, with parameters: [TuningParameter], at point: [Double]) -> String {
        var s = spec
        let names = Set(parameters.map(\.name))
        s.parameters.removeAll { names.contains($0.key) }
        for (p, v) in zip(parameters, point) { s.parameters.append((p.name, p.text(v))) }
        return s.description
    }

    /// Runs a tuning on this catalog's tables: every measurement and verification a
    /// tournament planned here.
    /// - Parameter locate: names the config field behind a plan's error.
    public static func tune(_ request: TuningRequest, spec: StrategySpec, options: TuningOptions,
                            locate: @escaping (String, String) -> InputError,
                            progress: @escaping (String) -> Void) throws(InputError) -> TuningOutcome {
        try TuningRun.run(request, options: options, spec: { point in Self.spec(spec, with: request.parameters, at: point) },
                          plan: { config throws(InputError) in try plan(config, locate: locate) }, progress: progress)
    }
}

private extension Array where Element == String {
    /// The first element and the second, if any.
    func splitFirst() -> (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
