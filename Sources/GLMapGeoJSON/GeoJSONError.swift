import GLMapCore

/// Invalid GeoJSON: where (file, line:column for byte input, JSON path) and what was expected/found.
///
/// `description` reads like
/// `data/x.geojson:12:7: features[3].geometry.coordinates[0]: expected a position [lon, lat], found a string`.
public struct GeoJSONError: GLMapError, Equatable, Sendable {
    /// The file name given to the decoder, if any.
    public var file: String?
    /// 1-based line of the offending byte (byte input only).
    public var line: Int?
    /// 1-based column (in bytes) of the offending byte (byte input only).
    public var column: Int?
    /// JSON path of the offending value, e.g. `features[3].geometry`; empty for the document root.
    public var path: String
    /// What was expected and what was found.
    public var message: String

    /// Always `.invalidInput` (exit code 2).
    public var kind: FailureKind { .invalidInput }

    /// Creates an error; usually made by `GeoJSONDecoder`.
    public init(file: String? = nil, line: Int? = nil, column: Int? = nil, path: String, message: String) {
        (self.file, self.line, self.column, self.path, self.message) = (file, line, column, path, message)
    }

    /// `file:line:column: path: message`, leaving out the parts that are unknown.
    public var description: String {
        var location = ""
        if let file = file { location = file + ":" }
        if let line = line, let column = column { location += "\(line):\(column):" }
        var s = location.isEmpty ? "" : location + " "
        if !path.isEmpty { s += path + ": " }
        return s + message
    }
}

/// A step in a JSON path: an object member or an array index.
enum GeoJSONPathComponent: Equatable {
    case key(String)
    case index(Int)
}

/// The decoders' internal failure: a message, where it happened (a byte offset, or a line and
/// column already known from `JSONSyntaxError`), and the JSON path collected while unwinding
/// (innermost first, so each level appends its own step at no cost on the success path).
struct GeoJSONFailure: Error {
    var message: String
    /// Byte offset of the offending value; -1 when not known (tree input) or when `line` is set.
    var offset: Int
    /// 1-based line and column when known directly (JSON syntax errors); 0 otherwise.
    var line: Int = 0
    var column: Int = 0
    /// Path steps from the innermost outwards.
    var reversedPath: [GeoJSONPathComponent] = []
    /// True for errors in the JSON text itself (syntax, overflowing numbers, nesting depth), which
    /// no reading of the GeoJSON structure can avoid.
    var isSyntax = false

    init(_ message: String, at offset: Int) {
        self.message = message
        self.offset = offset
    }

    init(_ syntax: JSONSyntaxError) {
        self.message = syntax.message
        self.offset = -1
        self.line = syntax.line
        self.column = syntax.column
        self.isSyntax = true
    }

    /// The same failure one level further out.
    func inside(_ step: GeoJSONPathComponent) -> GeoJSONFailure {
        var f = self
        f.reversedPath.append(step)
        return f
    }

    /// The path text, with `prefix` (e.g. "sources.points.data") in front.
    func pathText(prefix: String) -> String {
        var s = prefix
        for step in reversedPath.reversed() {
            switch step {
            case .key(let k): s += s.isEmpty ? k : "." + k
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}

/// The messages both decoders use, so byte and tree input report the same things.
enum GeoJSONMessage {
    static let notAnObject = "expected a GeoJSON object (FeatureCollection, Feature or geometry)"
    static let missingType = "missing the 'type' member of this GeoJSON object"
    static let typeNotString = "expected a string for 'type'"
    static let position = "expected a position [lon, lat]"
    static let number = "expected a number"
    static let features = "expected an array of Features"
    static let featureObject = "expected a Feature object"
    static let geometryOrNull = "expected a geometry object or null"
    static let geometries = "expected an array of geometries"
    static let geometryObject = "expected a geometry object"
    static let properties = "expected an object or null for 'properties'"

    static func unknownType(_ name: String) -> String {
        "unknown type '\(name)'; \(GeoJSONType.unknownTypeHint)"
    }

    static func conflictingType(_ first: GeoJSONType, _ second: GeoJSONType) -> String {
        "'type' is given twice with different values ('\(first.name)', then '\(second.name)')"
    }

    static func shortPosition(_ count: Int) -> String {
        "expected a position with at least 2 numbers [lon, lat], found \(count == 0 ? "an empty array" : "1 number")"
    }

    static func overflow(_ text: String) -> String { JSONParser.overflowMessage(text) }

    static func missing(_ member: String, in type: GeoJSONType) -> String {
        let article = type == .feature ? "a" : (type.name.first.map { "AEIOU".contains($0) } == true ? "an" : "a")
        let hint = type == .feature ? " (null when it has none)" : ""
        return "\(article) \(type.name) needs a '\(member)' member\(hint)"
    }

    /// What an array of `levels` coordinate levels is called (2: positions, 3: lines or rings, 4: polygons).
    static func coordinateArray(levels: Int) -> String {
        switch levels {
        case 1: return position
        case 2: return "expected an array of positions"
        case 3: return "expected an array of position arrays (lines or rings)"
        default: return "expected an array of polygons (arrays of rings)"
        }
    }
}
