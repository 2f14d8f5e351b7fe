import LabCore

/// What a policy-value search asks of a network: the features of a seat's observation,
/// and evaluations of many positions at once.
///
/// The search never calls ``evaluate(_:batch:logits:values:)`` itself: it hands out the
/// positions it needs (``GumbelSearch/pending``) and takes their evaluations back, so one
/// caller can batch the leaves of many searches (the games of a self-play round) into one
/// product.
public protocol PolicyValueModel<State>: AnyObject {
    associatedtype State: GameState
    /// Features of one position (the network's input width).
    var featureCount: Int { get }
    /// Policy logits per position: the game's action ids.
    var actionCount: Int { get }
    /// Values per position: one per seat, the observer's first.
    var seatCount: Int { get }
    /// Writes the features of `seat`'s observation of `state` (that seat's view only).
    func encode(_ state: State, seat: Int, into features: UnsafeMutableBufferPointer<Float>)
    /// Evaluates `batch` rows of features: `batch × actionCount` logits and
    /// `batch × seatCount` score shares (rows sum to 1), the observer first.
    func evaluate(_ features: UnsafePointer<Float>, batch: Int, logits: UnsafeMutablePointer<Float>, values: UnsafeMutablePointer<Float>)
}
