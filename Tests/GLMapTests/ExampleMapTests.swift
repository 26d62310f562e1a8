import XCTest
import GLMapCore
import GLMapGeoJSON
import GLMapStyle
@testable import GLMap
import GLMapTestSupport

/// The README's example, rendered through the GPU path and checked by sampling pixels at projected
/// coordinates of the example's own geometry, with exact expected colours (±2 per channel).
final class ExampleMapTests: XCTestCase {
    static let background = [246, 243, 238, 255]   // #f6f3ee
    static let fill = (r: 68.0, g: 105.0, b: 247.0, opacity: 0.3)

    var collection: GLMapGeoJSON.FeatureCollection!

    override func setUpWithError() throws {
        let data = try Data(contentsOf: SharedData.examples.appendingPathComponent("dc.geojson"))
        collection = try GeoJSONDecoder.decode([UInt8](data))
    }

    func render(styleTransform: ((inout String) -> Void)? = nil, options: RenderOptions) throws -> (StraightImage, ViewTransform) {
        var text = try String(contentsOf: SharedData.examples.appendingPathComponent("style.json"), encoding: .utf8)
        styleTransform?(&text)
        let style = try StyleDocument.parse(Array(text.utf8), file: SharedData.exampleStyle)
        let scene = try Scene(style: style)
        XCTAssertTrue(scene.warnings.isEmpty, "\(scene.warnings)")
        let img = try MapRenderer().render(scene, options: options).unpremultiplied()
        let view = ViewTransform(camera: options.camera(default: style.camera), width: Double(options.width), height: Double(options.height))
        return (img, view)
    }

    func feature(named name: String) -> GLMapGeoJSON.Feature {
        collection.features.first { $0.properties["name"]?.stringValue == name }!
    }

    /// Device pixel containing a lon/lat.
    func devicePixel(_ view: ViewTransform, _ p: Position, ratio: Double = 1) -> (Int, Int) {
        let s = view.screenPoint(lon: p.lon, lat: p.lat)!
        return (Int(s.x * ratio), Int(s.y * ratio))
    }

    func testBackgroundFillBlendAndHole() throws {
        let (img, view) = try render(options: RenderOptions(width: 800, height: 600))
        XCTAssertEqual(img.width, 800)
        XCTAssertEqual(pixel(img, 5, 5), Self.background, "background colour in an empty corner")

        // Inside Dupont Circle's polygon (its centre, away from the line and stations).
        guard case .polygon(let rings)? = feature(named: "Georgetown").geometry else { return XCTFail("Georgetown is a Polygon") }
        let centroid = Position(rings[0].dropLast().map(\.lon).reduce(0, +) / Double(rings[0].count - 1),
                                rings[0].dropLast().map(\.lat).reduce(0, +) / Double(rings[0].count - 1))
        let (x, y) = devicePixel(view, centroid)
        let f = Self.fill
        let expected = [Int((f.r * f.opacity + 246 * (1 - f.opacity)).rounded()),
                        Int((f.g * f.opacity + 243 * (1 - f.opacity)).rounded()),
                        Int((f.b * f.opacity + 238 * (1 - f.opacity)).rounded()), 255]
        XCTAssertTrue(close(pixel(img, x, y), expected), "fill blended at 0.3 over the background: got \(pixel(img, x, y)), expected \(expected)")

        // Capitol Hill has a hole (Lincoln Park): its centre shows the background.
        guard case .polygon(let ch)? = feature(named: "Capitol Hill").geometry, ch.count == 2 else { return XCTFail("Capitol Hill has a hole") }
        let holeCenter = Position(ch[1].dropLast().map(\.lon).reduce(0, +) / Double(ch[1].count - 1),
                                  ch[1].dropLast().map(\.lat).reduce(0, +) / Double(ch[1].count - 1))
        let (hx, hy) = devicePixel(view, holeCenter)
        XCTAssertTrue(close(pixel(img, hx, hy), Self.background), "hole punched: got \(pixel(img, hx, hy))")
        // …while the ring around the hole is filled.
        let ringPoint = Position((ch[0][0].lon + ch[1][0].lon) / 2, (ch[0][0].lat + ch[1][0].lat) / 2)
        let (rx, ry) = devicePixel(view, ringPoint)
        XCTAssertTrue(close(pixel(img, rx, ry), expected), "filled between outer ring and hole: got \(pixel(img, rx, ry))")

        // Both parts of the MultiPolygon are drawn.
        guard case .multiPolygon(let parts)? = feature(named: "Navy Yard and The Wharf").geometry else { return XCTFail() }
        for part in parts {
            let c = Position(part[0].dropLast().map(\.lon).reduce(0, +) / Double(part[0].count - 1),
                             part[0].dropLast().map(\.lat).reduce(0, +) / Double(part[0].count - 1))
            let (px, py) = devicePixel(view, c)
            XCTAssertTrue(close(pixel(img, px, py), expected), "MultiPolygon part filled: got \(pixel(img, px, py))")
        }
    }

