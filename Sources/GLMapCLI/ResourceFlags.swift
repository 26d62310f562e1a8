import GLMap
import Foundation

/// `--http-cache DIR` and `--offline`: how `render`, `tiles` and `serve` fetch what a style names
/// over http(s) (tiles, TileJSON, glyphs, sprites).
enum ResourceFlags {
    /// The options these flags add to a command.
    static let options: [CommandLineArguments.Option] = [
        .init("http-cache", help: "folder for an on-disk HTTP cache of tiles, TileJSON, glyphs and sprites (Cache-Control and ETag honoured)"),
        .init("offline", value: false, help: "refuse every network request (http/https URLs of the style are errors; cached copies still serve)"),
    ]

    /// The loader options the flags ask for (nil: the defaults).
    static func loaderOptions(_ a: CommandLineArguments) throws -> ResourceLoaderOptions? {
        let cache = a.string("http-cache"), offline = a.flag("offline")
        guard cache != nil || offline else { return nil }
        var o = ResourceLoaderOptions()
        if let cache {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: cache, isDirectory: &isDir), !isDir.boolValue {
                throw UsageError("--http-cache expects a folder, but \(cache) is a file")
            }
            o.cacheDirectory = cache
        }
        o.offline = offline
        return o
    }
}
