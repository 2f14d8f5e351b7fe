import LabCore

/// Why a rail match ended (rule book, "End of the game").
public enum RailEndReason: UInt8, Sendable {
    case none = 0, missions, deckExhausted, allPassed, turnCap

    /// The recorded name: `missions`, `deck_exhausted`, `all_passed`, `turn_cap`.
    public var name: String {
        switch self {
        case .none: "none"
        case .missions: "missions"
        case .deckExhausted: "deck_exhausted"
        case .allPassed: "all_passed"
        case .turnCap: "turn_cap"
        }
    }
}

/// A mission held in a seat's slot. An empty slot has `from == .max`.
struct HeldMission: Sendable, Equatable {
    var from: UInt8
    var to: UInt8
    var points: UInt8
    /// Completed but still in its slot (`completedMissionsOccupySlots`).
    var completed: Bool

    static let empty = HeldMission(from: .max, to: .max, points: 0, completed: false)
    var isEmpty: Bool { from == .max }

    init(from: UInt8, to: UInt8, points: UInt8, completed: Bool) {
        self.from = from
        self.to = to
        self.points = points
        self.completed = completed
    }

    init(_ card: MissionCard) {
        self.init(from: UInt8(card.from), to: UInt8(card.to), points: UInt8(card.points), completed: false)
    }
}

/// Everything public about a rail match (rule book, "What players see"), in fixed-size
/// storage so a state copies by memcpy.
@usableFromInline
struct RailPublicState: Sendable {
    static let seatCapacity = 4
    static let slotsPerSeat = 2

    /// Owner seat of each railroad, -1 when unowned.
    var owners = InlineArray<128, Int8>(repeating: -1)
    /// Bit r set while railroad r is unowned (derived from `owners`, for fast scans).
    var unowned: UInt128 = 0
    var handSize = InlineArray<4, UInt8>(repeating: 0)
    /// Mission slots in use (active missions, plus completed ones under the occupy knob).
    var slotsUsed = InlineArray<4, UInt8>(repeating: 0)
    var completed = InlineArray<4, UInt8>(repeating: 0)
    var points = InlineArray<4, Int16>(repeating: 0)
    var railroadCount = InlineArray<4, UInt8>(repeating: 0)
    /// Discarded cards by colour (`spentCards=discard`).
    var discards = InlineArray<6, UInt8>(repeating: 0)
    var deckCount: Int16 = 0
    var missionDeckCount: Int16 = 0
    var seatCount: Int8 = 0
    @usableFromInline var currentSeat: Int8 = 0
    /// Consecutive passes.
    var passes: Int8 = 0
    @usableFromInline var endReason = RailEndReason.none
    var turn: Int32 = 0

    init(seatCount: Int, railroads: Int) {
        self.seatCount = Int8(seatCount)
        unowned = railroads >= 128 ? .max : (UInt128(1) << railroads) &- 1
    }

    /// Marks railroad `r` owned by `seat`.
    mutating func setOwner(_ r: Int, _ seat: Int) {
        owners[r] = Int8(seat)
        unowned &= ~(UInt128(1) << r)
    }

}

/// For seat s and city c, a label equal for the cities s's railroads join (derived from
/// the owners, kept by the state to test missions in O(1); observations recompute it).
struct RailComponents: Sendable {
    private var labels = InlineArray<256, UInt8>(repeating: 0)

    init() {
        for s in 0..<RailPublicState.seatCapacity {
            for c in 0..<64 { labels[s &* 64 &+ c] = UInt8(c) }
        }
    }

    /// Components of every seat from railroad ownership.
    init(owners: InlineArray<128, Int8>, map: RailMap) {
        self.init()
        for r in 0..<map.packed.count where owners[r] >= 0 {
            join(Int(owners[r]), Int(map.packed[r].from), Int(map.packed[r].to))
        }
    }

    @inline(__always) func connected(_ seat: Int, _ a: Int, _ b: Int) -> Bool {
        withUnsafeBytes(of: labels) { $0[seat &* 64 &+ a] == $0[seat &* 64 &+ b] }
    }

    /// ``connected(_:_:_:)`` read through a pointer to the labels where they lie (read
    /// from a borrowed value, the 256 bytes were copied on each call).
    @inline(__always) mutating func connectedInPlace(_ seat: Int, _ a: Int, _ b: Int) -> Bool {
        withUnsafeMutableBytes(of: &labels) { $0[seat &* 64 &+ a] == $0[seat &* 64 &+ b] }
    }

    /// The component label of `city` for `seat`.
    func label(_ seat: Int, _ city: Int) -> Int { Int(labels[seat &* 64 &+ city]) }

    /// Joins the components of `a` and `b` for `seat`.
    /// - Complexity: O(1): the seat's ``RailMap/maxCities`` labels are rewritten whole,
    ///   without a branch a city (`v == drop ? keep : v`, which the compiler does 16 bytes
    ///   at a time); a label past the map's cities is its own city's index, so it never
    ///   equals `drop`.
    mutating func join(_ seat: Int, _ a: Int, _ b: Int) {
        withUnsafeMutableBytes(of: &labels) { raw in
            let base = seat &* 64
            let keep = raw[base &+ a]
            let drop = raw[base &+ b]
            guard keep != drop else { return }
            // 64: RailMap.maxCities, the labels' layout (the static let read costs a lazy check).
            for c in 0..<64 {
                let v = raw[base &+ c]
                raw[base &+ c] = v == drop ? keep : v
            }
        }
    }
}

extension RailPublicState: Equatable {
    @usableFromInline static func == (l: RailPublicState, r: RailPublicState) -> Bool {
        l.unowned == r.unowned && l.deckCount == r.deckCount && l.missionDeckCount == r.missionDeckCount && l.seatCount == r.seatCount
            && l.currentSeat == r.currentSeat && l.passes == r.passes && l.endReason == r.endReason
            && l.turn == r.turn && l.owners.sameElements(r.owners)
            && l.handSize.sameElements(r.handSize) && l.slotsUsed.sameElements(r.slotsUsed)
            && l.completed.sameElements(r.completed) && l.points.sameElements(r.points)
            && l.railroadCount.sameElements(r.railroadCount) && l.discards.sameElements(r.discards)
    }
}
