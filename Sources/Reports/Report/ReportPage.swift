import Pictures
import Tournament

/// The HTML of a tournament report: the header, one section per chart, the footer. Pure:
/// a function of the folder's contents (no clock, no paths beyond the folder's own).
struct ReportPage {
    let folder: ResultsFolder
    /// The verdicts the page opens with.
    let findings: [Finding]

    init(folder: ResultsFolder, findings: [Finding] = []) {
        self.folder = folder
        self.findings = findings
    }

    /// Entrant indices, strongest first (``ResultsFolder/order``).
    var order: [Int] { folder.order }

    var run: RunInfo { folder.run }

    func name(_ entrant: Int) -> String { run.entrants[entrant].name }

    func html() -> String {
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>" + SVG.escape("Opponent Lab report: \(run.name)") + "</title>\n"
        out += "<style>\n" + Self.css + "</style>\n</head>\n<body>\n"
        if let progress = run.inProgress {
            out += "<p class=\"in-progress\">In progress: \(Charts.grouped(progress.done)) of \(Charts.grouped(progress.total)) blocks. "
                + "The figures cover the complete blocks so far; draw the page again for more.</p>\n"
        }
        out += header()
        out += verdicts()
        out += ratings()
        out += pairwise()
        out += seats()
        out += lengths()
        out += endReasons()
        out += board()
        out += decisionTimes()
        out += footer()
        out += "</body>\n</html>\n"
        return out
    }

    /// The findings: each verdict the folder supports at the 95 % level, in words, with
    /// its statistic and interval; or a line saying there is none.
    func verdicts() -> String {
        var content = "<ul class=\"findings\">\n"
        for finding in findings {
            content += "<li data-kind=\"\(SVG.escape(finding.kind))\">\(SVG.escape(finding.text))</li>\n"
        }
        content += "</ul>"
        if findings.isEmpty {
            content = "<p>No verdict at the 95 % level: no entrant measurably stronger than another, no seat advantage, "
                + "no end reason ending most matches, no forfeits.</p>"
        }
        return section("findings", "Findings", "What does this run show, in words? Each verdict is stated only when its 95 % "
                       + "interval excludes no difference (intervals over blocks).", content)
    }

    /// A section with its heading and the one-line question it answers.
    func section(_ id: String, _ heading: String, _ question: String, _ content: String) -> String {
        Self.section(id, heading, question, content)
    }

    /// ``section(_:_:_:_:)`` for pages that are not a tournament's (a tuning's).
    static func section(_ id: String, _ heading: String, _ question: String, _ content: String) -> String {
        "<section id=\"\(id)\">\n<h2>\(SVG.escape(heading))</h2>\n<p class=\"question\">\(SVG.escape(question))</p>\n"
            + content + "\n</section>\n"
    }

    // MARK: Header

