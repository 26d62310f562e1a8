import Foundation
import GLMapCore
import GLMapGeoJSON
import GLMapStyle

/// A problem with a source's data: the source renders as empty (MapLibre's behaviour) and the
/// problem is reported as a warning — or, with `strict`, as an error.
public struct SourceWarning: GLMapError, Equatable {
    /// The source's id in the style.
    public var sourceID: String
    /// What is wrong with its data (file, JSON path or line:column, what was expected).
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// `source "<id>": <message>`.
    public var description: String { "source \"\(sourceID)\": \(message)" }
}

/// Loads GeoJSON sources: inline data, paths relative to the style file, `file://` and
/// `local://` references (the render-test form: `local://data/x.geojson` is looked up in the
/// style's directory and then in each parent directory). A source past one of `limits` (file
/// size checked from stat before reading; features, positions, strings, nesting while decoding)
/// is a `SourceWarning` like any other source that cannot be loaded.
public struct SourceLoader {
    /// Directory that relative paths resolve against (the style file's directory, or the cwd).
    public var baseDirectory: String
    /// The input limits sources are read under.
    public var limits: InputLimits
    /// Whether the style came from standard input (relative paths then resolve against the cwd).
    public var styleFromStandardInput: Bool

    /// A loader for a style read from `styleFile` (nil: standard input, paths resolve against the cwd).
    public init(styleFile: String?, limits: InputLimits = .default) {
        self.limits = limits
        let cwd = FileManager.default.currentDirectoryPath
        if let f = styleFile, f != "-" {
            baseDirectory = PathText.directory(of: f)
            if baseDirectory.isEmpty { baseDirectory = "." }
            styleFromStandardInput = false
        } else {
            baseDirectory = cwd
            styleFromStandardInput = true
        }
        // Absolute, so the `local://` search up the parent folders ends at "/".
        if !baseDirectory.hasPrefix("/") {
            baseDirectory = ((cwd as NSString).appendingPathComponent(baseDirectory) as NSString).standardizingPath
        }
    }

    /// Resolves a data reference to a file path (nil for unsupported schemes such as http).
    public func resolve(_ reference: String) -> String? {
        if reference.hasPrefix("file://") { return String(reference.dropFirst(7)) }
        if reference.hasPrefix("local://") {
            let rel = String(reference.dropFirst(8))
            var dir = (baseDirectory as NSString).standardizingPath
            for _ in 0..<4096 {   // bounded: every step removes one component of an absolute path
                let candidate = (dir as NSString).appendingPathComponent(rel)
                if FileManager.default.fileExists(atPath: candidate) { return candidate }
                let parent = PathText.directory(of: dir)
                if parent == dir || parent.isEmpty { break }
                dir = parent
            }
            return (baseDirectory as NSString).appendingPathComponent(rel)
        }
        if let r = reference.range(of: "://"), reference[..<r.lowerBound].allSatisfy({ $0.isLetter }) { return nil }
        if reference.hasPrefix("/") { return reference }
        return (baseDirectory as NSString).appendingPathComponent(reference)
    }

    /// Loads one source. Throws `SourceWarning` when the data cannot be used.
    public func load(_ source: GLMapStyle.Source) throws -> GLMapGeoJSON.FeatureCollection {
        switch source.data {
        case .inline(let json):
            do {
                return try GeoJSONDecoder.decode(json, path: "sources.\(source.id).data", limits: limits)
            } catch {
                throw SourceWarning(sourceID: source.id, message: "invalid GeoJSON: \(error)")
            }
        case .unusable(let message):
            throw SourceWarning(sourceID: source.id, message: message)
        case .reference(let ref):
            guard let path = resolve(ref) else {
                throw SourceWarning(sourceID: source.id, message: "cannot load \"\(ref)\": only local files are supported (no network access)")
            }
            if let size = InputLimits.fileSize(atPath: path), size > limits.maxGeoJSONFileBytes {
                let message = InputLimits.fileSizeMessage(size: size, limit: limits.maxGeoJSONFileBytes, name: "maxGeoJSONFileBytes")
                throw SourceWarning(sourceID: source.id, message: "\(path): \(message)")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                let relative = !ref.hasPrefix("/") && !ref.hasPrefix("file://")
                let hint = styleFromStandardInput && relative
                    ? " (the style came from standard input, so \"\(ref)\" resolves against the current folder \(baseDirectory))" : ""
                throw SourceWarning(sourceID: source.id, message: "cannot read \(path): file missing or unreadable\(hint)")
            }
            do {
                return try GeoJSONDecoder.decode([UInt8](data), file: path, limits: limits)
            } catch {
                throw SourceWarning(sourceID: source.id, message: "invalid GeoJSON: \(error)")
            }
        }
    }
}
