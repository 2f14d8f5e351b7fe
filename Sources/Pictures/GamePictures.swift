import LabCore

/// How a game draws itself for the lab's generic tools. A game supplies what it can:
/// ``ReplayDrawing`` for the replay pages of `oplab play --svg/--html`, and a
/// ``BoardCountDrawing`` for the board section of a tournament's report. A game
/// without them still replays (the move list and the outcome, ``MatchReplay/plainScene``)
/// and still reports (no board section).

/// A match played to its end with every step kept, for drawing.
public struct MatchReplay<G: Game> {
    /// One action with the states around it.
    public struct Event {
        public var before: G.State
        public var action: Int
        public var after: G.State

        public init(before: G.State, action: Int, after: G.State) {
            self.before = before
            self.action = action
            self.after = after
        }
    }

    public var game: G
    public var events: [Event]
    /// The dealt state (before the first action).
    public var initial: G.State
    public var final: G.State
    public var outcome: Outcome
    /// Who played each seat and how it ended.
    public var seats: [ReplaySeat]
    /// The seed the user gave (shown in titles).
    public var seed: UInt64

    public init(game: G, events: [Event], initial: G.State, final: G.State, outcome: Outcome, seats: [ReplaySeat], seed: UInt64) {
        self.game = game
        self.events = events
        self.initial = initial
        self.final = final
        self.outcome = outcome
        self.seats = seats
        self.seed = seed
    }

    /// The steps every replay shows: the action as the trace prints it and the mover's
    /// standing after it.
    public var steps: [ReplayStep] {
        events.map { e in
            ReplayStep(turn: e.after.turn, seat: e.before.currentSeat, action: e.before.describe(e.action),
                       detail: e.after.traceDetail(seat: e.before.currentSeat))
        }
    }

    /// The replay of a game that draws no picture: the move list, the seats' results
    /// and the end reason.
    public var plainScene: ReplayScene {
        ReplayScene(title: "\(G.name) replay, seed \(seed)",
                    summary: "\(seats.count) seats · \(events.count) actions · ended: \(outcome.endReason)",
                    picture: nil, pictureWidth: 0, pictureHeight: 0, seats: seats,
                    notes: Array(repeating: [], count: seats.count), steps: steps)
    }
}

/// A game that draws its replays: a picture of the board that steps with the match.
public protocol ReplayDrawing: Game {
    /// The replay scene of `match`: its picture (elements that appear later carry
    /// `data-step`), title, summary and per-seat notes, with `match.steps` and
    /// `match.seats`.
    static func scene(of match: MatchReplay<Self>) -> ReplayScene
}

/// A tournament's board-count file read back: per board element (a railroad, a cell)
/// and entrant, how often the entrant marked it (built it, placed on it, won through it).
/// The harness writes the file from the game's counts spec; Reports reads and checks it
/// (element numbers without gaps, known entrants, counts) and hands it to the game's
/// ``BoardCountDrawing``.
public struct BoardCountFile: Sendable {
    /// The file, for error messages.
    public var path: String
    /// What the run played on (the map's name, or the run's).
    public var title: String
    /// The columns describing an element (the first is its number).
    public var elementColumns: [String]
    /// Per element, its describing fields (from its first row).
    public var elements: [[String]]
    /// Per element, the line of its first row.
    public var lines: [Int]
    /// The count columns, after `entrant`.
    public var countColumns: [String]
    /// `counts[c][element][entrant]`.
    public var counts: [[[Int]]]
    /// Entrant names, config order.
    public var entrants: [String]
    /// Entrants in the order the report lists them.
    public var order: [Int]

    public init(path: String, title: String, elementColumns: [String], elements: [[String]], lines: [Int],
                countColumns: [String], counts: [[[Int]]], entrants: [String], order: [Int]) {
        self.path = path
        self.title = title
        self.elementColumns = elementColumns
        self.elements = elements
        self.lines = lines
        self.countColumns = countColumns
        self.counts = counts
        self.entrants = entrants
        self.order = order
    }

    /// The count column `name`, `[element][entrant]` (zeros when absent).
    public func counts(_ name: String) -> [[Int]] {
        guard let c = countColumns.firstIndex(of: name) else {
            return elements.map { _ in Array(repeating: 0, count: entrants.count) }
        }
        return counts[c]
    }

    /// Element `element`'s field in column `column` ("" when absent).
    public func text(_ column: String, of element: Int) -> String {
        guard let c = elementColumns.firstIndex(of: column) else { return "" }
        return elements[element][c]
    }

    /// Element `element`'s field in column `column` as a number.
    /// - Throws: naming the file, the line and the column.
    public func double(_ column: String, of element: Int) throws(InputError) -> Double {
        let text = text(column, of: element)
        guard let value = Double(text), value.isFinite else {
            throw InputError("\(path):\(lines[element]): column '\(column)': '\(text)' is not a number")
        }
        return value
    }

    /// Element `element`'s field in column `column` as a whole number.
    /// - Throws: naming the file, the line and the column.
    public func int(_ column: String, of element: Int) throws(InputError) -> Int {
        let text = text(column, of: element)
        guard let value = Int(text) else {
            throw InputError("\(path):\(lines[element]): column '\(column)': '\(text)' is not a whole number")
        }
        return value
    }

    /// Element `element`'s field in column `column` as a count (0 or more).
    /// - Throws: naming the file, the line and the column.
    public func count(_ column: String, of element: Int) throws(InputError) -> Int {
        let value = try double(column, of: element)
        guard value >= 0, value == value.rounded(), value < 1e15 else {
            throw InputError("\(path):\(lines[element]): column '\(column)': '\(text(column, of: element))' is not a count (a whole number, 0 or more)")
        }
        return Int(value)
    }
}

/// A report section a game draws: a heading, the question it answers, and its HTML
/// (figures of inline SVG).
public struct BoardSection: Sendable, Equatable {
    public var heading: String
    public var question: String
    public var content: String

    public init(heading: String, question: String, content: String) {
        self.heading = heading
        self.question = question
        self.content = content
    }
}

/// A game's picture of its board counts, for the report's board section.
public protocol BoardCountDrawing: Sendable {
    /// The game whose runs it draws (`run.json`'s `game`).
    var game: String { get }
    /// The board-count file it reads, e.g. `railroads.csv`.
    var file: String { get }
    /// What the file holds, for the report's list of files.
    var describes: String { get }
    /// The file's columns: the element's, `entrant`, then the counts.
    var columns: [String] { get }
    /// The section drawn from the file.
    /// - Throws: naming the file, line and column of a field it cannot use.
    func section(_ file: BoardCountFile) throws(InputError) -> BoardSection
}
