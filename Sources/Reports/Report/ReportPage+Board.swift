import Pictures

/// The board section: where on the board the entrants played, as the run's game draws it
/// from its board-count file (``BoardCountDrawing``); absent when the game draws none or
/// the run wrote no such file.
extension ReportPage {
    func board() -> String {
        guard let board = folder.board else { return "" }
        return section("board", board.heading, board.question, board.content)
    }
}
