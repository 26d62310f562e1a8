import Foundation
import GLMapCore
import GLMapStyle

/// `--source ID=FILE`: replaces a GeoJSON source's data with a file's (or standard input's, `-`),
/// or a vector or raster source's tiles with an MBTiles or PMTiles archive or a z/x/y folder.
public struct SourceOverride: Equatable, Sendable {
    /// The id of the GeoJSON source to replace.
    public var sourceID: String
    /// A file path, or "-" for standard input.
    public var file: String

    /// Replaces source `sourceID` with `file` ("-": standard input).
    public init(sourceID: String, file: String) { self.sourceID = sourceID; self.file = file }

    /// Parses "ID=FILE".
    public static func parse(_ text: String) throws -> SourceOverride {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex, text.index(after: eq) != text.endIndex else {
            throw InputFailure("--source expects ID=FILE (a GeoJSON file, or - for standard input), got \"\(text)\"")
        }
        return SourceOverride(sourceID: String(text[..<eq]), file: String(text[text.index(after: eq)...]))
    }

    /// Applies overrides to a style: each source's data becomes the file (an absolute path, so it
    /// no longer resolves against the style's folder) or standard input's GeoJSON, parsed now.
    /// Unknown IDs are an error naming the sources that exist; only one override may read stdin.
    public static func apply(_ overrides: [SourceOverride], to style: inout StyleDocument, stdin: () -> [UInt8],
                             limits: InputLimits = .default) throws {
        var seen: Set<String> = []
        if overrides.filter({ $0.file == "-" }).count > 1 {
            throw InputFailure("--source: only one source can read standard input (-)")
        }
        for o in overrides {
            if var tiled = style.tileSources[o.sourceID] {
                guard seen.insert(o.sourceID).inserted else { throw InputFailure("--source \(o.sourceID) is given twice") }
                tiled.json = try tileSourceJSON(tiled.json, file: o.file, id: o.sourceID)
                style.tileSources[o.sourceID] = tiled
                continue
            }
            guard var source = style.sources[o.sourceID] else {
                let known = (Array(style.sources.keys) + Array(style.tileSources.keys)).sorted()
                throw InputFailure("--source \(o.sourceID)=…: the style has no source \"\(o.sourceID)\" (\(known.isEmpty ? "it has no sources" : "its sources: " + known.joined(separator: ", ")))")
            }
            guard seen.insert(o.sourceID).inserted else { throw InputFailure("--source \(o.sourceID) is given twice") }
            if o.file == "-" {
                let bytes = stdin()
                do {
                    source.data = .inline(try JSONParser.parse(bytes, limits: limits))
                } catch let e as JSONSyntaxError {
                    throw InputFailure("--source \(o.sourceID)=- (standard input): invalid JSON at \(e.line):\(e.column): \(e.message)")
                }
            } else {
                let path = o.file.hasPrefix("/") ? o.file : FileManager.default.currentDirectoryPath + "/" + o.file
                var isDir: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir), !isDir.boolValue else {
                    throw IOFailure(path: o.file, message: isDir.boolValue ? "is a directory, expected a GeoJSON file (--source \(o.sourceID))" : "no such file (--source \(o.sourceID))")
                }
                source.data = .reference(path)
            }
            style.sources[o.sourceID] = source
        }
    }

    /// A tile source's object with its tiles taken from `file`: `.mbtiles` / `.pmtiles` archives
    /// (`url: mbtiles://…`), or a folder of z/x/y tiles (`tiles` template with the extension its
    /// first tile has); the source's other values (tile size, zooms, encoding) stay.
    static func tileSourceJSON(_ json: JSONObject, file: String, id: String) throws -> JSONObject {
        guard file != "-" else { throw InputFailure("--source \(id)=-: a vector or raster source reads tiles, not standard input") }
        let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw IOFailure(path: file, message: "no such file or folder (--source \(id))")
        }
        var out = json
        out["url"] = nil
        out["tiles"] = nil
        if isDir.boolValue {
            guard let ext = firstTileExtension(in: path) else {
                throw InputFailure("--source \(id)=\(file): the folder holds no z/x/y tiles")
            }
            out["tiles"] = .array([.string("file://\(path)/{z}/{x}/{y}.\(ext)")])
        } else if path.hasSuffix(".mbtiles") {
            out["url"] = .string("mbtiles://\(path)")
        } else if path.hasSuffix(".pmtiles") {
            out["url"] = .string("pmtiles://\(path)")
        } else {
            throw InputFailure("--source \(id)=\(file): expected an .mbtiles or .pmtiles archive or a z/x/y folder for a vector or raster source")
        }
        return out
    }

    /// The extension of the first tile file under `folder`/z/x/ (nil when there is none).
    static func firstTileExtension(in folder: String) -> String? {
        let fm = FileManager.default
        for z in ((try? fm.contentsOfDirectory(atPath: folder)) ?? []).sorted() where Int(z) != nil {
            for x in ((try? fm.contentsOfDirectory(atPath: folder + "/" + z)) ?? []).sorted() where Int(x) != nil {
                for f in ((try? fm.contentsOfDirectory(atPath: folder + "/" + z + "/" + x)) ?? []).sorted() {
                    if let dot = f.firstIndex(of: "."), Int(f[..<dot]) != nil { return String(f[f.index(after: dot)...]) }
                }
            }
        }
        return nil
    }
}
