import Foundation
import Pictures
import Tournament

/// The report's charts as inline SVG, built by hand from plain numbers (no I/O): each
/// function takes what it draws and returns one `<svg>` element. Every mark carries a
/// `<title>` tooltip with the exact figures.
enum Charts {
    /// Width of every chart, in CSS pixels.
    static let width = 760.0

    // MARK: Ratings

    struct RatingRow {
        var name: String
        var strategy: String
        var rating: Double
        var low: Double
        var high: Double
        var anchor: Bool
    }

    /// A dot-and-whisker chart, one row per entrant in the order given (strongest first),
    /// the anchor drawn as a diamond, with an Elo axis.
    static func ratings(_ rows: [RatingRow]) -> String {
        let rowHeight = 26.0, top = 12.0, left = 170.0, right = 170.0
        let values: [Double] = rows.flatMap { row -> [Double] in [row.low, row.high, row.rating] } + [0]
        let ticks = niceTicks(values.min() ?? -1, values.max() ?? 1)
        let scale = Scale(ticks.first!, ticks.last!, left, width - right)
        let bottom = top + rowHeight * Double(rows.count)
        let height = bottom + 34
        var body = axisX(ticks, scale: scale, top: top - 6, bottom: bottom, label: "Elo", format: { signed($0, 0) })
        body += line(scale(0), top - 6, scale(0), bottom, stroke: "#888", dash: true)
        for (k, row) in rows.enumerated() {
            let y = top + rowHeight * (Double(k) + 0.5)
            let tip = "\(row.name) (\(row.strategy)): \(signed(row.rating, 1)) Elo, 95 % \(signed(row.low, 1)) to \(signed(row.high, 1))"
                + (row.anchor ? "; the anchor (0 by definition)" : "")
            var mark = SVG.title(tip)
            mark += text(left - 10, y + 4, row.name + (row.anchor ? " (anchor)" : ""), anchor: "end")
            mark += line(scale(row.low), y, scale(row.high), y, stroke: "#333", width: 2)
            mark += line(scale(row.low), y - 5, scale(row.low), y + 5, stroke: "#333", width: 2)
            mark += line(scale(row.high), y - 5, scale(row.high), y + 5, stroke: "#333", width: 2)
            let (cx, colour) = (scale(row.rating), SVG.seatColour(0))
            if row.anchor {
                let d = "M\(n(cx)) \(n(y - 7))L\(n(cx + 7)) \(n(y))L\(n(cx)) \(n(y + 7))L\(n(cx - 7)) \(n(y))Z"
                mark += SVG.element("path", [("d", d), ("fill", "#fff"), ("stroke", colour), ("stroke-width", "2")])
            } else {
                mark += SVG.element("circle", [("cx", n(cx)), ("cy", n(y)), ("r", "5.5"), ("fill", colour)])
            }
            mark += text(width - right + 10, y + 4, "\(signed(row.rating, 1))  [\(signed(row.low, 1)), \(signed(row.high, 1))]")
            body += SVG.element("g", [("class", "rating"), ("data-entrant", row.name)], mark)
        }
        return svg(height: height, label: "Ratings with 95 % intervals", body)
    }

    // MARK: Pairwise matrix

    /// One cell of the win-rate matrix: the row entrant's score against the column's.
    struct MatrixCell {
        var score: Double
        var tooltip: String
    }

