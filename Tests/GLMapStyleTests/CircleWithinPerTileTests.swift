import XCTest
import GLMapCore
import GLMapGeoJSON
@testable import GLMapStyle

/// A circle layer's `within` filter is decided per tile for MultiPoints, on the positions
/// geojson-vt keeps in each tile's buffered square (MapLibre filters tile features).
final class CircleWithinPerTileTests: XCTestCase {
    func testWithinSeesOnlyTheTilesPositions() throws {
        let style = #"""
        {"version": 8, "sources": {"s": {"type": "geojson", "data": {"type": "FeatureCollection", "features": []}}},
         "layers": [{"id": "c", "type": "circle", "source": "s",
           "filter": ["within", {"type": "Polygon", "coordinates": [[[-40, 0], [-5, 0], [-5, 30], [-40, 30], [-40, 0]]]}]}]}
        """#
        let doc = try StyleDocument.parse(json: JSONParser.parse(Array(style.utf8)))
        let data = #"""
        {"type": "FeatureCollection", "features": [
          {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[-20, 15], [20, 15]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[-15, 20], [-2, 20]]}},
          {"type": "Feature", "properties": {}, "geometry": {"type": "MultiPoint", "coordinates": [[-28, 21], [-12, 7]]}}]}
        """#
        let features = try ProjectedFeature.project(GeoJSONDecoder.decode(Array(data.utf8)))
        func centers(zoom: Double) -> [Double] {
            guard case .circle(let c) = StyleEvaluator(zoom: zoom).evaluate(doc.layers[0], features: features) else {
                XCTFail("not a circle layer"); return []
            }
            return c.features.flatMap(\.centers)
        }
        // Zoom 3: tiles 45° wide, buffer 11.25°. The first MultiPoint's outside position (lon 20)
        // is in another tile, so its tile draws lon −20; the second's (lon −2) is in its own tile.
        // Circle centres are snapped to the tile grid (8192 units a tile side at the tile zoom, 3).
        let grid = Double(8 * 8192)
        let x = { (lon: Double) in (WebMercator.project(lon: lon, lat: 0).x * grid).rounded() / grid }
        let xs = stride(from: 0, to: centers(zoom: 3).count, by: 2).map { centers(zoom: 3)[$0] }
        let unit = 1e-9
        XCTAssertEqual(xs.count, 3)
        guard xs.count == 3 else { return }
        XCTAssertEqual(xs[0], x(-20), accuracy: unit)
        let rest = xs.dropFirst().sorted(), expected = [x(-28), x(-12)].sorted()
        for (got, want) in zip(rest, expected) { XCTAssertEqual(got, want, accuracy: unit) }
        // Zoom 0: one tile holds every position, so the first two MultiPoints fail as wholes.
        XCTAssertEqual(centers(zoom: 0).count, 4)
    }
}
