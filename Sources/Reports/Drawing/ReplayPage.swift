import Pictures

/// A replayed match as a page: the final position as a standalone SVG document, or a
/// self-contained HTML page that steps through the match move by move. The game draws
/// the scene (``ReplayScene``: its picture, notes, title); a game without a picture gets
/// the move list, the seats and the outcome.
///
/// Stepping: the page's position k runs from 0 (before any action) to `steps.count`
/// (after the last), k meaning "after k actions". Every element that appears during the
/// match carries `data-step`, the index in `steps` of the action from which it shows
/// (-1: from the start); at position k the page's script shows the elements whose
/// `data-step` is at most k − 1 and hides the rest. Without script the page shows the
/// final position.
public enum ReplayPage {
    /// A standalone SVG document (with `<?xml ...?>` header and `xmlns`) of the match's
    /// final position, with a legend of seats (player, place, result, figures) and their
    /// notes (missions, edges).
    public static func svg(_ scene: ReplayScene) -> String {
        document(scene)
    }

    /// A self-contained HTML page (inline SVG, CSS and a few lines of its own script; no
    /// network, no library) that steps through the match move by move: buttons
    /// first/previous/next/last, a range slider and the left/right arrow keys; the
    /// current step's action text; a panel per seat.
    public static func html(_ scene: ReplayScene) -> String {
        page(scene)
    }
}

extension ReplayPage {
    /// One step's text: "T12 P0 build Paris-Berlin — standing".
    static func stepText(_ step: ReplayStep) -> String {
        "T\(step.turn) P\(step.seat) \(step.action)" + (step.detail.isEmpty ? "" : " — \(step.detail)")
    }

    /// "place 1 · win · points 56, trains 3".
    static func seatLine(_ seat: ReplaySeat) -> String {
        let figures = seat.figures.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
        return "place \(seat.place) · \(seat.result)" + (figures.isEmpty ? "" : " · " + figures)
    }

