import LabCore

/// The input of a learned tic-tac-toe model, from the observing seat's side: 9 values, 1
/// where the observer has a mark; 9 where the opponent has one; 1 when the observer is to
/// move. Version 1. Its symmetries are the board's eight (four turns, each mirrored).
public struct TicTacToeFeatures: FeatureEncoder {
    public typealias Observation = TicTacToeObservation

    public static let gameName = TicTacToeGame.name
    public static let featureVersion = 1

    public init() {}

    public var featureCount: Int { 2 * TicTacToeState.cells + 1 }
    public var layoutKey: String { "3x3" }
    public var featureNames: [String] {
        let cells = (0..<9).map { "r\($0 / 3)c\($0 % 3)" }
        return cells.map { "own.\($0)" } + cells.map { "other.\($0)" } + ["to-move"]
    }

    public func encode(_ observation: TicTacToeObservation, into features: UnsafeMutableBufferPointer<Float>) {
        precondition(features.count == featureCount, "tictactoe features: \(featureCount) values, buffer holds \(features.count)")
        let own = observation.position.marks(of: observation.seat), other = observation.position.marks(of: 1 - observation.seat)
        for cell in 0..<9 {
            features[cell] = own & (1 << UInt16(cell)) != 0 ? 1 : 0
            features[9 + cell] = other & (1 << UInt16(cell)) != 0 ? 1 : 0
        }
        features[18] = observation.position.currentSeat == observation.seat ? 1 : 0
    }

    /// The seven symmetries besides the identity: cell (r, c) goes to the image's
    /// `map(r, c)`.
    public var symmetries: [FeatureSymmetry] {
        let maps: [(Int, Int) -> (Int, Int)] = [
            { r, c in (c, 2 - r) }, { r, c in (2 - r, 2 - c) }, { r, c in (2 - c, r) },  // turns
            { r, c in (r, 2 - c) }, { r, c in (2 - r, c) }, { r, c in (c, r) }, { r, c in (2 - c, 2 - r) },  // mirrors
        ]
        return maps.map { map in
            // The image's cell `to` holds the original's cell `from`.
            var source = [Int](repeating: 0, count: 9), image = [Int](repeating: 0, count: 9)
            for from in 0..<9 {
                let (r, c) = map(from / 3, from % 3)
                source[r * 3 + c] = from
                image[from] = r * 3 + c
            }
            return FeatureSymmetry(features: source + source.map { $0 + 9 } + [18], actions: image)
        }
    }
}
