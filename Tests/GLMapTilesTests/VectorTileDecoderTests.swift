import Foundation
import GLMapCore
import GLMapTestSupport
import GLMapTiles
import Testing

@Suite struct VectorTileDecoderTests {
    func pts(_ ring: [TilePoint]) -> [[Int]] { ring.map { [Int($0.x), Int($0.y)] } }

    @Test func everyValueTypeAndTheUInt64ID() throws {
        let values: [MVTValue] = [.string("Straße"), .float(1.1), .double(-2.5e300), .int(-42), .uint(UInt64.max),
                                  .sint(-7), .bool(true), .int(Int64.min)]
        let keys = ["s", "f", "d", "i", "u", "z", "b", "m"]
        var c: (Int64, Int64) = (0, 0)
        let f = feature(id: 18446744071894883303, type: 1, tags: (0..<8).flatMap { [UInt64($0), UInt64($0)] },
                        geometry: geometry([[(10, 20)]], close: false, cursor: &c))
        let t = try VectorTileDecoder.decode(tile([layer(name: "l", features: [f], keys: keys, values: values)]))
        let feat = try #require(t.data.layers["l"]?.features.first)
        #expect(feat.properties["s"] == .string("Straße"))
        #expect(feat.properties["f"] == .number(Double(Float(1.1))))
        #expect(feat.properties["d"] == .number(-2.5e300))
        #expect(feat.properties["i"] == .number(-42))
        #expect(feat.properties["u"] == .number(18446744073709551615.0))
        #expect(feat.properties["z"] == .number(-7))
        #expect(feat.properties["b"] == .bool(true))
        #expect(feat.properties["m"] == .number(-9223372036854775808.0))
        #expect(feat.properties.keys == keys)
        // uint64 → the nearest double, as JavaScript reads it (18446744071894883303 → …883000).
        #expect(feat.id == .number(18446744071894883303.0))
        #expect(feat.type == .point)
        #expect(feat.geometry.map(pts) == [[[20, 40]]])
        #expect(t.warnings.isEmpty)
    }

