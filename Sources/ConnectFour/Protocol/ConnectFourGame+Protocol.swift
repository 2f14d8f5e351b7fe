import LabCore

/// Connect Four in the player protocol (`docs/protocol/connect4.md`): no rules to
/// resolve, the board's size in `setup`, actions as `{"column": N}`, and the whole
/// position in the observation.
extension ConnectFourGame: ProtocolGame {
    /// `hello.rules`: `{}` (the game has no knobs).
    public func writeProtocolRules(to json: inout JSONWriter) {
        json.beginObject()
        json.endObject()
    }

    /// `hello.setup`: the board's size, the line that wins, the action count and the
    /// seats' marks: `{"columns":7,"rows":6,"connect":4,"action_count":7,"marks":["X","O"]}`.
    public func writeProtocolSetup(to json: inout JSONWriter) {
        json.beginObject()
        json.member("columns", Bitboard.columns)
        json.member("rows", Bitboard.rows)
        json.member("connect", Bitboard.connect)
        json.member("action_count", Bitboard.columns)
        json.member("marks", strings: ConnectFourState.marks)
        json.endObject()
    }

    /// `{"column":N}`: a disc into column N (the action id).
    public func writeProtocolAction(_ action: Int, to json: inout JSONWriter) {
        json.beginObject()
        json.member("column", action)
        json.endObject()
    }

    /// `drop cN`, as ``ConnectFourState/describe(_:)``.
    public func protocolText(of action: Int) -> String { Self.text(of: action) }
}

extension ConnectFourObservation: ProtocolObservation {
    /// `turn.observation`: the seat, the turn, the mover, the board as six rows from the
    /// bottom up, each the seat owning each column's cell or `null`, the columns'
    /// heights, and the winner with the end reason.
    /// - Complexity: O(42); no allocation once the writer has grown.
    public func writeProtocolObservation(to json: inout JSONWriter) {
        json.beginObject()
        json.member("seat", seat)
        json.member("turn", position.turn)
        json.member("mover", position.currentSeat)
        json.member("board", rows: Bitboard.rows, columns: Bitboard.columns) { row, column in position.seat(column: column, row: row) }
        json.key("heights")
        json.beginArray()
        for column in 0..<Bitboard.columns { json.value(position.height(of: column)) }
        json.endArray()
        json.key("winner")
        json.integerOrNull(Int(position.winner))
        json.member("reason", position.reason.name)
        json.endObject()
    }
}
