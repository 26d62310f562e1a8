import Foundation
import XCTest
import GLMapCore
import GLMapTestSupport
import GLMapStyle
import GLMapTessellation
@testable import GLMapGLES
@testable import GLMap

/// View culling (GLMapGLES/ViewCulling.swift): a frame drawn with culling is byte-identical to the
/// same frame drawn from whole buffers, for every kind of outset culling must allow for (line
/// width, gap and offset, translate in both anchors, circle radius + stroke in all four pitch
/// alignment/scale combinations, the outline quads), under pitch, bearing and world copies; and it
/// does cull (fewer triangles submitted) when the view shows a small part of the data.
final class ViewCullingTests: XCTestCase {
    func renderer() throws -> GLRenderer {
        do { return try GLRenderer() } catch { throw XCTSkip("no GPU backend here (\(error)); culling is GPU-only") }
    }

    /// A grid of small squares, short lines and points over ±60° latitude, every layer kind with
    /// wide outsets (so a culled range next to the view would show if the margins were short).
    static func gridStyle(circlePitch: String = "viewport", circleScale: String = "map") -> String {
        var polys: [String] = [], lines: [String] = [], points: [String] = []
        for i in 0..<48 {
            for j in 0..<24 {
                let x = -176 + Double(i) * 7.4, y = -58 + Double(j) * 5
                polys.append(#"{"type":"Feature","properties":{"k":\#(i % 5)},"geometry":{"type":"Polygon","coordinates":[[[\#(x),\#(y)],[\#(x + 3),\#(y)],[\#(x + 3),\#(y + 2.5)],[\#(x),\#(y + 2.5)],[\#(x),\#(y)]]]}}"#)
                lines.append(#"{"type":"Feature","properties":{"w":\#(2 + (i + j) % 7)},"geometry":{"type":"LineString","coordinates":[[\#(x),\#(y + 3.5)],[\#(x + 2),\#(y + 4)],[\#(x + 4),\#(y + 3.2)]]}}"#)
                points.append(#"{"type":"Feature","properties":{"r":\#(3 + (i * j) % 9)},"geometry":{"type":"Point","coordinates":[\#(x + 5.5),\#(y + 1)]}}"#)
            }
        }
        func fc(_ f: [String]) -> String { #"{"type":"FeatureCollection","features":[\#(f.joined(separator: ","))]}"# }
        return #"""
        {"version":8,"sources":{"p":{"type":"geojson","data":\#(fc(polys))},"l":{"type":"geojson","data":\#(fc(lines))},"c":{"type":"geojson","data":\#(fc(points))}},
         "layers":[
          {"id":"bg","type":"background","paint":{"background-color":"#eef"}},
          {"id":"fill","type":"fill","source":"p","paint":{"fill-color":["match",["get","k"],0,"#c33",1,"#3c3","#33c"],"fill-opacity":0.7,"fill-outline-color":"#000"}},
          {"id":"fill-t","type":"fill","source":"p","paint":{"fill-color":"#f80","fill-opacity":0.4,"fill-translate":[30,-20],"fill-translate-anchor":"viewport"}},
          {"id":"line","type":"line","source":"l","paint":{"line-color":"#222","line-width":["get","w"],"line-gap-width":6,"line-offset":9,"line-blur":2}},
          {"id":"line-z","type":"line","source":"l","layout":{"line-join":"miter","line-cap":"square"},"paint":{"line-color":"#a0a","line-width":["interpolate",["linear"],["zoom"],0,2,8,40],"line-translate":[-25,15]}},
          {"id":"dash","type":"line","source":"l","paint":{"line-color":"#070","line-width":5,"line-dasharray":[2,1]}},
          {"id":"circle","type":"circle","source":"c","paint":{"circle-radius":["get","r"],"circle-color":"#08f","circle-stroke-width":4,"circle-stroke-color":"#fff","circle-pitch-alignment":"\#(circlePitch)","circle-pitch-scale":"\#(circleScale)","circle-translate":[12,12]}}
         ]}
        """#
    }

    func scene(_ style: String) throws -> Scene {
        try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
    }

    /// Cameras: whole world with copies, close-ups at the grid's edge and between cells, pitched
    /// and rotated views, a view straddling the antimeridian.
    static let cameras: [(String, Camera)] = [
        ("world z0.6", Camera(longitude: 170, latitude: 0, zoom: 0.6)),
        ("z4 edge", Camera(longitude: -150.6, latitude: -20.3, zoom: 4.2)),
        ("z6 between", Camera(longitude: 12.33, latitude: 31.7, zoom: 6)),
        ("z5 pitch 60 bearing 35", Camera(longitude: 20, latitude: 10, zoom: 5, bearing: 35, pitch: 60)),
        ("z3.5 pitch 45 bearing -120", Camera(longitude: -60, latitude: 40, zoom: 3.5, bearing: -120, pitch: 45)),
        ("z3 antimeridian", Camera(longitude: 179.5, latitude: 5, zoom: 3, bearing: 10)),
    ]

    /// Every camera, culled and whole: the same bytes; and at the close-ups fewer triangles.
    func assertCullingInvisible(_ style: String, _ label: String, sizes: [(Double, Double)] = [(256, 256), (300, 180)],
                                ratio: Double = 1, expectCulling: Bool = true) throws {
        let gl = try renderer()
        let s = try scene(style)
        var culledSomewhere = false
        for (name, camera) in Self.cameras {
            for (w, h) in sizes {
                let view = ViewTransform(camera: camera, width: w, height: h)
                let buckets = s.gpuBuckets(zoom: camera.zoom)
                let uploaded = try gl.upload(buckets)
                gl.viewCulling = false
                try gl.draw(uploaded, view: view, ratio: ratio)
                let whole = try gl.readback()
                let wholeCount = gl.trianglesDrawn
                gl.viewCulling = true
                try gl.draw(uploaded, view: view, ratio: ratio)
                let culled = try gl.readback()
                let culledCount = gl.trianglesDrawn
                XCTAssertGreaterThan(Set(stride(from: 0, to: whole.pixels.count, by: 4).map { whole.pixels[$0 ..< $0 + 4] }).count, 3,
                                     "\(label) \(name) \(w)x\(h): the frame has content")
                XCTAssertEqual(culled.pixels == whole.pixels, true, "\(label) \(name) \(w)x\(h): culled frame differs from the whole one")
                XCTAssertLessThanOrEqual(culledCount, wholeCount, "\(label) \(name)")
                if culledCount < wholeCount { culledSomewhere = true }
                print("ViewCullingTests: \(label) \(name) \(Int(w))x\(Int(h)): \(culledCount) of \(wholeCount) triangles")
            }
        }
        if expectCulling { XCTAssertTrue(culledSomewhere, "\(label): culling skipped nothing at any close-up") }
    }

    func testGridViewportCirclesScaledWithMap() throws {
        try assertCullingInvisible(Self.gridStyle(circlePitch: "viewport", circleScale: "map"), "viewport/map")
    }

    func testGridViewportCirclesNotScaled() throws {
        try assertCullingInvisible(Self.gridStyle(circlePitch: "viewport", circleScale: "viewport"), "viewport/viewport")
    }

    func testGridMapCirclesScaledWithMap() throws {
        try assertCullingInvisible(Self.gridStyle(circlePitch: "map", circleScale: "map"), "map/map")
    }

    func testGridMapCirclesNotScaled() throws {
        try assertCullingInvisible(Self.gridStyle(circlePitch: "map", circleScale: "viewport"), "map/viewport")
    }

    func testGridAtRatio2() throws {
        try assertCullingInvisible(Self.gridStyle(), "ratio 2", sizes: [(200, 120)], ratio: 2)
    }

    /// The shared scenes (real data) at their own cameras and the close-ups.
    func testScenes() throws {
        let dir = SharedData.scenes
        try SharedData.require("the shared scenes", at: dir)
        let gl = try renderer()
        for name in ["world", "montreal", "us_states"] {
            let s = try Scene(styleFile: dir.appendingPathComponent("\(name).style.json").path)
            let home = s.style.camera
            var cameras = [home]
            for dz in [2.0, 4.0] {
                var c = home; c.zoom += dz; c.longitude += 0.7 / pow(2, c.zoom - 5); cameras.append(c)
                c.pitch = 50; c.bearing = 30; cameras.append(c)
            }
            var culledSomewhere = false
            for c in cameras {
                let view = ViewTransform(camera: c, width: 256, height: 256)
                let uploaded = try gl.upload(s.gpuBuckets(zoom: c.zoom))
                gl.viewCulling = false
                try gl.draw(uploaded, view: view, ratio: 1)
                let whole = try gl.readback(), wholeCount = gl.trianglesDrawn
                gl.viewCulling = true
                try gl.draw(uploaded, view: view, ratio: 1)
                let culled = try gl.readback()
                XCTAssertTrue(culled.pixels == whole.pixels, "\(name) at \(c): culled frame differs from the whole one")
                if gl.trianglesDrawn < wholeCount { culledSomewhere = true }
                print("ViewCullingTests: \(name) z\(c.zoom) pitch \(c.pitch): \(gl.trianglesDrawn) of \(wholeCount) triangles")
            }
            XCTAssertTrue(culledSomewhere, "\(name): culling skipped nothing at any close-up")
        }
    }

    /// The test itself on ranges: a box well off screen is dropped, one on screen kept, one that
    /// only its margin brings on screen kept, one behind a pitched camera dropped; adjacent kept
    /// ranges merge into one run.
    func testVisibleRuns() {
        let view = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 2), width: 256, height: 256)
        let m = WorldCopies.matrix(view, origin: (0, 0), copy: 0)
        func box(_ first: Int, _ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> DrawRange {
            DrawRange(first: first, count: 3, minIndex: UInt32(first), maxIndex: UInt32(first + 2), minX: x0, minY: y0, maxX: x1, maxY: y1)
        }
        // The view spans x, y ∈ [0.5 ± 0.0625] of the unit world (256 px of a 2048-px world).
        let on = box(0, 0.45, 0.45, 0.55, 0.55), on2 = box(3, 0.5, 0.5, 0.52, 0.52)
        let off = box(6, 0.8, 0.4, 0.85, 0.6)
        let near = box(9, 0.565, 0.5, 0.566, 0.51)   // 5 px right of the edge
        let runs = ViewCulling.visibleRuns([on, on2, off, near], matrix: m, view: view, margin: CullMargin())
        XCTAssertEqual(runs.map(\.first), [0], "on and on2 merged, off and near (beyond the 2-px pad) dropped")
        XCTAssertEqual(runs.first?.count, 6)
        let wide = ViewCulling.visibleRuns([on, on2, off, near], matrix: m, view: view, margin: CullMargin(ground: 8))
        XCTAssertEqual(wide.map(\.first), [0, 9], "an 8-px ground margin brings `near` in")
        let screen = ViewCulling.visibleRuns([near], matrix: m, view: view, margin: CullMargin(screen: 8))
        XCTAssertEqual(screen.count, 1, "an 8-px screen margin brings `near` in")
        let all = ViewCulling.visibleRuns([on, off], matrix: m, view: view, margin: CullMargin(disabled: true))
        XCTAssertEqual(all.map(\.count), [6], "disabled: everything, one run")
        // Pitched: the ground behind the camera (south of the centre, below the screen) is culled.
        let pitched = ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: 4, pitch: 60), width: 256, height: 256)
        let pm = WorldCopies.matrix(pitched, origin: (0, 0), copy: 0)
        let behind = box(0, 0.49, 0.56, 0.51, 0.6), ahead = box(3, 0.499, 0.45, 0.501, 0.49)
        XCTAssertEqual(ViewCulling.visibleRuns([behind, ahead], matrix: pm, view: pitched, margin: CullMargin()).map(\.first), [3])
    }

    /// Culling runs cut at tile-clip bounds: each clip gets exactly the parts of the runs inside
    /// it (a run spanning clips is split, clips between runs get none), vertex bounds kept.
    func testRunsCutAtTileClips() {
        func run(_ first: Int, _ count: Int) -> DrawRange {
            DrawRange(first: first, count: count, minIndex: 0, maxIndex: 99, minX: 0, minY: 0, maxX: 1, maxY: 1)
        }
        let runs = [run(0, 6), run(12, 18), run(36, 3)]
        let cut = ViewCulling.runs(runs, cutAt: [0..<3, 3..<9, 9..<12, 12..<21, 21..<39, 39..<42])
        XCTAssertEqual(cut.map { $0.map(\.first) }, [[0], [3], [], [12], [21, 36], []])
        XCTAssertEqual(cut.map { $0.map(\.count) }, [[3], [3], [], [9], [9, 3], []])
        XCTAssertTrue(cut.joined().allSatisfy { $0.minIndex == 0 && $0.maxIndex == 99 })
        XCTAssertEqual(ViewCulling.runs([], cutAt: [0..<3]).map(\.count), [0])
    }
}
