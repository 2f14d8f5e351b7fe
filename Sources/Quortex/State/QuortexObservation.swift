import LabCore

/// What a seat sees of a Quortex match: everything but the order of the bag.
public struct QuortexObservation: GameObservation {
    public typealias State = QuortexState

    /// The seat that sees.
    public var seat: Int { seatNumber }
    @usableFromInline var seatNumber: Int
    public let setup: QuortexSetup
    @usableFromInline var cells: InlineArray<128, UInt8>
    @usableFromInline var occupied: CellSet
    @usableFromInline var remaining: InlineArray<4, UInt8>
    @usableFromInline var tile: Int8
    @usableFromInline var slot: Int8
    @usableFromInline var turns: Int32
    @usableFromInline var placedBySeat: InlineArray<6, UInt8>
    @usableFromInline var placers: InlineArray<3, CellSet>
    @usableFromInline var winners: UInt8
    @usableFromInline var reason: QuortexEndReason

    /// Memberwise, so the state's observation reads its fields in place.
    @inlinable
    init(seat: Int, setup: QuortexSetup, cells: InlineArray<128, UInt8>, occupied: CellSet, remaining: InlineArray<4, UInt8>,
         tile: Int8, slot: Int8, turns: Int32, placedBySeat: InlineArray<6, UInt8>, placers: InlineArray<3, CellSet>, winners: UInt8,
         reason: QuortexEndReason) {
        seatNumber = seat
        self.setup = setup
        self.cells = cells
        self.occupied = occupied
        self.remaining = remaining
        self.tile = tile
        self.slot = slot
        self.turns = turns
        self.placedBySeat = placedBySeat
        self.placers = placers
        self.winners = winners
        self.reason = reason
    }

    public static func == (l: QuortexObservation, r: QuortexObservation) -> Bool {
        l.seat == r.seat && l.setup === r.setup && l.occupied == r.occupied && l.tile == r.tile && l.slot == r.slot
            && l.turns == r.turns && l.winners == r.winners && l.reason == r.reason
            && l.cells.sameElements(r.cells) && l.remaining.sameElements(r.remaining) && l.placedBySeat.sameElements(r.placedBySeat)
            && l.placers.sameElements(r.placers)
    }

    /// The drawn tile's type (nil once the match is over before a draw).
    public var drawnTile: Int? { tile < 0 ? nil : Int(tile) }
    /// Tile code on `cell`, or nil when empty.
    public func tileCode(at cell: Int) -> Int? { cells[cell] == QuortexState.emptyCell ? nil : Int(cells[cell]) }
    /// Tiles of `type` still in the bag.
    public func remaining(_ type: Int) -> Int { Int(remaining[type]) }
    public var turn: Int { Int(turns) }

    /// A state with this board and drawn tile and the unseen tiles in a random order.
    public func sampleState(using rng: inout LabRandom) -> QuortexState {
        var state = QuortexState(setup: setup)
        state.cells = cells
        state.occupied = occupied
        state.remaining = remaining
        state.tile = tile
        state.slot = slot
        state.turns = turns
        state.placedBySeat = placedBySeat
        state.placers = placers
        state.winners = winners
        state.reason = reason
        state.shuffleRemainingIntoBag(using: &rng)
        state.rebuildGraph()
        if !state.isTerminal { state.analyseTurn() }
        return state
    }

    /// The bag of `state` (a copy of one ``sampleState(using:)`` made from this
    /// observation) shuffled again from `rng`: the rest, the board's junction graph and
    /// the drawn tile's legality analysis included, is what a new sample would rebuild.
    public func resample(_ state: inout QuortexState, using rng: inout LabRandom) {
        state.shuffleRemainingIntoBag(using: &rng)
    }
}
