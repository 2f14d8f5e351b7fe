import LabCore

/// The start of every `turn` line.
private let turnLinePrefix = Array("{\"type\":\"turn\",".utf8)
/// The start of an `action` reply in its compact form (``ExternalStrategy/compactActionID(_:)``).
private let compactActionReplyPrefix = Array("{\"type\":\"action\",\"id\":".utf8)

/// `external(...)`: a bot outside the lab, played through the player protocol
/// (`docs/protocol.md`). One instance per seat per match, as every strategy; its process
/// lives in a ``BotSlot`` from match to match.
///
/// A fault (a late, missing, unreadable or illegal reply, or a dead process) forfeits
/// the match: ``chooseAction(_:legal:)`` returns ``Forfeit/action``, the process group is
/// killed, and the next match starts a fresh process.
public final class ExternalStrategy<G: ProtocolGame>: Strategy {
    let slot: BotSlot
    let game: G
    let seat: Int
    /// `"match":"N",` (the match id as the messages carry it).
    let matchField: [UInt8]
    let match: Int
    /// The fault that ends this match for the bot, once there is one.
    public private(set) var fault: BotFault?
    /// Whether `start` reached the bot (only then does it hear `end`).
    private var started = false

    public var forfeitKind: ForfeitKind? { fault?.kind }
    public var followsActions: Bool { slot.program.identity.follow }

    /// Sends `start`. A process that died since its last match is replaced first, so a
    /// bot forfeits only matches it breaks; one that cannot be started forfeits this one.
    public init(slot: BotSlot, context: StrategyContext<G>) {
        self.slot = slot
        game = context.game
        seat = context.seat
        match = context.match
        var m = JSONWriter(capacity: 32)
        m.key("match")
        m.value(String(context.match))
        matchField = m.bytes
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.member("type", "start")
        w.bytes += [UInt8(ascii: ",")] + matchField
        w.member("seat", context.seat)
        w.member("teams", integers: context.game.teams)
        w.member("seed", String(context.seed))
        w.endObject()
        w.bytes.append(UInt8(ascii: "\n"))
        let line = w.bytes
        for attempt in 0..<2 {
            do throws(BotFault) {
                let process = try slot.running()
                try process.send(line, deadline: monotonicNanoseconds() + UInt64(slot.program.timeoutMs) * 1_000_000)
                started = true
                return
            } catch {
                if attempt == 1 {
                    fault = error
                    slot.fail(error, match: context.match, seat: context.seat)
                } else {
                    slot.discard()
                }
            }
        }
    }

    public func chooseAction(_ observation: G.State.Observation, legal: ActionBuffer) -> Int {
        guard fault == nil else { return Forfeit.action }
        do throws(BotFault) {
            let process = try slot.running()
            if process.hasUnreadOutput() {
                let line = (try? process.readLine(deadline: 0)) ?? []
                throw BotFault(.malformed, "wrote a line before its turn: \(BotProgram.quote(line))")
            }
            writeTurn(observation, legal: legal)
            let timeout = UInt64(slot.program.timeoutMs) * 1_000_000
            let begun = monotonicNanoseconds()
            try process.send(slot.writer.bytes, deadline: begun + timeout)
            let line = try process.readLine(deadline: monotonicNanoseconds() + timeout)
            slot.record(latency: monotonicNanoseconds() - begun)
            let id = try Self.actionID(line)
            guard legal.contains(id) else {
                throw BotFault(.illegal, "answered id \(id), which is not among the \(legal.count) legal actions of turn \(observation.turn)")
            }
            return id
        } catch {
            fault = error
            slot.fail(error, match: match, seat: seat)
            return Forfeit.action
        }
    }

    /// The id of an `action` reply: a JSON object of type `action` with an integer `id`
    /// (other fields ignored); anything else is `malformed`.
    static func actionID(_ line: ArraySlice<UInt8>) throws(BotFault) -> Int {
        if let id = compactActionID(line) { return id }
        let value: JSONValue
        do { value = try JSONParser.parse(line) } catch {
            throw BotFault(.malformed, "its reply is not JSON (\(error)): \(BotProgram.quote(line))")
        }
        guard case .object = value, let type = value["type"]?.string else {
            throw BotFault(.malformed, "its reply is not a JSON object with a string 'type': \(BotProgram.quote(line))")
        }
        guard type == "action" else {
            throw BotFault(.malformed, "its reply has type '\(type)' where 'action' was due: \(BotProgram.quote(line))")
        }
        guard let id = value["id"]?.integer else {
            throw BotFault(.malformed, "its action has no integer 'id': \(BotProgram.quote(line))")
        }
        return id
    }

