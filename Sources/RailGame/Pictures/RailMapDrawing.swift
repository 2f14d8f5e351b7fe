import Foundation
import Pictures

/// A rail map as SVG: cities at their projected coordinates, railroads as lines (the two
/// lanes of a double side by side), each railroad styled by the caller.
public enum RailMapDrawing {
    /// How one railroad (one lane) is drawn.
    public struct RailroadStyle: Sendable {
        /// CSS colour of the line.
        public var stroke: String
        /// Line width in px.
        public var width: Double
        /// Stroke opacity, 0...1.
        public var opacity: Double
        /// The tooltip (`<title>`).
        public var title: String

        public init(stroke: String, width: Double, opacity: Double = 1, title: String) {
            self.stroke = stroke
            self.width = width
            self.opacity = opacity
            self.title = title
        }
    }

    /// Maps (latitude, longitude) to drawing coordinates: equirectangular with x scaled by
    /// cos(mean latitude of the cities), north up, fitted to the map's cities with a margin
    /// for labels.
    public struct Projection: Sendable {
        /// Drawing width in px.
        public let width: Double
        /// Drawing height in px (from the map's aspect plus the margins).
        public let height: Double
        /// Label font size in px; the other sizes of the drawing follow it.
        let fontSize: Double
        let xScale: Double
        let scale: Double
        let originX: Double
        let originY: Double
        let left: Double
        let top: Double

        /// The projection fitting `map`'s cities into `width` px.
        init(_ map: RailMapPicture, width: Double) {
            let width = max(width, 1)
            fontSize = min(12, max(8, width / 80))
            let marginX = 4 * fontSize, marginTop = 2.5 * fontSize, marginBottom = 1.5 * fontSize
            let cities = map.cities.filter { $0.latitude.isFinite && $0.longitude.isFinite }
            let meanLatitude = cities.isEmpty ? 0 : cities.map(\.latitude).reduce(0, +) / Double(cities.count)
            let xScale = max(0.05, cos(meanLatitude * .pi / 180))
            self.xScale = xScale
            let xs = cities.map { $0.longitude * xScale }, ys = cities.map { -$0.latitude }
            let (minX, maxX) = (xs.min() ?? 0, xs.max() ?? 0)
            let (minY, maxY) = (ys.min() ?? 0, ys.max() ?? 0)
            // A map that is a point or a line still gets a finite, sensible scale.
            let spanY = maxY - minY
            let spanX = max(maxX - minX, spanY / 2, 1e-6)
            let inner = max(width - 2 * marginX, 1)
            scale = inner / spanX
            self.width = width
            height = spanY * scale + marginTop + marginBottom
            originX = minX
            originY = minY
            left = marginX + (inner - (maxX - minX) * scale) / 2
            top = marginTop
        }

        /// The drawing coordinates of (latitude, longitude), in degrees.
        public func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
            (left + (longitude * xScale - originX) * scale, top + (-latitude - originY) * scale)
        }

