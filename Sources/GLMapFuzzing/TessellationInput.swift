/// Polygons and line settings read from the tessellation fuzz target's text input.
///
/// Format (UTF-8 text; any byte that is not part of a number separates numbers):
/// - an optional first line starting with `!`: miterLimit, roundLimit, pixelsPerUnit, closed (≠ 0);
/// - then one ring per line as x y x y … (an odd trailing number is dropped; `nan`, `inf`,
///   `1e999`, hex floats all parse; a line without numbers is an empty ring); the first ring of
///   a polygon is its outer ring, the next ones are holes; a blank line starts a new polygon.
struct TessellationInput {
    /// A polygon: flat coordinates and the vertex index where each hole starts (earcut's form).
    struct Polygon {
        var coords: [Double] = []
        var holeIndices: [Int] = []

        /// Vertex ranges of the rings, outer first.
        var ringRanges: [Range<Int>] {
            let starts = [0] + holeIndices + [coords.count / 2]
            return (0..<(starts.count - 1)).map { starts[$0]..<starts[$0 + 1] }
        }
    }

    var polygons: [Polygon] = []
    var miterLimit = 2.0
    var roundLimit = 1.05
    var pixelsPerUnit: Double?
    /// Whether rings are tessellated as closed lines (joins at the start) or open ones (caps).
    var closed = false

    init(_ bytes: [UInt8]) {
        var current = Polygon()
        var first = true
        var rings = 0
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { first = false }
            if first, line.first == UInt8(ascii: "!") {
                let n = Self.numbers(line.dropFirst())
                if n.count > 0 { miterLimit = n[0] }
                if n.count > 1 { roundLimit = n[1] }
                if n.count > 2 { pixelsPerUnit = n[2] }
                if n.count > 3 { closed = n[3] != 0 }
                continue
            }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\r") }) {
                if rings > 0 { polygons.append(current) }
                current = Polygon()
                rings = 0
                continue
            }
            var n = Self.numbers(line)
            if n.count % 2 == 1 { n.removeLast() }
            if rings > 0 { current.holeIndices.append(current.coords.count / 2) }
            current.coords += n
            rings += 1
        }
        if rings > 0 { polygons.append(current) }
    }

    /// The numbers in one line: maximal runs of number characters that parse as a Double.
    static func numbers(_ line: ArraySlice<UInt8>) -> [Double] {
        var out: [Double] = []
        var token: [UInt8] = []
        func flush() {
            if !token.isEmpty, token.count <= 64, let d = Double(String(decoding: token, as: UTF8.self)) { out.append(d) }
            token.removeAll(keepingCapacity: true)
        }
        for b in line {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"):
                token.append(b)
            default:
                flush()
            }
        }
        flush()
        return out
    }
}
