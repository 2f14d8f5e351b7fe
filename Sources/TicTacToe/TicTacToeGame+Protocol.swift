import LabCore

/// Tic-tac-toe in the player protocol (docs/protocol/tictactoe.md): no rules, the board's
/// size in `setup`, actions as `{"cell": N, "row": R, "col": C}`, the whole position in
/// the observation.
extension TicTacToeGame: ProtocolGame {
    /// `hello.rules`: `{}` (the game has no knobs).
    public func writeProtocolRules(to json: inout JSONWriter) {
        json.beginObject()
        json.endObject()
    }

    /// `hello.setup`: `{"rows":3,"columns":3,"action_count":9,"marks":["X","O"]}`.
    public func writeProtocolSetup(to json: inout JSONWriter) {
        json.beginObject()
        json.member("rows", 3)
        json.member("columns", 3)
        json.member("action_count", TicTacToeState.cells)
        json.member("marks", strings: TicTacToeState.marks)
        json.endObject()
    }

    /// `{"cell":N,"row":R,"col":C}`: a mark on cell N = 3R + C.
    public func writeProtocolAction(_ action: Int, to json: inout JSONWriter) {
        json.beginObject()
        json.member("cell", action)
        json.member("row", action / 3)
        json.member("col", action % 3)
        json.endObject()
    }

    /// `mark rRcC`, as ``TicTacToeState/describe(_:)``.
    public func protocolText(of action: Int) -> String { Self.text(of: action) }
}

extension TicTacToeObservation: ProtocolObservation {
    /// `turn.observation`: the seat, the turn, the mover, the board as three rows from the
    /// top, each cell the seat owning it or `null`, and the winner with the end reason.
    public func writeProtocolObservation(to json: inout JSONWriter) {
        json.beginObject()
        json.member("seat", seat)
        json.member("turn", position.turn)
        json.member("mover", position.currentSeat)
        json.member("board", rows: 3, columns: 3) { row, column in position.seat(at: row * 3 + column) }
        json.key("winner")
        json.integerOrNull(position.winningSeat ?? -1)
        json.member("reason", position.endReason.name)
        json.endObject()
    }
}
