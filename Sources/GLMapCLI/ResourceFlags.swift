import GLMap
import Foundation

/// `--http-cache DIR` and `--offline`: how `render`, `tiles` and `serve` fetch what a style names
/// over http(s) (tiles, TileJSON, glyphs, sprites); `--fonts DIR`: font files text is drawn from
/// when the style has no `glyphs` URL or a glyph range cannot be loaded.
enum ResourceFlags {
    /// The options these flags add to a command.
    static let options: [CommandLineArguments.Option] = [
        .init("http-cache", help: "folder for an on-disk HTTP cache of tiles, TileJSON, glyphs and sprites (Cache-Control and ETag honoured)"),
        .init("offline", value: false, help: "refuse every network request (http/https URLs of the style are errors; cached copies still serve)"),
        .init("fonts", help: "folder of TrueType/OpenType fonts (.ttf .otf .ttc .otc) that draw text when the style has no glyphs URL or a glyph range cannot be loaded; text-font names match a font's family and style (\"Open Sans Semibold\", \"DejaVu Sans\")"),
    ]

    /// The loader options the flags ask for (nil: the defaults).
    static func loaderOptions(_ a: CommandLineArguments) throws -> ResourceLoaderOptions? {
        let cache = a.string("http-cache"), offline = a.flag("offline"), fonts = a.string("fonts")
        guard cache != nil || offline || fonts != nil else { return nil }
        var o = ResourceLoaderOptions()
        if let fonts {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: fonts, isDirectory: &isDir) else { throw UsageError("--fonts expects a folder of font files, but \(fonts) does not exist") }
            guard isDir.boolValue else { throw UsageError("--fonts expects a folder of font files, but \(fonts) is a file") }
            o.fontsDirectory = fonts
        }
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
