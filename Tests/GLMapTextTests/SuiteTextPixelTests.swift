import Foundation
import GLMapCore
import GLMapPNG
import GLMapTesting
import GLMapText
import XCTest

/// End to end against GL JS's own pixels: point labels of render-suite cases are laid out with
/// GLMapText (glyph manager → atlas → shaping → quads) and drawn by a minimal test-only SDF
/// rasterizer that does what GL JS's symbol_sdf shader does for a viewport-aligned label at
/// pitch 0 (offsets quantized to 1/32, bilinear atlas sampling, smoothstep around 0.75 with
/// gamma 0.105 / font scale). The images are compared with the harness's pixelmatch rule; the
/// test measures the layout arithmetic (a glyph one pixel off fails it), not a renderer.
final class SuiteTextPixelTests: XCTestCase {
    struct Case {
        var name: String
        var labels: [(text: FormattedText, anchor: (x: Double, y: Double))]
        var values: SymbolLayoutValues
        var width: Int
        var height: Int
        var background: Bool
        /// `text-writing-mode` is `["vertical"]`: the vertical shaping is drawn, turned 90° as
        /// GL JS's vertex shader turns vertically placed labels.
        var verticalOnly = false
    }

    func render(_ c: Case) throws -> (actual: StraightImage, mismatch: Double) {
        let manager = GlyphManager(urlTemplate: "local://glyphs/{fontstack}/{range}.pbf", fetch: TextFixtures.localFetch())
        let texts = c.labels.map { $0.text.transformed(.none, bidi: Bidi()) }
        var deps = GlyphDependencies()
        var images: [String] = []
        for text in texts { SymbolTextLayout.dependencies(of: text, values: c.values, glyphs: &deps, images: &images) }
        let glyphs = manager.glyphs(for: deps)
        let atlas = GlyphAtlas(glyphs: glyphs)
        var placed: [(quads: [SymbolQuad], anchor: (x: Double, y: Double))] = []
        for (text, label) in zip(texts, c.labels) {
            let shaped = SymbolTextLayout.shape(text, values: c.values, glyphs: glyphs, glyphAtlas: atlas, imagePositions: [:], bidi: Bidi())
            let shaping = try XCTUnwrap(c.verticalOnly ? shaped.vertical : shaped.defaultHorizontal, "\(c.name): no shaping")
            var quads = SymbolQuads.glyphQuads(shaping, textOffset: shaped.textOffset, textRotate: c.values.textRotate, alongLine: false,
                                               allowVerticalPlacement: c.values.allowVerticalPlacement, images: [:])
            if c.verticalOnly {
                func turn(_ p: QuadPoint) -> QuadPoint { QuadPoint(-p.y, p.x) }
                quads = quads.map { q in
                    var q = q
                    (q.tl, q.tr, q.bl, q.br) = (turn(q.tl), turn(q.tr), turn(q.bl), turn(q.br))
                    return q
                }
            }
            placed.append((quads, label.anchor))
        }
        let image = Self.draw(placed, atlas: atlas.image, fontScale: c.values.textSize / 24,
                              width: c.width, height: c.height, whiteBackground: c.background)
        let expected = try PNGDecoder.decode(contentsOf: TextFixtures.suite.appendingPathComponent("cases/\(c.name)/expected.png").path)
        let diff = try Pixelmatch.compare(image, expected, options: Pixelmatch.Options(threshold: 0.1285))
        return (image, Double(diff) / Double(c.width * c.height))
    }