        /// The drawing coordinates of `city`.
        func point(_ city: RailMapPicture.City) -> (x: Double, y: Double) {
            point(latitude: city.latitude, longitude: city.longitude)
        }
    }

    /// The map as one `<svg>` element `width` px wide (height from the map's aspect, a
    /// margin for labels).
    ///
    /// Every city is a `<circle class="city" data-city="NAME">` at its projected
    /// coordinates plus a `<text class="city-label">`; every railroad a
    /// `<line class="railroad" data-railroad="INDEX">` styled by `style(index)`, the two
    /// lanes of a double drawn side by side, offset perpendicular to the line. `extra` is
    /// markup appended inside the svg after the railroads, below the cities and their
    /// labels (place it with the ``Projection`` it is given). `id` becomes the svg's id.
    /// The svg carries no `xmlns`: it is meant for inline HTML (a standalone document
    /// wraps it).
    public static func svg(_ map: RailMapPicture, width: Double, id: String, style: (Int) -> RailroadStyle,
                           extra: (Projection) -> String = { _ in "" }) -> String {
        svg(map, width: width, id: id, style: style, attributes: { _ in [] }, extra: extra)
    }

    /// ``svg(_:width:id:style:extra:)`` with `attributes(index)` added to each railroad's
    /// line (the replay page's `data-step`).
    static func svg(_ map: RailMapPicture, width: Double, id: String, style: (Int) -> RailroadStyle,
                    attributes: (Int) -> [(String, String)], extra: (Projection) -> String) -> String {
        let projection = Projection(map, width: width)
        let f = projection.fontSize
        var body = SVG.title(map.name)
        body += "<g class=\"railroads\" stroke-linecap=\"round\">"
        for index in map.railroads.indices {
            guard let line = segment(index, of: map, projection) else { continue }
            let look = style(index)
            body += SVG.element("line", [
                ("class", "railroad"), ("data-railroad", String(index)),
                ("x1", SVG.number(line.x1)), ("y1", SVG.number(line.y1)),
                ("x2", SVG.number(line.x2)), ("y2", SVG.number(line.y2)),
                ("stroke", look.stroke), ("stroke-width", SVG.number(look.width)),
                ("stroke-opacity", SVG.number(min(1, max(0, look.opacity)))),
            ] + attributes(index), SVG.title(look.title))
        }
        body += "</g>"
        body += extra(projection)
        body += "<g class=\"cities\">"
        for city in map.cities {
            let p = projection.point(city)
            body += SVG.element("circle", [
                ("class", "city"), ("data-city", city.name), ("cx", SVG.number(p.x)), ("cy", SVG.number(p.y)),
                ("r", SVG.number(0.4 * f)), ("fill", "#fff"), ("stroke", "#333"), ("stroke-width", "1.5"),
            ], SVG.title(city.name))
        }
        body += "</g>"
        body += "<g class=\"city-labels\" font-size=\"\(SVG.number(f))\" text-anchor=\"middle\" fill=\"#222\" "
            + "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\" pointer-events=\"none\">"
        for city in map.cities {
            let p = projection.point(city)
            body += SVG.element("text", [("class", "city-label"), ("x", SVG.number(p.x)), ("y", SVG.number(p.y - 0.75 * f))],
                                SVG.escape(city.name))
        }
        body += "</g>"
        return SVG.element("svg", [
            ("id", id), ("class", "rail-map"), ("width", SVG.number(projection.width)), ("height", SVG.number(projection.height)),
            ("viewBox", "0 0 \(SVG.number(projection.width)) \(SVG.number(projection.height))"),
            ("font-family", "sans-serif"), ("role", "img"),
        ], body)
    }

    /// The drawn line of railroad `index`: city to city, moved off the centre line by
    /// half a lane when the railroad is one of a double (lane 0 to the left of the
    /// lower-numbered city's view of the other, lane 1 to the right). Nil when a city
    /// index is out of range.
    static func segment(_ index: Int, of map: RailMapPicture, _ projection: Projection)
        -> (x1: Double, y1: Double, x2: Double, y2: Double)? {
        let road = map.railroads[index]
        guard map.cities.indices.contains(road.from), map.cities.indices.contains(road.to) else { return nil }
        let a = projection.point(map.cities[road.from]), b = projection.point(map.cities[road.to])
        let isDouble = map.railroads.indices.contains { other in
            other != index && map.railroads[other].lane != road.lane
                && Set([map.railroads[other].from, map.railroads[other].to]) == Set([road.from, road.to])
        }
        guard isDouble else { return (a.x, a.y, b.x, b.y) }
        // The same perpendicular for both lanes, whichever way each is stored.
        let (p, q) = road.from < road.to ? (a, b) : (b, a)
        let (dx, dy) = (q.x - p.x, q.y - p.y)
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return (a.x, a.y, b.x, b.y) }
        let half = max(2, projection.width / 260) * (road.lane == 0 ? -1 : 1)
        let (ox, oy) = (-dy / length * half, dx / length * half)
        return (a.x + ox, a.y + oy, b.x + ox, b.y + oy)
    }
}
