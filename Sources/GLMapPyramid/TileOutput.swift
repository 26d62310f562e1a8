// Tile output — contract
// Where `glmap tiles` may write, decided before anything is rendered: `-` (standard output) is
// refused (a pyramid is many files); an existing path that is not a directory is refused for a
// directory pyramid; a name ending in an image extension (.png, .jpg, .jpeg, .webp) is refused as
// a directory name (it would create a folder called tiles.png); an existing FILE.mbtiles is
// refused unless `--overwrite` says to replace it (room for a future `--resume`). All refusals
// are invalid input (exit 2). During the run DIR/z/x is created when its first tile is written,
// so no per-tile state exists before rendering; failures there are I/O failures (exit 1).
import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore

/// Checks and prepares the output of a tile pyramid.
public enum TileOutput {
    /// Refuses outputs that cannot hold the pyramid (see the contract above).
    /// `archive` names the archive format ("MBTiles", "PMTiles") when `output` is one; `overwrite`
    /// allows replacing an existing archive (`--overwrite`, or `--resume`, which continues it).
    public static func check(_ output: String, archive: String?, overwrite: Bool) throws {
        if output == "-" {
            throw InputFailure("--output -: a tile pyramid is many files and cannot go to standard output; give a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles")
        }
        if output.isEmpty { throw InputFailure("--output is empty; give a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles") }
        var st = stat()
        let exists = stat(output, &st) == 0
        let isDirectory = exists && (st.st_mode & S_IFMT) == S_IFDIR
        if let archive {
            if isDirectory { throw InputFailure("--output \(output) is a directory; an \(archive) output must be a file name") }
            if exists && !overwrite {
                throw InputFailure("--output \(output) already exists; pass --overwrite to replace it (or --resume to continue an interrupted run)")
            }
            return
        }
        if exists && !isDirectory {
            throw InputFailure("--output \(output) is an existing file, not a directory; give a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles")
        }
        let ext = PathText.pathExtension(of: output).lowercased()
        if !exists && ["png", "jpg", "jpeg", "webp"].contains(ext) {
            throw InputFailure("--output \(output) names an image file, but tiles go to a directory (DIR/z/x/y.png), FILE.mbtiles or FILE.pmtiles")
        }
    }

    /// Creates `output/z/x` (each missing level; existing ones are fine). Safe to call from several threads.
    public static func makeColumn(_ output: String, _ tile: TileAddress) throws {
        for dir in [output, "\(output)/\(tile.z)", "\(output)/\(tile.z)/\(tile.x)"] {
            if mkdir(dir, 0o777) != 0 && errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw IOFailure(path: dir, message: "cannot create the tile directory: \(reason)")
            }
        }
    }
}
