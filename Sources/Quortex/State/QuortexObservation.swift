import LabCore

/// What a seat sees of a Quortex match: everything but the order of the bag.
public struct QuortexObservation: GameObservation {
    public typealias State = QuortexState

    public let seat: Int
    public let setup: QuortexSetup
    var cells: InlineArray<128, UInt8>
    var occupied: CellSet
    var remaining: InlineArray<4, UInt8>
    var tile: Int8
    var slot: Int8
    var turns: Int32
    var placedBySeat: InlineArray<6, UInt8>
    var winners: UInt8
    var reason: QuortexEndReason

    @usableFromInline
    init(state: borrowing QuortexState, seat: Int) {
        self.seat = seat
        setup = state.setup
        cells = state.cells
        occupied = state.occupied
        remaining = state.remaining
        tile = state.tile
        slot = state.slot
        turns = state.turns
        placedBySeat = state.placedBySeat
        winners = state.winners
        reason = state.reason
    }

    public static func == (l: QuortexObservation, r: QuortexObservation) -> Bool {
        l.seat == r.seat && l.setup === r.setup && l.occupied == r.occupied && l.tile == r.tile && l.slot == r.slot
            && l.turns == r.turns && l.winners == r.winners && l.reason == r.reason
            && l.cells.sameElements(r.cells) && l.remaining.sameElements(r.remaining) && l.placedBySeat.sameElements(r.placedBySeat)
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
        state.winners = winners
        state.reason = reason
        state.shuffleRemainingIntoBag(using: &rng)
        state.rebuildGraph()
        if !state.isTerminal { state.analyseTurn() }
        return state
    }
}
