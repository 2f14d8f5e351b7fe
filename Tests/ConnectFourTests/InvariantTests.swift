import ConnectFour
import LabCore
import Testing

/// `invariantViolation()` accepts every position of play and catches each kind of
/// corruption, for the reason it names.
@Suite("Invariants")
struct InvariantTests {
    /// A sound running position: X on (3,0) (3,2) (4,0), O on (3,1) (2,0); O to move.
    static let sound = C4.play([3, 3, 4, 2, 3])

    /// `sound` with its raw fields changed by `change`.
    static func corrupt(_ change: (inout (discs0: UInt64, discs1: UInt64, heights: [Int], turn: Int, winner: Int,
                                          reason: ConnectFourEndReason)) -> Void) -> ConnectFourState {
        var raw = sound.raw
        change(&raw)
        return ConnectFourState(discs0: raw.discs0, discs1: raw.discs1, heights: raw.heights, turn: raw.turn, winner: raw.winner,
                                reason: raw.reason)
    }

    static func expectCaught(_ state: ConnectFourState, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let violation = state.invariantViolation()
        #expect(violation?.contains(words) == true, "expected '\(words)', got \(violation ?? "none")", sourceLocation: sourceLocation)
    }

    @Test func theSoundPositionAndItsRawCopyPass() {
        #expect(Self.sound.invariantViolation() == nil)
        #expect(Self.corrupt { _ in } == Self.sound)
    }

    @Test func aDiscInASentinelOrBeyondTheBoard() {
        Self.expectCaught(Self.corrupt { $0.discs0 |= Bitboard.bit(column: 1, row: 6) }, "outside the board")
        Self.expectCaught(Self.corrupt { $0.discs1 |= 1 << 49 }, "outside the board")
        Self.expectCaught(Self.corrupt { $0.discs1 |= 1 << 63 }, "outside the board")
    }

    @Test func twoDiscsOnOneCell() {
        Self.expectCaught(Self.corrupt { $0.discs1 |= Bitboard.bit(column: 3, row: 0) }, "both seats")
    }

    @Test func aDiscFloatingAboveItsColumn() {
        // A disc on (5,2) over an empty column 5, counts kept right by moving one of X's.
        Self.expectCaught(Self.corrupt {
            $0.discs0 &= ~Bitboard.bit(column: 4, row: 0)
            $0.discs0 |= Bitboard.bit(column: 5, row: 2)
            $0.heights[4] = 0
        }, "floats above")
        // Column 3 holds three discs but says two.
        Self.expectCaught(Self.corrupt { $0.heights[3] = 2 }, "floats above")
    }

    @Test func aHoleBelowAColumnsHeight() {
        Self.expectCaught(Self.corrupt { $0.heights[6] = 1 }, "hole below")
        Self.expectCaught(Self.corrupt { $0.heights[0] = 7 }, "above 6")
    }

    @Test func discCountsThatDoNotFitTheMover() {
        // One of X's discs turned into O's: O would have dropped more discs than X.
        Self.expectCaught(Self.corrupt {
            $0.discs0 &= ~Bitboard.bit(column: 4, row: 0)
            $0.discs1 |= Bitboard.bit(column: 4, row: 0)
        }, "seat 0 has 2 discs and seat 1 3")
        // The turn disagrees with the discs.
        Self.expectCaught(Self.corrupt { $0.turn = 6 }, "5 discs on the board after 6 turns")
    }

    @Test func aRunningMatchWithAFourOrAWinner() {
        let four = C4.play([0, 0, 1, 1, 2, 2, 3])
        var raw = four.raw
        Self.expectCaught(ConnectFourState(discs0: raw.discs0, discs1: raw.discs1, heights: raw.heights, turn: raw.turn, winner: -1,
                                           reason: .none), "running match with four in a row")
        Self.expectCaught(Self.corrupt { $0.winner = 1 }, "running match with winner")
        // The winner must be the seat that dropped the last disc, and hold the four.
        raw.winner = 1
        Self.expectCaught(ConnectFourState(discs0: raw.discs0, discs1: raw.discs1, heights: raw.heights, turn: raw.turn, winner: 1,
                                           reason: .fourInARow), "winner 1 has no four")
        Self.expectCaught(Self.corrupt { $0.winner = 0; $0.reason = .fourInARow }, "winner 0 has no four")
    }

    @Test func aWinnerWhoDidNotDropTheLastDisc() {
        // X's bottom four with an O disc dropped after it.
        var raw = C4.play([0, 0, 1, 1, 2, 2, 3]).raw
        raw.discs1 |= Bitboard.bit(column: 6, row: 0)
        raw.heights[6] = 1
        Self.expectCaught(ConnectFourState(discs0: raw.discs0, discs1: raw.discs1, heights: raw.heights, turn: 8, winner: 0,
                                           reason: .fourInARow), "did not drop the last disc")
    }

    @Test func aDrawBeforeTheBoardIsFull() {
        Self.expectCaught(Self.corrupt { $0.reason = .boardFull }, "drawn with 5 discs")
    }

    @Test func everyPositionOfRandomPlayPasses() {
        var rng = LabRandom(seed: 11)
        for match in 0..<300 {
            var state = ConnectFourState()
            while !state.isTerminal {
                let legal = C4.legal(state)
                state.apply(legal[rng.uniform(legal.count)])
                #expect(state.invariantViolation() == nil, "match \(match) turn \(state.turn)")
            }
        }
    }
}