    /// GL JS's SDF text shading for quads at `anchor` (CSS px, pixel ratio 1).
    static func draw(_ labels: [(quads: [SymbolQuad], anchor: (x: Double, y: Double))], atlas: AlphaImage, fontScale: Double,
                     width: Int, height: Int, whiteBackground: Bool) -> StraightImage {
        var alphaAcc = [Double](repeating: 0, count: width * height)   // premultiplied black: only alpha matters
        let gamma = 0.105 / fontScale
        func sample(_ x: Double, _ y: Double) -> Double {
            let fx = x - 0.5, fy = y - 0.5
            let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
            let tx = fx - Double(x0), ty = fy - Double(y0)
            func at(_ i: Int, _ j: Int) -> Double {
                Double(atlas[min(max(i, 0), atlas.width - 1), min(max(j, 0), atlas.height - 1)]) / 255
            }
            return (at(x0, y0) * (1 - tx) + at(x0 + 1, y0) * tx) * (1 - ty) + (at(x0, y0 + 1) * (1 - tx) + at(x0 + 1, y0 + 1) * tx) * ty
        }
        for (quads, anchor) in labels { for q in quads {
            func px(_ p: QuadPoint) -> (x: Double, y: Double) {
                (anchor.x + ((p.x * 32).rounded() / 32) * fontScale, anchor.y + ((p.y * 32).rounded() / 32) * fontScale)
            }
            // The quad is a parallelogram tl + u·(tr − tl) + v·(bl − tl); invert it per pixel centre.
            let o = px(q.tl), a = px(q.tr), b = px(q.bl), d = px(q.br)
            let ux = a.x - o.x, uy = a.y - o.y, vx = b.x - o.x, vy = b.y - o.y
            let det = ux * vy - uy * vx
            guard det != 0 else { continue }
            let xs = [o.x, a.x, b.x, d.x], ys = [o.y, a.y, b.y, d.y]
            let minX = max(0, Int(xs.min()!.rounded(.down))), maxX = min(width, Int(xs.max()!.rounded(.up)))
            let minY = max(0, Int(ys.min()!.rounded(.down))), maxY = min(height, Int(ys.max()!.rounded(.up)))
            guard minX < maxX, minY < maxY else { continue }
            for py in minY..<maxY {
                for pxi in minX..<maxX {
                    let cx = Double(pxi) + 0.5 - o.x, cy = Double(py) + 0.5 - o.y
                    let u = (cx * vy - cy * vx) / det, v = (ux * cy - uy * cx) / det
                    guard u >= 0, u < 1, v >= 0, v < 1 else { continue }
                    let dist = sample(q.tex.x + u * q.tex.w, q.tex.y + v * q.tex.h)
                    let e0 = 0.75 - gamma, e1 = 0.75 + gamma
                    let t = min(max((dist - e0) / (e1 - e0), 0), 1)
                    let alpha = t * t * (3 - 2 * t)
                    let i = py * width + pxi
                    alphaAcc[i] = alpha + alphaAcc[i] * (1 - alpha)
                }
            }
        } }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in 0..<(width * height) {
            let a = alphaAcc[i]
            if whiteBackground {
                let v = UInt8((255 * (1 - a)).rounded())
                pixels[i * 4] = v; pixels[i * 4 + 1] = v; pixels[i * 4 + 2] = v; pixels[i * 4 + 3] = 255
            } else {
                pixels[i * 4 + 3] = UInt8((255 * a).rounded())
            }
        }
        return StraightImage(width: width, height: height, pixels: pixels)
    }

    /// The suite's cases that are one black point label over GeoJSON at pitch and bearing 0 with
    /// literal layout values (found by scanning the suite; a background, when present, is white).
    /// Left out: `regressions/mapbox-gl-js#4647` and `text-rotate/with-offset`, which also draw
    /// collision debug boxes (`collisionDebug`), not part of this module.
    static let pointLabelCases = [
        "regressions/mapbox-gl-js#4617", "regressions/mapbox-gl-js#6660", "text-field/literal",
        "text-max-width/force-double-newline", "text-max-width/force-newline", "text-max-width/literal",
        "text-max-width/zero-width-point-placement", "text-size/default", "text-size/literal",
        // Right-to-left and Arabic (shaped and reordered as the RTL plugin does; the map's
        // bearing does not move a viewport-aligned label at the centre).
        "text-arabic/letter-spacing", "text-arabic/line-break", "text-arabic/line-break-mixed", "text-arabic/multi-paragraph",
        // Ideographic line breaking and vertical CJK (glyphs/NotoCJK and the Arial Unicode ranges).
        "text-max-width/ideographic-breaking", "text-max-width/ideographic-punctuation-breaking",
        "text-writing-mode/point_label/cjk-punctuation-vertical-mode",
        // `format` sections: font scale, a section font stack, a line break between sections.
        "text-field/formatted",
    ]
    // Not here: text-writing-mode/point_label/cjk-vertical-mode draws its first two labels exactly
    // but GL JS's collision placement hides the third, and this test does no placement.

