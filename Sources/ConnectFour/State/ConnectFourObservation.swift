import LabCore

/// What a seat sees of a Connect Four match: all of it (perfect information).
public struct ConnectFourObservation: GameObservation, Sendable {
    public typealias State = ConnectFourState

    public let seat: Int
    /// The whole position.
    public let position: ConnectFourState

    @inlinable
    public init(seat: Int, position: ConnectFourState) {
        self.seat = seat
        self.position = position
    }

    /// Discs dropped so far.
    public var turn: Int { position.turn }

    /// The position itself: nothing is hidden, so nothing is drawn from `rng`.
    @inlinable
    public func sampleState(using rng: inout LabRandom) -> ConnectFourState { position }
}
