import Foundation
import Testing
import GLMapCore
import GLMapGeoJSON
import GLMapPNG
import GLMapTestSupport
@testable import GLMap

/// The real scenes of ../shared/scenes drawn by the CPU reference renderer through the library's
/// own path (`Scene(styleFile:)`, `MapRenderer(backend: .cpu)`), judged pixel by pixel against
/// colours computed here from the style and the data: on a grid of sample points away from every
/// edge, line and point, the pixel is the background with one translucent fill composited per
/// polygon feature that contains the point (its Web Mercator position under the style's camera),
/// within 2 per channel. Each scene is its own test case; the drawing time is printed.
@Suite struct SceneReferencePixelTests {
    static let size = 1024
    /// Grid step of the sample points, in pixels.
    static let step = 16
    /// Pixels kept clear of polygon edges and lines (2-px lines, 1-px antialiasing and outlines).
    static let edgeMargin = 4.0
    /// Pixels kept clear of points (6-px circles with a 2-px stroke, and antialiasing).
    static let pointMargin = 10.0

    /// What the scene styles draw (they share one template): read from the style JSON.
    struct Paint {
        var background: Color, fill: Color, fillOpacity: Double
        var center: (lon: Double, lat: Double), zoom: Double
        var dataFile: String
    }

    static func paint(_ styleFile: String) throws -> Paint {
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: styleFile))))
        let layers = json["layers"]?.arrayValue ?? []
        func layer(_ type: String) throws -> JSONValue {
            let found = layers.first { $0["type"]?.stringValue == type }
            return try #require(found, "\(styleFile): no \(type) layer")
        }
        func color(_ v: JSONValue?) throws -> Color {
            let parsed = v?.stringValue.flatMap { Color(css: $0) }
            return try #require(parsed, "\(styleFile): a colour")
        }
        let fill = try layer("fill"), background = try layer("background")
        let centerValues = json["center"]?.arrayValue?.compactMap { $0.numberValue } ?? []
        let center = try #require(centerValues.count == 2 ? centerValues : nil, "\(styleFile): center")
        let source = try #require(json["sources"]?.objectValue?.values.first?.value["data"]?.stringValue, "\(styleFile): a source with a data file")
        return Paint(background: try color(background["paint"]?["background-color"]), fill: try color(fill["paint"]?["fill-color"]),
                     fillOpacity: fill["paint"]?["fill-opacity"]?.numberValue ?? 1, center: (center[0], center[1]),
                     zoom: try #require(json["zoom"]?.numberValue), dataFile: URL(fileURLWithPath: styleFile).deletingLastPathComponent().appendingPathComponent(source).path)
    }

    /// The data in pixels of the view: polygon features (each a list of rings), lines and points.
    struct Projected {
        var polygons: [[[(Double, Double)]]] = []
        var lines: [[(Double, Double)]] = []
        var points: [(Double, Double)] = []
    }

    /// Web Mercator with 512-px tiles, the view's centre at the image centre; every world copy
    /// that can reach the image (MapLibre draws them).
    static func project(_ features: [GLMapGeoJSON.Feature], paint: Paint) -> Projected {
        let world = 512 * pow(2, paint.zoom)
        func mercator(_ lon: Double, _ lat: Double) -> (Double, Double) {
            let s = sin(max(-85.051129, min(85.051129, lat)) * .pi / 180)
            return ((lon + 180) / 360 * world, (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * world)
        }
        let c = mercator(paint.center.lon, paint.center.lat)
        var out = Projected()
        for copy in [-1.0, 0, 1] {
            func px(_ p: Position) -> (Double, Double) {
                let m = mercator(p.lon, p.lat)
                return (m.0 - c.0 + Double(size) / 2 + copy * world, m.1 - c.1 + Double(size) / 2)
            }
            func add(_ g: GLMapGeoJSON.Geometry) {
                switch g {
                case .point(let p): out.points.append(px(p))
                case .multiPoint(let ps): out.points += ps.map(px)
                case .lineString(let l): out.lines.append(l.map(px))
                case .multiLineString(let ls): out.lines += ls.map { $0.map(px) }
                case .polygon(let rings): out.polygons.append(rings.map { $0.map(px) })
                case .multiPolygon(let ps): out.polygons.append(ps.flatMap { $0.map { $0.map(px) } })
                case .geometryCollection(let gs): gs.forEach(add)
                }
            }
            for f in features { if let g = f.geometry { add(g) } }
        }
        return out
    }

    /// Distance from a point to a segment.
    static func distance(_ p: (Double, Double), _ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let dx = b.0 - a.0, dy = b.1 - a.1
        let len2 = dx * dx + dy * dy
        let t = len2 == 0 ? 0 : max(0, min(1, ((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2))
        return hypot(p.0 - (a.0 + t * dx), p.1 - (a.1 + t * dy))
    }

    /// The expected colour at every sample point that is clear of edges, lines and points.
    static func expectations(_ data: Projected, paint: Paint) -> [(x: Int, y: Int, rgb: [Double])] {
        // Segments near the image, bucketed by grid cell so each sample looks at its own.
        var cells: [Int: [((Double, Double), (Double, Double))]] = [:]
        let n = size / step
        func bucket(_ a: (Double, Double), _ b: (Double, Double), margin: Double) {
            let x0 = Int(((min(a.0, b.0) - margin) / Double(step)).rounded(.down)), x1 = Int(((max(a.0, b.0) + margin) / Double(step)).rounded(.down))
            let y0 = Int(((min(a.1, b.1) - margin) / Double(step)).rounded(.down)), y1 = Int(((max(a.1, b.1) + margin) / Double(step)).rounded(.down))
            guard x1 >= 0, y1 >= 0, x0 < n, y0 < n else { return }
            for cy in max(0, y0)...min(n - 1, y1) { for cx in max(0, x0)...min(n - 1, x1) { cells[cy * n + cx, default: []].append((a, b)) } }
        }
        for ring in data.polygons.flatMap({ $0 }) + data.lines { for (a, b) in zip(ring, ring.dropFirst()) { bucket(a, b, margin: edgeMargin) } }
        for p in data.points { bucket(p, p, margin: pointMargin) }
        let pointMargins = Set(data.points.map { "\($0.0),\($0.1)" })
        let straight = paint.background.straight, fill = paint.fill.straight
        let alpha = fill.a * paint.fillOpacity
        // Each polygon feature's rows (min y, max y), so a row looks only at the features it crosses.
        let spans: [(Double, Double)] = data.polygons.map { rings in
            let ys = rings.flatMap { $0.map(\.1) }
            return (ys.min() ?? 0, ys.max() ?? -1)
        }
        var out: [(x: Int, y: Int, rgb: [Double])] = []
        for cy in 0..<n {
            let y = Double(cy * step + step / 2) + 0.5
            // Each polygon feature's crossings of this row (even-odd over its rings).
            let crossings: [[Double]] = zip(data.polygons, spans).compactMap { rings, span in
                guard span.0 <= y && y <= span.1 else { return nil }
                var xs: [Double] = []
                for ring in rings {
                    for (a, b) in zip(ring, ring.dropFirst()) where (a.1 <= y) != (b.1 <= y) {
                        xs.append(a.0 + (y - a.1) / (b.1 - a.1) * (b.0 - a.0))
                    }
                }
                return xs.isEmpty ? nil : xs
            }
            for cx in 0..<n {
                let x = Double(cx * step + step / 2) + 0.5
                let near = (cells[cy * n + cx] ?? []).contains { s in
                    let margin = s.0 == s.1 && pointMargins.contains("\(s.0.0),\(s.0.1)") ? pointMargin : edgeMargin
                    return distance((x, y), s.0, s.1) < margin
                }
                if near { continue }
                let inside = crossings.filter { $0.filter { $0 < x }.count % 2 == 1 }.count
                var rgb = [straight.r, straight.g, straight.b]
                for _ in 0..<inside { rgb = [0, 1, 2].map { i in rgb[i] * (1 - alpha) + [fill.r, fill.g, fill.b][i] * alpha } }
                out.append((cx * step + step / 2, cy * step + step / 2, rgb.map { $0 * 255 }))
            }
        }
        return out
    }

    @Test func scenesArePresent() throws {
        try SharedData.require("the six scenes", at: SharedData.scenes)
        #expect(SharedData.sceneNames.count == 6, "\(SharedData.missing("the six scenes", at: SharedData.scenes))")
    }

    @Test("scene drawn by the CPU reference has the colours of its style and data", arguments: SharedData.sceneNames)
    func scene(_ name: String) throws {
        let styleFile = SharedData.scenes.appendingPathComponent("\(name).style.json").path
        let paint = try Self.paint(styleFile)
        let collection = try GeoJSONDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: paint.dataFile))), file: paint.dataFile)
        let expected = Self.expectations(Self.project(collection.features, paint: paint), paint: paint)

        let start = Date()
        let image = try MapRenderer(backend: .cpu).render(try Scene(styleFile: styleFile), options: RenderOptions(width: Self.size, height: Self.size))
            .unpremultiplied()
        print("reference renderer: \(name) \(Self.size)x\(Self.size) in \(String(format: "%.3f", Date().timeIntervalSince(start))) s")
        if let dir = ProcessInfo.processInfo.environment["GLMAP_REFERENCE_OUT"] {
            try PNGEncoder.write(image, to: dir + "/\(name)-reference.png")
        }
        let filled = expected.filter { abs($0.rgb[2] - $0.rgb[0]) > 1 }.count
        print("reference renderer: \(name): \(expected.count) sample points clear of edges, \(filled) inside polygons")
        #expect(expected.count > 100, "\(name): too few sample points clear of the data's edges to judge")
        var wrong: [String] = []
        for e in expected {
            let p = image[e.x, e.y]
            let got = [Double(p.r), Double(p.g), Double(p.b)]
            if p.a != 255 || zip(got, e.rgb).contains(where: { abs($0 - $1) > 2 }) {
                wrong.append("(\(e.x), \(e.y)): rgba(\(p.r), \(p.g), \(p.b), \(p.a)), expected rgb(\(e.rgb.map { String(format: "%.1f", $0) }.joined(separator: ", ")))")
            }
        }
        #expect(wrong.isEmpty, "\(name): \(wrong.count) of \(expected.count) sample points differ, e.g. \(wrong.prefix(5).joined(separator: "; "))")
    }
}