    /// The case's label, layout values, view and anchor position read from its style.json.
    func load(_ name: String) throws -> Case {
        let style = try JSONParser.parse(TextFixtures.bytes(TextFixtures.suite.appendingPathComponent("cases/\(name)/style.json")))
        let o = try XCTUnwrap(style.objectValue)
        let test = o["metadata"]?.objectValue?["test"]?.objectValue
        let width = Int(test?["width"]?.numberValue ?? 512), height = Int(test?["height"]?.numberValue ?? 512)
        let layers = try XCTUnwrap(o["layers"]?.arrayValue)
        let symbol = try XCTUnwrap(layers.first { $0.objectValue?["type"]?.stringValue == "symbol" }?.objectValue)
        let layout = symbol["layout"]?.objectValue ?? JSONObject()
        var v = SymbolLayoutValues()
        if let f = layout["text-font"]?.arrayValue { v.textFont = f.compactMap(\.stringValue) }
        if let n = layout["text-size"]?.numberValue { v.textSize = n; v.textSizeNextZoom = n }
        if let n = layout["text-max-width"]?.numberValue { v.textMaxWidth = n }
        if let n = layout["text-line-height"]?.numberValue { v.textLineHeight = n }
        if let n = layout["text-letter-spacing"]?.numberValue { v.textLetterSpacing = n }
        if let n = layout["text-rotate"]?.numberValue { v.textRotate = n }
        if let n = layout["text-radial-offset"]?.numberValue { v.textRadialOffset = n }
        if let a = layout["text-offset"]?.arrayValue?.compactMap(\.numberValue), a.count == 2 { v.textOffset = (a[0], a[1]) }
        if let s = layout["text-anchor"]?.stringValue { v.textAnchor = try XCTUnwrap(SymbolAnchor(rawValue: s)) }
        if let s = layout["text-justify"]?.stringValue { v.textJustify = try XCTUnwrap(TextJustifyValue(rawValue: s)) }
        let modes = layout["text-writing-mode"]?.arrayValue?.compactMap(\.stringValue) ?? []
        v.allowVerticalPlacement = modes.contains("vertical")
        let field = try XCTUnwrap(layout["text-field"])
        // The point, projected as Web Mercator at the style's zoom around its centre.
        let source = try XCTUnwrap(o["sources"]?.objectValue?[try XCTUnwrap(symbol["source"]?.stringValue)]?.objectValue?["data"]?.objectValue)
        let features = source["type"]?.stringValue == "FeatureCollection" ? (source["features"]?.arrayValue ?? []).compactMap(\.objectValue) : [source]
        let center = o["center"]?.arrayValue?.compactMap(\.numberValue) ?? [0, 0]
        let zoom = o["zoom"]?.numberValue ?? 0
        let world = 512 * pow(2, zoom)
        func project(_ lon: Double, _ lat: Double) -> (Double, Double) {
            let y = log(tan(.pi / 4 + lat * .pi / 360))
            return ((lon + 180) / 360 * world, (1 - y / .pi) / 2 * world)
        }
        let (cx, cy) = project(center[0], center[1])
        var labels: [(FormattedText, (Double, Double))] = []
        for feature in features {
            let geometry = feature["geometry"]?.objectValue ?? feature
            let point = try XCTUnwrap(geometry["coordinates"]?.arrayValue?.compactMap(\.numberValue))
            let properties = feature["properties"]?.objectValue
            let (px, py) = project(point[0], point[1])
            labels.append((try Self.formatted(field, properties: properties), (px - cx + Double(width) / 2, py - cy + Double(height) / 2)))
        }
        let background = layers.contains { $0.objectValue?["type"]?.stringValue == "background" }
        return Case(name: name, labels: labels, values: v, width: width, height: height, background: background, verticalOnly: modes == ["vertical"])
    }

    /// A literal `text-field` (string with `{tokens}`) or a `format` expression whose parts are
    /// strings or `["get", key]` with `font-scale` and literal `text-font` options.
    static func formatted(_ field: JSONValue, properties: JSONObject?) throws -> FormattedText {
        if let s = field.stringValue { return FormattedText(TokenResolver.resolve(s) { properties?[$0]?.stringValue }) }
        guard let a = field.arrayValue, a.first?.stringValue == "format" else { throw InputFailure("unsupported text-field \(field)") }
        var sections: [FormattedSection] = []
        var i = 1
        while i < a.count {
            let part = a[i]
            let text: String
            if let s = part.stringValue { text = s } else if let g = part.arrayValue, g.first?.stringValue == "get", let key = g.last?.stringValue {
                text = properties?[key]?.stringValue ?? ""
            } else { throw InputFailure("unsupported format part \(part)") }
            var section = FormattedSection(text: text)
            if i + 1 < a.count, let options = a[i + 1].objectValue {
                section.scale = options["font-scale"]?.numberValue
                if let f = options["text-font"]?.arrayValue, f.first?.stringValue == "literal" {
                    section.fontStack = f.last?.arrayValue?.compactMap(\.stringValue).joined(separator: ",")
                }
                i += 1
            }
            sections.append(section)
            i += 1
        }
        return FormattedText(sections: sections)
    }

    func testPointLabelsMatchGLJS() throws {
        try TextFixtures.requireSuite()
        var failures: [String] = []
        for name in Self.pointLabelCases {
            let r = try render(try load(name))
            print("SuiteTextPixelTests \(name): \(String(format: "%.5f", r.mismatch)) of pixels differ (the suite allows 0.00025)")
            if r.mismatch > 0.00025 {
                let out = FileManager.default.temporaryDirectory.appendingPathComponent("glmap-text-\(name.replacingOccurrences(of: "/", with: "-")).png")
                try? Data(PNGEncoder.encode(r.actual)).write(to: out)
                failures.append("\(name): \(r.mismatch) of pixels differ; actual image at \(out.path)")
            }
        }
        print("SuiteTextPixelTests: \(Self.pointLabelCases.count - failures.count) of \(Self.pointLabelCases.count) point-label cases within the suite's allowance")
        XCTAssertTrue(failures.isEmpty, failures.joined(separator: "\n"))
    }
}