    func testStationsAreRedWithBlackStroke() throws {
        let (img, view) = try render(options: RenderOptions(width: 800, height: 600))
        let stations: [(Double, Double)] = collection.features.compactMap { f in
            guard f.properties["kind"]?.stringValue == "station", case .point(let p)? = f.geometry else { return nil }
            let s = view.screenPoint(lon: p.lon, lat: p.lat)!
            return (s.x, s.y)
        }
        XCTAssertEqual(stations.count, 16)
        var checked = 0
        for (sx, sy) in stations {
            // Skip stations whose circles touch another station's (Gallery Place / Metro Center…).
            if stations.contains(where: { ($0.0 != sx || $0.1 != sy) && hypot($0.0 - sx, $0.1 - sy) < 24 }) { continue }
            checked += 1
            let cx = Int(sx), cy = Int(sy)
            XCTAssertTrue(close(pixel(img, cx, cy), [255, 0, 0, 255]), "station centre red: \(pixel(img, cx, cy))")
            // The pixel whose centre lies 6…7 px right of the centre is inside the black 6…8 px ring
            // and clear of both antialiased rims.
            let rx = Int((sx + 5.5).rounded(.up))
            XCTAssertTrue((6.0...7.0).contains(Double(rx) + 0.5 - sx))
            XCTAssertTrue(close(pixel(img, rx, Int(sy)), [0, 0, 0, 255]), "stroke ring black: \(pixel(img, rx, Int(sy)))")
            // 12 px away is outside the circle: never red or black.
            let out = pixel(img, Int(sx) + 12, cy)
            XCTAssertTrue(out[1] > 100, "outside the circle: \(out)")
        }
        XCTAssertGreaterThan(checked, 8)
    }

    /// Red pixels across the rail line, measured perpendicular to a straight stretch.
    func lineCrossSection(_ img: StraightImage, _ view: ViewTransform, ratio: Double) -> (center: [Int], redCount: Int) {
        guard case .lineString(let line)? = feature(named: "Metrorail Red Line (DC section)").geometry else { return ([], 0) }
        // Middle of the segment between two interpolated vertices well away from stations.
        let a = line[13], b = line[14]
        let pa = view.screenPoint(lon: a.lon, lat: a.lat)!, pb = view.screenPoint(lon: b.lon, lat: b.lat)!
        let mx = (pa.x + pb.x) / 2 * ratio, my = (pa.y + pb.y) / 2 * ratio
        var dx = pb.x - pa.x, dy = pb.y - pa.y
        let len = (dx * dx + dy * dy).squareRoot()
        dx /= len; dy /= len
        var count = 0.0
        var best: [Int] = []
        var bestDist = Double.infinity
        for step in -40...40 {
            let t = Double(step) * 0.25
            let x = Int(mx - dy * t), y = Int(my + dx * t)
            let p = pixel(img, x, y)
            // Coverage along the normal: red weight of the pixel (straight colour is red when covered).
            if p[1] < 128 && p[0] > 128 { count += 0.25 }
            let dist = abs((Double(x) + 0.5 - mx) * -dy + (Double(y) + 0.5 - my) * dx) // distance across
            let along = abs((Double(x) + 0.5 - mx) * dx + (Double(y) + 0.5 - my) * dy)
            if dist + along < bestDist { bestDist = dist + along; best = p }
        }
        return (best, Int(count.rounded()))
    }