    func header() -> String {
        var facts: [(String, String)] = [
            ("game", run.game + (run.map.map { " (map \($0))" } ?? "")),
            ("seats", String(run.seats)),
            ("format", run.format + (run.candidate.map { ", candidate \($0)" } ?? "")),
            ("seed", String(run.seed)),
            ("rules", run.rules.isEmpty ? "the rule book's defaults" : run.rules.map { "\($0.key) = \($0.value)" }.joined(separator: ", ")),
            ("blocks", "\(Charts.grouped(run.blocksDone)) of \(Charts.grouped(run.blocks)) (\(Charts.grouped(run.blocksPerTable)) per table)"),
            ("matches", Charts.grouped(run.matchesDone)),
            ("status", run.status + (run.shard.map { $0 == "1/1" ? "" : ", shard \($0)" } ?? "")),
            ("threads", String(run.threads)),
            ("speed", "\(Charts.grouped(Int(run.matchesPerSecond.rounded()))) matches/s over \(FixedPoint.text(run.seconds, digits: 1)) s"),
            ("started", run.started),
            ("finished", run.finished ?? "not yet"),
        ]
        if let version = run.version { facts.append(("tool version", version)) }
        var content = "<table class=\"facts\">\n"
        for (key, value) in facts { content += "<tr><th>\(SVG.escape(key))</th><td>\(SVG.escape(value))</td></tr>\n" }
        content += "</table>\n"
        if run.status != "complete" {
            content += "<p class=\"warning\">This run is \(SVG.escape(run.status)): the figures cover the \(Charts.grouped(run.blocksDone)) blocks done so far.</p>\n"
        }
        // Forfeits (external bots' faults) get a column when there were any.
        let forfeits = folder.summary.contains { ($0.forfeits ?? 0) > 0 }
        content += "<table class=\"entrants\">\n<tr><th>entrant</th><th>strategy</th><th>matches</th><th>wins</th><th>draws</th>"
            + "<th>losses</th><th>score share (95 %)</th><th>win rate (95 %)</th><th>mean place (95 %)</th>"
            + (forfeits ? "<th>forfeits</th>" : "") + "</tr>\n"
        for e in order {
            let strategy = run.entrants[e].strategy
            var cells = [name(e), strategy]
            if let s = folder.summary.first(where: { $0.entrant == e }) {
                cells += [Charts.grouped(s.matches), Charts.grouped(s.wins), Charts.grouped(s.draws), Charts.grouped(s.losses),
                          Self.figure(s.scoreShare, s.scoreShareInterval, digits: 4),
                          Self.figure(s.winRate, (s.winRateLow, s.winRateHigh), digits: 4),
                          Self.figure(s.meanPlace, s.meanPlaceInterval, digits: 3)]
                if forfeits { cells.append(Charts.grouped(s.forfeits ?? 0)) }
            } else {
                cells += Array(repeating: "", count: forfeits ? 8 : 7)
            }
            content += "<tr>" + cells.enumerated().map { k, cell in
                (k < 2 ? "<td>" : "<td class=\"number\">") + SVG.escape(cell) + "</td>"
            }.joined() + "</tr>\n"
        }
        content += "</table>"
        for s in folder.summary where (s.forfeits ?? 0) > 0 {
            content += "\n<p class=\"warning\">\(SVG.escape(name(s.entrant))) forfeited \(Charts.grouped(s.forfeits ?? 0)) of "
                + "\(Charts.grouped(s.matches)) matches (matches.csv says which and why; its bot's log is in bots/).</p>"
        }
        return "<header id=\"header\">\n<h1>\(SVG.escape(run.name))</h1>\n"
            + "<p class=\"question\">What was played, by whom, under which rules, and is the run finished?</p>\n" + content + "\n</header>\n"
    }

    /// `0.6250 [0.5100, 0.7400]`, or the figure alone without an interval.
    static func figure(_ value: Double, _ interval: (low: Double, high: Double)?, digits: Int) -> String {
        let text = FixedPoint.text(value, digits: digits)
        guard let interval else { return text }
        return "\(text) [\(FixedPoint.text(interval.low, digits: digits)), \(FixedPoint.text(interval.high, digits: digits))]"
    }

    // MARK: Ratings

    func ratings() -> String {
        let rows = folder.ratings.sorted { ($0.rating, -$0.rank) > ($1.rating, -$1.rank) }.map { r in
            Charts.RatingRow(name: name(r.entrant), strategy: run.entrants[r.entrant].strategy, rating: r.rating, low: r.low,
                             high: r.high, anchor: r.anchor)
        }
        return section("ratings", "Ratings", "Who is strongest, and how sure are we? Bradley-Terry ratings in Elo, strongest first, "
                       + "with 95 % bootstrap intervals; the anchor (diamond) is 0 by definition.",
                       rows.isEmpty ? "<p>ratings.csv has no rows.</p>" : Charts.ratings(rows))
    }

    // MARK: Pairwise