    /// The id of a reply written exactly `{"type":"action","id":N}` (compact, these two
    /// members in this order, N a JSON integer that fits an Int), read without building
    /// a JSON value; nil for any other line, which then goes to the full parser.
    static func compactActionID(_ line: ArraySlice<UInt8>) -> Int? {
        guard line.starts(with: compactActionReplyPrefix), line.last == UInt8(ascii: "}") else { return nil }
        var i = line.startIndex + compactActionReplyPrefix.count
        let end = line.endIndex - 1
        let negative = i < end && line[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        let digits = end - i
        // 1 to 18 digits (no overflow), no leading zero (JSON).
        guard digits >= 1, digits <= 18, line[i] != UInt8(ascii: "0") || digits == 1 else { return nil }
        var n = 0
        while i < end {
            let d = Int(line[i]) - Int(UInt8(ascii: "0"))
            guard d >= 0 && d <= 9 else { return nil }
            n = n * 10 + d
            i += 1
        }
        return negative ? -n : n
    }

    /// The `turn` line into the slot's writer.
    ///
    /// The writer is moved out of the slot for the writing and back after it: written
    /// through the class property, every call would pay a dynamic exclusivity check, a
    /// retain and a uniqueness check.
    /// - Complexity: the observation's size plus one copy of a cached entry per legal action.
    func writeTurn(_ observation: G.State.Observation, legal: ActionBuffer) {
        var w = JSONWriter(capacity: 0)
        swap(&w, &slot.writer)
        defer { swap(&w, &slot.writer) }
        w.reset()
        w.bytes += turnLinePrefix
        w.bytes += matchField
        w.bytes.append(UInt8(ascii: ","))
        w.member("turn", observation.turn)
        w.member("seat", seat)
        w.key("observation")
        observation.writeProtocolObservation(to: &w)
        w.key("legal")
        w.beginArray()
        for k in 0..<legal.count {
            if k > 0 { w.bytes.append(UInt8(ascii: ",")) }
            w.bytes.append(UInt8(ascii: "{"))
            w.bytes += slot.entry(legal[k], game: game)
            w.bytes.append(UInt8(ascii: "}"))
        }
        w.endArray()
        w.key("time")
        w.beginObject()
        w.member("move_ms", slot.program.timeoutMs)
        w.endObject()
        w.endObject()
        w.bytes.append(UInt8(ascii: "\n"))
    }

    public func didApply(_ action: Int, by seat: Int) {
        guard fault == nil, started, let process = slot.process else { return }
        slot.writer.reset()
        slot.writer.bytes += Array("{\"type\":\"played\",".utf8)
        slot.writer.bytes += matchField
        slot.writer.bytes.append(UInt8(ascii: ","))
        slot.writer.member("seat", seat)
        slot.writer.bytes.append(UInt8(ascii: ","))
        slot.writer.bytes += slot.entry(action, game: game)
        slot.writer.bytes += Array("}\n".utf8)
        do {
            try process.send(slot.writer.bytes, deadline: monotonicNanoseconds() + UInt64(slot.program.timeoutMs) * 1_000_000)
        } catch {
            // The bot broke this match: it forfeits at its next turn.
            fault = error
            slot.fail(error, match: match, seat: seat)
        }
    }

    public func matchDidEnd(_ outcome: Outcome) {
        guard fault == nil, started, let process = slot.process else { return }
        var w = JSONWriter(capacity: 128)
        w.beginObject()
        w.member("type", "end")
        w.bytes += [UInt8(ascii: ",")] + matchField
        w.member("places", integers: outcome.places)
        w.member("reason", outcome.endReason)
        if let forfeit = outcome.forfeit {
            w.key("forfeit")
            w.beginObject()
            w.member("seat", forfeit.seat)
            w.member("kind", forfeit.kind.rawValue)
            w.endObject()
        }
        w.endObject()
        w.bytes.append(UInt8(ascii: "\n"))
        do {
            try process.send(w.bytes, deadline: monotonicNanoseconds() + UInt64(slot.program.timeoutMs) * 1_000_000)
        } catch {
            slot.discard()
        }
    }
}
