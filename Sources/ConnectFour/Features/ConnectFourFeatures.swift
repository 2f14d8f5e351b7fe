import LabCore

/// The input of a learned Connect Four model: the board from the observing seat's side.
///
/// - 42 values: 1 where the observer has a disc (column-major, bottom row first).
/// - 42 values: 1 where the opponent has one.
/// - 1 value: 1 when the observer is to move.
///
/// Version 1. The board is the whole of a seat's observation (nothing is hidden). Its one
/// symmetry is the mirror image: column c is column 6 - c.
public struct ConnectFourFeatures: FeatureEncoder {
    public typealias Observation = ConnectFourObservation

    public static let gameName = ConnectFourGame.name
    public static let featureVersion = 1

    public init() {}

    public var featureCount: Int { 2 * Bitboard.cells + 1 }
    public var layoutKey: String { "\(Bitboard.columns)x\(Bitboard.rows)" }
    public var featureNames: [String] {
        let cells = (0..<Bitboard.columns).flatMap { c in (0..<Bitboard.rows).map { r in "c\(c)r\(r)" } }
        return cells.map { "own.\($0)" } + cells.map { "other.\($0)" } + ["to-move"]
    }

    public func encode(_ observation: ConnectFourObservation, into features: UnsafeMutableBufferPointer<Float>) {
        precondition(features.count == featureCount, "connect4 features: \(featureCount) values, buffer holds \(features.count)")
        let position = observation.position
        let own = position.discs(of: observation.seat), other = position.discs(of: 1 - observation.seat)
        var at = 0
        for discs in [own, other] {
            for column in 0..<Bitboard.columns {
                for row in 0..<Bitboard.rows {
                    features[at] = discs & Bitboard.bit(column: column, row: row) != 0 ? 1 : 0
                    at += 1
                }
            }
        }
        features[at] = position.currentSeat == observation.seat ? 1 : 0
    }

    public var symmetries: [FeatureSymmetry] {
        let columns = Bitboard.columns, rows = Bitboard.rows
        let mirrored = (0..<2).flatMap { plane in
            (0..<columns).flatMap { c in (0..<rows).map { r in plane * Bitboard.cells + (columns - 1 - c) * rows + r } }
        }
        return [FeatureSymmetry(features: mirrored + [2 * Bitboard.cells], actions: (0..<columns).map { columns - 1 - $0 })]
    }
}
