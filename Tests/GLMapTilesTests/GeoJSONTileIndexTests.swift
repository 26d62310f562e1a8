import Foundation
import GLMapCore
import GLMapGeoJSON
import Testing
@testable import GLMapTiles

/// Hand-computed geojson-vt results. Positions are chosen on round world coordinates: longitude
/// −90/−45/67.5/… are world x 0.25/0.375/0.6875, latitude 0 is world y 0.5 and 66.51326044311186°
/// is y 0.25. GL JS's options unless a test says otherwise (extent 8192, buffer 2048 = ¼ tile,
/// tolerance 6); at zoom z a tile's units are x' = 8192·(2^z·x − tileX).
@Suite struct GeoJSONTileIndexTests {
    static let lat25 = 66.51326044311186   // world y 0.25

    static func collection(_ json: String) throws -> FeatureCollection {
        try GeoJSONDecoder.decode(Array(json.utf8))
    }

    static func points(_ f: GeoJSONTile.Feature) -> [[[Int]]] { f.geometry.map { $0.map { [$0.x, $0.y] } } }

    /// A square x 0.375…0.6875, y 0.25…0.5 across the z1 tile edge x = 0.5, maxZoom 1.
    @Test func squareAcrossATileEdgeIsClippedWithTheBuffer() throws {
        let fc = try Self.collection("""
        {"type":"Feature","properties":{"name":"sq"},"geometry":{"type":"Polygon","coordinates":
          [[[-45,0],[67.5,0],[67.5,\(Self.lat25)],[-45,\(Self.lat25)],[-45,0]]]}}
        """)
        let index = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 1))
        // z0: the whole square (8192·x, 8192·y), GL JS's rewind having reversed the counter-clockwise
        // input (so the ring starts up its west side), the tile rewind keeping that order.
        let z0 = try #require(index.tile(CanonicalTileID(0, 0, 0)))
        #expect(z0.features.count == 1)
        #expect(Self.points(z0.features[0]) == [[[3072, 4096], [3072, 2048], [5632, 2048], [5632, 4096], [3072, 4096]]])
        #expect(z0.features[0].tags["name"] == "sq")
        // z1 west: cut at x = 0.5 + ¼·½ = 0.625 (tile x 10240 = 8192 + 2048), the crossings at t = 0.8 and 0.2.
        let west = try #require(index.tile(CanonicalTileID(1, 0, 0)))
        #expect(Self.points(west.features[0]) == [[[6144, 8192], [6144, 4096], [10240, 4096], [10240, 8192], [6144, 8192]]])
        // z1 east: inside the buffered square (0.375 ≥ 0.5 − 0.125), kept whole.
        let east = try #require(index.tile(CanonicalTileID(1, 1, 0)))
        #expect(Self.points(east.features[0]) == [[[-2048, 8192], [-2048, 4096], [3072, 4096], [3072, 8192], [-2048, 8192]]])
        // z1 south-west: the buffer reaches up to y = 0.375 (tile y −2048); the cut edge is closed.
        let southWest = try #require(index.tile(CanonicalTileID(1, 0, 1)))
        #expect(Self.points(southWest.features[0]) == [[[6144, 0], [6144, -2048], [10240, -2048], [10240, 0], [6144, 0]]])
        let southEast = try #require(index.tile(CanonicalTileID(1, 1, 1)))
        #expect(Self.points(southEast.features[0]) == [[[-2048, 0], [-2048, -2048], [3072, -2048], [3072, 0], [-2048, 0]]])
        // Past maxZoom nothing is built: GL JS over-scales the z1 tiles.
        #expect(index.tile(CanonicalTileID(2, 1, 1)) == nil)
        #expect(index.builtTiles.allSatisfy { $0.z <= 1 })
        // As buckets read it: one polygon feature, the ring in Int16.
        let layer = try #require(index.vectorTile(CanonicalTileID(1, 0, 0))?.layer(nil))
        #expect(layer.features.map(\.type) == [.polygon])
        #expect(layer.features[0].geometry == [[TilePoint(6144, 8192), TilePoint(6144, 4096), TilePoint(10240, 4096), TilePoint(10240, 8192), TilePoint(6144, 8192)]])
    }

    /// clipLine on lines wholly on one side of the band, as geojson-vt's loop leaves them: nothing
    /// below k1 or above k2; inside, the line itself (positions, importances, start and end); an
    /// unclosed ring inside comes out closed; a line touching k1 or k2 is inside (both inclusive).
    @Test func clipLineKeepsOrDropsWholeLines() {
        func clipped(_ c: [Double], isPolygon: Bool = false, _ k1: Double = 0.25, _ k2: Double = 0.75, axis: Int = 0) -> [VTLine] {
            var out: [VTLine] = []
            GeoJSONTileIndex.clipLine(VTLine(c: c, size: 9, start: 2, end: 5), into: &out, k1, k2, axis: axis,
                                      isPolygon: isPolygon, trackMetrics: true)
            return out
        }
        let inside: [Double] = [0.3, 0.1, 1, 0.5, 0.9, 0.2, 0.7, 0.1, 1]
        let whole = clipped(inside)
        #expect(whole.map(\.c) == [inside])
        #expect(whole.map { [$0.size, $0.start, $0.end] } == [[9, 2, 5]])
        #expect(clipped(inside, 0.8, 0.9).isEmpty)
        #expect(clipped(inside, 0.1, 0.2).isEmpty)
        #expect(clipped([0.25, 0, 0, 0.75, 0, 0]).map(\.c) == [[0.25, 0, 0, 0.75, 0, 0]])
        let ring: [Double] = [0.3, 0.3, 1, 0.6, 0.3, 0, 0.6, 0.6, 0, 0.3, 0.3, 1]
        #expect(clipped(ring, isPolygon: true).map(\.c) == [ring])
        let open = Array(ring.dropLast(3))
        #expect(clipped(open, isPolygon: true).map(\.c) == [open + [0.3, 0.3, 1]])
    }

    /// A line from x 0.25 to 0.6875 (length 0.4375) along y 0.25 with lineMetrics: the west z1 tile
    /// keeps x ≤ 0.625 (the line's first 6/7), the east one x ≥ 0.375 (from 2/7 on).
    @Test func lineMetricsFollowTheCuts() throws {
        let fc = try Self.collection("""
        {"type":"Feature","properties":{"k":1},"geometry":{"type":"LineString","coordinates":[[-90,\(Self.lat25)],[67.5,\(Self.lat25)]]}}
        """)
        let index = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 1, lineMetrics: true))
        let whole = try #require(index.tile(CanonicalTileID(0, 0, 0))?.features.first)
        #expect(whole.tags["mapbox_clip_start"] == .number(0))
        #expect(whole.tags["mapbox_clip_end"] == .number(1))
        #expect(whole.tags["k"] == .number(1))

        let west = try #require(index.tile(CanonicalTileID(1, 0, 0))?.features.first)
        #expect(Self.points(west) == [[[4096, 4096], [10240, 4096]]])
        #expect(west.tags["mapbox_clip_start"] == .number(0))
        let westEnd = try #require(west.tags["mapbox_clip_end"]?.numberValue)
        #expect(abs(westEnd - 6.0 / 7.0) < 1e-12)

        let east = try #require(index.tile(CanonicalTileID(1, 1, 0))?.features.first)
        #expect(Self.points(east) == [[[-2048, 4096], [3072, 4096]]])
        let eastStart = try #require(east.tags["mapbox_clip_start"]?.numberValue)
        #expect(abs(eastStart - 2.0 / 7.0) < 1e-12)
        #expect(east.tags["mapbox_clip_end"] == .number(1))
        // The south tiles' buffer starts at y 0.375: the line is not there.
        #expect(index.tile(CanonicalTileID(1, 0, 1)) == nil || index.tile(CanonicalTileID(1, 0, 1))?.features.isEmpty == true)
    }

    /// With lineMetrics a MultiLineString is one LineString feature per line (each its own metrics);
    /// without, one feature.
    @Test func lineMetricsSplitMultiLineStrings() throws {
        let fc = try Self.collection("""
        {"type":"Feature","id":4,"properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[-90,0],[-80,0]],[[10,0],[20,0],[30,0]]]}}
        """)
        let split = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0, lineMetrics: true))
        let features = try #require(split.tile(CanonicalTileID(0, 0, 0))?.features)
        #expect(features.count == 2)
        #expect(features.allSatisfy { $0.type == .lineString && $0.geometry.count == 1 && $0.id == .number(4) })
        #expect(features.map { $0.tags["mapbox_clip_end"] } == [.number(1), .number(1)])
        let joined = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0))
        let one = try #require(joined.tile(CanonicalTileID(0, 0, 0))?.features)
        #expect(one.count == 1 && one[0].geometry.count == 2 && one[0].tags["mapbox_clip_start"] == nil)
    }

    /// A bump 10⁻⁴ world units off a straight edge: its Douglas–Peucker importance is ≈ 10⁻⁸,
    /// kept where (6 / (8192·2^z))² is smaller — z3 (8.4·10⁻⁹) and maxZoom 4 (no simplification) —
    /// and dropped at z0…z2 (z2: 3.35·10⁻⁸).
    @Test func polygonSimplifiedBelowMaxZoomOnly() throws {
        let bumpLat = WebMercator.unproject(x: 0.5, y: 0.25 - 1e-4).lat
        let fc = try Self.collection("""
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":
          [[[-45,0],[-45,\(Self.lat25)],[0,\(bumpLat)],[67.5,\(Self.lat25)],[67.5,0],[-45,0]]]}}
        """)
        let index = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 4))
        // Whether tile z/x/y's ring has the bump at (0.5, 0.2499) in its units.
        func hasBump(_ z: Int, _ x: Int, _ y: Int) throws -> Bool {
            let f = try #require(index.tile(CanonicalTileID(z, x, y))?.features.first)
            let scale = Double(1 << z)
            let bump = GeoJSONTile.Point(x: jsRound(8192 * (0.5 * scale - Double(x))), y: jsRound(8192 * ((0.25 - 1e-4) * scale - Double(y))))
            return f.geometry[0].contains(bump)
        }
        #expect(try !hasBump(0, 0, 0))
        #expect(try !hasBump(1, 0, 0))
        #expect(try !hasBump(2, 1, 0))
        #expect(try hasBump(3, 3, 1))
        #expect(try hasBump(4, 7, 3))
        #expect(try index.tile(CanonicalTileID(0, 0, 0))?.features.first?.geometry[0].count == 5)

        // A ring of area below the tolerance² is dropped below maxZoom (10⁻⁵ square: area 10⁻¹⁰).
        let d = 360e-5
        let tiny = try Self.collection("""
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[\(d),0],[\(d),\(d)],[0,\(d)],[0,0]]]}}
        """)
        let tinyIndex = try GeoJSONTileIndex(tiny, options: GeoJSONTileOptions(maxZoom: 14))
        #expect(tinyIndex.tile(CanonicalTileID(0, 0, 0))?.features.isEmpty == true)
        #expect(tinyIndex.tile(CanonicalTileID(14, 8192, 8191))?.features.count == 1)
    }

    /// A square from 170° to 190° (world x 0.9722…1.0278): the primary copy keeps it within the
    /// east buffer, and what lies past x = 1 − buffer (0.75) is copied one world west (x −0.0278…0.0278).
    @Test func featuresPast180AreWrappedIntoTheNeighbouringCopy() throws {
        let fc = try Self.collection("""
        {"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[170,0],[190,0],[190,\(Self.lat25)],[170,\(Self.lat25)],[170,0]]]}}
        """)
        let index = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 1))
        // West tile: the copy at round(16384·(x − 1)) = ∓455.
        let west = try #require(index.tile(CanonicalTileID(1, 0, 0)))
        #expect(Self.points(west.features[0]) == [[[-455, 8192], [-455, 4096], [455, 4096], [455, 8192], [-455, 8192]]])
        // East tile: the square itself at round(16384·x − 8192) = 7737…8647 (in the buffer past 8192).
        let east = try #require(index.tile(CanonicalTileID(1, 1, 0)))
        #expect(Self.points(east.features[0]) == [[[7737, 8192], [7737, 4096], [8647, 4096], [8647, 8192], [7737, 8192]]])
        // z0 holds both: the primary one, then the copy of its east part (geojson-vt appends the
        // parts moved west after the world; parts moved east would come first).
        let z0 = try #require(index.tile(CanonicalTileID(0, 0, 0)))
        #expect(z0.features.count == 2)
        #expect(z0.features[0].geometry[0].map(\.x).min()! > 7900 && z0.features[1].geometry[0].map(\.x).max()! < 300)

        // A point at 185° (x 1.01389) shows in the east tile's buffer and, wrapped, at x 0.01389 in the west tile.
        let point = try GeoJSONTileIndex(Self.collection("""
        {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[185,\(Self.lat25)]}}
        """), options: GeoJSONTileOptions(maxZoom: 1))
        #expect(point.tile(CanonicalTileID(1, 0, 0)).map { Self.points($0.features[0]) } == [[[228, 4096]]])
        #expect(point.tile(CanonicalTileID(1, 1, 0)).map { Self.points($0.features[0]) } == [[[8420, 4096]]])
    }

    /// A MultiPoint at x 0.3125 and 0.6875: each z1 tile keeps its point (then a Point); buckets
    /// get one array per point.
    @Test func multiPointSplitAcrossTiles() throws {
        let fc = try Self.collection("""
        {"type":"Feature","id":9,"properties":{},"geometry":{"type":"MultiPoint","coordinates":[[-67.5,\(Self.lat25)],[67.5,\(Self.lat25)],[-67.5,0]]}}
        """)
        let index = try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 1))
        let z0 = try #require(index.tile(CanonicalTileID(0, 0, 0)))
        #expect(Self.points(z0.features[0]) == [[[2560, 2048], [5632, 2048], [2560, 4096]]])
        let west = try #require(index.tile(CanonicalTileID(1, 0, 0)))
        #expect(Self.points(west.features[0]) == [[[5120, 4096], [5120, 8192]]])
        let east = try #require(index.tile(CanonicalTileID(1, 1, 0)))
        #expect(Self.points(east.features[0]) == [[[3072, 4096]]])
        let southWest = try #require(index.tile(CanonicalTileID(1, 0, 1)))
        #expect(Self.points(southWest.features[0]) == [[[5120, 0]]])
        #expect(index.tile(CanonicalTileID(1, 1, 1))?.features.isEmpty == true)   // cut from its parent, empty
        let data = try #require(index.vectorTile(CanonicalTileID(1, 0, 0))?.layer(nil)?.features.first)
        #expect(data.geometry == [[TilePoint(5120, 4096)], [TilePoint(5120, 8192)]])
        #expect(data.id == .number(9))
        let oneArray = try #require(index.tile(CanonicalTileID(1, 0, 0))?.vectorTileData(pointsInOneArray: true).layer(nil)?.features.first)
        #expect(oneArray.geometry == [[TilePoint(5120, 4096), TilePoint(5120, 8192)]])
    }

    /// Ids: the feature's, the index in the filtered collection (generateId), a property
    /// (promoteId); as buckets see them: numbers as they are, strings through parseInt.
    @Test func idsGenerateIdAndPromoteId() throws {
        let fc = try Self.collection("""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":"12ab","properties":{"p":"x","keep":true},"geometry":{"type":"Point","coordinates":[0,0]}},
          {"type":"Feature","id":1.5,"properties":{"p":7,"keep":false},"geometry":{"type":"Point","coordinates":[1,0]}},
          {"type":"Feature","id":"abc","properties":{"keep":true},"geometry":{"type":"Point","coordinates":[2,0]}},
          {"type":"Feature","properties":{"p":null,"keep":true},"geometry":{"type":"GeometryCollection","geometries":[
            {"type":"Point","coordinates":[3,0]},{"type":"LineString","coordinates":[[3,1],[4,1]]},{"type":"LineString","coordinates":[]}]}},
          {"type":"Feature","properties":{"keep":true},"geometry":null},
          {"type":"Feature","properties":{"keep":true},"geometry":{"type":"MultiPolygon","coordinates":[]}}
        ]}
        """)
        let origin = CanonicalTileID(0, 0, 0)
        let plain = try #require(try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0)).tile(origin))
        #expect(plain.features.map(\.id) == [.string("12ab"), .number(1.5), .string("abc"), nil, nil])
        #expect(plain.features.map(\.type) == [.point, .point, .point, .point, .lineString])   // the collection's members, one each
        let wrapped = plain.vectorTileData().layer(nil)!.features
        #expect(wrapped[0].id == .number(12))
        #expect(wrapped[1].id == .number(1.5))
        #expect(wrapped[2].id?.numberValue?.isNaN == true)
        #expect(wrapped[3].id == nil)
        #expect(wrapped.map(\.index) == [0, 1, 2, 3, 4])

        let generated = try #require(try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0, generateId: true)).tile(origin))
        #expect(generated.features.map(\.id) == [.number(0), .number(1), .number(2), .number(3), .number(3)])
        let filtered = try #require(try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0, generateId: true),
                                                        filter: { $0.properties["keep"] == .bool(true) }).tile(origin))
        #expect(filtered.features.map(\.id) == [.number(0), .number(1), .number(2), .number(2)])

        let promoted = try #require(try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0, promoteId: "p")).tile(origin))
        #expect(promoted.features.map(\.id) == [.string("x"), .number(7), nil, nil, nil])

        #expect(throws: GeoJSONTilingError.self) { try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 0, generateId: true, promoteId: "p")) }
        #expect(throws: GeoJSONTilingError.self) { try GeoJSONTileIndex(fc, options: GeoJSONTileOptions(maxZoom: 25)) }
        let emptyMember = try Self.collection(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]]],[]]}"#)
        #expect(throws: GeoJSONTilingError.self) { try GeoJSONTileIndex(emptyMember) }
    }

    @Test func javaScriptParseInt() {
        #expect(GeoJSONTile.javaScriptParseInt("  -42px") == -42)
        #expect(GeoJSONTile.javaScriptParseInt("+7") == 7)
        #expect(GeoJSONTile.javaScriptParseInt("1e3") == 1)
        #expect(GeoJSONTile.javaScriptParseInt("0x1A") == 0)
        #expect(GeoJSONTile.javaScriptParseInt("\u{A0}\n12") == 12)
        #expect(GeoJSONTile.javaScriptParseInt("").isNaN)
        #expect(GeoJSONTile.javaScriptParseInt("-").isNaN)
        #expect(GeoJSONTile.javaScriptParseInt(".5").isNaN)
    }

    /// geojson-rewind's test (GL JS's worker): outer rings clockwise with y up, holes counter-clockwise.
    @Test func glJSRewindsPolygonRingsFirst() throws {
        let ccw = [Position(0, 0), Position(1, 0), Position(1, 1), Position(0, 1), Position(0, 0)]
        let cw = Array(ccw.reversed())
        #expect(GeoJSONTileIndex.needsReversal(ccw, clockwise: true))
        #expect(!GeoJSONTileIndex.needsReversal(cw, clockwise: true))
        #expect(GeoJSONTileIndex.needsReversal(cw, clockwise: false))
        // convert reads the rings in the rewound order: the outer ring backwards, the hole as it is,
        // in a Polygon, a MultiPolygon and a GeometryCollection alike; nothing turns without rewind.
        func rings(_ g: Geometry, rewind: Bool = true) throws -> [[Double]] {
            var out: [VTFeature] = []
            try GeoJSONTileIndex.convertFeature(Feature(geometry: g), index: 0, options: GeoJSONTileOptions(rewind: rewind),
                                                sqTolerance: 0, into: &out)
            var rings: [[Double]] = []
            for f in out {
                switch f.geometry {
                case .polygon(let rs): rings += rs.map(\.c)
                case .multiPolygon(let ps): for p in ps { rings += p.map(\.c) }
                default: break
                }
            }
            return rings
        }
        let wound = try rings(.polygon([cw, ccw]), rewind: false)
        #expect(wound.count == 2)
        #expect(try rings(.polygon([ccw, ccw])) == wound)
        #expect(try rings(.polygon([cw, ccw])) == wound)
        #expect(try rings(.multiPolygon([[ccw, ccw]])) == wound)
        #expect(try rings(.geometryCollection([.point(Position(0, 0)), .polygon([ccw, ccw])])) == wound)
        #expect(try rings(.polygon([ccw, ccw]), rewind: false) != wound)
    }

    /// Math.round: halves go up, towards +∞.
    @Test func roundingIsJavaScriptsMathRound() {
        #expect(jsRound(2.5) == 3)
        #expect(jsRound(-2.5) == -2)
        #expect(jsRound(-2.5000001) == -3)
        #expect(jsRound(0.49999999999999994) == 0)
        #expect(jsRound(-0.4) == 0)
    }
}
