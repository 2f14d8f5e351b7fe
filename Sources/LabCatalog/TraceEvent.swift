/// One line of a trace: an action and the mover's standing after it.
public struct TraceEvent: Sendable {
    public var turn: Int
    public var seat: Int
    public var action: String
    public var detail: String
    public var board: String?
}