    func pairwise() -> String {
        let n = run.entrants.count
        var cells: [[Charts.MatrixCell?]] = Array(repeating: Array(repeating: nil, count: n), count: n)
        for p in folder.pairs {
            let tip = "\(name(p.entrant)) vs \(name(p.opponent)): score \(FixedPoint.text(p.score, digits: 4)), "
                + "95 % \(FixedPoint.text(p.scoreLow, digits: 4)) to \(FixedPoint.text(p.scoreHigh, digits: 4)); "
                + "Elo \(Charts.signed(p.elo, 1)); \(Charts.grouped(Int(p.games.rounded()))) pairwise games in \(Charts.grouped(p.blocks)) blocks"
            cells[p.entrant][p.opponent] = Charts.MatrixCell(score: p.score, tooltip: tip)
        }
        // pairwise.csv may list a pair once: its mirror is the other side of the same games.
        for p in folder.pairs where cells[p.opponent][p.entrant] == nil {
            let tip = "\(name(p.opponent)) vs \(name(p.entrant)): score \(FixedPoint.text(1 - p.score, digits: 4)), "
                + "95 % \(FixedPoint.text(1 - p.scoreHigh, digits: 4)) to \(FixedPoint.text(1 - p.scoreLow, digits: 4)); "
                + "Elo \(Charts.signed(-p.elo, 1)); \(Charts.grouped(Int(p.games.rounded()))) pairwise games in \(Charts.grouped(p.blocks)) blocks"
            cells[p.opponent][p.entrant] = Charts.MatrixCell(score: 1 - p.score, tooltip: tip)
        }
        let ordered = order.map { i in order.map { j in cells[i][j] } }
        return section("pairwise", "Head to head", "How does each entrant score against each other one? "
                       + "The row entrant's score share against the column opponent (0.5 = even; blank = never met).",
                       Charts.matrix(names: order.map(name), cells: ordered))
    }

    // MARK: Seats

    func seats() -> String {
        let tally = folder.matches
        // An entrant meets each seat once per block at its table, so its matches at a seat
        // are independent: a Wilson interval over them. All entrants together share each
        // block's deal: the interval over blocks.
        func bars(_ results: [[Int]], _ scores: [Double], pooled: Bool = false) -> [Charts.SeatBar] {
            zip(results, scores).enumerated().map { s, pair in
                let matches = Double(pair.0.reduce(0, +))
                let interval: (low: Double, high: Double)?
                if pooled {
                    let i = Intervals.proportionOverBlocks([tally.seatBlocks[s]])
                    interval = tally.seatBlocks[s].count >= 2 ? (i.lower, i.upper) : nil
                } else {
                    let w = Intervals.wilson(successes: pair.1, trials: matches)
                    interval = matches > 0 ? (w.lower, w.upper) : nil
                }
                return Charts.SeatBar(wins: pair.0[0], draws: pair.0[1], losses: pair.0[2], score: pair.1, interval: interval)
            }
        }
        var everyone = Array(repeating: [0, 0, 0], count: run.seats)
        var everyoneScore = Array(repeating: 0.0, count: run.seats)
        for (e, entrant) in tally.results.enumerated() {
            for (s, counts) in entrant.enumerated() {
                for o in 0..<3 { everyone[s][o] += counts[o] }
                everyoneScore[s] += tally.scores[e][s]
            }
        }
        let groups = [(name: "all entrants", bars: bars(everyone, everyoneScore, pooled: true))]
            + order.map { (name: name($0), bars: bars(tally.results[$0], tally.scores[$0])) }
        return section("seats", "Seats", "Does the seat matter (first-mover advantage)? Score by seat (a win 1, a first place "
                       + "shared by k 1/k, so ties and team wins count), per entrant and for all matches, with 95 % intervals; the "
                       + "dashed line is 1/\(run.seats), what no advantage would give.",
                       tally.rows == 0 ? "<p>matches.csv has no rows yet.</p>" : Charts.seats(groups: groups, seats: run.seats))
    }

