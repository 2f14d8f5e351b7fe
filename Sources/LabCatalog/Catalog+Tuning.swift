import LabCore
import Tournament

extension Catalog {
    /// The parameter `text` (`NAME=LOW..HIGH` or `NAME=LOW..HIGH:STEP`) of strategy
    /// `spec` of `game`, checked against the strategy's declared parameters: a numeric
    /// parameter it has, a range inside the declared one, LOW below HIGH. An integer
    /// parameter tunes as an integer (step 1 unless given).
    /// - Throws: ``InputError`` naming `--param`, the parameter and what is accepted.
    public static func tuningParameter(_ text: String, strategy spec: StrategySpec, of game: any GameEntry) throws(InputError) -> TuningParameter {
        guard let info = game.strategies.first(where: { $0.name == spec.name }) else {
            _ = try validate(spec.description, for: game)  // throws, listing the strategies
            throw InputError("unknown strategy '\(spec.name)'")
        }
        let accepted = "NAME=LOW..HIGH or NAME=LOW..HIGH:STEP"
        guard let equals = text.firstIndex(of: "=") else { throw InputError("--param \(text): expected \(accepted)") }
        let name = String(text[..<equals])
        let value = String(text[text.index(after: equals)...])
        let numeric = info.parameters.filter {
            if case .number = $0.kind { return true }
            if case .integer = $0.kind { return true }
            return false
        }
        guard let declared = info.parameters.first(where: { $0.name == name }) else {
            let names = numeric.map(\.name)
            throw InputError("--param \(text): \(spec.name) has no parameter '\(name)'\(Suggestion.didYouMean(name, among: names)); "
                + "numeric parameters: \(names.joined(separator: ", "))")
        }
        let range: ClosedRange<Double>, integer: Bool
        switch declared.kind {
        case .number(let r): (range, integer) = (r, false)
        case .integer(let r): (range, integer) = (Double(r.lowerBound)...Double(r.upperBound), true)
        default:
            throw InputError("--param \(text): \(name) takes \(declared.accepted), not a number to tune; numeric parameters: "
                + numeric.map(\.name).joined(separator: ", "))
        }
        let (bounds, stepText) = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            .map(String.init).splitFirst()
        let ends = bounds.components(separatedBy: "..")
        guard ends.count == 2, let low = Double(ends[0]), let high = Double(ends[1]) else {
            throw InputError("--param \(text): expected \(accepted), e.g. \(name)=\(ParameterSpec.format(range.lowerBound))..\(ParameterSpec.format(range.upperBound))")
        }
        var step: Double?
        if let stepText {
            guard let s = Double(stepText) else { throw InputError("--param \(text): the step '\(stepText)' is not a number") }
            step = s
        }
        guard range.contains(low), range.contains(high) else {
            throw InputError("--param \(text): \(ParameterSpec.format(low))..\(ParameterSpec.format(high)) is outside \(name)'s declared range (\(declared.accepted))")
        }
        return try TuningParameter(name: name, low: low, high: high, step: step, integer: integer)
    }
}

private extension Array where Element == String {
    /// The first element and the second, if any.
    func splitFirst() -> (String, String?) { (self[0], count > 1 ? self[1] : nil) }
}
