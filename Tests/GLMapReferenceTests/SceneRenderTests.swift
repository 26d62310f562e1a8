import XCTest
import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapPNG
@testable import GLMapStyle
@testable import GLMapReference

/// Renders a real scene from `../shared/scenes` and times it (run with `-c release` for the figure).
final class SceneRenderTests: XCTestCase {
    static let scenes = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/scenes").standardizedFileURL

    /// The evaluated layers and camera of a scene whose style's GeoJSON sources are files.
    /// `dropFillFilters`: fill layers draw every polygon feature (see `testUSStates1024`).
    func loadScene(_ name: String, dropFillFilters: Bool = false) throws -> (layers: [EvaluatedLayer], camera: Camera)? {
        let stylePath = SceneRenderTests.scenes.appendingPathComponent("\(name).style.json").path
        guard let bytes = FileManager.default.contents(atPath: stylePath) else {
            let message = "scene not found: \(stylePath) is missing; the shared reference data must sit at ../shared next to the repository"
            print("error: \(message)")
            XCTFail(message)
            return nil
        }
        let style = try StyleDocument.parse([UInt8](bytes), file: stylePath)
        var features: [String: [ProjectedFeature]] = [:]
        for (id, source) in style.sources {
            guard case .reference(let ref) = source.data else { continue }
            let path = SceneRenderTests.scenes.appendingPathComponent(ref).path
            guard let data = FileManager.default.contents(atPath: path) else {
                XCTFail("scene data missing: \(path)"); return nil
            }
            features[id] = try ProjectedFeature.project(try GeoJSONDecoder.decode([UInt8](data), file: path))
        }
        let evaluator = StyleEvaluator(zoom: style.zoom, globalState: style.globalState)
        let layers = style.layers.compactMap { layer -> EvaluatedLayer? in
            guard layer.isDrawn(atZoom: style.zoom) else { return nil }
            var layer = layer
            if dropFillFilters && layer.type == .fill { layer.filter = nil }
            return evaluator.evaluate(layer, features: layer.source.flatMap { features[$0] } ?? [])
        }
        return (layers, style.camera)
    }

    func testUSStates1024() throws {
        // The fill's `["==", "$type", "Polygon"]` filter must match MultiPolygons too (MapLibre's
        // $type is Point/LineString/Polygon); the source holds only (Multi)Polygons, so dropping
        // that filter draws what MapLibre draws whatever the evaluator does with $type.
        guard let scene = try loadScene("us_states", dropFillFilters: true) else { return }
        let view = ViewTransform(camera: scene.camera, width: 1024, height: 1024)
        let start = Date()
        let img = ReferenceRenderer().render(scene.layers, view: view, ratio: 1)
        let seconds = Date().timeIntervalSince(start)
        print("reference renderer: us_states 1024x1024 in \(String(format: "%.3f", seconds)) s")
        // White background with states in translucent blue (0.3 · rgb(68,105,247) over white).
        var tinted = 0, white = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let p = img[x, y]
                XCTAssertEqual(p.a, 255)
                if p.r == 255 && p.g == 255 && p.b == 255 { white += 1 }
                if p.r == 0xc7 && p.g == 0xd2 && p.b == 0xfd { tinted += 1 }
            }
        }
        if let dir = ProcessInfo.processInfo.environment["GLMAP_REFERENCE_OUT"] {
            try PNGEncoder.write(img.unpremultiplied(), to: dir + "/us_states-reference.png")
        }
        print("reference renderer: us_states white \(white), state-interior \(tinted) pixels")
        XCTAssertGreaterThan(tinted, img.width * img.height / 20)
        XCTAssertGreaterThan(white, img.width * img.height / 5)
    }

    func testHelsinki1024() throws {
        // Polygons, 3,171 lines and 2,067 points of one city: the line and circle painters' load.
        guard let scene = try loadScene("helsinki") else { return }
        let view = ViewTransform(camera: scene.camera, width: 1024, height: 1024)
        let start = Date()
        let img = ReferenceRenderer().render(scene.layers, view: view, ratio: 1)
        if let dir = ProcessInfo.processInfo.environment["GLMAP_REFERENCE_OUT"] {
            try PNGEncoder.write(img.unpremultiplied(), to: dir + "/helsinki-reference.png")
        }
        print("reference renderer: helsinki 1024x1024 in \(String(format: "%.3f", seconds(since: start))) s")
        var distinct = Set<UInt32>()
        for i in stride(from: 0, to: img.pixels.count, by: 4) {
            distinct.insert(UInt32(img.pixels[i]) << 16 | UInt32(img.pixels[i + 1]) << 8 | UInt32(img.pixels[i + 2]))
        }
        XCTAssertGreaterThan(distinct.count, 20, "a city map has many blended colours")
    }

    func seconds(since start: Date) -> Double { Date().timeIntervalSince(start) }
}
