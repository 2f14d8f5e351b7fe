import LabCore

/// Quortex's knobs (rule book, quortex.md): board radius, bag mix, explicit edges.
/// Two rules are equal when they play the same game (the same radius, bag and edges),
/// whether the bag was set or is the default for the radius.
public struct QuortexRules: Sendable, Equatable {
    /// Board radius R (37 cells for R = 3).
    public var radius = 3
    /// Tiles of each type in the bag: as set (the `bag` knob), else
    /// ``defaultBag(radius:)`` for the radius (10 each, 40 tiles, for R = 3).
    public var bag: [Int] {
        get { setBag ?? Self.defaultBag(radius: radius) }
        set { setBag = newValue }
    }
    /// Explicit board edge of each seat (seat order); nil for the default layouts.
    public var edges: [Int]?
    /// The bag as set; nil for the radius's default.
    private var setBag: [Int]?

    public init() {}

    /// The default bag: ceil(cells / 4) tiles of each type, so that the bag covers the
    /// board at every radius (the rule book's 10 each for R = 3's 37 cells; 16 each for
    /// R = 4's 61). A smaller bag can run out before the board fills, and then whoever
    /// draws from the empty bag wins.
    public static func defaultBag(radius: Int) -> [Int] {
        let cells = QuortexBoard.cellCount(radius: radius)
        return [Int](repeating: (cells + 3) / 4, count: 4)
    }

    /// Allowed but questionable settings, for the user to see: a bag with fewer tiles
    /// than the board has cells (only a set bag can be one).
    public var warnings: [String] {
        let tiles = bag.reduce(0, +), cells = QuortexBoard.cellCount(radius: radius)
        guard tiles < cells else { return [] }
        return ["bag=\(bag.map(String.init).joined(separator: ",")) holds \(tiles) tiles for the \(cells) cells of a radius-\(radius) board: "
                + "the bag can run out before the board fills, and whoever then draws from the empty bag wins (the default bag for this radius is "
                + Self.defaultBag(radius: radius).map(String.init).joined(separator: ",") + ")"]
    }

    public static func == (a: Self, b: Self) -> Bool { a.radius == b.radius && a.bag == b.bag && a.edges == b.edges }

    public static let knobs: [RuleKnob] = [
        RuleKnob(name: "radius", accepted: "1...\(QuortexBoard.maxRadius)", defaultValue: "3", summary: "board radius R (1 + 3R(R+1) cells)"),
        RuleKnob(name: "bag", accepted: "four counts 0...60, e.g. 10,10,10,10",
                 defaultValue: "ceil(cells/4) of each type (10,10,10,10 at radius 3; 16,16,16,16 at radius 4)",
                 summary: "tiles of each type (no, one, two, three sharps) in the bag; a bag smaller than the board is warned about (it can run out first)"),
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
