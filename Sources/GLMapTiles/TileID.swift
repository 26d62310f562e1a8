// Tile stage — contract
// Sources produce tiles; everything after (evaluation, buckets, symbol layout, both renderers)
// reads tiles. A tile is addressed as MapLibre addresses it:
// - `CanonicalTileID` z/x/y: the data's own address (what a URL template or an archive names);
// - `OverscaledTileID`: the canonical tile shown at `overscaledZ` ≥ z (past the source's maxzoom
//   a tile is over-scaled: the same data laid out again at the deeper zoom) in world copy `wrap`
//   (…, −1, 0, 1, …: the copy left or right of the primary world).
// Geometry inside a tile is in tile units: `TileExtent.extent` (8192) units a side, y down, the
// tile's north-west corner at 0, 0; a source's buffer reaches past the edges (GeoJSON: 128 of 512
// px = 2048 units; vector tiles: whatever the tile holds, clamped to Int16 as MapLibre loads it).
// Invariants: 0 ≤ x, y < 2^z; 0 ≤ z ≤ `CanonicalTileID.maxZoom`; overscaledZ ≥ z.
import Foundation
import GLMapCore

/// Tile coordinates: the units a tile side holds (MapLibre's `EXTENT`).
public enum TileExtent {
    /// Units per tile side (8192): every tile's geometry is scaled to it when loaded.
    public static let extent = 8192
}

/// A tile's own address: zoom, column and row (XYZ scheme, row 0 at the north edge).
public struct CanonicalTileID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Deepest zoom a tile may have (tile columns still fit an Int32 at 2^30).
    public static let maxZoom = 30
    /// Zoom level, 0…`maxZoom`.
    public let z: Int
    /// Column, 0 ..< 2^z, west to east.
    public let x: Int
    /// Row, 0 ..< 2^z, north to south.
    public let y: Int

    /// A tile address; nil when z is outside 0…`maxZoom` or x, y outside 0 ..< 2^z.
    public init?(z: Int, x: Int, y: Int) {
        guard z >= 0, z <= CanonicalTileID.maxZoom else { return nil }
        let n = 1 << z
        guard x >= 0, x < n, y >= 0, y < n else { return nil }
        self.z = z
        self.x = x
        self.y = y
    }

    /// A tile address the caller knows to be valid (checked in debug builds).
    public init(_ z: Int, _ x: Int, _ y: Int) {
        assert(z >= 0 && z <= CanonicalTileID.maxZoom && x >= 0 && x < 1 << z && y >= 0 && y < 1 << z, "invalid tile \(z)/\(x)/\(y)")
        self.z = z
        self.x = x
        self.y = y
    }

    /// "z/x/y", as messages and URLs write it.
    public var description: String { "\(z)/\(x)/\(y)" }

    /// Tiles per side at this zoom (2^z).
    public var tilesPerSide: Int { 1 << z }

    /// The tile covering this one at the shallower zoom `z` (itself when `z` ≥ its own zoom).
    public func ancestor(atZoom z: Int) -> CanonicalTileID {
        guard z < self.z else { return self }
        let d = self.z - max(0, z)
        return CanonicalTileID(self.z - d, x >> d, y >> d)
    }

    /// The parent tile (nil at zoom 0).
    public var parent: CanonicalTileID? { z == 0 ? nil : ancestor(atZoom: z - 1) }

    /// The four tiles one zoom deeper, in row-major order (nil past `maxZoom`).
    public var children: [CanonicalTileID]? {
        guard z < CanonicalTileID.maxZoom else { return nil }
        return [(0, 0), (1, 0), (0, 1), (1, 1)].map { CanonicalTileID(z + 1, 2 * x + $0.0, 2 * y + $0.1) }
    }

    /// Whether `other` is this tile or lies inside it.
    public func contains(_ other: CanonicalTileID) -> Bool {
        other.z >= z && other.ancestor(atZoom: z) == self
    }

    /// The tile's north-west corner and side in unit-world coordinates (0…1, y down).
    public var unitBounds: (x: Double, y: Double, side: Double) {
        let side = 1 / Double(tilesPerSide)
        return (Double(x) * side, Double(y) * side, side)
    }

    /// Converts a point in tile units to unit-world coordinates (x, y in 0…1 on the primary world).
    @inline(__always)
    public func unitWorld(x px: Double, y py: Double) -> (x: Double, y: Double) {
        let scale = 1 / (Double(TileExtent.extent) * Double(tilesPerSide))
        return ((Double(x) * Double(TileExtent.extent) + px) * scale, (Double(y) * Double(TileExtent.extent) + py) * scale)
    }

    /// Converts a point in tile units to longitude/latitude degrees.
    public func lonLat(x px: Double, y py: Double) -> (lon: Double, lat: Double) {
        let u = unitWorld(x: px, y: py)
        return WebMercator.unproject(x: u.x, y: u.y)
    }

    /// The row in the TMS scheme (row 0 at the south edge), as MBTiles stores it.
    public var tmsY: Int { tilesPerSide - 1 - y }

    /// The Bing Maps quadkey (`{quadkey}` in URL templates); "" at zoom 0.
    public var quadkey: String {
        var s = ""
        for i in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (i - 1)
            var digit = 0
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            s.append(Character(String(digit)))
        }
        return s
    }

    /// The tile's box in EPSG:3857 metres: minX, minY, maxX, maxY (`{bbox-epsg-3857}`).
    public var bboxEPSG3857: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let half = 20037508.342789244
        let b = unitBounds
        let minX = -half + b.x * 2 * half, maxX = -half + (b.x + b.side) * 2 * half
        let maxY = half - b.y * 2 * half, minY = half - (b.y + b.side) * 2 * half
        return (minX, minY, maxX, maxY)
    }

    /// Orders by zoom, then row, then column (row-major within a zoom).
    public static func < (a: CanonicalTileID, b: CanonicalTileID) -> Bool {
        (a.z, a.y, a.x) < (b.z, b.y, b.x)
    }
}

