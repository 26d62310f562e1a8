import XCTest
import GLMapCore
@testable import GLMapGeoJSON

/// The error the byte decoder gives for `text`, or a test failure when it succeeds.
func byteError(_ text: String, name: String? = "x.geojson",
               file: StaticString = #filePath, line: UInt = #line) -> GeoJSONError? {
    byteError(Array(text.utf8), name: name, file: file, line: line)
}

func byteError(_ bytes: [UInt8], name: String? = "x.geojson",
               file testFile: StaticString = #filePath, line: UInt = #line) -> GeoJSONError? {
    do {
        let fc = try GeoJSONDecoder.decode(bytes, file: name)
        XCTFail("decoded without error: \(fc.features.count) features", file: testFile, line: line)
        return nil
    } catch let e as GeoJSONError {
        XCTAssertEqual(e.kind, .invalidInput, file: testFile, line: line)
        return e
    } catch {
        XCTFail("not a GeoJSONError: \(error)", file: testFile, line: line)
        return nil
    }
}

/// The error the tree decoder gives for `text` parsed as JSON.
func treeError(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> GeoJSONError? {
    do {
        let json = try JSONParser.parse(text)
        _ = try GeoJSONDecoder.decode(json, path: "sources.s.data")
        XCTFail("decoded without error", file: file, line: line)
        return nil
    } catch let e as GeoJSONError {
        return e
    } catch {
        XCTFail("not a GeoJSONError: \(error)", file: file, line: line)
        return nil
    }
}

final class GeoJSONErrorTests: XCTestCase {
    /// Asserts line, column, path and message start of the byte decoder's error, and the same path
    /// and message from the tree decoder when the text is valid JSON.
    func check(_ text: String, line: Int, column: Int, path: String, message: String,
               sameInTree: Bool = true, file: StaticString = #filePath, testLine: UInt = #line) {
        guard let e = byteError(text, file: file, line: testLine) else { return }
        XCTAssertEqual(e.line, line, "line of \(e)", file: file, line: testLine)
        XCTAssertEqual(e.column, column, "column of \(e)", file: file, line: testLine)
        XCTAssertEqual(e.path, path, "path of \(e)", file: file, line: testLine)
        XCTAssertEqual(e.message, message, "message of \(e)", file: file, line: testLine)
        XCTAssertEqual(e.file, "x.geojson", file: file, line: testLine)
        if sameInTree, let t = treeError(text, file: file, line: testLine) {
            XCTAssertNil(t.line, file: file, line: testLine)
            XCTAssertEqual(t.path, path.isEmpty ? "sources.s.data" : "sources.s.data." + path, file: file, line: testLine)
            XCTAssertEqual(t.message, message, file: file, line: testLine)
        }
    }

    func testDescriptionFormat() {
        let text = """
        {"type":"FeatureCollection","features":[
          {"type":"Feature","geometry":null},
          {"type":"Feature","geometry":null},
          {"type":"Feature","geometry":null},
          {"type":"Feature","properties":{},
           "geometry":{"type":"LineString","coordinates":["a"]}}
        ]}
        """
        let e = byteError(text, name: "data/x.geojson")
        XCTAssertEqual(e?.description,
                       "data/x.geojson:6:51: features[3].geometry.coordinates[0]: expected a position [lon, lat], found a string")
        XCTAssertEqual(treeError(text)?.description,
                       "sources.s.data.features[3].geometry.coordinates[0]: expected a position [lon, lat], found a string")
        XCTAssertEqual(byteError("[]", name: nil)?.description,
                       "1:1: expected a GeoJSON object (FeatureCollection, Feature or geometry), found an array")
    }

    func testMalformedJSONHasLineAndColumn() {
        check("{\"type\":\"Point\",\n\"coordinates\":[1,2]\n\"x\":1}", line: 3, column: 1, path: "",
              message: "expected ',' or '}' in object, found '\"'", sameInTree: false)
        check("{\"type\":\"Point\",\"coordinates\":[1,\n  2,,3]}", line: 2, column: 5, path: "coordinates[2]",
              message: "expected a number, found ','", sameInTree: false)
        check("{\"type\":\"Point\",\"coordinates\":[1,2 3]}", line: 1, column: 36, path: "coordinates",
              message: "expected ',' or ']' in array, found '3'", sameInTree: false)
        check("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":null,\n\"properties\":{\"a\":tru}}]}",
              line: 2, column: 19, path: "features[0].properties", message: "expected a JSON value, found 't'", sameInTree: false)
        check("{\"type\":\"Point\",\"coordinates\":[01,2]}", line: 1, column: 33, path: "coordinates[0]",
              message: "leading zeros are not allowed in numbers, found '1'", sameInTree: false)
        check("{\"type\":\"Point\",\"coordinates\":[1.,2]}", line: 1, column: 34, path: "coordinates[0]",
              message: "expected a digit after '.', found ','", sameInTree: false)
        check("{\"type\":\"Point\",\"coordinates\":[1,2]} x", line: 1, column: 38, path: "",
              message: "expected end of input after the JSON value, found 'x'", sameInTree: false)
        check("{\"type\":\"Po\nint\",\"coordinates\":[1,2]}", line: 1, column: 12, path: "type",
              message: "unescaped control character in string, found byte 0xa", sameInTree: false)
        check("{\"type\":\"Point\",\"bbox\":[1,2,],\"coordinates\":[1,2]}", line: 1, column: 29, path: "bbox",
              message: "expected a JSON value, found ']'", sameInTree: false)
        check("{\"type\":\"Point\",\"coordinates\":[1,2],\"k\":\"\\q\"}", line: 1, column: 43, path: "k",
              message: "invalid escape sequence, found 'q'", sameInTree: false)
    }

    func testWrongStructureHasPathAndLineColumn() {
        check("[1,2]", line: 1, column: 1, path: "",
              message: "expected a GeoJSON object (FeatureCollection, Feature or geometry), found an array")
        check(#"{"coordinates":[1,2]}"#, line: 1, column: 1, path: "", message: "missing the 'type' member of this GeoJSON object")
        check(#"{"type":"Pointe","coordinates":[1,2]}"#, line: 1, column: 9, path: "type",
              message: "unknown type 'Pointe'; " + GeoJSONType.unknownTypeHint)
        check(#"{"type":"point","coordinates":[1,2]}"#, line: 1, column: 9, path: "type",
              message: "unknown type 'point'; " + GeoJSONType.unknownTypeHint)
        check(#"{"type":7}"#, line: 1, column: 9, path: "type", message: "expected a string for 'type', found a number")
        check(#"{"type":"Point"}"#, line: 1, column: 1, path: "", message: "a Point needs a 'coordinates' member")
        check(#"{"type":"MultiPolygon","bbox":[]}"#, line: 1, column: 1, path: "",
              message: "a MultiPolygon needs a 'coordinates' member")
        check(#"{"type":"Feature","properties":{}}"#, line: 1, column: 1, path: "",
              message: "a Feature needs a 'geometry' member (null when it has none)")
        check(#"{"type":"FeatureCollection"}"#, line: 1, column: 1, path: "", message: "a FeatureCollection needs a 'features' member")
        check(#"{"type":"GeometryCollection"}"#, line: 1, column: 1, path: "",
              message: "a GeometryCollection needs a 'geometries' member")
        check(#"{"type":"FeatureCollection","features":{}}"#, line: 1, column: 40, path: "features",
              message: "expected an array of Features, found an object")
        check("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"geometry\":null},\n 3]}",
              line: 3, column: 2, path: "features[1]", message: "expected a Feature object, found a number")
        check("{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Point\",\"coordinates\":[1,2]}]}",
              line: 2, column: 9, path: "features[0].type", message: "expected type 'Feature', found 'Point'")
        check(#"{"type":"Feature","geometry":{"type":"Feature","geometry":null}}"#, line: 1, column: 38,
              path: "geometry.type",
              message: "expected a geometry type (Point, …, GeometryCollection), found 'Feature'")
        check(#"{"type":"Feature","geometry":[1,2]}"#, line: 1, column: 30, path: "geometry",
              message: "expected a geometry object or null, found an array")
        check(#"{"type":"Feature","geometry":null,"properties":[1]}"#, line: 1, column: 48, path: "properties",
              message: "expected an object or null for 'properties', found an array")
        check(#"{"properties":"x","geometry":null,"type":"Feature"}"#, line: 1, column: 15, path: "properties",
              message: "expected an object or null for 'properties', found a string")
        check(#"{"type":"GeometryCollection","geometries":[null]}"#, line: 1, column: 44, path: "geometries[0]",
              message: "expected a geometry object, found null")
        check(#"{"type":"GeometryCollection","geometries":{}}"#, line: 1, column: 43, path: "geometries",
              message: "expected an array of geometries, found an object")
        check(#"{"type":"Point","coordinates":"1,2"}"#, line: 1, column: 31, path: "coordinates",
              message: "expected a position [lon, lat], found a string")
        check(#"{"type":"Point","coordinates":[1]}"#, line: 1, column: 31, path: "coordinates",
              message: "expected a position with at least 2 numbers [lon, lat], found 1 number")
        check(#"{"type":"Point","coordinates":[]}"#, line: 1, column: 31, path: "coordinates",
              message: "expected a position with at least 2 numbers [lon, lat], found an empty array")
        check(#"{"type":"Point","coordinates":[1,null]}"#, line: 1, column: 34, path: "coordinates[1]",
              message: "expected a number, found null")
        check(#"{"type":"Point","coordinates":[1,2,"3"]}"#, line: 1, column: 36, path: "coordinates[2]",
              message: "expected a number, found a string")
        check(#"{"type":"LineString","coordinates":[1,2]}"#, line: 1, column: 37, path: "coordinates[0]",
              message: "expected a position [lon, lat], found a number")
        check(#"{"type":"Polygon","coordinates":[[0,0],[1,1]]}"#, line: 1, column: 35, path: "coordinates[0][0]",
              message: "expected a position [lon, lat], found a number")
        check(#"{"type":"MultiPolygon","coordinates":[[[0,0]]]}"#, line: 1, column: 41, path: "coordinates[0][0][0]",
              message: "expected a position [lon, lat], found a number")
        check(#"{"type":"MultiLineString","coordinates":{"a":1}}"#, line: 1, column: 41, path: "coordinates",
              message: "expected an array of position arrays (lines or rings), found an object")
        check(#"{"type":"Point","coordinates":[1,2],"type":"LineString"}"#, line: 1, column: 44, path: "type",
              message: "'type' is given twice with different values ('Point', then 'LineString')", sameInTree: false)
    }

    func testWrongStructureBeforeTypeIsFoundAgainOnceTypeIsKnown() {
        // Members read before `type` are decoded speculatively; a wrong guess must still give the real error.
        check(#"{"coordinates":[[1,2],[3,"x"]],"type":"LineString"}"#, line: 1, column: 26, path: "coordinates[1][1]",
              message: "expected a number, found a string")
        check(#"{"coordinates":[[1,2]],"type":"Point"}"#, line: 1, column: 17, path: "coordinates[0]",
              message: "expected a number, found an array")
        check(#"{"coordinates":[[[1,2]]],"type":"LineString"}"#, line: 1, column: 18, path: "coordinates[0][0]",
              message: "expected a number, found an array")
        check(#"{"features":[{"geometry":null,"type":"Feature"},{"type":"Feature"}],"type":"FeatureCollection"}"#,
              line: 1, column: 49, path: "features[1]", message: "a Feature needs a 'geometry' member (null when it has none)")
        check(#"{"geometry":{"coordinates":[1,2,true],"type":"Point"},"type":"Feature"}"#, line: 1, column: 33,
              path: "geometry.coordinates[2]", message: "expected a number, found a boolean")
        check(#"{"geometries":[{"type":"Feature"}],"type":"GeometryCollection"}"#, line: 1, column: 24,
              path: "geometries[0].type", message: "expected a geometry type (Point, …, GeometryCollection), found 'Feature'")
    }

    func testErrorsDeepInsideMembersBeforeTypeStayCheap() {
        // 40 GeometryCollections with `type` last at every level and an error at the bottom: each
        // level must not decode its members twice (that would be 2^40 work).
        var text = ""
        for _ in 0..<40 { text += #"{"geometries":["# }
        text += #"{"coordinates":[1,"x"],"type":"Point"}"#
        for _ in 0..<40 { text += #"],"type":"GeometryCollection"}"# }
        let started = Date()
        let e = byteError(text)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "decoding took too long")
        XCTAssertEqual(e?.message, "expected a number, found a string")
        XCTAssertEqual(e?.path, String(repeating: "geometries[0].", count: 40) + "coordinates[1]")
        XCTAssertEqual(e?.column, 15 * 40 + 19)
        // The same document with valid coordinates decodes.
        let valid = text.replacingOccurrences(of: #"[1,"x"]"#, with: "[1,2]")
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(valid.utf8)).vertexCount, 1)
    }

    func testTruncatedInput() {
        let full = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"a\"b"},"geometry":{"type":"Polygon","coordinates":[[[1.5,2],[3,4e1],[5,6]]]}}]}"#
        let bytes = Array(full.utf8)
        // Every proper prefix is an error that points at or before the end, never a crash.
        for n in 0..<bytes.count {
            guard let e = byteError(Array(bytes[0..<n])) else { continue }
            XCTAssertEqual(e.line, 1, "prefix \(n): \(e)")
            XCTAssertLessThanOrEqual(e.column ?? .max, n + 1, "prefix \(n): \(e)")
        }
        XCTAssertNoThrow(try GeoJSONDecoder.decode(bytes))
        XCTAssertEqual(byteError("")?.description,
                       "x.geojson:1:1: expected a GeoJSON object (FeatureCollection, Feature or geometry), found end of input")
        let cut = #"{"type":"LineString","coordinates":[[1,2],[3,"#
        XCTAssertEqual(byteError(cut)?.description, "x.geojson:1:46: coordinates[1][1]: expected a number, found end of input")
        XCTAssertEqual(byteError(#"{"type":"LineString","coordinates":[[1,2]"#)?.message,
                       "expected ',' or ']' in array, found end of input")
        XCTAssertEqual(byteError(#"{"type":"Feature","geometry":null,"properties":{"a":"abc"#)?.message,
                       "unterminated string, found end of input")
    }

    func testDeepNestingIsAnErrorNotACrash() {
        let depth = 100_000
        let arrays = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        for text in [
            #"{"type":"Feature","geometry":null,"properties":{"a":"# + arrays + "}}",
            #"{"type":"Point","coordinates":[1,2],"bbox":"# + arrays + "}",
            #"{"coordinates":"# + arrays + #","type":"Point"}"#,
        ] {
            let e = byteError(text)
            XCTAssertTrue(e?.message.hasPrefix("nesting deeper than 512 levels") == true, "\(String(describing: e))")
        }
        var collections = ""
        for _ in 0..<2000 { collections += #"{"type":"GeometryCollection","geometries":["# }
        collections += String(repeating: "]}", count: 2000)
        let e = byteError(collections)
        XCTAssertTrue(e?.message.hasPrefix("nesting deeper than 512 levels") == true, "\(String(describing: e))")
        XCTAssertEqual(e?.line, 1)

        // The limit is JSONParser's: positions exactly at depth 512 are fine, one level more is not.
        for (levels, ok) in [(254, true), (255, false)] {
            var doc = String(repeating: #"{"type":"GeometryCollection","geometries":["#, count: levels)
            doc += #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"# + String(repeating: "]}", count: levels)
            XCTAssertEqual((try? JSONParser.parse(doc)) != nil, ok, "JSONParser at \(levels) levels")
            XCTAssertEqual((try? GeoJSONDecoder.decode(Array(doc.utf8))) != nil, ok, "GeoJSONDecoder at \(levels) levels")
        }

        // Within the limit, nesting is fine.
        var ok = ""
        for _ in 0..<100 { ok += #"{"type":"GeometryCollection","geometries":["# }
        ok += #"{"type":"Point","coordinates":[1,2]}"# + String(repeating: "]}", count: 100)
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(ok.utf8)).vertexCount, 1)
    }

    func testNumbersThatOverflowAreRejected() {
        check(#"{"type":"Point","coordinates":[1e999,2]}"#, line: 1, column: 32, path: "coordinates[0]",
              message: "number 1e999 is out of range (it overflows a double to infinity)", sameInTree: false)
        check("{\"type\":\"LineString\",\"coordinates\":[[1,2],\n[3,-2e400]]}", line: 2, column: 4, path: "coordinates[1][1]",
              message: "number -2e400 is out of range (it overflows a double to infinity)", sameInTree: false)
        check(#"{"coordinates":[0,1e309],"type":"Point"}"#, line: 1, column: 19, path: "coordinates[1]",
              message: "number 1e309 is out of range (it overflows a double to infinity)", sameInTree: false)
        // Altitude is dropped, but must still be a finite number.
        check(#"{"type":"Point","coordinates":[1,2,1e999]}"#, line: 1, column: 36, path: "coordinates[2]",
              message: "number 1e999 is out of range (it overflows a double to infinity)", sameInTree: false)
        // Underflow to zero is fine (as in JavaScript).
        XCTAssertEqual(try GeoJSONDecoder.decode(Array(#"{"type":"Point","coordinates":[1e-999,2]}"#.utf8)).features.first?.geometry,
                       .point(Position(0, 2)))
        // A tree built in code with a non-finite number is rejected too.
        let tree: JSONValue = ["type": "Point", "coordinates": [.number(.infinity), 2]]
        XCTAssertThrowsError(try GeoJSONDecoder.decode(tree, path: "p")) { error in
            XCTAssertEqual((error as? GeoJSONError)?.description,
                           "p.coordinates[0]: number Infinity is out of range (it overflows a double to infinity)")
        }
    }

    func testTreeDecoderErrorsWithoutPrefix() {
        XCTAssertThrowsError(try GeoJSONDecoder.decode(.array([]), path: "")) { error in
            XCTAssertEqual((error as? GeoJSONError)?.description,
                           "expected a GeoJSON object (FeatureCollection, Feature or geometry), found an array")
        }
        XCTAssertThrowsError(try GeoJSONDecoder.decode(["type": "Feature", "geometry": 3], path: "")) { error in
            XCTAssertEqual((error as? GeoJSONError)?.description,
                           "geometry: expected a geometry object or null, found a number")
        }
    }
}
