/// A strategy's listing, without its game type.
public struct StrategyInfo: Sendable {
    public var name: String
    public var summary: String
    public var parameters: [ParameterSpec]
    /// See ``StrategyEntry/openPrefix``.
    public var openPrefix: String?
}
