import XCTest
@testable import GLMapCore

final class JSONParserTests: XCTestCase {
    func testValuesKeepBooleansApartFromNumbers() throws {
        let v = try JSONParser.parse(#"{"a": true, "b": 1, "c": null, "d": "x", "e": [1.5, -2e3, 0], "f": {}}"#)
        XCTAssertEqual(v["a"], .bool(true))
        XCTAssertEqual(v["b"], .number(1))
        XCTAssertEqual(v["c"], .null)
        XCTAssertEqual(v["d"], .string("x"))
        XCTAssertEqual(v["e"], .array([.number(1.5), .number(-2000), .number(0)]))
        XCTAssertEqual(v["f"], .object(JSONObject()))
        XCTAssertEqual(v.objectValue?.keys, ["a", "b", "c", "d", "e", "f"], "document order kept")
    }

    func testNumbersRoundTripExactly() throws {
        for text in ["0.1", "1e-7", "-77.0362", "38.9349", "123456789012345678901234567890", "2.2250738585072014e-308",
                     "0.30000000000000004", "1.7976931348623157e308", "5e-324", "24.94433311", "9007199254740993"] {
            let v = try JSONParser.parse(text)
            XCTAssertEqual(v, .number(Double(text)!), text)
        }
    }

    func testStringsAndEscapes() throws {
        XCTAssertEqual(try JSONParser.parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#), .string("a\"b\\c/d\né😀"))
        XCTAssertEqual(try JSONParser.parse("\"Zürich\""), .string("Zürich"))
    }

    func testErrorsCarryLineAndColumn() {
        func location(_ text: String) -> String? {
            do { _ = try JSONParser.parse(text); return nil } catch let e as JSONSyntaxError { return "\(e.line):\(e.column)" } catch { return "other" }
        }
        XCTAssertEqual(location("{\n  \"a\": [1, 2,, 3]\n}"), "2:14")
        XCTAssertEqual(location("[1, 2"), "1:6")
        XCTAssertEqual(location("{\"a\" 1}"), "1:6")
        XCTAssertEqual(location("[01]"), "1:3")
        XCTAssertEqual(location("[1e999]"), "1:2")
        XCTAssertEqual(location("\"abc"), "1:5")
        XCTAssertEqual(location("[tru]"), "1:2")
        XCTAssertEqual(location("[1] x"), "1:5")
        XCTAssertEqual(location(""), "1:1")
        XCTAssertEqual(location("[NaN]"), "1:2")
    }

    func testDepthLimitIsAnErrorNotACrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        XCTAssertThrowsError(try JSONParser.parse(deep)) { e in
            XCTAssertTrue("\(e)".contains("nesting deeper than 512"), "\(e)")
        }
        XCTAssertNoThrow(try JSONParser.parse(String(repeating: "[", count: 500) + String(repeating: "]", count: 500)))
    }

    func testJavaScriptNumberFormatting() {
        XCTAssertEqual(JSONValue.formatNumber(1), "1")
        XCTAssertEqual(JSONValue.formatNumber(-0.5), "-0.5")
        XCTAssertEqual(JSONValue.formatNumber(1e21), "1e+21")
        XCTAssertEqual(JSONValue.formatNumber(1e20), "100000000000000000000")
        XCTAssertEqual(JSONValue.formatNumber(1e-7), "1e-7")
        XCTAssertEqual(JSONValue.formatNumber(0.000001), "0.000001")
        XCTAssertEqual(JSONValue.formatNumber(123.456), "123.456")
        XCTAssertEqual(JSONValue.array([1, "a", nil, true]).jsonText, #"[1,"a",null,true]"#)
    }

    /// Objects keep their keys in a table; consecutive objects with the same keys in the same
    /// order share one (a GeoJSON file's features), and every object still reads, compares and
    /// changes as a plain JSON object.
    func testObjectsShareTheKeyTableOfTheSameKeys() throws {
        let v = try JSONParser.parse(#"[{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"b": 3, "a": 4}, {"a": 5, "b": "z"}]"#)
        guard case .array(let items) = v, items.count == 4,
              case .object(let o0) = items[0], case .object(let o1) = items[1],
              case .object(let o2) = items[2], case .object(let o3) = items[3] else { return XCTFail("\(v)") }
        XCTAssertTrue(o0.sharesKeys(with: o1))
        XCTAssertFalse(o1.sharesKeys(with: o2), "another order: another table")
        XCTAssertFalse(o2.sharesKeys(with: o3), "only the last table is reused")
        XCTAssertEqual(o1["a"], 2); XCTAssertEqual(o1["b"], "y"); XCTAssertNil(o1["c"])
        XCTAssertEqual(o2.keys, ["b", "a"])
        XCTAssertEqual(o2, JSONObject([("a", 4), ("b", 3)]), "key order does not matter to ==")
        XCTAssertNotEqual(o0, o1)
        var changed = o1
        changed["c"] = true
        changed["a"] = nil
        XCTAssertEqual(changed.keys, ["b", "c"])
        XCTAssertEqual(changed.pairs.map(\.value), ["y", true])
        XCTAssertEqual(o1.keys, ["a", "b"], "the shared table is not changed")
        XCTAssertEqual(o0["b"], "x")
        XCTAssertEqual(o1.values, ["a": 2, "b": "y"])
    }

    func testRepeatedKeysKeepTheFirstPlaceAndTheLastValue() throws {
        let small = try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3}"#)
        guard case .object(let o) = small else { return XCTFail() }
        XCTAssertEqual(o.keys, ["a", "b"]); XCTAssertEqual(o["a"], 3); XCTAssertEqual(o.count, 2)
        // Past 12 keys lookups go through a dictionary, repeats included.
        let names = (0..<20).map { "k\($0)" }
        let text = "{" + (names + ["k3", "k15"]).enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        guard case .object(let big) = try JSONParser.parse(text) else { return XCTFail() }
        XCTAssertEqual(big.keys, names)
        XCTAssertEqual(big["k3"], 20); XCTAssertEqual(big["k15"], 21); XCTAssertEqual(big["k19"], 19); XCTAssertNil(big["k20"])
        XCTAssertEqual(JSONValue.object(big).jsonText.filter { $0 == ":" }.count, 20)
    }
}