    // MARK: Lengths

    func lengths() -> String {
        let tally = folder.matches
        let question = "How long are the matches each entrant plays? Turns per match in bins shared by all entrants, as shares of "
            + "the entrant's matches."
        let played = order.filter { !tally.turns[$0].isEmpty }
        guard !played.isEmpty else { return section("lengths", "Match length", question, "<p>matches.csv has no rows yet.</p>") }
        let low = played.map { e in tally.turns[e].firstIndex { $0 > 0 }! }.min()!
        let high = played.map { tally.turns[$0].count - 1 }.max()!
        let bins = Charts.Bins(low: low, high: high)
        let histograms = played.map { e in
            var counts = Array(repeating: 0, count: bins.count)
            for (turns, count) in tally.turns[e].enumerated() where count > 0 { counts[(turns - bins.first) / bins.size] += count }
            return (name: name(e), counts: counts)
        }
        var table = "<table class=\"lengths\">\n<tr><th>entrant</th><th>matches</th><th>mean</th><th>median</th><th>shortest</th><th>longest</th></tr>\n"
        for e in played {
            let s = LengthStatistics(tally.turns[e])
            let cells = [Charts.grouped(s.matches), FixedPoint.text(s.mean, digits: 1), SVG.number(s.median, 1), String(s.shortest), String(s.longest)]
            table += "<tr data-entrant=\"\(SVG.escape(name(e)))\"><td>\(SVG.escape(name(e)))</td>"
                + cells.map { "<td class=\"number\">\($0)</td>" }.joined() + "</tr>\n"
        }
        table += "</table>"
        return section("lengths", "Match length", question, Charts.lengths(histograms, bins: bins) + "\n" + table)
    }

    // MARK: End reasons

    func endReasons() -> String {
        let tally = folder.matches
        let question = "How do the matches end, and does the entrant win, draw or lose them? Each entrant's matches by end reason "
            + "and outcome."
        guard tally.rows > 0 else { return section("end-reasons", "End reasons", question, "<p>matches.csv has no rows yet.</p>") }
        // Most frequent reason first (then by name), every entrant's counts in that order.
        let totals = tally.reasons.indices.map { r in tally.reasonCounts.reduce(0) { $0 + (r < $1.count ? $1[r].reduce(0, +) : 0) } }
        let drawn = tally.reasons.indices.sorted { (totals[$0], tally.reasons[$1]) > (totals[$1], tally.reasons[$0]) }
        let counts = order.map { e in drawn.map { r in r < tally.reasonCounts[e].count ? tally.reasonCounts[e][r] : [0, 0, 0] } }
        let shown = order.indices.filter { counts[$0].joined().reduce(0, +) > 0 }
        return section("end-reasons", "End reasons", question,
                       Charts.endReasons(names: shown.map { name(order[$0]) }, reasons: drawn.map { tally.reasons[$0] },
                                         counts: shown.map { counts[$0] }))
    }

    // MARK: Footer

    func footer() -> String {
        var content = "<h3>Config</h3>\n<pre>" + SVG.escape(configText()) + "</pre>\n"
        content += "<p>Seed \(run.seed): the same config and seed play the same matches at any thread count.</p>\n"
        content += "<h3>Files</h3>\n<table class=\"files\">\n<tr><th>file</th><th>bytes</th><th>what it holds</th></tr>\n"
        for file in folder.present {
            let what = folder.files.first { $0.name == file.name }?.what ?? ""
            content += "<tr><td><code>\(SVG.escape(file.name))</code></td><td class=\"number\">\(Charts.grouped(file.bytes))</td>"
                + "<td>\(SVG.escape(what))</td></tr>\n"
        }
        content += "</table>"
        return "<footer id=\"footer\">\n<h2>Reproduce</h2>\n<p class=\"question\">How do I run this again, and what is it made from?</p>\n"
            + content + "\n</footer>\n"
    }

