import Foundation
import XCTest
import GLMapCore
import GLMapPNG
import GLMapStyle
import GLMapTessellation
@testable import GLMapGLES
@testable import GLMap
@testable import GLMapBatch
import GLMapCLI
import GLMapTestSupport
import GLMapTesting

/// Images larger than one framebuffer: drawn in tiles and stitched (GLMapGLES/TiledFrame.swift),
/// byte-identical to the one-pass frame; and the product maximum (`MapRenderer.maxImageSize`),
/// refused up front with one exact message on both backends and by the CLI (exit 2, no file).
final class TiledRenderTests: XCTestCase {
    /// A GPU renderer, or a skip that says why (no EGL/GLES on this machine).
    func gpuRenderer(maxTileSize: Int? = nil) throws -> MapRenderer {
        let r = MapRenderer(backend: .gpu)
        do { try r.prepare() } catch { throw XCTSkip("no GPU backend here (\(error)); tiling is a GPU-only path") }
        r.maxTileSize = maxTileSize
        return r
    }

    func exampleScene() throws -> Scene {
        try Scene(styleFile: SharedData.exampleStyle)
    }

    /// `scene` drawn in one pass and in tiles of each size must agree. Byte-identity holds for
    /// unpitched fills, lines and circles in most frames but not in general on llvmpipe (the tile's
    /// viewport offset changes float rounding in its viewport transform and in perspective-correct
    /// interpolation), so the assertion is the conformance rule: zero pixelmatch mismatches at the
    /// render tests' threshold, and no channel off by more than `maxChannelDelta`. Each comparison
    /// prints its byte and threshold-0 figures. The frame must have content (two colours or more).
    func assertTiledMatches(_ scene: Scene, _ options: RenderOptions, tiles: [Int], _ label: String,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        let whole = try gpuRenderer().render(scene, options: options)
        XCTAssertEqual(whole.width, Int((Double(options.width) * options.ratio).rounded()), file: file, line: line)
        XCTAssertGreaterThan(Set(stride(from: 0, to: whole.pixels.count, by: 4).map { whole.pixels[$0 ..< $0 + 4] }).count, 2,
                             "\(label): the frame has more than two colours", file: file, line: line)
        for t in tiles {
            XCTAssertTrue(whole.width > t || whole.height > t, "\(label): tile \(t) really splits the frame", file: file, line: line)
            let tiled = try gpuRenderer(maxTileSize: t).render(scene, options: options)
            try assertSame(whole, tiled, "\(label), tiles of \(t)", file: file, line: line)
        }
    }

    /// The render tests' default pixelmatch threshold (render-tests/README.md).
    static let conformanceThreshold = 0.1285
    /// Largest channel difference allowed: one antialiased fringe pixel whose coverage flips
    /// (llvmpipe snaps vertices after a float viewport transform that sees the tile's offset).
    static let maxChannelDelta = 16

    /// Asserts two renders of one frame agree (see `assertTiledMatches`) and prints how closely.
    func assertSame(_ whole: PremultipliedImage, _ tiled: PremultipliedImage, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertSame(whole, tiled, straight: { $0.unpremultiplied() }, label, file: file, line: line)
    }

    /// Asserts two decoded frames (straight alpha, as PNG stores them) agree, as above.
    func assertSame(_ whole: StraightImage, _ tiled: StraightImage, _ label: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertSame(whole, tiled, straight: { $0 }, label, file: file, line: line)
    }

    /// The comparison of both: bytes as given, pixelmatch on the `straight` forms.
    func assertSame<Alpha>(_ whole: RGBAImage<Alpha>, _ tiled: RGBAImage<Alpha>, straight: (RGBAImage<Alpha>) -> StraightImage,
                           _ label: String, file: StaticString, line: UInt) throws {
        XCTAssertEqual(tiled.width, whole.width, file: file, line: line)
        XCTAssertEqual(tiled.height, whole.height, file: file, line: line)
        guard tiled.width == whole.width, tiled.height == whole.height else { return }
        if tiled.pixels == whole.pixels {
            print("TiledRenderTests: \(label): byte-identical")
            return
        }
        func mismatches(_ threshold: Double) throws -> Int {
            var options = Pixelmatch.Options()
            options.threshold = threshold
            var diff: StraightImage?
            return try Pixelmatch.compare(straight(tiled), straight(whole), options: options, diff: &diff)
        }
        let strict = try mismatches(0), conformance = try mismatches(Self.conformanceThreshold)
        let (bytes, maxDelta, first) = difference(whole, tiled)
        print("TiledRenderTests: \(label): \(bytes) of \(whole.pixels.count) bytes differ (max channel delta \(maxDelta), first at pixel \(first)); "
              + "pixelmatch mismatches: \(strict) at threshold 0, \(conformance) at \(Self.conformanceThreshold)")
        XCTAssertEqual(conformance, 0, "\(label): pixels differ beyond the render-test threshold", file: file, line: line)
        XCTAssertLessThanOrEqual(maxDelta, Self.maxChannelDelta, "\(label): largest channel difference", file: file, line: line)
    }

