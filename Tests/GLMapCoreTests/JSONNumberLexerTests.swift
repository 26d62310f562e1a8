import Foundation
import XCTest
@testable import GLMapCore

/// The one JSON number lexer (JSONParser's trees and the GeoJSON byte decoder both read numbers
/// through it) against the standard library's correctly rounded parser, bit for bit, on many
/// values of every shape; and its errors, worded as JSONParser has always worded them.
final class JSONNumberLexerTests: XCTestCase {
    /// xorshift64*: reproducible values (a failure can be rerun).
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
    }

    /// Number texts: shortest round-trip forms of random doubles (with and without exponents),
    /// coordinates with 0…9 decimals, integer parts of 1…20 digits with fractions of 0…20 digits
    /// (across the 15/19-digit and 2^53 boundaries), exponents around ±22 and the double range's ends.
    static func texts() -> [String] {
        var rng = Generator(state: 0x9E37_79B9_7F4A_7C15)
        var texts: [String] = []
        for _ in 0..<4000 {
            let d = Double(bitPattern: rng.next() & 0x7FEF_FFFF_FFFF_FFFF) * (Bool.random(using: &rng) ? 1 : -1)
            texts.append("\(d)")
            texts.append("\(Double.random(in: -180...180, using: &rng))")
            // Positions as files write them: 0…9 decimals.
            texts.append(String(format: "%.\(Int.random(in: 0...9, using: &rng))f", Double.random(in: -180...180, using: &rng)))
        }
        // Every digit count: the digits of a random 64-bit number, repeated as needed.
        func digitRun(_ n: Int) -> String {
            var run = ""
            while run.count < n { run += String(rng.next() | 1) }
            return String(run.prefix(n))
        }
        for intDigits in 1...20 {
            for fracDigits in 0...20 {
                for sample in 0..<4 {
                    let integer = intDigits == 1 && sample % 2 == 0 ? "0" : digitRun(intDigits)
                    let t = (sample < 2 ? "-" : "") + integer + (fracDigits > 0 ? "." + digitRun(fracDigits) : "")
                    let e = Int(rng.next() % 61) - 30
                    texts += [t, t + (sample % 2 == 0 ? "e" : "E") + (e >= 0 && sample == 3 ? "+" : "") + "\(e)"]
                }
            }
        }
        texts += ["0", "-0", "0.0", "-0.0", "1e22", "1e23", "9007199254740992", "9007199254740993", "9007199254740993e-3",
                  "4.9e-324", "2.4703282292062327e-324", "2.2250738585072011e-308", "1.7976931348623157e308",
                  "1e-400", "0.000000000000000000000000000001", "123456789012345678901234567890", "1E0", "0e+5"]
        return texts
    }

    func testTreeParserReadsEveryNumberAsTheStandardLibraryDoes() throws {
        let texts = Self.texts()
        let parsed = try JSONParser.parse("[" + texts.joined(separator: ",") + "]")
        guard case .array(let values) = parsed else { return XCTFail("not an array") }
        XCTAssertEqual(values.count, texts.count)
        for (v, t) in zip(values, texts) {
            XCTAssertEqual(v.numberValue?.bitPattern, Double(t)!.bitPattern, t)
        }
    }

    func testLexerAndPlainDecimalAgreeWithTheStandardLibrary() {
        var plainRead = 0
        for t in Self.texts() {
            var bytes = Array(t.utf8)
            let length = bytes.count
            bytes += [UInt8](repeating: UInt8(ascii: " "), count: 40)   // plainDecimal reads ahead
            bytes.withUnsafeBufferPointer { buf in
                let base = buf.baseAddress!
                let read = JSONNumberLexer.read(base, from: 0, end: length, PowersOfTen.shared)
                XCTAssertEqual(read?.value.bitPattern, Double(t)!.bitPattern, t)
                XCTAssertEqual(read?.end, length, t)
                var i = 0
                if let v = JSONNumberLexer.plainDecimal(base, &i, PowersOfTen.shared) {
                    plainRead += 1
                    XCTAssertEqual(v.bitPattern, Double(t)!.bitPattern, t)
                    XCTAssertEqual(i, length, t)
                }
            }
        }
        XCTAssertGreaterThan(plainRead, 1000, "the plain-decimal path was exercised")
    }

    func testErrorsAreWordedAndPlacedAsBefore() {
        let cases: [(text: String, error: String)] = [
            ("[-]", "1:3: expected a digit in number, found ']'"),
            ("[-", "1:3: expected a digit in number, found end of input"),
            ("[012]", "1:3: leading zeros are not allowed in numbers, found '1'"),
            ("[1.]", "1:4: expected a digit after '.', found ']'"),
            ("[1.5e+]", "1:7: expected a digit in exponent, found ']'"),
            ("[1, -1e999]", "1:5: number -1e999 is out of range (it overflows a double to infinity)"),
            ("\"a\u{1}b\"", "1:3: unescaped control character in string, found byte 0x1"),
        ]
        for c in cases {
            XCTAssertThrowsError(try JSONParser.parse(c.text), c.text) { XCTAssertEqual("\($0)", c.error) }
        }
    }
}
