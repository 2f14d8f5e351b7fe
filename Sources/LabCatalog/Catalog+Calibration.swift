import LabCore
import Tournament

/// A strategy family turned by one numeric parameter: what a calibration searches.
public struct StrategyKnob: Sendable {
    /// The family as given (a value of the knob in it is replaced by ``strategy(at:)``).
    public var family: StrategySpec
    /// The parameter's name, e.g. `epsilon`.
    public var name: String
    /// Whether the parameter takes integers only.
    public var integer: Bool
    /// The values the parameter accepts.
    public var allowed: ClosedRange<Double>
    /// What the parameter accepts, as the listings write it (`number in 0...1`).
    public var accepted: String

    /// The family's spec with the knob at `value`, the knob last
    /// (``Calibration/knobText(_:integer:)``): `reference(epsilon=0.25)`.
    public func strategy(at value: Double) -> String {
        var spec = family
        spec.parameters.removeAll { $0.key == name }
        spec.parameters.append((name, Calibration.knobText(value, integer: integer)))
        return spec.description
    }
}

extension Catalog {
    /// The parameter `name` of `family` (a strategy of `game`, checked by ``validate(_:for:)``)
    /// as a knob to turn.
    /// - Throws: ``InputError`` starting with `name`, when the strategy has no such
    ///   parameter (naming those it has) or the parameter is not numeric (naming what it
    ///   takes); a command puts its flag in front.
    public static func knob(_ name: String, of family: StrategySpec, for game: any GameEntry) throws(InputError) -> StrategyKnob {
        let info = game.strategies.first { $0.name == family.name }
        guard let parameter = info?.parameters.first(where: { $0.name == name }) else {
            let names = info?.parameters.map(\.name).joined(separator: ", ") ?? ""
            throw InputError("\(name): \(family.name) has no such parameter; it takes \(names)")
        }
        switch parameter.kind {
        case .integer(let r):
            return StrategyKnob(family: family, name: name, integer: true, allowed: Double(r.lowerBound)...Double(r.upperBound),
                                accepted: parameter.accepted)
        case .number(let r):
            return StrategyKnob(family: family, name: name, integer: false, allowed: r, accepted: parameter.accepted)
        default:
            throw InputError("\(name): a numeric parameter is needed; \(name) takes \(parameter.accepted)")
        }
    }

    /// Calibrates `knob`'s family against the request's reference on this catalog's
    /// tables: every probe and final measurement a head-to-head tournament
    /// (``Calibration/config(game:rules:map:strategy:reference:matches:seed:threads:)``)
    /// planned here and run into a scratch folder (``Calibration/measure(_:in:threads:)``),
    /// which is removed at the end.
    ///
    /// - Parameters:
    ///   - locate: names the config field behind a plan's error (entrant 0 is the family,
    ///     entrant 1 the reference), as in ``plan(_:locate:startingBots:)``.
    ///   - progress: the lines of ``Calibration/ladder(_:strategy:measure:progress:)``.
    public static func calibrate(_ request: CalibrationRequest, knob: StrategyKnob, rules: [RuleSetting], map: String?, threads: Int,
                                 locate: (String, String) -> InputError, progress: (String) -> Void) throws(InputError) -> CalibrationLadder {
        try Calibration.withScratchFolder { folder throws(InputError) in
            try Calibration.ladder(request, strategy: knob.strategy(at:), measure: { value, seed throws(InputError) in
                let config = Calibration.config(game: request.game, rules: rules, map: map, strategy: knob.strategy(at: value),
                                                reference: request.reference, matches: request.matches, seed: seed, threads: threads)
                return try Calibration.measure(plan(config, locate: locate), in: folder, threads: threads)
            }, progress: progress)
        }
    }
}
