// Frames file — contract
// Input: JSON Lines bytes, one object a line with any of lon, lat, zoom, bearing, pitch (numbers),
// width, height (whole numbers), ratio (number) and output (string, required); blank lines are
// skipped. Output: one `FrameSpec` a line, fields not given taken from the command line's
// `RenderOptions`. Invariants: every frame passes `RenderOptions.validate()`; outputs are unique
// and their directories exist. Errors: `FramesFileError` naming the file, the 1-based line and
// the field, thrown before anything is rendered (so a bad line never leaves half the frames).
import GLMap
import Foundation
import GLMapCore

/// One frame of a batch: the render options and the PNG file it goes to.
public struct FrameSpec: Equatable, Sendable {
    /// Size, ratio and camera of the frame.
    public var options: RenderOptions
    /// The PNG path the frame is written to.
    public var output: String
    /// The 1-based line of the frames file it came from.
    public var line: Int

    /// A frame rendered with `options` into `output`, read from 1-based `line`.
    public init(options: RenderOptions, output: String, line: Int) {
        (self.options, self.output, self.line) = (options, output, line)
    }
}

/// A frames-file problem at a line (invalid input, exit code 2).
public struct FramesFileError: GLMapError, Equatable {
    /// The frames file ("<stdin>" or a path).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// What is wrong with the line, naming the field.
    public var message: String
    /// Always `.invalidInput` (exit code 2).
    public var kind: FailureKind { .invalidInput }
    /// `file:line: message`.
    public var description: String { "\(file):\(line): \(message)" }

    /// A problem at `line` of `file`.
    public init(file: String, line: Int, message: String) {
        self.file = file; self.line = line; self.message = message
    }
}

/// Parses frames files (JSON Lines) for `glmap render --frames`.
public enum FramesFile {
    static let numberFields = ["lon", "lat", "zoom", "bearing", "pitch", "ratio"]
    static let intFields = ["width", "height"]

    /// Reads and parses a frames file; `defaults` supplies every field a line leaves out.
    public static func load(path: String, defaults: RenderOptions, checkDirectories: Bool = true) throws -> [FrameSpec] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw IOFailure(path: path, message: "cannot read the frames file (missing or unreadable)")
        }
        return try parse([UInt8](data), file: path, defaults: defaults, checkDirectories: checkDirectories)
    }

    /// Parses frames-file bytes; throws on the first bad line, naming it.
    public static func parse(_ bytes: [UInt8], file: String, defaults: RenderOptions, checkDirectories: Bool = true) throws -> [FrameSpec] {
        var frames: [FrameSpec] = []
        var seen: [String: Int] = [:]
        var checkedDirs: Set<String> = []
        var lineNumber = 0
        var start = 0
        while start <= bytes.count {
            lineNumber += 1
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
            defer { start = end + 1 }
            var slice = bytes[start..<end]
            if slice.last == UInt8(ascii: "\r") { slice = slice.dropLast() }
            if slice.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
                if end >= bytes.count { break }
                continue
            }
            func fail(_ message: String) -> FramesFileError { FramesFileError(file: file, line: lineNumber, message: message) }
            let value: JSONValue
            do {
                value = try JSONParser.parse(Array(slice))
            } catch let e as JSONSyntaxError {
                throw fail("invalid JSON at column \(e.column): \(e.message)")
            }
            guard let object = value.objectValue else { throw fail("expected a JSON object, got \(value.kindName)") }
            var o = defaults
            var output: String?
            for key in object.keys {
                let v = object[key]!
                switch key {
                case "output":
                    guard let s = v.stringValue, !s.isEmpty else { throw fail("\"output\" must be a non-empty string (a PNG path)") }
                    guard s != "-" else { throw fail("\"output\": \"-\" (standard output) is not allowed in a frames file: standard output holds one image, give each frame a file") }
                    output = s
                case _ where numberFields.contains(key):
                    guard let n = v.numberValue else { throw fail("\"\(key)\" must be a number, got \(v.kindName)") }
                    switch key {
                    case "lon": o.longitude = n
                    case "lat": o.latitude = n
                    case "zoom": o.zoom = n
                    case "bearing": o.bearing = n
                    case "pitch": o.pitch = n
                    default: o.ratio = n
                    }
                case _ where intFields.contains(key):
                    guard let n = v.numberValue, n == n.rounded(), abs(n) < 1e9 else {
                        throw fail("\"\(key)\" must be a whole number, got \(v.jsonText)")
                    }
                    if key == "width" { o.width = Int(n) } else { o.height = Int(n) }
                default:
                    throw fail("unknown field \"\(key)\" (known: lon, lat, zoom, bearing, pitch, width, height, ratio, output)")
                }
            }
            guard let out = output else { throw fail("missing \"output\" (the PNG path for this frame)") }
            do { try o.validate() } catch let e as InputFailure { throw fail(e.message) }
            if let first = seen[out] { throw fail("output \"\(out)\" is already written by line \(first)") }
            seen[out] = lineNumber
            if checkDirectories {
                let dir = PathText.directory(of: out)
                if !dir.isEmpty && !checkedDirs.contains(dir) {
                    var isDir: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                        throw fail("the directory of \"\(out)\" does not exist")
                    }
                    checkedDirs.insert(dir)
                }
            }
            frames.append(FrameSpec(options: o, output: out, line: lineNumber))
            if end >= bytes.count { break }
        }
        return frames
    }
}
