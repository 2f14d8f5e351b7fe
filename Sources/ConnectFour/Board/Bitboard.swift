/// The bitboard layout of the 7 x 6 board (John Tromp's, as in Fhourstones).
///
/// Cell (column c, row r), row 0 at the bottom, is bit `c * 7 + r`. Each column has a
/// seventh bit above its top row, the *sentinel*, which is never set: it stops a shifted
/// line from running off the top of one column into the bottom of the next. 49 bits are
/// used; bits 49...63 are never set either.
///
///     6 13 20 27 34 41 48   <- sentinels
///     5 12 19 26 33 40 47   <- top row
///     4 11 18 25 32 39 46
///     3 10 17 24 31 38 45
///     2  9 16 23 30 37 44
///     1  8 15 22 29 36 43
///     0  7 14 21 28 35 42   <- bottom row
public enum Bitboard {
    /// Columns (0 on the left).
    public static let columns = 7
    /// Rows a column holds (0 at the bottom).
    public static let rows = 6
    /// Discs in a line that wins.
    public static let connect = 4
    /// Bits per column: the rows and the sentinel.
    public static let stride = 7
    /// Cells on the board.
    public static let cells = 42

    // The masks are literals, so they fold into the code that reads them (the tests
    // check them against the layout).

    /// The bottom cell of every column.
    public static let bottomRow: UInt64 = 0x0408_1020_4081
    /// The top cell (row 5) of every column: a column is full when its top cell is taken.
    public static let topRow: UInt64 = 0x8102_0408_1020
    /// Every cell of the board; the sentinels and bits 49...63 are outside it.
    public static let board: UInt64 = 0xFDFB_F7EF_DFBF

    /// The bit of cell (`column`, `row`).
    @inlinable @inline(__always)
    public static func bit(column: Int, row: Int) -> UInt64 { 1 << UInt64(column &* 7 &+ row) }

    /// The six cells of `column`.
    @inlinable @inline(__always)
    public static func column(_ column: Int) -> UInt64 { 0x3F << UInt64(column &* 7) }

    /// Whether `discs` hold four in a row, vertically, horizontally or on either
    /// diagonal: per direction, `m = b & (b >> d)` marks the starts of pairs and
    /// `m & (m >> 2d)` the starts of fours. The shifts are 1 (vertical), 7 (horizontal),
    /// 8 (rising diagonal, column and row up by one) and 6 (falling diagonal, column up
    /// and row down by one); the empty sentinels break every line that would wrap from
    /// one column into the next.
    /// - Complexity: O(1), 16 operations.
    @inlinable @inline(__always)
    public static func hasFour(_ b: UInt64) -> Bool {
        let v = b & (b >> 1), h = b & (b >> 7), r = b & (b >> 8), f = b & (b >> 6)
        return (v & (v >> 2)) | (h & (h >> 14)) | (r & (r >> 16)) | (f & (f >> 12)) != 0
    }
}