/// A tile as drawn: canonical data shown at `overscaledZ` in world copy `wrap`.
public struct OverscaledTileID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The zoom the tile is laid out and drawn at (≥ `canonical.z`; larger when over-scaled).
    public let overscaledZ: Int
    /// The world copy: 0 the primary world, −1 the one to its west, 1 to its east, ….
    public let wrap: Int
    /// The data's address.
    public let canonical: CanonicalTileID

    /// A tile shown at `overscaledZ` (clamped up to the canonical zoom) in world copy `wrap`.
    public init(overscaledZ: Int, wrap: Int, canonical: CanonicalTileID) {
        self.overscaledZ = max(overscaledZ, canonical.z)
        self.wrap = wrap
        self.canonical = canonical
    }

    /// A tile that is not over-scaled.
    public init(_ canonical: CanonicalTileID, wrap: Int = 0) {
        self.init(overscaledZ: canonical.z, wrap: wrap, canonical: canonical)
    }

    /// How many times the data is magnified: 2^(overscaledZ − z).
    public var overscaleFactor: Double { exp2(Double(overscaledZ - canonical.z)) }

    /// The column counted across world copies: x + wrap · 2^z.
    public var unwrappedX: Int { canonical.x + wrap * canonical.tilesPerSide }

    /// The same tile in the primary world (wrap 0).
    public var unwrapped: OverscaledTileID { OverscaledTileID(overscaledZ: overscaledZ, wrap: 0, canonical: canonical) }

    /// The tile's north-west corner and side in unit-world coordinates, world copy included.
    public var unitBounds: (x: Double, y: Double, side: Double) {
        let b = canonical.unitBounds
        return (b.x + Double(wrap), b.y, b.side)
    }

    /// "z/x/y" (with "@overscaledZ" when over-scaled and "wrap w" off the primary world).
    public var description: String {
        var s = canonical.description
        if overscaledZ != canonical.z { s += " (drawn at z\(overscaledZ))" }
        if wrap != 0 { s += " wrap \(wrap)" }
        return s
    }

    /// MapLibre's order of a source's visible tiles (`compareTileId`): by overscaled zoom, then
    /// world copies farther from the primary world first (wraps 0, 1, −1, 2, −2, … ranked 0, 2, 1,
    /// 4, 3, …, larger ranks first), then rows and columns from the south-east.
    public static func < (a: OverscaledTileID, b: OverscaledTileID) -> Bool {
        func rank(_ w: Int) -> Int { abs(w * 2) - (w < 0 ? 1 : 0) }
        if a.overscaledZ != b.overscaledZ { return a.overscaledZ < b.overscaledZ }
        if rank(a.wrap) != rank(b.wrap) { return rank(a.wrap) > rank(b.wrap) }
        if a.canonical.y != b.canonical.y { return a.canonical.y > b.canonical.y }
        if a.canonical.x != b.canonical.x { return a.canonical.x > b.canonical.x }
        return a.canonical.z < b.canonical.z
    }
}
