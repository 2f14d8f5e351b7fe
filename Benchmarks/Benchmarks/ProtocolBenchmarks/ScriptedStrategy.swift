import LabCore

/// The bot's recorded action ids, handed out in order across the matches of one run.
final class ScriptedReplies: @unchecked Sendable {
    private let ids: [Int]
    private var next = 0

    init(_ ids: [Int]) { self.ids = ids }

    /// Back to the first reply, for the next run.
    func rewind() { next = 0 }

    func take() -> Int {
        precondition(next < ids.count, "more decisions than recorded replies")
        defer { next += 1 }
        return ids[next]
    }
}

/// Plays a bot's recorded replies: the bot's matches without the bot.
final class ScriptedStrategy<G: Game>: Strategy {
    let replies: ScriptedReplies

    init(_ replies: ScriptedReplies) { self.replies = replies }

    func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        replies.take()
    }
}