    @Test func geometryAsLoadGeometryReturnsIt() throws {
        var c: (Int64, Int64) = (0, 0)
        // Multipoint: one array per point (a MoveTo of count 3).
        let mp = feature(type: 1, geometry: [command(1, 3), zigzag(1), zigzag(1), zigzag(2), zigzag(0), zigzag(-5), zigzag(3)])
        // Two lines.
        let ml = feature(type: 2, geometry: geometry([[(0, 0), (10, 0), (10, 10)], [(20, 20), (30, 30)]], close: false, cursor: &c))
        // A polygon with a hole: rings in order, winding kept, ClosePath repeats the first point.
        c = (0, 0)
        let outer: [(Int64, Int64)] = [(0, 0), (100, 0), (100, 100), (0, 100)]
        let hole: [(Int64, Int64)] = [(10, 10), (10, 20), (20, 20), (20, 10)]
        let poly = feature(type: 3, geometry: geometry([outer, hole], close: true, cursor: &c))
        let t = try VectorTileDecoder.decode(tile([layer(name: "g", features: [mp, ml, poly])]))
        let fs = try #require(t.data.layers["g"]?.features)
        #expect(fs.map(\.type) == [.point, .lineString, .polygon])
        #expect(fs[0].geometry.map(pts) == [[[2, 2]], [[6, 2]], [[-4, 8]]])
        #expect(fs[1].geometry.map(pts) == [[[0, 0], [20, 0], [20, 20]], [[40, 40], [60, 60]]])
        #expect(fs[2].geometry.map(pts) == [[[0, 0], [200, 0], [200, 200], [0, 200], [0, 0]],
                                            [[20, 20], [20, 40], [40, 40], [40, 20], [20, 20]]])
        #expect(fs.map(\.index) == [0, 1, 2])
    }

    @Test func vectorTileJSCommandQuirks() throws {
        // LineTo before any MoveTo: the point moves the cursor but is dropped; a count of 0 still
        // runs the command once; ClosePath with no open line does nothing.
        let g: [UInt64] = [command(7, 1), command(2, 1), zigzag(5), zigzag(5), command(1, 0), zigzag(1), zigzag(1),
                           command(2, 1), zigzag(1), zigzag(0)]
        let t = try VectorTileDecoder.decode(tile([layer(name: "q", extent: 8192, features: [feature(type: 2, geometry: g)])]))
        #expect(t.data.layers["q"]?.features.first?.geometry.map(pts) == [[[6, 6], [7, 6]]])
    }

    @Test func extentScalingRoundsAsMathRound() throws {
        // extent 16384: scale 0.5, so 3 → 1.5 → 2 and −3 → −1.5 → −1 (halves toward +∞).
        let g: [UInt64] = [command(1, 2), zigzag(3), zigzag(-3), zigzag(-4), zigzag(8)]
        let t = try VectorTileDecoder.decode(tile([layer(name: "r", extent: 16384, features: [feature(type: 1, geometry: g)])]))
        #expect(t.data.layers["r"]?.features.first?.geometry.map(pts) == [[[2, -1]], [[0, 3]]])
        // extent 3000: x · 8192 / 3000 in doubles, then rounded (1000 → 2730.666… → 2731).
        let g2: [UInt64] = [command(1, 1), zigzag(1000), zigzag(1500)]
        let t2 = try VectorTileDecoder.decode(tile([layer(name: "r", extent: 3000, features: [feature(type: 1, geometry: g2)])]))
        #expect(t2.data.layers["r"]?.features.first?.geometry.map(pts) == [[[2731, 4096]]])
        // No extent field: 4096.
        let t3 = try VectorTileDecoder.decode(tile([layer(name: "r", extent: nil, features: [feature(type: 1, geometry: g2)])]))
        #expect(t3.data.layers["r"]?.features.first?.geometry.map(pts) == [[[2000, 3000]]])
    }

    @Test func coordinatesPastInt16AreClampedWithOneWarning() throws {
        let g: [UInt64] = [command(1, 3), zigzag(20000), zigzag(-20000), zigzag(0), zigzag(0), zigzag(-60000), zigzag(40000)]
        let far = feature(type: 1, geometry: g)
        // 16384 · 2 = 32768: one unit past the range, clamped without a warning (as GL JS).
        let edge = feature(type: 1, geometry: [command(1, 1), zigzag(16384), zigzag(0)])
        let t = try VectorTileDecoder.decode(tile([layer(name: "c", features: [far, far, edge])]))
        let fs = try #require(t.data.layers["c"]?.features)
        #expect(fs[0].geometry.map(pts) == [[[32767, -32768]], [[32767, -32768]], [[-32768, 32767]]])
        #expect(fs[2].geometry.map(pts) == [[[32767, 0]]])
        #expect(t.warnings.count == 1)
        #expect(t.warnings.first?.contains("clamped") == true)
        #expect(t.warnings.first?.contains("\"c\"") == true)
        let quiet = try VectorTileDecoder.decode(tile([layer(name: "c", features: [edge])]))
        #expect(quiet.warnings.isEmpty)
    }

    @Test func unknownGeometriesDroppedIndicesKept() throws {
        let g: [UInt64] = [command(1, 1), zigzag(1), zigzag(1)]
        let t = try VectorTileDecoder.decode(tile([layer(name: "u", features: [
            feature(type: 0, geometry: g), feature(type: 1, geometry: g), feature(type: 9, geometry: g), feature(type: 1, geometry: g),
        ])]))
        #expect(t.data.layers["u"]?.features.map(\.index) == [1, 3])
        #expect(t.warnings == ["2 features of unknown geometry type dropped"])
    }

    @Test func unknownFieldsAreSkippedEverywhere() throws {
        let g: [UInt64] = [command(1, 1), zigzag(1), zigzag(2)]
        let f = feature(id: 7, type: 1, tags: [0, 0], geometry: g) { pb in
            pb.uint(9, 123); pb.fixed32(10, 1); pb.fixed64(11, 2); pb.string(12, "x")
        }
        var weirdValue = PB()
        weirdValue.uint(9, 5)          // unknown field only: null
        let l = layer(name: "k", features: [f, feature(type: 1, tags: [0, 1], geometry: g)], keys: ["a"], values: [.string("v")]) { pb in
            pb.message(4, weirdValue); pb.string(20, "extension"); pb.fixed64(21, 9)
        }
        let t = try VectorTileDecoder.decode(tile([l]) { pb in pb.string(7, "tile extension"); pb.uint(8, 1) })
        let fs = try #require(t.data.layers["k"]?.features)
        #expect(fs[0].id == .number(7))
        #expect(fs[0].properties["a"] == .string("v"))
        #expect(fs[1].properties["a"] == .null)
        #expect(fs[0].geometry.map(pts) == [[[2, 4]]])
    }

    @Test func layersWithoutFeaturesAreLeftOutAndLaterLayersReplaceEarlier() throws {
        let g: [UInt64] = [command(1, 1), zigzag(1), zigzag(1)]
        let t = try VectorTileDecoder.decode(tile([
            layer(name: "empty", features: []),
            layer(name: "dup", features: [feature(id: 1, type: 1, geometry: g)]),
            layer(name: "dup", features: [feature(id: 2, type: 1, geometry: g), feature(id: 3, type: 1, geometry: g)]),
        ]))
        #expect(t.data.layers["empty"] == nil)
        #expect(t.data.layers["dup"]?.features.map(\.id) == [.number(2), .number(3)])
        #expect(try VectorTileDecoder.decode([]).data.layers.isEmpty)
    }

    @Test func promoteIdSetsTheFeatureID() throws {
        let g: [UInt64] = [command(1, 1), zigzag(1), zigzag(1)]
        let l1 = layer(name: "a", features: [
            feature(id: 1, type: 1, tags: [0, 0], geometry: g), feature(id: 2, type: 1, tags: [0, 1], geometry: g),
            feature(id: 3, type: 1, tags: [0, 2], geometry: g), feature(id: 4, type: 1, geometry: g),
        ], keys: ["code"], values: [.string("FI"), .bool(true), .int(12)])
        let l2 = layer(name: "b", features: [feature(id: 9, type: 1, tags: [0, 0], geometry: g)], keys: ["code"], values: [.string("SE")])
        let bytes = tile([l1, l2])
        let byName = try VectorTileDecoder.decode(bytes, promoteId: .property("code"))
        #expect(byName.data.layers["a"]?.features.map(\.id) == [.string("FI"), .number(1), .number(12), nil])
        #expect(byName.data.layers["b"]?.features.map(\.id) == [.string("SE")])
        let perLayer = try VectorTileDecoder.decode(bytes, promoteId: PromoteID(json: .object(JSONObject([("b", .string("code"))]))))
        #expect(perLayer.data.layers["a"]?.features.map(\.id) == [nil, nil, nil, nil])
        #expect(perLayer.data.layers["b"]?.features.map(\.id) == [.string("SE")])
        #expect(PromoteID(json: .number(1)) == nil)
    }

    @Test func repeatedKeysKeepTheLastValueAndFeaturesShareKeyTables() throws {
        let g: [UInt64] = [command(1, 1), zigzag(1), zigzag(1)]
        let t = try VectorTileDecoder.decode(tile([layer(name: "r", features: [
            feature(type: 1, tags: [0, 0, 1, 1, 0, 2], geometry: g),
            feature(type: 1, tags: [0, 0, 1, 1], geometry: g), feature(type: 1, tags: [0, 2, 1, 0], geometry: g),
            feature(type: 1, tags: [0, 7, 5, 0, 1], geometry: g),   // out-of-range indices and a dangling key
        ], keys: ["a", "b"], values: [.int(1), .int(2), .int(3)])]))
        let fs = try #require(t.data.layers["r"]?.features)
        #expect(fs[0].properties.keys == ["a", "b"])
        #expect(fs[0].properties["a"] == .number(3))
        #expect(fs[2].properties == JSONObject([("a", .number(3)), ("b", .number(1))]))
        #expect(fs[3].properties.isEmpty)
    }

    @Test func malformedProtobufFailsTheTileWithAMessage() throws {
        var c: (Int64, Int64) = (0, 0)
        let good = tile([layer(name: "roads", features: [feature(type: 2, geometry: geometry([[(0, 0), (5, 5)]], close: false, cursor: &c))])])
        // Cut short anywhere inside the layer: a length runs past the end.
        for cut in [2, 10, good.count - 1] {
            #expect(throws: VectorTileError.self) { _ = try VectorTileDecoder.decode(Array(good.prefix(cut))) }
        }
        do {
            _ = try VectorTileDecoder.decode(Array(good.prefix(good.count - 1)))
        } catch {
            #expect(error.description.hasPrefix("corrupt vector tile: layer"))
            #expect(error.description.contains("byte"))
        }
        // A group (wire type 3) and a layer field with the wrong wire type.
        #expect(throws: VectorTileError.self) { _ = try VectorTileDecoder.decode([0x1B]) }
        var bad = PB(); bad.uint(3, 5)
        #expect(throws: VectorTileError.self) { _ = try VectorTileDecoder.decode(bad.bytes) }
        // An overlong varint.
        #expect(throws: VectorTileError.self) { _ = try VectorTileDecoder.decode([0x08] + [UInt8](repeating: 0xFF, count: 11)) }
    }

    @Test func badGeometryDropsOnlyThatFeature() throws {
        let ok = feature(type: 1, geometry: [command(1, 1), zigzag(1), zigzag(1)])
        let unknownCommand = feature(type: 2, geometry: [command(1, 1), zigzag(1), zigzag(1), command(5, 1), 0, 0])
        let cutShort = feature(type: 2, geometry: [command(1, 1), zigzag(1), zigzag(1), command(2, 3), zigzag(1)])
        let t = try VectorTileDecoder.decode(tile([layer(name: "b", features: [ok, unknownCommand, cutShort, ok])]))
        #expect(t.data.layers["b"]?.features.map(\.index) == [0, 3])
        #expect(t.warnings.count == 1)
        #expect(t.warnings.first?.contains("2 features with unreadable geometry") == true)
        #expect(t.warnings.first?.contains("unknown geometry command 5") == true)
    }

    @Test func hugeCountsNeitherHangNorAllocate() throws {
        // A ClosePath or LineTo claiming 2^60 repetitions with nothing behind it.
        let g: [UInt64] = [command(1, 1), 2, 2, (UInt64(1) << 60) << 3 | 7, (UInt64(1) << 60) << 3 | 2]
        let t = try VectorTileDecoder.decode(tile([layer(name: "h", features: [feature(type: 3, geometry: g)])]))
        #expect(t.data.layers["h"]?.features.isEmpty == true)   // cut short: dropped
        let g2: [UInt64] = [command(1, 1), 2, 2, (UInt64(1) << 60) << 3 | 7]
        let t2 = try VectorTileDecoder.decode(tile([layer(name: "h", features: [feature(type: 3, geometry: g2)])]))
        #expect(t2.data.layers["h"]?.features.first?.geometry.map(pts) == [[[2, 2], [2, 2]]])
    }

    @Test func extentZeroDropsTheLayer() throws {
        let t = try VectorTileDecoder.decode(tile([layer(name: "z", extent: 0, features: [feature(type: 1, geometry: [9, 2, 2])])]))
        #expect(t.data.layers.isEmpty)
        #expect(t.warnings == ["layer \"z\" has extent 0 and was dropped"])
    }
}
