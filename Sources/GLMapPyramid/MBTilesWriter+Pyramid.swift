import GLMap
import GLMapBatch
import Foundation
import GLMapImageFormats
import GLMapArchives
import GLMapCore

extension MBTilesWriter {
    /// Standard metadata for a PNG pyramid (MBTiles 1.3 names).
    public static func metadata(name: String, pyramid: Pyramid, tileSize: Int, ratio: Double, format: ImageFormat.Kind = .png,
                                description: String? = nil) -> [(String, String)] {
        func f(_ v: Double) -> String { String(format: "%.6f", v) }
        let b = pyramid.bbox
        let cz = pyramid.zooms.lowerBound
        var rows: [(String, String)] = [
            ("name", name),
            ("format", format.tileFormat),
            ("type", "baselayer"),
            ("version", "1.0"),
            ("minzoom", String(pyramid.zooms.lowerBound)),
            ("maxzoom", String(pyramid.zooms.upperBound)),
            ("bounds", [b.west, b.south, b.east, b.north].map(f).joined(separator: ",")),
            ("center", [f((b.west + b.east) / 2), f((b.south + b.north) / 2), String(cz)].joined(separator: ",")),
            ("tile_size", String(tileSize)),
            ("scale", ratio == ratio.rounded() ? String(Int(ratio)) : String(ratio)),
        ]
        if let description { rows.append(("description", description)) }
        return rows
    }
}