    /// A heat map, rows = entrant, columns = opponent, the score in each cell; nil cells
    /// (the diagonal, pairs that never met) are left blank.
    static func matrix(names: [String], cells: [[MatrixCell?]]) -> String {
        let count = Double(names.count)
        let cell = min(64, max(30, (width - 190) / max(count, 1)))
        let left = 150.0, top = 96.0
        let height = top + cell * count + 46
        var body = ""
        for (j, name) in names.enumerated() {
            let x = left + cell * (Double(j) + 0.5)
            body += SVG.element("text", [("transform", "translate(\(n(x + 4)) \(n(top - 8))) rotate(-40)")], SVG.escape(name))
        }
        for (i, name) in names.enumerated() {
            let y = top + cell * Double(i)
            body += text(left - 8, y + cell / 2 + 4, name, anchor: "end")
            for j in names.indices {
                let x = left + cell * Double(j)
                guard let entry = cells[i][j] else {
                    body += SVG.element("rect", [("x", n(x)), ("y", n(y)), ("width", n(cell)), ("height", n(cell)), ("fill", "#fff"),
                                                 ("stroke", "#ddd")])
                    continue
                }
                let fill = SVG.diverging(entry.score)
                var mark = SVG.title(entry.tooltip)
                mark += SVG.element("rect", [("x", n(x)), ("y", n(y)), ("width", n(cell)), ("height", n(cell)), ("fill", fill),
                                             ("stroke", "#fff")])
                mark += SVG.element("text", [("x", n(x + cell / 2)), ("y", n(y + cell / 2 + 4)), ("text-anchor", "middle"),
                                             ("fill", SVG.textColour(on: fill))], FixedPoint.text(entry.score, digits: 3))
                body += SVG.element("g", [("class", "pair"), ("data-entrant", name), ("data-opponent", names[j])], mark)
            }
        }
        // Colour key.
        let keyY = top + cell * count + 18
        for (k, value) in [0, 0.25, 0.5, 0.75, 1].enumerated() {
            let x = left + Double(k) * 46
            body += SVG.element("rect", [("x", n(x)), ("y", n(keyY)), ("width", "44"), ("height", "14"), ("fill", SVG.diverging(value))])
            body += text(x + 22, keyY + 26, FixedPoint.text(value, digits: 2), anchor: "middle", size: 10)
        }
        body += text(left + 5 * 46 + 8, keyY + 11, "score of the row entrant against the column opponent", size: 11)
        return svg(height: height, label: "Pairwise score matrix", body)
    }

    // MARK: Seats

    /// One bar: an entrant's (or everyone's) results from one seat.
    struct SeatBar {
        var wins: Int
        var draws: Int
        var losses: Int
        /// 1 a win, 1/k a first place shared by k.
        var score: Double
        /// The score share's 95 % interval; nil: no whisker.
        var interval: (low: Double, high: Double)? = nil

        var matches: Int { wins + draws + losses }
        var scoreShare: Double { matches > 0 ? score / Double(matches) : 0 }
    }

