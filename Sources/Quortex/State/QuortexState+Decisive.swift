import LabCore

extension QuortexState {
    /// The first placement of `legal` that completes a flow for `mover`'s side and not
    /// for every side: ``DecisiveMoves/byApplying(_:mover:legal:)``'s answer without
    /// applying each placement (which would also analyse the next tile's placements).
    ///
    /// A placement ends the match when it completes a flow (its sides win) or, completing
    /// none, when the next mover cannot play (an empty bag, or no legal placement for the
    /// tile it draws: the next mover's side wins). The channels a placement makes
    /// (``Links``) say the first; the second wins the match for `mover` only when the next
    /// mover is its partner, and then the placement is applied to a copy as the default does.
    public func decisiveAction(for mover: Int, among legal: ActionBuffer) -> Int? {
        guard !isTerminal, mover == currentSeat, tile >= 0 else { return DecisiveMoves.byApplying(self, mover: mover, legal: legal) }
        let setup = self.setup
        let moverSide = setup.sideOfSeat[mover]
        let nextIsPartner = setup.sideOfSeat[setup.turnOrder[(Int(slot) + 1) % setup.turnOrder.count]] == moverSide
        let type = Int(tile)
        return withPosition { t, cells, _ in
            var endsCell = legal.count > 0 ? legal[0] / 6 : 0
            var ends = CellEnds(t, cells, cell: endsCell)
            for k in 0..<legal.count {
                let action = legal[k]
                let cell = action / 6
                if cell != endsCell { ends = CellEnds(t, cells, cell: cell); endsCell = cell }
                let links = Links(cell: cell, code: type * 6 + action % 6, ends: ends, partner: t.partner)
                let completed = links.completedAxes & setup.liveAxes
                if completed != 0 {
                    // The completing sides share first place: `mover` wins when its side is
                    // one of them and some seat is not.
                    var firsts = 0, moverFirst = false
                    for seat in 0..<setup.seatCount where completed & (1 << setup.sideAxis[setup.sideOfSeat[seat]]) != 0 {
                        firsts += 1
                        if seat == mover { moverFirst = true }
                    }
                    if moverFirst && firsts < setup.seatCount { return action }
                } else if nextIsPartner {
                    var next = self
                    next.apply(action)
                    if next.isTerminal && DecisiveMoves.wins(next.outcome, mover: mover, seats: setup.seatCount) { return action }
                }
            }
            return nil
        }
    }
}
