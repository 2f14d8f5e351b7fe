import LabCore

/// A strategy a game offers: its name, parameters and factory maker.
public struct StrategyEntry<G: Game>: Sendable {
    public var name: String
    public var summary: String
    public var parameters: [ParameterSpec]
    /// Parameters beyond ``parameters`` the strategy takes when their names start with
    /// this prefix (`opt.` for an external bot's own options); nil for none.
    public var openPrefix: String?
    /// Makes the per-match factory from checked parameters.
    public var make: @Sendable (ResolvedParameters, G, StrategyEnvironment) throws(InputError) -> StrategyFactory<G>

    /// Every strategy also takes `epsilon` (default 0): the chance of a uniformly random
    /// legal move instead of its own (``EpsilonStrategy``), the difficulty knob that
    /// `oplab calibrate` turns.
    public init(name: String, summary: String, parameters: [ParameterSpec] = [],
                make: @escaping @Sendable (ResolvedParameters, G) throws(InputError) -> StrategyFactory<G>) {
        self.init(name: name, summary: summary, parameters: parameters, openPrefix: nil) { params, game, _ throws(InputError) in
            try make(params, game)
        }
    }

    /// A strategy whose factory depends on where it plays (``StrategyEnvironment``), and
    /// which may take open parameters named `openPrefix...`.
    public init(name: String, summary: String, parameters: [ParameterSpec] = [], openPrefix: String?,
                make: @escaping @Sendable (ResolvedParameters, G, StrategyEnvironment) throws(InputError) -> StrategyFactory<G>) {
        self.name = name
        self.summary = summary
        self.parameters = parameters + [Self.epsilon]
        self.openPrefix = openPrefix
        self.make = { params, game, environment throws(InputError) in
            let factory = try make(params, game, environment)
            let epsilon = params[Self.epsilonParameter]
            guard epsilon > 0 else { return factory }
            return { context in EpsilonStrategy(inner: factory(context), epsilon: epsilon, seed: context.seed) }
        }
    }

    static var epsilonParameter: Parameter<Double> { Parameter("epsilon") }

    static var epsilon: ParameterSpec {
        epsilonParameter.spec(0...1, default: 0, "chance of a uniformly random legal move instead of its own (a difficulty knob)")
    }

    /// The listing form: name, summary and parameters.
    public var info: StrategyInfo { StrategyInfo(name: name, summary: summary, parameters: parameters, openPrefix: openPrefix) }
}