    /// Grouped bars: one group per entrant, one bar per seat (score share), with a dashed
    /// reference line at 1 / seats; the axis runs from 0 to a round value above the
    /// tallest bar.
    static func seats(groups: [(name: String, bars: [SeatBar])], seats: Int) -> String {
        let left = 48.0, top = 30.0, plot = 220.0
        let bottom = top + plot
        let height = bottom + 26
        let tallest = groups.flatMap { $0.bars.map { max($0.scoreShare, $0.interval?.high ?? 0) } }.max() ?? 0
        let ticks = niceTicks(0, min(1, max(tallest, 1 / Double(seats)) * 1.1))
        let scale = Scale(0, ticks.last!, bottom, top)
        var body = legend(x: left, y: 10, (0..<seats).map { ("seat \($0)" + ($0 == 0 ? " (first)" : ""), SVG.seatColour($0), 1) })
        for tick in ticks {
            body += line(left, scale(tick), width - 8, scale(tick), stroke: "#e4e4e4")
            body += text(left - 6, scale(tick) + 4, SVG.number(tick * 100, 1) + " %", anchor: "end", size: 11)
        }
        let groupWidth = (width - 8 - left) / Double(max(groups.count, 1))
        let barWidth = min(36, groupWidth * 0.8 / Double(seats))
        for (g, group) in groups.enumerated() {
            let start = left + groupWidth * Double(g) + (groupWidth - barWidth * Double(seats)) / 2
            for (s, bar) in group.bars.enumerated() {
                let x = start + barWidth * Double(s)
                let rate = bar.scoreShare
                let range = bar.interval.map { " [\(percent($0.low, 2)), \(percent($0.high, 2))]" } ?? ""
                let tip = "\(group.name), seat \(s): \(grouped(bar.wins)) wins, \(grouped(bar.draws)) draws, \(grouped(bar.losses)) losses "
                    + "of \(grouped(bar.matches)) matches: score \(percent(rate, 2))\(range)"
                var mark = SVG.title(tip)
                mark += SVG.element("rect", [("x", n(x + 1)), ("y", n(scale(rate))), ("width", n(barWidth - 2)),
                                             ("height", n(bottom - scale(rate))), ("fill", SVG.seatColour(s))])
                if let interval = bar.interval, bar.matches > 0 {
                    // The 95 % interval as a whisker with caps.
                    let (mid, cap) = (x + barWidth / 2, min(6, barWidth / 4))
                    mark += SVG.element("g", [("class", "interval"), ("stroke", "#222"), ("stroke-width", "1.2")],
                                        line(mid, scale(interval.low), mid, scale(interval.high), stroke: "#222")
                                            + line(mid - cap, scale(interval.low), mid + cap, scale(interval.low), stroke: "#222")
                                            + line(mid - cap, scale(interval.high), mid + cap, scale(interval.high), stroke: "#222"))
                }
                if barWidth >= 30 { mark += text(x + barWidth / 2, scale(rate) - 3, FixedPoint.text(rate * 100, digits: 1), anchor: "middle", size: 10) }
                body += SVG.element("g", [("class", "seat-bar"), ("data-entrant", group.name), ("data-seat", String(s))], mark)
            }
            body += text(left + groupWidth * (Double(g) + 0.5), bottom + 16, group.name, anchor: "middle", size: 11)
        }
        let reference = scale(1 / Double(seats))
        body += line(left, reference, width - 8, reference, stroke: "#222", dash: true)
        body += text(width - 10, reference - 4, "1/\(seats)", anchor: "end", size: 10)
        return svg(height: height, label: "Score by seat", body)
    }

    // MARK: Game length

    /// Histogram bins shared by every entrant: `count` bins of `size` turns from `first`.
    struct Bins: Equatable {
        var first: Int
        var size: Int
        var count: Int

        /// Bins of a round whole width (1, 2, 5, 10, 20, 50, ...) starting at a multiple of
        /// it, the narrowest that covers `low...high` in at most `most` + 1 bins.
        init(low: Int, high: Int, most: Int = 40) {
            let span = max(high - low + 1, 1)
            var size = 1, decade = 1
            search: while true {
                for step in [1, 2, 5] where (span + step * decade - 1) / (step * decade) <= most {
                    size = step * decade
                    break search
                }
                decade *= 10
            }
            self.size = size
            first = low >= 0 ? low / size * size : -((-low + size - 1) / size * size)
            count = (max(high, low) - first) / size + 1
        }

        func label(_ bin: Int) -> String {
            let start = first + bin * size
            return size == 1 ? "\(start) turns" : "\(start)-\(start + size - 1) turns"
        }
    }