    func testLineWidthScalesWithRatio() throws {
        let (img1, view1) = try render(options: RenderOptions(width: 400, height: 300))
        let (img2, view2) = try render(options: RenderOptions(width: 400, height: 300, ratio: 2))
        XCTAssertEqual(img2.width, 800, "ratio 2 doubles the image width")
        XCTAssertEqual(img2.height, 600)
        let s1 = lineCrossSection(img1, view1, ratio: 1)
        let s2 = lineCrossSection(img2, view2, ratio: 2)
        XCTAssertTrue(close(s1.center, [255, 0, 0, 255], tolerance: 30), "line centre is red at ratio 1: \(s1.center)")
        XCTAssertTrue(close(s2.center, [255, 0, 0, 255], tolerance: 2), "line centre is red at ratio 2: \(s2.center)")
        XCTAssertEqual(s1.redCount, 2, "2-px line covers about 2 device pixels at ratio 1")
        XCTAssertEqual(s2.redCount, 4, "the same line covers about 4 device pixels at ratio 2")
    }

    func testTransparentBackgroundKeepsStraightAlpha() throws {
        let (img, view) = try render(styleTransform: { s in
            s = s.replacingOccurrences(of: ##"{ "id": "background", "type": "background", "paint": { "background-color": "#f6f3ee" } },"##, with: "")
        }, options: RenderOptions(width: 800, height: 600))
        XCTAssertEqual(pixel(img, 5, 5), [0, 0, 0, 0], "no background layer: transparent")
        guard case .polygon(let rings)? = feature(named: "Georgetown").geometry else { return XCTFail() }
        let c = Position(rings[0].dropLast().map(\.lon).reduce(0, +) / Double(rings[0].count - 1),
                         rings[0].dropLast().map(\.lat).reduce(0, +) / Double(rings[0].count - 1))
        let (x, y) = devicePixel(view, c)
        // Straight alpha: the fill's own colour at alpha 0.3·255.
        XCTAssertTrue(close(pixel(img, x, y), [68, 105, 247, 77]), "straight-alpha fill: \(pixel(img, x, y))")
    }

    func testCameraOverridesMoveTheMap() throws {
        let base = try render(options: RenderOptions(width: 400, height: 300))
        let moved = try render(options: RenderOptions(width: 400, height: 300, longitude: -77.0, latitude: 38.9, zoom: 12))
        XCTAssertNotEqual(base.0.pixels, moved.0.pixels)
        let s = moved.1.screenPoint(lon: -77.0, lat: 38.9)!
        XCTAssertEqual(s.x, 200, accuracy: 1e-6)
        XCTAssertEqual(s.y, 150, accuracy: 1e-6)
    }
}

/// Non-finite coordinates never reach the tessellator: the source is rejected naming the feature.
final class InvalidGeometryTests: XCTestCase {
    func testNonFiniteCoordinatesAreRejectedNamingTheFeature() throws {
        let style = try StyleDocument.parse(Array(#"{"version":8,"sources":{"s":{"type":"geojson","data":{"type":"FeatureCollection","features":[]}}},"layers":[{"id":"f","type":"fill","source":"s"}]}"#.utf8))
        let good = Feature(geometry: .point(Position(1, 2)))
        let bad = Feature(id: 7, geometry: .polygon([[Position(0, 0), Position(.nan, 1), Position(1, 1), Position(0, 0)]]))
        XCTAssertThrowsError(try Scene(style: style, preloaded: ["s": FeatureCollection(features: [good, bad])], strict: true)) { e in
            XCTAssertTrue("\(e)".hasPrefix("source \"s\": feature 1 (id 7)"), "\(e)")
            XCTAssertTrue("\(e)".contains("nan"), "\(e)")
        }
        XCTAssertThrowsError(try Scene(style: style, preloaded: ["s": FeatureCollection(features: [Feature(geometry: .lineString([Position(1e300, 0), Position(0, 0)]))])], strict: true))
        let scene = try Scene(style: style, preloaded: ["s": FeatureCollection(features: [good])], strict: true)
        XCTAssertTrue(scene.warnings.isEmpty)
    }
}
