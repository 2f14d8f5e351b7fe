/// What a replay page shows of one match: a game draws its picture and notes, the
/// page (Reports' `ReplayPage`) lays them out with the move list and the seats.
///
/// Stepping: position k runs from 0 (before any action) to `steps.count` (after the
/// last), k meaning "after k actions". Every element of ``picture`` that appears during
/// the match carries `data-step`, the index in ``steps`` of the action from which it
/// shows (-1: from the start); the page shows the elements whose `data-step` is at most
/// k − 1 and hides the rest.
public struct ReplayScene: Sendable, Equatable {
    /// A line of a seat's panel: shown from `step`; `outcome` (e.g. "completed") from
    /// `outcomeStep`.
    public struct Note: Sendable, Equatable {
        public var text: String
        public var step: Int
        public var outcome: String?
        public var outcomeStep: Int

        public init(text: String, step: Int, outcome: String? = nil, outcomeStep: Int = -1) {
            self.text = text
            self.step = step
            self.outcome = outcome
            self.outcomeStep = outcomeStep
        }
    }

    public var title: String
    public var summary: String
    /// The drawing's `<svg>` element (no `xmlns`), with `data-step` on what appears
    /// later; nil for a game that draws no picture (the page shows the moves alone).
    public var picture: String?
    public var pictureWidth: Double
    public var pictureHeight: Double
    public var seats: [ReplaySeat]
    /// Per seat, the lines under its heading (missions, edge, connection).
    public var notes: [[Note]]
    public var steps: [ReplayStep]

    public init(title: String, summary: String, picture: String?, pictureWidth: Double, pictureHeight: Double,
                seats: [ReplaySeat], notes: [[Note]], steps: [ReplayStep]) {
        self.title = title
        self.summary = summary
        self.picture = picture
        self.pictureWidth = pictureWidth
        self.pictureHeight = pictureHeight
        self.seats = seats
        self.notes = notes
        self.steps = steps
    }
}

/// One action of a replayed match.
public struct ReplayStep: Sendable, Equatable {
    /// The turn after the action (the game's count).
    public var turn: Int
    public var seat: Int
    /// The action as `oplab play --trace` prints it.
    public var action: String
    /// The mover's standing after it.
    public var detail: String

    public init(turn: Int, seat: Int, action: String, detail: String) {
        self.turn = turn
        self.seat = seat
        self.action = action
        self.detail = detail
    }
}

/// A seat's result at the end of a replayed match.
public struct ReplaySeat: Sendable, Equatable {
    /// The strategy spec that played the seat.
    public var player: String
    public var place: Int
    /// win, draw or loss.
    public var result: String
    /// The game's per-seat figures (name, value), as `oplab play` prints them.
    public var figures: [Figure]

    public struct Figure: Sendable, Equatable {
        public var name: String
        public var value: Int

        public init(name: String, value: Int) {
            self.name = name
            self.value = value
        }
    }

    public init(player: String, place: Int, result: String, figures: [Figure]) {
        self.player = player
        self.place = place
        self.result = result
        self.figures = figures
    }
}