    /// Small multiples: per entrant a histogram of its matches' lengths in shared bins,
    /// bars as shares of the entrant's matches on a shared scale.
    static func lengths(_ entrants: [(name: String, counts: [Int])], bins: Bins) -> String {
        let left = 150.0, panel = 64.0, gap = 14.0, top = 6.0
        let totals = entrants.map { $0.counts.reduce(0, +) }
        let shares: [[Double]] = zip(entrants, totals).map { entrant, total in
            (0..<bins.count).map { b in Double(entrant.counts[b]) / Double(max(total, 1)) }
        }
        let tallest = shares.joined().max() ?? 0
        let barWidth = (width - 10 - left) / Double(bins.count)
        var body = ""
        for (e, entrant) in entrants.enumerated() {
            let bottom = top + (panel + gap) * Double(e) + panel
            body += text(left - 10, bottom - panel / 2 + 4, entrant.name, anchor: "end")
            body += line(left, bottom, width - 10, bottom, stroke: "#999")
            var bars = ""
            for b in 0..<bins.count where entrant.counts[b] > 0 {
                let h = tallest > 0 ? shares[e][b] / tallest * (panel - 4) : 0
                let tip = "\(entrant.name), \(bins.label(b)): \(grouped(entrant.counts[b])) matches (\(percent(shares[e][b], 1)))"
                bars += SVG.element("rect", [("x", n(left + barWidth * Double(b))), ("y", n(bottom - h)), ("width", n(max(barWidth - 1, 0.5))),
                                             ("height", n(h)), ("fill", SVG.seatColour(0))], SVG.title(tip))
            }
            body += SVG.element("g", [("class", "lengths"), ("data-entrant", entrant.name)], bars)
        }
        let axisY = top + (panel + gap) * Double(entrants.count) - gap
        let step = max(1, bins.count / 8)
        for b in stride(from: 0, through: bins.count, by: step) {
            let x = left + barWidth * Double(b)
            body += line(x, axisY, x, axisY + 4, stroke: "#999")
            body += text(x, axisY + 16, String(bins.first + b * bins.size), anchor: "middle", size: 10)
        }
        body += text(width - 10, axisY + 30, "turns per match", anchor: "end", size: 11)
        return svg(height: axisY + 36, label: "Match length per entrant", body)
    }

    // MARK: End reasons

    /// Stacked horizontal bars: per entrant its matches split by end reason, and within a
    /// reason by outcome (won, drawn, lost: full, medium and light shade).
    /// - Parameter counts: `[entrant][reason][outcome]`, reasons in the order drawn.
    static func endReasons(names: [String], reasons: [String], counts: [[[Int]]]) -> String {
        let left = 150.0, top = 44.0, rowHeight = 28.0, barHeight = 20.0
        let right = width - 10
        let height = top + rowHeight * Double(names.count) + 8
        let outcomes = ["won", "drawn", "lost"], opacities = [1.0, 0.6, 0.3]
        var body = legend(x: left, y: 10, reasons.enumerated().map { ($1, SVG.seatColour($0), 1) })
        body += legend(x: left, y: 28, outcomes.enumerated().map { ($1, "#555", opacities[$0]) })
        for (e, name) in names.enumerated() {
            let y = top + rowHeight * Double(e)
            body += text(left - 10, y + barHeight / 2 + 4, name, anchor: "end")
            let total = counts[e].joined().reduce(0, +)
            var x = left
            var segments = ""
            for (r, reason) in reasons.enumerated() {
                for o in 0..<3 {
                    let count = counts[e][r][o]
                    guard count > 0 else { continue }
                    let share = Double(count) / Double(total)
                    let w = share * (right - left)
                    let tip = "\(name): \(reason), \(outcomes[o]): \(grouped(count)) of \(grouped(total)) matches (\(percent(share, 1)))"
                    var mark = SVG.title(tip)
                    mark += SVG.element("rect", [("x", n(x)), ("y", n(y)), ("width", n(w)), ("height", n(barHeight)),
                                                 ("fill", SVG.seatColour(r)), ("fill-opacity", n(opacities[o]))])
                    if w >= 40 {
                        mark += text(x + w / 2, y + barHeight / 2 + 4, percent(share, 0), anchor: "middle", size: 10,
                                     fill: o == 0 ? SVG.textColour(on: SVG.seatColour(r)) : "#111")
                    }
                    segments += SVG.element("g", [("class", "end-reason"), ("data-reason", reason), ("data-outcome", outcomes[o])], mark)
                    x += w
                }
            }
            body += SVG.element("g", [("data-entrant", name)], segments)
        }
        return svg(height: height, label: "End reasons per entrant", body)
    }

    // MARK: Legends and axes