    /// The final position as a standalone SVG document: heading, picture, legend.
    static func document(_ scene: ReplayScene) -> String {
        let width = max(scene.pictureWidth, 600)
        let line = 18.0, pad = 12.0
        var body = SVG.title(scene.title)
        var y = pad + 16
        var text = SVG.element("text", [("x", SVG.number(pad)), ("y", SVG.number(y)), ("font-size", "16"), ("font-weight", "bold")],
                               SVG.escape(scene.title))
        y += line
        text += SVG.element("text", [("x", SVG.number(pad)), ("y", SVG.number(y))], SVG.escape(scene.summary))
        y += pad
        var picture = ""
        if let drawing = scene.picture {
            picture = "<g class=\"picture\" transform=\"translate(\(SVG.number((width - scene.pictureWidth) / 2)),\(SVG.number(y)))\">"
                + drawing + "</g>"
            y += scene.pictureHeight + pad
        }
        var legend = ""
        for (index, seat) in scene.seats.enumerated() {
            y += line
            legend += SVG.element("rect", [
                ("x", SVG.number(pad)), ("y", SVG.number(y - 11)), ("width", "12"), ("height", "12"), ("fill", SVG.seatColour(index)),
            ])
            legend += SVG.element("text", [("x", SVG.number(pad + 18)), ("y", SVG.number(y)), ("font-weight", "bold")],
                                  SVG.escape("Seat \(index): \(seat.player)") + "<tspan font-weight=\"normal\">"
                                      + SVG.escape(" — " + seatLine(seat)) + "</tspan>")
            for note in index < scene.notes.count ? scene.notes[index] : [] {
                y += line
                let outcome = note.outcome.map { ": " + $0 } ?? ""
                legend += SVG.element("text", [("x", SVG.number(pad + 36)), ("y", SVG.number(y))], SVG.escape(note.text + outcome))
            }
        }
        y += pad
        body += SVG.element("rect", [("width", "100%"), ("height", "100%"), ("fill", "#fff")])
        body += text + picture + "<g class=\"legend\">" + legend + "</g>"
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + SVG.element("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("width", SVG.number(width)), ("height", SVG.number(y)),
            ("viewBox", "0 0 \(SVG.number(width)) \(SVG.number(y))"), ("font-family", "sans-serif"), ("font-size", "13"),
        ], body) + "\n"
    }

    /// The stepping page: controls, current step, picture, seat panels, move log, script.
    static func page(_ scene: ReplayScene) -> String {
        let last = scene.steps.count
        var html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
        html += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
        html += "<title>" + SVG.escape(scene.title) + "</title>\n<style>\n" + css + "</style>\n</head>\n<body>\n"
        html += "<main id=\"replay\" class=\"replay\">\n"
        html += "<h1>" + SVG.escape(scene.title) + "</h1>\n<p class=\"summary\">" + SVG.escape(scene.summary) + "</p>\n"
        html += "<div class=\"controls\">"
        for (go, label) in [("first", "First"), ("previous", "Previous"), ("next", "Next"), ("last", "Last")] {
            html += SVG.element("button", [("type", "button"), ("data-go", go)], label)
        }
        html += SVG.element("input", [
            ("id", "replay-step"), ("type", "range"), ("min", "0"), ("max", String(last)), ("value", String(last)),
            ("aria-label", "Position: actions applied"),
        ])
        html += SVG.element("span", [("id", "replay-count")], "\(last) / \(last)") + "</div>\n"
        let now = scene.steps.last.map { "Step \(last): " + stepText($0) } ?? "Before the first action"
        html += SVG.element("p", [("id", "replay-now"), ("class", "now")], SVG.escape(now)) + "\n"
        html += "<div class=\"stage\">\n" + (scene.picture.map { "<div class=\"picture\">" + $0 + "</div>\n" } ?? "")
            + "<aside class=\"seats\">\n"
        for (index, seat) in scene.seats.enumerated() {
            html += "<section class=\"seat\">"
            html += "<h2>" + SVG.element("span", [("class", "swatch"), ("style", "background:" + SVG.seatColour(index))], "")
                + SVG.escape("Seat \(index): \(seat.player)") + "</h2>"
            // The result shows from the last action on: before it, the panel holds the
            // seat's standing at the current step.
            html += SVG.element("p", [("class", "result"), ("data-step", String(last - 1))], SVG.escape(seatLine(seat)))
            let standing = scene.steps.last(where: { $0.seat == index })?.detail ?? ""
            html += SVG.element("p", [("class", "standing"), ("data-seat", String(index))], SVG.escape(standing))
            let notes = index < scene.notes.count ? scene.notes[index] : []
            if !notes.isEmpty {
                html += "<ul class=\"notes\">"
                for note in notes {
                    var item = SVG.escape(note.text)
                    if let outcome = note.outcome {
                        item += " " + SVG.element("span", [("class", "outcome"), ("data-step", String(note.outcomeStep))],
                                                  SVG.escape(outcome))
                    }
                    html += SVG.element("li", [("data-step", String(note.step))], item)
                }
                html += "</ul>"
            }
            html += "</section>\n"
        }
        html += "</aside>\n</div>\n<details class=\"moves\" open=\"open\"><summary>Moves</summary>\n<ol class=\"log\">\n"
        for (index, step) in scene.steps.enumerated() {
            html += SVG.element("li", [
                ("data-step", String(index)), ("data-seat", String(step.seat)), ("data-detail", step.detail),
            ], SVG.escape(stepText(step))) + "\n"
        }
        html += "</ol>\n</details>\n</main>\n<script>\n" + script + "</script>\n</body>\n</html>\n"
        return html
    }

    static let css = """
        body { font-family: sans-serif; margin: 1em; color: #222; }
        h1 { font-size: 1.3em; margin: 0 0 0.2em; }
        h2 { font-size: 1em; margin: 0 0 0.2em; }
        .summary { color: #555; margin: 0 0 0.6em; }
        .controls { display: flex; gap: 0.4em; align-items: center; flex-wrap: wrap; }
        .controls input { flex: 1; min-width: 12em; }
        .now { font-family: monospace; min-height: 1.4em; }
        .stage { display: flex; gap: 1em; align-items: flex-start; flex-wrap: wrap; }
        .picture svg { max-width: 100%; height: auto; }
        .seats { flex: 1; min-width: 16em; }
        .seat { margin-bottom: 0.8em; }
        .seat p { margin: 0.1em 0; }
        .standing { font-family: monospace; color: #555; }
        .swatch { display: inline-block; width: 0.8em; height: 0.8em; margin-right: 0.4em; }
        .notes { margin: 0.2em 0; padding-left: 1.2em; }
        .outcome { font-weight: bold; }
        .log { font-family: monospace; max-height: 20em; overflow: auto; position: relative; }
        .log li.current { background: #ffe9a8; }

        """

    /// The stepper. It uses neither `<` nor `&`, so the page stays well-formed XML too.
    static let script = """
        (function () {
          var root = document.getElementById('replay');
          var slider = document.getElementById('replay-step');
          var now = document.getElementById('replay-now');
          var count = document.getElementById('replay-count');
          var last = Number(slider.max);
          var stepped = root.querySelectorAll('[data-step]');
          var log = root.querySelectorAll('ol.log li');
          var standings = root.querySelectorAll('.standing');
          function show(k) {
            k = Math.max(0, Math.min(last, k));
            var current = k - 1;
            slider.value = String(k);
            count.textContent = k + ' / ' + last;
            stepped.forEach(function (e) {
              e.style.display = Number(e.getAttribute('data-step')) > current ? 'none' : '';
            });
            log.forEach(function (e, i) { e.classList.toggle('current', i === current); });
            if (current !== -1) { log[current].parentNode.scrollTop = log[current].offsetTop - 100; }
            now.textContent = current === -1 ? 'Before the first action' : 'Step ' + k + ': ' + log[current].textContent;
            standings.forEach(function (e) {
              var seat = e.getAttribute('data-seat'), text = '';
              for (var i = current; i >= 0; i--) {
                if (log[i].getAttribute('data-seat') === seat) { text = log[i].getAttribute('data-detail'); break; }
              }
              e.textContent = text;
            });
          }
          root.querySelectorAll('button[data-go]').forEach(function (b) {
            b.addEventListener('click', function () {
              var go = b.getAttribute('data-go'), k = Number(slider.value);
              show(go === 'first' ? 0 : go === 'previous' ? k - 1 : go === 'next' ? k + 1 : last);
            });
          });
          slider.addEventListener('input', function () { show(Number(slider.value)); });
          document.addEventListener('keydown', function (e) {
            if (e.target === slider) { return; }
            if (e.key === 'ArrowLeft') { show(Number(slider.value) - 1); e.preventDefault(); }
            if (e.key === 'ArrowRight') { show(Number(slider.value) + 1); e.preventDefault(); }
          });
          show(last);
        })();

        """
}
