import Foundation
import XCTest
import GLMapCore
import GLMapStyle
@testable import GLMap

/// Frame plans keep the tiles that left the view as MapLibre's source cache does (its size for
/// the view: 512-px tiles across and down plus one, times five), so a server drawing tiles in any
/// order lays out a tile it drew recently only once — and no more than that many, so a long run
/// does not hold every tile it ever drew.
final class TileBucketCacheTests: XCTestCase {
    /// A polygon over the whole world, filled and outlined: every tile of every view has buckets.
    func scene() throws -> Scene {
        let style = ##"""
        {"version":8,"center":[0,0],"zoom":5,"sources":{"w":{"type":"geojson","data":{"type":"Feature","properties":{},
          "geometry":{"type":"Polygon","coordinates":[[[-179,-80],[179,-80],[179,80],[-179,80],[-179,-80]]]}}}},
         "layers":[{"id":"f","type":"fill","source":"w","paint":{"fill-color":"#336699"}},
                   {"id":"l","type":"line","source":"w","paint":{"line-color":"#000000"}}]}
        """##
        return try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
    }

    /// A 256² view at zoom 5 centred on the middle of tile 5/x/10: it shows that tile only.
    func view(x: Int) -> ViewTransform {
        let c = WebMercator.unproject(x: (Double(x) + 0.5) / 32, y: 10.5 / 32)
        return ViewTransform(camera: Camera(longitude: c.lon, latitude: c.lat, zoom: 5), width: 256, height: 256)
    }

    func testSpareTilesFollowMapLibresSourceCacheSize() {
        XCTAssertEqual(TileBucketCache.spareTiles(view: ViewTransform(camera: Camera(zoom: 3), width: 256, height: 256)), 2 * 2 * 5)
        XCTAssertEqual(TileBucketCache.spareTiles(view: ViewTransform(camera: Camera(zoom: 3), width: 1024, height: 512)), 3 * 2 * 5)
    }

    func testATileDrawnAFewViewsAgoIsNotLaidOutAgain() throws {
        let scene = try scene()
        _ = scene.framePlan(view: view(x: 3))
        let first = scene.tileBucketsBuilt
        XCTAssertGreaterThan(first, 0)
        for x in 4..<10 { _ = scene.framePlan(view: view(x: x)) }   // six other tiles, within the 20 kept
        let between = scene.tileBucketsBuilt
        XCTAssertGreaterThan(between, first, "the other views laid out their own tiles")
        _ = scene.framePlan(view: view(x: 3))
        XCTAssertEqual(scene.tileBucketsBuilt, between, "tile 5/3/10 left the view six plans ago and is still kept")
    }

    func testNoMoreThanTheCacheSizeOfTilesIsKept() throws {
        let scene = try scene()
        _ = scene.framePlan(view: view(x: 0))
        for x in 1...25 { _ = scene.framePlan(view: view(x: x)) }   // 25 other tiles: more than the 20 kept
        let before = scene.tileBucketsBuilt
        _ = scene.framePlan(view: view(x: 0))
        XCTAssertGreaterThan(scene.tileBucketsBuilt, before, "the least recently used tile was let go")
        let kept = scene.buckets.withLock { Set($0.data.keys.map(\.tile)) }
        XCTAssertLessThanOrEqual(kept.count, 20 + 2, "the cache size plus what the last two plans used")
    }

    /// Dashed lines read the frame zoom only through its integer part and whether it lies between
    /// integer zooms (when their dasharray does not change with zoom): frames between two integer
    /// zooms share their buckets, the next integer zoom lays them out again.
    func testDashedLinesAreLaidOutOncePerIntegerZoom() throws {
        func scene(_ dasharray: String) throws -> Scene {
            let style = """
            {"version":8,"sources":{"w":{"type":"geojson","data":{"type":"LineString","coordinates":[[-10,0],[10,1]]}}},
             "layers":[{"id":"l","type":"line","source":"w","paint":{"line-dasharray":\(dasharray),
               "line-width":["interpolate",["linear"],["zoom"],0,1,10,8]}}]}
            """
            return try Scene(style: StyleDocument.parse(Array(style.utf8), file: nil))
        }
        func plan(_ s: Scene, _ zoom: Double) -> Int {
            _ = s.framePlan(view: ViewTransform(camera: Camera(zoom: zoom), width: 256, height: 256))
            return s.tileBucketsBuilt
        }
        let constant = try scene("[2, 1]")
        let first = plan(constant, 3.2)
        XCTAssertGreaterThan(first, 0)
        XCTAssertEqual(plan(constant, 3.5), first, "between the same integer zooms: the same buckets")
        XCTAssertEqual(plan(constant, 3.9), first)
        XCTAssertGreaterThan(plan(constant, 4.1), first, "zoom 4's floor width: laid out again")
        XCTAssertEqual(Scene.lineZoomKey(constant.style.layers[0], zoom: 3.0), 3)
        XCTAssertEqual(Scene.lineZoomKey(constant.style.layers[0], zoom: 3.7), 3.5)
        let stepped = try scene(#"["step",["zoom"],["literal",[2,1]],3.6,["literal",[4,1]]]"#)
        let before = plan(stepped, 3.2)
        XCTAssertGreaterThan(plan(stepped, 3.5), before, "a dasharray that changes with zoom is keyed by the zoom itself")
    }
}
