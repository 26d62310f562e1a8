import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapTestSupport
import Testing
@testable import GLMapTiles

@Suite struct SuperclusterIndexTests {
    static func points(_ lonLat: [(Double, Double)], properties: (Int) -> String = { _ in "{}" }) throws -> FeatureCollection {
        let features = lonLat.enumerated().map { i, p in
            #"{"type":"Feature","id":\#(100 + i),"properties":\#(properties(i)),"geometry":{"type":"Point","coordinates":[\#(p.0),\#(p.1)]}}"#
        }
        return try GeoJSONDecoder.decode(Array(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8))
    }

    /// Two points 0.02 world units apart (lon 0 and 7.2 on the equator) with GL JS's radius
    /// (800 units: 800/(8192·2^z) = 0.0244 of the world at z2): one cluster at z0…z2 whose id is
    /// (0 << 5) + (2 + 1) + 2 = 5 (made at z2 from record 0 of 2 points), the points from z3 on.
    @Test func twoNearbyPointsCluster() throws {
        let fc = try Self.points([(0, 0), (7.2, 0)], properties: { #"{"v":\#($0 + 1)}"# })
        let index = try SuperclusterIndex(fc, options: SuperclusterOptions(maxZoom: 2))
        for z in 0...2 {
            let n = 1 << z
            let tile = try #require(index.tile(CanonicalTileID(z, n / 2, n / 2)), "z\(z)")
            #expect(tile.features.count == 1)
            let f = tile.features[0]
            #expect(f.id == .number(5))
            #expect(f.tags["cluster"] == .bool(true) && f.tags["cluster_id"] == .number(5))
            #expect(f.tags["point_count"] == .number(2) && f.tags["point_count_abbreviated"] == .number(2))
            // The weighted centre (0.5 + float32(0.52)) / 2 ≈ 0.51, in the tile's units.
            #expect(f.geometry == [[GeoJSONTile.Point(x: jsRound(8192 * (0.51 * Double(n) - Double(n / 2))),
                                                      y: jsRound(8192 * (0.5 * Double(n) - Double(n / 2))))]])
        }
        let z3 = try #require(index.tile(CanonicalTileID(3, 4, 4)))
        #expect(z3.features.map(\.id) == [.number(100), .number(101)] || z3.features.map(\.id) == [.number(101), .number(100)])
        let a = try #require(z3.features.first { $0.id == .number(100) })
        #expect(a.geometry == [[GeoJSONTile.Point(x: 0, y: 0)]])
        #expect(a.tags["v"] == .number(1) && a.tags["cluster"] == nil)
        let b = try #require(z3.features.first { $0.id == .number(101) })
        #expect(b.geometry == [[GeoJSONTile.Point(x: 1311, y: 0)]])   // 8192 · (8 · 0.52 − 4) = 1310.72

        // With minPoints 3 the pair stays apart; generateId numbers the points by index.
        let apart = try SuperclusterIndex(fc, options: SuperclusterOptions(maxZoom: 2, minPoints: 3, generateId: true))
        #expect(apart.tile(CanonicalTileID(0, 0, 0))?.features.compactMap(\.id).sorted { $0.numberValue! < $1.numberValue! } == [.number(0), .number(1)])

        // A cluster property summing v: map reads v, reduce adds the other's.
        let sum = ClusterProperty(name: "sum", map: { $0["v"] ?? .null },
                                  reduce: { acc, p in .number((acc.numberValue ?? 0) + (p["sum"]?.numberValue ?? 0)) })
        let summed = try SuperclusterIndex(fc, options: SuperclusterOptions(maxZoom: 2, clusterProperties: [sum]))
        let cluster = try #require(summed.tile(CanonicalTileID(0, 0, 0))?.features.first)
        #expect(cluster.tags["sum"] == .number(3))
        #expect(cluster.tags.keys == ["sum", "cluster", "cluster_id", "point_count", "point_count_abbreviated"])
        // As buckets read it.
        let feature = try #require(summed.vectorTile(CanonicalTileID(0, 0, 0))?.layer(nil)?.features.first)
        #expect(feature.type == .point && feature.id == .number(5) && feature.geometry.count == 1)
    }

    /// point_count_abbreviated: below 1000 the count, then one decimal of thousands, then whole
    /// thousands rounded half up (10500 → "11k").
    @Test func abbreviatedCounts() throws {
        let cases: [(Int, JSONValue)] = [(999, .number(999)), (1234, .string("1.2k")), (10500, .string("11k"))]
        for (count, expected) in cases {
            var positions: [(Double, Double)] = []
            for i in 0..<count { positions.append((Double(i % 100) * 1e-4, Double(i / 100) * 1e-4)) }
            let fc = try Self.points(positions)
            let index = try SuperclusterIndex(fc, options: SuperclusterOptions(maxZoom: 0))
            let features = try #require(index.tile(CanonicalTileID(0, 0, 0))?.features)
            #expect(features.count == 1)
            let pointCount: JSONValue? = features.first?.tags["point_count"]
            let abbreviated: JSONValue? = features.first?.tags["point_count_abbreviated"]
            #expect(pointCount == JSONValue.number(Double(count)))
            #expect(abbreviated == expected)
        }
    }

    /// Over the render suite's places (162 points, GL JS's options of its clustered cases): at every
    /// zoom each point is in exactly one cluster or alone (the records' point counts add up to 162),
    /// and the z0 tile shows every record of zoom 0 (the world's edge ones twice).
    @Test func placesAreCountedOnceAtEveryZoom() throws {
        let file = SharedData.root.appendingPathComponent("render-suite/data/places.geojson")
        try SharedData.require("the render suite's places.geojson", at: file)
        let fc = try GeoJSONDecoder.decode([UInt8](try Data(contentsOf: file)))
        for radius in [25.0, 40, 50] {
            let index = try SuperclusterIndex(fc, options: .mapLibre(clusterRadius: radius, generateId: true))
            #expect(index.options.maxZoom == 17 && index.options.radius == radius * 16)
            var clustersAt: [Int] = []
            for z in 0...18 {
                let records = index.records(atZoom: z)
                #expect(records.reduce(0) { $0 + $1.count } == Double(fc.features.count), "radius \(radius) z\(z)")
                #expect(Set(records.map(\.id)).count == records.count)
                clustersAt.append(records.filter { $0.count > 1 }.count)
            }
            #expect(clustersAt[18] == 0 && clustersAt[0] > 0, "radius \(radius): clusters per zoom \(clustersAt)")
            let z0 = try #require(index.tile(CanonicalTileID(0, 0, 0)))
            #expect(Set(z0.features.map { $0.id!.numberValue! }) == Set(index.records(atZoom: 0).map(\.id)))
        }
    }

    @Test func geometryCollectionsFailTheSourceAndOtherGeometriesNeverShow() throws {
        let gc = try GeoJSONDecoder.decode(Array(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[0,0]}]}"#.utf8))
        #expect(throws: GeoJSONTilingError.self) { try SuperclusterIndex(gc) }
        let mixed = try GeoJSONDecoder.decode(Array(#"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}},
          {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}}]}
        """#.utf8))
        let index = try SuperclusterIndex(mixed, options: SuperclusterOptions(generateId: true))
        #expect(index.tile(CanonicalTileID(0, 0, 0))?.features.map(\.id) == [.number(1)])
    }

    /// GL JS's option rules (GeoJSONSource): clusterMaxZoom 0 counts as absent, radius 0 too.
    @Test func mapLibreOptions() {
        #expect(SuperclusterOptions.mapLibre().maxZoom == 17)
        #expect(SuperclusterOptions.mapLibre(maxzoom: 12).maxZoom == 11)
        #expect(SuperclusterOptions.mapLibre(clusterMaxZoom: 0).maxZoom == 17)
        #expect(SuperclusterOptions.mapLibre(clusterMaxZoom: 4.5).maxZoom == 5)
        #expect(SuperclusterOptions.mapLibre(clusterRadius: 0).radius == 800)
        #expect(SuperclusterOptions.mapLibre(clusterMinPoints: 1).minPoints == 2)
        #expect(SuperclusterOptions.mapLibre(clusterMinPoints: 5).minPoints == 5)
        let tiles = GeoJSONTileOptions.mapLibre(maxzoom: 14, buffer: 64, tolerance: 1)
        #expect(tiles.maxZoom == 14 && tiles.buffer == 1024 && tiles.tolerance == 16 && tiles.extent == 8192)
    }
}