    /// A row of colour swatches with labels: (label, colour, opacity).
    static func legend(x: Double, y: Double, _ items: [(String, String, Double)]) -> String {
        var out = ""
        var at = x
        for (label, colour, opacity) in items {
            out += SVG.element("rect", [("x", n(at)), ("y", n(y - 9)), ("width", "12"), ("height", "12"), ("fill", colour),
                                        ("fill-opacity", n(opacity))])
            out += text(at + 16, y + 1, label, size: 11)
            at += 16 + Double(label.count) * 6.5 + 16
        }
        return SVG.element("g", [("class", "legend")], out)
    }

    /// Gridlines and tick labels along x between `top` and `bottom`, labels below.
    static func axisX(_ ticks: [Double], scale: Scale, top: Double, bottom: Double, label: String,
                      format: (Double) -> String) -> String {
        var out = ""
        for tick in ticks {
            let x = scale(tick)
            out += line(x, top, x, bottom, stroke: "#e4e4e4")
            out += text(x, bottom + 14, format(tick), anchor: "middle", size: 10)
        }
        out += text(scale.to, bottom + 28, label, anchor: "end", size: 11)
        return out
    }

    /// About five round ticks (steps of 1, 2 or 5 times a power of ten) covering
    /// `low...high`, first and last outside or on the data.
    static func niceTicks(_ low: Double, _ high: Double) -> [Double] {
        var (lo, hi) = (low, high)
        if hi - lo < 1e-9 { (lo, hi) = (lo - 1, hi + 1) }
        let raw = (hi - lo) / 5
        let power = pow(10, log10(raw).rounded(.down))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= raw } ?? 10 * power
        let first = (lo / step).rounded(.down), last = (hi / step).rounded(.up)
        return stride(from: first, through: last, by: 1).map { $0 * step }
    }

    // MARK: Small helpers

    /// A linear map from `lo...hi` to `from...to`.
    struct Scale {
        var lo: Double
        var hi: Double
        var from: Double
        var to: Double

        init(_ lo: Double, _ hi: Double, _ from: Double, _ to: Double) {
            (self.lo, self.hi, self.from, self.to) = (lo, hi, from, to)
        }

        func callAsFunction(_ v: Double) -> Double { hi == lo ? from : from + (v - lo) / (hi - lo) * (to - from) }
    }

    static func svg(height: Double, label: String, _ body: String) -> String {
        SVG.element("svg", [("viewBox", "0 0 \(n(width)) \(n(height))"), ("width", n(width)), ("height", n(height)), ("role", "img"),
                            ("aria-label", label)], body)
    }

    static func n(_ x: Double) -> String { SVG.number(x, 1) }

    static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1,
                     dash: Bool = false) -> String {
        var attributes = [("x1", n(x1)), ("y1", n(y1)), ("x2", n(x2)), ("y2", n(y2)), ("stroke", stroke)]
        if width != 1 { attributes.append(("stroke-width", n(width))) }
        if dash { attributes.append(("stroke-dasharray", "4 3")) }
        return SVG.element("line", attributes)
    }

    static func text(_ x: Double, _ y: Double, _ content: String, anchor: String = "start", size: Double = 12,
                     fill: String? = nil) -> String {
        var attributes = [("x", n(x)), ("y", n(y))]
        if anchor != "start" { attributes.append(("text-anchor", anchor)) }
        if size != 12 { attributes.append(("font-size", n(size))) }
        if let fill { attributes.append(("fill", fill)) }
        return SVG.element("text", attributes, SVG.escape(content))
    }

    /// `+12.3`, `-4.0`, `0.0`: an Elo figure with its sign.
    static func signed(_ x: Double, _ digits: Int) -> String {
        let text = FixedPoint.text(x, digits: digits)
        return text.hasPrefix("-") || text.allSatisfy({ $0 == "0" || $0 == "." }) ? text : "+" + text
    }

    /// `52.6 %` for 0.526 at one digit.
    static func percent(_ share: Double, _ digits: Int) -> String { FixedPoint.text(share * 100, digits: digits) + " %" }

    /// `1,234,567`.
    static func grouped(_ value: Int) -> String { SVG.grouped(value) }
}