    /// The resolved config as the YAML `oplab tournament` reads.
    func configText() -> String {
        func yaml(_ text: String) -> String {
            let plain = !text.isEmpty && text.first != " " && text.last != " "
                && !text.contains(where: { ":{}[],#&*!|>'\"%@`\\".contains($0) }) && Double(text) == nil
                && !["true", "false", "yes", "no", "null", "~"].contains(text.lowercased())
            return plain ? text : "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        var lines = ["name: \(yaml(run.name))", "game: \(yaml(run.game))"]
        lines.append("rules: {" + run.rules.map { "\(yaml($0.key)): \(yaml($0.value))" }.joined(separator: ", ") + "}")
        if let map = run.map { lines.append("map: \(yaml(map))") }
        lines.append("seats: \(run.seats)")
        lines.append("entrants:")
        for e in run.entrants { lines.append("  - {name: \(yaml(e.name)), strategy: \(yaml(e.strategy))}") }
        lines.append("format: \(yaml(run.format))")
        if let candidate = run.candidate { lines.append("candidate: \(yaml(candidate))") }
        lines.append("blocks: \(run.blocksPerTable)")
        lines.append("seed: \(run.seed)")
        return lines.joined(separator: "\n") + "\n"
    }

    static let css = """
        body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #111; margin: 0 auto; max-width: 1000px; padding: 16px 24px; }
        h1 { font-size: 24px; margin: 8px 0 4px; }
        h2 { font-size: 18px; margin: 28px 0 2px; border-top: 1px solid #ddd; padding-top: 14px; }
        h3 { font-size: 15px; margin: 16px 0 4px; }
        p.question { color: #555; margin: 0 0 10px; }
        p.warning { background: #fff4d6; padding: 6px 10px; }
        p.in-progress { background: #ffe08a; padding: 8px 12px; font-weight: bold; margin: 0 0 1em; }
        table { border-collapse: collapse; margin: 8px 0; }
        th, td { padding: 2px 10px 2px 0; text-align: left; vertical-align: top; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        table.entrants th, table.lengths th, table.files th { border-bottom: 1px solid #ccc; }
        table.facts th { font-weight: 600; color: #444; }
        svg { display: block; max-width: 100%; height: auto; margin: 6px 0; }
        svg text { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; font-size: 12px; }
        .maps { display: flex; flex-wrap: wrap; gap: 12px; }
        .maps figure { margin: 0; }
        .maps figcaption { font-size: 13px; color: #444; }
        .key { font-size: 12px; color: #444; margin: 2px 0 10px; }
        .swatch { display: inline-block; width: 18px; height: 10px; margin-right: 2px; vertical-align: middle; }
        pre { background: #f6f6f6; padding: 10px; overflow-x: auto; }

        """
}

/// Mean, median and range of one entrant's match lengths, from counts per turn number.
struct LengthStatistics {
    var matches = 0
    var mean = 0.0
    var median = 0.0
    var shortest = 0
    var longest = 0

    /// - Parameter counts: `counts[t]` matches lasted `t` turns.
    init(_ counts: [Int]) {
        matches = counts.reduce(0, +)
        guard matches > 0 else { return }
        mean = Double(counts.enumerated().reduce(0) { $0 + $1.offset * $1.element }) / Double(matches)
        shortest = counts.firstIndex { $0 > 0 }!
        longest = counts.lastIndex { $0 > 0 }!
        // The k-th smallest length, 1-based.
        func nth(_ k: Int) -> Int {
            var seen = 0
            for (t, c) in counts.enumerated() {
                seen += c
                if seen >= k { return t }
            }
            return longest
        }
        median = matches % 2 == 1 ? Double(nth(matches / 2 + 1)) : Double(nth(matches / 2) + nth(matches / 2 + 1)) / 2
    }
}
