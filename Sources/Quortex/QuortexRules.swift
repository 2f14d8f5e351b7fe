import LabCore

/// Quortex's knobs (rule book, quortex.md): board radius, bag mix, explicit edges.
public struct QuortexRules: Sendable, Equatable {
    /// Board radius R (37 cells for R = 3).
    public var radius = 3
    /// Tiles of each type in the bag (10 each by default: 40 tiles).
    public var bag = [10, 10, 10, 10]
    /// Explicit board edge of each seat (seat order); nil for the default layouts.
    public var edges: [Int]?

    public init() {}

    public static let knobs: [RuleKnob] = [
        RuleKnob(name: "radius", accepted: "1...\(QuortexBoard.maxRadius)", defaultValue: "3", summary: "board radius R (1 + 3R(R+1) cells)"),
        RuleKnob(name: "bag", accepted: "four counts 0...60, e.g. 10,10,10,10", defaultValue: "10,10,10,10", summary: "tiles of each type (no, one, two, three sharps) in the bag"),
        RuleKnob(name: "edges", accepted: "one distinct edge 0...5 per seat, e.g. 0,3", defaultValue: "by seat count", summary: "explicit board edge of each seat, in seat order"),
    ]

    public init(settings: [(key: String, value: String)]) throws(InputError) {
        self.init()
        for (key, value) in settings {
            let knob = try KnobParsing.knob(key, in: Self.knobs, game: "quortex")
            switch key {
            case "radius":
                guard let r = Int(value), (1...QuortexBoard.maxRadius).contains(r) else {
                    throw InputError("rule radius=\(value): expected an integer in 1...\(QuortexBoard.maxRadius) (the board must have at least a ring)")
                }
                radius = r
            case "bag":
                let parts = value.split(separator: ",").map { Int(String($0).trimmingSpaces) }
                guard parts.count == 4, parts.allSatisfy({ $0.map { (0...60).contains($0) } ?? false }),
                      parts.reduce(0, { $0 + ($1 ?? 0) }) > 0 else {
                    throw InputError("rule bag=\(value): expected \(knob.accepted) with at least one tile")
                }
                bag = parts.map { $0! }
            case "edges":
                let parts = value.split(separator: ",").map { Int(String($0).trimmingSpaces) }
                guard parts.allSatisfy({ $0.map { (0...5).contains($0) } ?? false }) else {
                    throw InputError("rule edges=\(value): each edge must be an integer in 0...5")
                }
                let list = parts.map { $0! }
                guard Set(list).count == list.count else {
                    throw InputError("rule edges=\(value): an edge is repeated; each seat needs its own edge")
                }
                edges = list
            default: preconditionFailure("knob \(key) listed but not handled")
            }
        }
    }
}