    /// How many bytes differ, the largest channel difference and the first differing pixel.
    func difference<Alpha>(_ a: RGBAImage<Alpha>, _ b: RGBAImage<Alpha>) -> (Int, Int, (Int, Int)) {
        var count = 0, maxDelta = 0, first = (-1, -1)
        for i in 0..<min(a.pixels.count, b.pixels.count) where a.pixels[i] != b.pixels[i] {
            if count == 0 { first = ((i / 4) % a.width, (i / 4) / a.width) }
            count += 1
            maxDelta = max(maxDelta, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
        }
        return (count, maxDelta, first)
    }

    func testExampleMapTiledMatchesOnePass() throws {
        // 250×170 at ratio 2 is 500×340 device pixels: neither 64 nor 100 divides it.
        try assertTiledMatches(exampleScene(), RenderOptions(width: 250, height: 170, ratio: 2), tiles: [64, 100], "example map")
    }

    func testPitchedRotatedCameraTiledMatchesOnePass() throws {
        let options = RenderOptions(width: 250, height: 170, ratio: 2, zoom: 12.3, bearing: 37, pitch: 60)
        try assertTiledMatches(exampleScene(), options, tiles: [64, 100], "example map, pitch 60 bearing 37")
    }

    /// Antialiased lines (wide, thin, blurred, dashed, with gaps and offsets), circles (stroked,
    /// blurred, both pitch alignments) and outlined fills crossing tile seams, pitched and rotated.
    func seamScene() throws -> Scene {
        var lines: [String] = []
        for i in 0..<12 {
            let a = Double(i) * 0.31
            lines.append("[[\(-40 + 7 * cos(a)),\(-30 + 5 * sin(a))],[\(40 * cos(a)),\(25 * sin(a + 1))],[\(35 - 3 * Double(i)),\(-20 + 4 * Double(i))]]")
        }
        var points: [String] = []
        for i in 0..<40 { points.append("[\(-45 + Double(i) * 2.37),\(-28 + Double((i * 37) % 56))]") }
        let style = """
        {"version": 8, "center": [0, 0], "zoom": 1.6,
         "sources": {
           "l": {"type": "geojson", "data": {"type": "MultiLineString", "coordinates": [\(lines.joined(separator: ","))]}},
           "p": {"type": "geojson", "data": {"type": "MultiPoint", "coordinates": [\(points.joined(separator: ","))]}},
           "f": {"type": "geojson", "data": {"type": "Polygon", "coordinates": [[[-30,-20],[25,-28],[33,18],[-12,27],[-30,-20]],[[-5,-5],[8,-3],[2,9],[-5,-5]]]}}},
         "layers": [
           {"id": "bg", "type": "background", "paint": {"background-color": "#f4f1ea"}},
           {"id": "fill", "type": "fill", "source": "f", "paint": {"fill-color": "#3366dd", "fill-opacity": 0.45, "fill-outline-color": "#001166"}},
           {"id": "wide", "type": "line", "source": "l", "layout": {"line-join": "round", "line-cap": "round"},
            "paint": {"line-color": "#cc3311", "line-width": 7.5, "line-opacity": 0.7, "line-blur": 1.5}},
           {"id": "gap", "type": "line", "source": "l", "paint": {"line-color": "#117733", "line-width": 1.3, "line-gap-width": 4, "line-offset": 2}},
           {"id": "dash", "type": "line", "source": "l", "paint": {"line-color": "#222222", "line-width": 1.7, "line-dasharray": [3, 2]}},
           {"id": "thin", "type": "line", "source": "l", "paint": {"line-color": "#ffffff", "line-width": 0.6}},
           {"id": "dots", "type": "circle", "source": "p", "paint": {"circle-radius": 6.3, "circle-color": "#ddaa00", "circle-opacity": 0.8,
            "circle-stroke-width": 1.6, "circle-stroke-color": "#442200", "circle-blur": 0.3}},
           {"id": "map-dots", "type": "circle", "source": "p", "paint": {"circle-radius": 2.2, "circle-color": "#8800aa",
            "circle-pitch-alignment": "map", "circle-translate": [5, 3]}}
         ]}
        """
        let scene = try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
        XCTAssertTrue(scene.warnings.isEmpty, "\(scene.warnings)")
        return scene
    }

    func testAntialiasedLinesAndCirclesAcrossSeamsMatchOnePass() throws {
        let scene = try seamScene()
        try assertTiledMatches(scene, RenderOptions(width: 250, height: 170, ratio: 2), tiles: [64, 100], "seam scene")
        try assertTiledMatches(scene, RenderOptions(width: 250, height: 170, ratio: 1.5, bearing: -23, pitch: 45),
                                 tiles: [64], "seam scene, pitch 45 bearing -23, ratio 1.5")
    }

    /// A few of MapLibre's render tests (fill, line, circle), drawn at their own size and ratio.
    func testRenderTestCasesTiledMatchOnePass() throws {
        let root = SharedData.root.appendingPathComponent("render-tests/cases")
        let names = ["fill-outline-color/fill", "line-dasharray/default", "line-join/round",
                     "circle-stroke-width/default", "circle-pitch-alignment/map-scale-viewport"]
        try SharedData.require("render tests", at: root)
        for name in names {
            let dir = root.appendingPathComponent(name)
            let json = try JSONParser.parse([UInt8](Data(contentsOf: dir.appendingPathComponent("style.json"))))
            let t = json["metadata"]?["test"]
            let options = RenderOptions(width: Int(t?["width"]?.numberValue ?? 512), height: Int(t?["height"]?.numberValue ?? 512),
                                        ratio: t?["pixelRatio"]?.numberValue ?? 1)
            let scene = try Scene(styleFile: dir.appendingPathComponent("style.json").path)
            try assertTiledMatches(scene, options, tiles: [24, 50], name)
        }
            }

    /// A pitched view that sees past the world's north and south edges: the background covers
    /// only the part showing the world (WorldBand), in tiles (viewports and the clip fold) as in
    /// one pass.
    func testBackgroundPastTheWorldEdgeTiledMatchesOnePass() throws {
        let style = """
        {"version": 8, "center": [-113.9, -48.0], "zoom": 0.5, "pitch": 58.3,
         "sources": {"l": {"type": "geojson", "data": {"type": "LineString", "coordinates": [[-150, -40], [-80, -60]]}}},
         "layers": [{"id": "line", "type": "line", "source": "l", "paint": {"line-width": 3}},
                    {"id": "bg", "type": "background", "paint": {"background-color": "#3a6ea5", "background-opacity": 0.9}}]}
        """
        let scene = try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
        let options = RenderOptions(width: 64, height: 512, ratio: 1)
        let whole = try gpuRenderer().render(scene, options: options)
        let rows = (0..<whole.height).map { whole.pixels[(($0 * whole.width) + 32) * 4 + 3] }
        XCTAssertEqual(rows.first, 0, "the top row looks past the north edge: no background")
        XCTAssertEqual(rows.last, 0, "the bottom row looks past the south edge: no background")
        XCTAssertEqual(rows[256], 230, "the middle row shows the world")
        try assertTiledMatches(scene, options, tiles: [40, 100], "background past the world edge")
        let gl = try GLRenderer()
        _ = gl.sizeLimits
        gl.sizeLimits.viewportWidth = 100
        gl.sizeLimits.viewportHeight = 100
        let camera = options.camera(default: scene.style.camera)
        let view = ViewTransform(camera: camera, width: Double(options.width), height: Double(options.height))
        try gl.draw(try gl.upload(scene.framePlan(view: view)), view: view, ratio: options.ratio)
        XCTAssertTrue(gl.lastFrameWasTiled)
        try assertSame(whole, try gl.readback(), "background past the world edge, clip-fold tiles of 100")
    }

    /// Past GL_MAX_VIEWPORT_DIMS the tile's viewport cannot be the full frame: the clip-space fold
    /// is used instead. Simulated by lowering the renderer's recorded limits to 100 pixels. The
    /// fold is exact in real arithmetic without pitch; with pitch, line.vert's perspective width
    /// correction (len_persp) sees the fold's translation and is not (see TiledFrame.swift).
    func testClipFoldPathMatchesOnePass() throws {
        let scene = try seamScene()
        let options = RenderOptions(width: 250, height: 170, ratio: 2, bearing: 20)
        let whole = try gpuRenderer().render(scene, options: options)
        let gl = try GLRenderer()
        _ = gl.sizeLimits
        gl.sizeLimits.viewportWidth = 100
        gl.sizeLimits.viewportHeight = 100
        XCTAssertEqual(gl.tileSize(width: 500, height: 340)?.width, 100)
        let camera = options.camera(default: scene.style.camera)
        let view = ViewTransform(camera: camera, width: Double(options.width), height: Double(options.height))
        let gpu = try gl.upload(scene.framePlan(view: view))
        try gl.draw(gpu, view: view, ratio: options.ratio)
        XCTAssertTrue(gl.lastFrameWasTiled)
        try assertSame(whole, try gl.readback(), "clip-fold tiles of 100, bearing 20")
        XCTAssertThrowsError(try gl.readback(), "a tiled frame is handed over once")
    }

    /// The batch path: frames larger than one framebuffer leave the pixel buffer ring and are read
    /// synchronously; small frames in the same run keep it. Every PNG equals the one-pass PNG.
    func testBatchMixesTiledAndRingFrames() throws {
        let scene = try exampleScene()
        let frames = [RenderOptions(width: 250, height: 170, ratio: 2), RenderOptions(width: 40, height: 30, ratio: 1),
                      RenderOptions(width: 120, height: 90, ratio: 1, bearing: 30, pitch: 50), RenderOptions(width: 50, height: 20)]
        func run(maxTileSize: Int?) throws -> [[UInt8]] {
            let batch = try BatchRenderer(scene: scene, backend: .gpu)
            batch.maxTileSize = maxTileSize
            let out = Locked<[[UInt8]]>(Array(repeating: [], count: frames.count))   // PNGs by frame, from encoder threads
            try batch.run(count: frames.count, options: { frames[$0] }, deliver: { i in
                { bytes in out.withLock { $0[i] = bytes } }
            }, pool: EncoderPool(workers: 1))
            return out.value
        }
        do { _ = try BatchRenderer(scene: scene, backend: .gpu) } catch { throw XCTSkip("no GPU backend here (\(error))") }
        let whole = try run(maxTileSize: nil), tiled = try run(maxTileSize: 64)
        for i in frames.indices {
            XCTAssertFalse(whole[i].isEmpty, "frame \(i) delivered")
            let a = try PNGDecoder.decode(whole[i]), b = try PNGDecoder.decode(tiled[i])
            XCTAssertEqual(a.width, Int(Double(frames[i].width) * frames[i].ratio), "frame \(i) one pass: width")
            XCTAssertEqual(b.width, Int(Double(frames[i].width) * frames[i].ratio), "frame \(i) tiled: width")
            try assertSame(a, b, "batch frame \(i)")
        }
    }

    // MARK: - The product maximum

    static func expectedMessage(_ w: Int, _ h: Int) -> String {
        "image size \(w)x\(h) device pixels exceeds glmap's maximum of 16384x16384; lower --ratio, --width or --height, or render the area as tiles with `glmap tiles`"
    }

    func testMaximumIsRefusedWithOneMessageOnBothBackends() throws {
        XCTAssertEqual(MapRenderer.maxImageSize, 16384)
        let scene = try exampleScene()
        for backend in [Backend.cpu, .gpu, .auto] {
            // 8193 × 2 = 16386 device pixels wide; the height is within the limit.
            XCTAssertThrowsError(try MapRenderer(backend: backend).render(scene, options: RenderOptions(width: 8193, height: 100, ratio: 2))) { e in
                XCTAssertEqual("\(e)", Self.expectedMessage(16386, 200), "\(backend)")
                XCTAssertEqual((e as? GLMapError)?.kind.exitCode, 2)
            }
            XCTAssertThrowsError(try MapRenderer(backend: backend).render(scene, options: RenderOptions(width: 10, height: 16385))) { e in
                XCTAssertEqual("\(e)", Self.expectedMessage(10, 16385), "\(backend)")
            }
        }
        let batch = try BatchRenderer(scene: scene, backend: .cpu)
        XCTAssertThrowsError(try batch.render(RenderOptions(width: 5000, height: 5000, ratio: 4))) { e in
            XCTAssertEqual("\(e)", Self.expectedMessage(20000, 20000))
        }
        // Exactly the maximum is allowed through the check.
        XCTAssertNoThrow(try MapRenderer.checkImageSize(RenderOptions(width: 8192, height: 4096, ratio: 2)))
    }

    func testCLIPastTheMaximumExitsTwoAndWritesNothing() throws {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("big.png").path
        var err = ""
        let io = CommandIO(readStdin: { [] }, writeStdout: { _ in }, writeStderr: { err += $0 })
        for backend in ["cpu", "gpu"] {
            err = ""
            let code = GLMapCommand.run(["render", "--style", SharedData.exampleStyle, "--output", out,
                                         "--width", "20000", "--height", "300", "--backend", backend], io: io)
            XCTAssertEqual(code, 2, "\(backend): \(err)")
            XCTAssertTrue(err.contains(Self.expectedMessage(20000, 300)), "\(backend): \(err)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "\(backend): no output file")
        }
    }
}

