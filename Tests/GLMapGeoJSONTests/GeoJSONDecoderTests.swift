import XCTest
import GLMapCore
@testable import GLMapGeoJSON

/// Decodes text through both entry points (bytes, and a parsed JSON tree) and checks they agree.
func decodeBoth(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> FeatureCollection {
    let fromBytes = try GeoJSONDecoder.decode(Array(text.utf8))
    let fromTree = try GeoJSONDecoder.decode(try JSONParser.parse(text), path: "data")
    XCTAssertEqual(fromBytes, fromTree, "byte and tree decoders disagree", file: file, line: line)
    return fromBytes
}

/// The single geometry of a one-feature document.
func geometry(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> Geometry? {
    let fc = try decodeBoth(text, file: file, line: line)
    XCTAssertEqual(fc.features.count, 1, file: file, line: line)
    return fc.features.first?.geometry
}

final class GeoJSONDecoderTests: XCTestCase {
    func testAllSevenGeometryTypes() throws {
        XCTAssertEqual(try geometry(#"{"type":"Point","coordinates":[1.5,-2.25]}"#), .point(Position(1.5, -2.25)))
        XCTAssertEqual(try geometry(#"{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}"#),
                       .multiPoint([Position(1, 2), Position(3, 4)]))
        XCTAssertEqual(try geometry(#"{"type":"LineString","coordinates":[[1,2],[3,4],[5,6]]}"#),
                       .lineString([Position(1, 2), Position(3, 4), Position(5, 6)]))
        XCTAssertEqual(try geometry(#"{"type":"MultiLineString","coordinates":[[[1,2],[3,4]],[[5,6],[7,8]]]}"#),
                       .multiLineString([[Position(1, 2), Position(3, 4)], [Position(5, 6), Position(7, 8)]]))
        let outer = [Position(0, 0), Position(10, 0), Position(10, 10), Position(0, 0)]
        let hole = [Position(2, 2), Position(3, 3), Position(2, 3), Position(2, 2)]
        XCTAssertEqual(try geometry(#"{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,0]],[[2,2],[3,3],[2,3],[2,2]]]}"#),
                       .polygon([outer, hole]))
        XCTAssertEqual(try geometry(#"{"type":"MultiPolygon","coordinates":[[[[0,0],[10,0],[10,10],[0,0]]],[[[2,2],[3,3],[2,3],[2,2]]]]}"#),
                       .multiPolygon([[outer], [hole]]))
        XCTAssertEqual(try geometry(#"{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,2]},{"type":"LineString","coordinates":[[1,2],[3,4]]}]}"#),
                       .geometryCollection([.point(Position(1, 2)), .lineString([Position(1, 2), Position(3, 4)])]))
    }

    func testEmptyCoordinateArraysAndCollectionsAreKept() throws {
        XCTAssertEqual(try geometry(#"{"type":"LineString","coordinates":[]}"#), .lineString([]))
        XCTAssertEqual(try geometry(#"{"type":"Polygon","coordinates":[[]]}"#), .polygon([[]]))
        XCTAssertEqual(try geometry(#"{"type":"MultiPolygon","coordinates":[]}"#), .multiPolygon([]))
        XCTAssertEqual(try geometry(#"{"type":"GeometryCollection","geometries":[]}"#), .geometryCollection([]))
        XCTAssertEqual(try decodeBoth(#"{"type":"FeatureCollection","features":[]}"#).features, [])
        // Rings are not validated: an open two-point ring stays as given.
        XCTAssertEqual(try geometry(#"{"type":"Polygon","coordinates":[[[0,0],[1,1]]]}"#),
                       .polygon([[Position(0, 0), Position(1, 1)]]))
    }

    func testFeatureCollectionFeatureAndBareGeometry() throws {
        let fc = try decodeBoth(#"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[1,2]}},
          {"type":"Feature","properties":{"b":"x"},"geometry":null}
        ]}
        """#)
        XCTAssertEqual(fc.features.count, 2)
        XCTAssertEqual(fc.features[0].properties["a"], .number(1))
        XCTAssertEqual(fc.features[0].geometry, .point(Position(1, 2)))
        XCTAssertEqual(fc.features[1].properties["b"], .string("x"))
        XCTAssertNil(fc.features[1].geometry)

        let single = try decodeBoth(#"{"type":"Feature","properties":{"k":true},"geometry":{"type":"Point","coordinates":[3,4]}}"#)
        XCTAssertEqual(single.features, [Feature(properties: JSONObject([("k", .bool(true))]), geometry: .point(Position(3, 4)))])

        let bare = try decodeBoth(#"{"type":"LineString","coordinates":[[0,0],[1,1]]}"#)
        XCTAssertEqual(bare.features, [Feature(geometry: .lineString([Position(0, 0), Position(1, 1)]))])
    }

    func testMembersInAnyOrder() throws {
        let expected = FeatureCollection(features: [
            Feature(id: .string("a"), properties: JSONObject([("n", .number(1))]),
                    geometry: .polygon([[Position(0, 0), Position(1, 0), Position(1, 1), Position(0, 0)]])),
            Feature(id: .number(7), properties: JSONObject(),
                    geometry: .geometryCollection([.point(Position(5, 6)), .multiPoint([Position(1, 2)])])),
        ])
        // Type last at every level (as a sorted-keys writer produces).
        let typeLast = #"""
        {"features":[
          {"geometry":{"coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"type":"Polygon"},"id":"a","properties":{"n":1},"type":"Feature"},
          {"geometry":{"geometries":[{"coordinates":[5,6],"type":"Point"},{"coordinates":[[1,2]],"type":"MultiPoint"}],"type":"GeometryCollection"},"id":7,"properties":null,"type":"Feature"}
        ],"type":"FeatureCollection"}
        """#
        XCTAssertEqual(try decodeBoth(typeLast), expected)
        // Type in the middle, with foreign members in between.
        let typeMiddle = #"""
        {"bbox":[0,0,1,1],"features":[
          {"properties":{"n":1},"type":"Feature","geometry":{"coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"bbox":[0,0,1,1],"type":"Polygon"},"id":"a"},
          {"id":7,"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[5,6]},{"coordinates":[[1,2]],"type":"MultiPoint"}]},"type":"Feature"}
        ],"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"type":"FeatureCollection","title":"x"}
        """#
        XCTAssertEqual(try decodeBoth(typeMiddle), expected)
    }

    func testCoordinatesBeforeTypeWithAmbiguousShapes() throws {
        // Empty arrays cannot be guessed from their brackets: they are decoded again once `type` is known.
        XCTAssertEqual(try geometry(#"{"coordinates":[],"type":"MultiLineString"}"#), .multiLineString([]))
        XCTAssertEqual(try geometry(#"{"coordinates":[[]],"type":"MultiPolygon"}"#), .multiPolygon([[]]))
        XCTAssertEqual(try geometry(#"{"coordinates":[[1,2]],"type":"LineString"}"#), .lineString([Position(1, 2)]))
        XCTAssertEqual(try geometry(#"{"coordinates":[[1,2]],"type":"MultiPoint"}"#), .multiPoint([Position(1, 2)]))
        XCTAssertEqual(try geometry(#"{"coordinates": [ [ [1,2] ] ],"type":"MultiLineString"}"#),
                       .multiLineString([[Position(1, 2)]]))
    }

    func testForeignMembersNamedLikeGeoJSONMembersAreIgnored() throws {
        // `features` in a Feature, `coordinates` in a Feature, `geometry` in a geometry: foreign members.
        let fc = try decodeBoth(#"""
        {"features":"not features","coordinates":{"x":1},"geometries":null,"type":"Feature","geometry":
          {"geometry":[1],"properties":7,"id":{"a":1},"type":"Point","coordinates":[1,2],"features":3}}
        """#)
        XCTAssertEqual(fc.features, [Feature(geometry: .point(Position(1, 2)))])
        // Escaped keys and type names are still recognised.
        XCTAssertEqual(try geometry(#"{"\u0074ype":"Po\u0069nt","coordin\u0061tes":[1,2]}"#), .point(Position(1, 2)))
    }

    func testNullAndMissingGeometryAndProperties() throws {
        let fc = try decodeBoth(#"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":null,"properties":null},
          {"type":"Feature","geometry":null},
          {"geometry":null,"properties":{"a":[1,{"b":null}]},"type":"Feature"}
        ]}
        """#)
        XCTAssertEqual(fc.features.map(\.geometry), [nil, nil, nil])
        XCTAssertEqual(fc.features[0].properties, JSONObject())
        XCTAssertEqual(fc.features[1].properties, JSONObject())
        XCTAssertEqual(fc.features[2].properties["a"], .array([.number(1), .object(JSONObject([("b", .null)]))]))
    }

    func testIDsNumberAndStringKeptOthersIgnored() throws {
        let fc = try decodeBoth(#"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","id":42,"geometry":null},
          {"type":"Feature","id":"abc","geometry":null},
          {"type":"Feature","id":-1.5,"geometry":null},
          {"type":"Feature","id":null,"geometry":null},
          {"type":"Feature","id":true,"geometry":null},
          {"type":"Feature","id":{"x":1},"geometry":null},
          {"type":"Feature","id":[1],"geometry":null},
          {"type":"Feature","geometry":null},
          {"geometry":null,"id":"late","type":"Feature"}
        ]}
        """#)
        XCTAssertEqual(fc.features.map(\.id), [.number(42), .string("abc"), .number(-1.5), nil, nil, nil, nil, nil, .string("late")])
    }

    func testNestedGeometryCollection() throws {
        let g = try geometry(#"""
        {"type":"GeometryCollection","geometries":[
          {"type":"GeometryCollection","geometries":[
            {"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[1,1]}]},
            {"type":"Polygon","coordinates":[[[0,0],[1,0],[0,1],[0,0]]]}
          ]},
          {"type":"MultiLineString","coordinates":[[[0,0],[2,2]]]}
        ]}
        """#)
        XCTAssertEqual(g, .geometryCollection([
            .geometryCollection([
                .geometryCollection([.point(Position(1, 1))]),
                .polygon([[Position(0, 0), Position(1, 0), Position(0, 1), Position(0, 0)]]),
            ]),
            .multiLineString([[Position(0, 0), Position(2, 2)]]),
        ]))
        XCTAssertEqual(g?.filterType, .point)
        XCTAssertEqual(g?.vertexCount, 7)
    }

    func testPositionsDropAltitudeAndAllowWhitespace() throws {
        XCTAssertEqual(try geometry(#"{"type":"Point","coordinates":[1,2,3]}"#), .point(Position(1, 2)))
        XCTAssertEqual(try geometry(#"{"type":"Point","coordinates":[1,2,3,4.5e1]}"#), .point(Position(1, 2)))
        XCTAssertEqual(try geometry("{ \"type\" :\t\"LineString\" ,\r\n \"coordinates\" : [ [ 1 , 2 ] ,\n[ 3 ,4, 100 ] ] }"),
                       .lineString([Position(1, 2), Position(3, 4)]))
        // A UTF-8 byte order mark is skipped.
        let withBOM = [0xEF, 0xBB, 0xBF] + Array(#"{"type":"Point","coordinates":[1,2]}"#.utf8)
        XCTAssertEqual(try GeoJSONDecoder.decode(withBOM).features.first?.geometry, .point(Position(1, 2)))
    }

    func testNumbersAreCorrectlyRounded() throws {
        let texts = [
            "0", "-0", "1", "-180", "179.99999999999997", "-122.41941550000001", "0.1", "0.30000000000000004",
            "24.9413267", "60.1764704", "1e-7", "5E+2", "-2.5e-3", "123456789012345678901234567890",
            "1.7976931348623157e308", "4.9e-324", "2.2250738585072014e-308", "9007199254740993",
            "0.000000000000000000000000000001", "1e-400", "12345678901234567890.5", "3.141592653589793238462643383279",
        ]
        for t in texts {
            let g = try geometry(#"{"type":"Point","coordinates":[\#(t),\#(t)]}"#)
            let expected = Double(t)!
            guard case .point(let p)? = g else { XCTFail("no point for \(t)"); continue }
            XCTAssertEqual(p.lon.bitPattern, expected.bitPattern, "\(t) decoded as \(p.lon), expected \(expected)")
            XCTAssertEqual(p.lat.bitPattern, expected.bitPattern, t)
        }
    }

    func testNumbersMatchKnownBitPatterns() throws {
        // Independent of the standard library's parser (values from Python's float()).
        let known: [(String, UInt64)] = [
            ("9007199254740993", 0x4340_0000_0000_0000), ("0.1", 0x3FB9_9999_9999_999A),
            ("1.7976931348623157e308", 0x7FEF_FFFF_FFFF_FFFF), ("4.9e-324", 0x0000_0000_0000_0001),
            ("2.2250738585072011e-308", 0x000F_FFFF_FFFF_FFFF), ("-88.053375", 0xC056_036A_7EF9_DB23),
            ("179.99999999999997", 0x4066_7FFF_FFFF_FFFF), ("24.9413267", 0x4038_F0FA_C95F_5A03),
            ("60.17647040000001", 0x404E_1696_9502_5B25), ("0.30000000000000004", 0x3FD3_3333_3333_3334),
            ("1e23", 0x44B5_2D02_C7E1_4AF6), ("8.98846567431158e307", 0x7FE0_0000_0000_0000),
            ("-122.41941550000001", 0xC05E_9AD7_B41B_FBE0),
        ]
        let padding = String(repeating: "[0.5,0.25],", count: 8)  // so the values are read eight bytes at a time too
        let text = #"{"type":"MultiPoint","coordinates":[\#(padding)"# + known.map { "[\($0.0),\($0.0)]" }.joined(separator: ",") + "]}"
        guard case .multiPoint(let points)? = try geometry(text) else { return XCTFail("not a MultiPoint") }
        for (p, (t, bits)) in zip(points.dropFirst(8), known) {
            XCTAssertEqual(p.lon.bitPattern, bits, t)
            XCTAssertEqual(p.lat.bitPattern, bits, t)
        }
    }

    func testRandomNumbersRoundTripExactly() throws {
        var rng = SystemRandomNumberGenerator()
        var texts: [String] = []
        for _ in 0..<2000 {
            let d = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &rng) ? 1 : -1)
            texts.append("\(d)")  // shortest round-trip text, sometimes with an exponent
            texts.append(String(format6: Double.random(in: -180...180, using: &rng)))
        }
        let json = #"{"type":"LineString","coordinates":["# + stride(from: 0, to: texts.count, by: 2)
            .map { "[\(texts[$0]),\(texts[$0 + 1])]" }.joined(separator: ",") + "]}"
        guard case .lineString(let line)? = try geometry(json) else { return XCTFail("not a line") }
        XCTAssertEqual(line.count, texts.count / 2)
        for (k, p) in line.enumerated() {
            XCTAssertEqual(p.lon.bitPattern, Double(texts[2 * k])!.bitPattern, texts[2 * k])
            XCTAssertEqual(p.lat.bitPattern, Double(texts[2 * k + 1])!.bitPattern, texts[2 * k + 1])
        }
    }

    func testNumbersOfEveryDigitCountAreExact() throws {
        // Integer parts of 1…9 digits and fractions of 0…18 digits cross every boundary of the
        // eight-digit fast path (7/8 integer digits, 8/16 fraction digits, 15 significant digits).
        var rng = SystemRandomNumberGenerator()
        func digits(_ n: Int, leadingNonZero: Bool) -> String {
            String((0..<n).map { k in Character(String(k == 0 && leadingNonZero ? Int.random(in: 1...9, using: &rng) : Int.random(in: 0...9, using: &rng))) })
        }
        var texts: [String] = []
        for intDigits in 1...9 {
            for fracDigits in 0...18 {
                for _ in 0..<6 {
                    var t = Bool.random(using: &rng) ? "-" : ""
                    t += intDigits == 1 && Bool.random(using: &rng) ? "0" : digits(intDigits, leadingNonZero: true)
                    if fracDigits > 0 { t += "." + digits(fracDigits, leadingNonZero: false) }
                    texts.append(t)
                }
            }
        }
        // In a long array (eight-byte reads) and alone at the very end of a short document (byte reads).
        let long = #"{"type":"MultiPoint","coordinates":["# + texts.map { "[\($0),\($0)]" }.joined(separator: ",") + "]}"
        guard case .multiPoint(let points)? = try geometry(long) else { return XCTFail("not a MultiPoint") }
        XCTAssertEqual(points.count, texts.count)
        for (p, t) in zip(points, texts) {
            XCTAssertEqual(p.lon.bitPattern, Double(t)!.bitPattern, t)
            XCTAssertEqual(p.lat.bitPattern, Double(t)!.bitPattern, t)
        }
        for t in texts.prefix(200) {
            let short = Array(#"{"type":"LineString","coordinates":[[0,0],[\#(t),\#(t)]]}"#.utf8)
            guard case .lineString(let line)? = try GeoJSONDecoder.decode(short).features.first?.geometry else {
                return XCTFail("not a LineString")
            }
            XCTAssertEqual(line.last?.lat.bitPattern, Double(t)!.bitPattern, t)
        }
        // Whitespace inside positions, and exponents, in a long array.
        let spaced = #"{"type":"LineString","coordinates":["# + texts.map { "[ \($0) ,\n\t\($0)e0 ]" }.joined(separator: " , ") + "]}"
        guard case .lineString(let line)? = try geometry(spaced) else { return XCTFail("not a LineString") }
        XCTAssertEqual(line.map(\.lon.bitPattern), texts.map { Double($0)!.bitPattern })
        XCTAssertEqual(line.map(\.lat.bitPattern), texts.map { Double($0)!.bitPattern })
    }

    func testBytesAfterNumbersDoNotConfuseTheFastPath() throws {
        // Non-ASCII and high bytes right after digits (inside a later string) must not be read as digits.
        let text = #"{"type":"MultiPoint","coordinates":[[1.25,2.5],[3,4]],"name":"ÿÿÿÿÿÿÿÿ€€€€","x":[1.5,"ÿÿ"]}"#
        XCTAssertEqual(try geometry(text), .multiPoint([Position(1.25, 2.5), Position(3, 4)]))
        // Leading zeros are errors even in long arrays.
        let padding = String(repeating: "[1.5,2.5],", count: 10)
        XCTAssertEqual(byteError(#"{"type":"MultiPoint","coordinates":[\#(padding)[00.5,1]]}"#)?.message,
                       "leading zeros are not allowed in numbers, found '0'")
        XCTAssertEqual(byteError(#"{"type":"MultiPoint","coordinates":[\#(padding)[-,1]]}"#)?.message,
                       "expected a digit in number, found ','")
        XCTAssertEqual(byteError(#"{"type":"MultiPoint","coordinates":[\#(padding)[1.,1]]}"#)?.message,
                       "expected a digit after '.', found ','")
    }

    func testVertexCount() throws {
        let fc = try decodeBoth(#"""
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":{"type":"MultiPolygon","coordinates":[[[[0,0],[1,0],[1,1],[0,0]],[[0.2,0.2],[0.3,0.3],[0.2,0.3],[0.2,0.2]]],[[[5,5],[6,5],[5,6],[5,5]]]]}},
          {"type":"Feature","geometry":null},
          {"type":"Feature","geometry":{"type":"MultiPoint","coordinates":[[1,2],[3,4]]}}
        ]}
        """#)
        XCTAssertEqual(fc.vertexCount, 14)
    }

    /// A repeated `type` member: the last one wins (JSON.parse's rule, so MapLibre's), through both
    /// entry points, whatever the earlier one said; when the last one is invalid both reject.
    func testRepeatedTypeMemberLastOneWinsInBothDecoders() throws {
        let line = Geometry.lineString([Position(0, 0), Position(1, 1)])
        XCTAssertEqual(try geometry(#"{"type":"","type":"LineString","coordinates":[[0,0],[1,1]]}"#), line)
        XCTAssertEqual(try geometry(#"{"type":"Point","type":"LineString","coordinates":[[0,0],[1,1]]}"#), line)
        XCTAssertEqual(try geometry(#"{"type":"Feature","geometry":{"type":7,"coordinates":[[0,0],[1,1]],"type":"LineString"},"properties":null}"#), line)
        let fc = try decodeBoth(#"{"type":"Point","features":[{"type":"Feature","properties":{},"geometry":null}],"type":"FeatureCollection"}"#)
        XCTAssertEqual(fc.features.count, 1)
        for bad in [#"{"type":"LineString","type":"Bogus","coordinates":[]}"#, #"{"type":"Point","type":3,"coordinates":[0,0]}"#] {
            XCTAssertThrowsError(try GeoJSONDecoder.decode(Array(bad.utf8)), bad) {
                XCTAssertTrue("\($0)".contains("type"), "\($0)")
            }
            XCTAssertThrowsError(try GeoJSONDecoder.decode(try JSONParser.parse(bad), path: "data"), bad)
        }
    }

    /// Positions decoded again after a repeated `type` still count once towards the limit.
    func testRepeatedTypeKeepsThePositionCount() throws {
        var limits = InputLimits.default
        limits.maxPositionsPerSource = 4
        let two = #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[[0,0],[1,1]],"type":"LineString"}}"#
        let doc = #"{"type":"FeatureCollection","features":[\#(two),\#(two)]}"#
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(doc.utf8), limits: limits).features.count, 2)
        let three = #"{"type":"FeatureCollection","features":[\#(two),\#(two),\#(two)]}"#
        XCTAssertThrowsError(try GeoJSONDecoder.decode(Array(three.utf8), limits: limits)) {
            XCTAssertTrue("\($0)".contains("maxPositionsPerSource"), "\($0)")
        }
    }
}

extension String {
    /// A number with six decimals, as GIS writers usually round coordinates.
    init(format6 value: Double) {
        let scaled = (value * 1_000_000).rounded()
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int64(abs(scaled))
        let frac = String(magnitude % 1_000_000)
        self = "\(sign)\(magnitude / 1_000_000).\(String(repeating: "0", count: 6 - frac.count))\(frac)"
    }
}
