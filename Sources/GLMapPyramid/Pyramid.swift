import GLMap
import GLMapBatch
import Foundation
import GLMapArchives
import GLMapCore

/// The tiles of a zoom range inside a bounding box. They are drawn and sharded a metatile at a
/// time (`metatiles(size:)`, in Pyramid+Metatiles.swift): shard `i` of `n` is every metatile whose
/// position is ≡ i (mod n), so the shards are disjoint, their union is the pyramid, and each gets a
/// fair mix of cheap low-zoom and dense high-zoom tiles.
public struct Pyramid: Equatable, Sendable {
    /// A longitude/latitude box in degrees; west > east crosses the antimeridian.
    public struct BBox: Equatable, Sendable {
        /// Edges in degrees: longitudes −180…180, latitudes −90…90.
        public var west, south, east, north: Double
        /// The whole Web Mercator world.
        public static let world = BBox(west: -180, south: -WebMercator.maxLatitude, east: 180, north: WebMercator.maxLatitude)

        /// A box from its edges in degrees (not validated: `parse` checks text).
        public init(west: Double, south: Double, east: Double, north: Double) {
            self.west = west; self.south = south; self.east = east; self.north = north
        }

        /// Parses "W,S,E,N" (degrees).
        public static func parse(_ text: String) throws -> BBox {
            let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard parts.count == 4, let w = parts[0], let s = parts[1], let e = parts[2], let n = parts[3],
                  [w, s, e, n].allSatisfy({ $0.isFinite }) else {
                throw InputFailure("--bbox expects W,S,E,N in degrees (e.g. -10,35,30,60), got \"\(text)\"")
            }
            guard w >= -180, e <= 180, w >= -180, e >= -180, w <= 180, w != e else {
                throw InputFailure("--bbox: need -180 ≤ west, east ≤ 180 and west ≠ east (west > east crosses the antimeridian), got west \(w), east \(e)")
            }
            guard s >= -90, n <= 90, s < n else { throw InputFailure("--bbox: need -90 ≤ south < north ≤ 90, got south \(s), north \(n)") }
            return BBox(west: w, south: s, east: e, north: n)
        }
    }

    /// The tile zooms, 0…`maxZoom`.
    public var zooms: ClosedRange<Int>
    /// The box the tiles cover (default the whole world).
    public var bbox: BBox

    /// The deepest tile zoom `glmap tiles` renders: the same limit as `glmap render --zoom`
    /// (`RenderOptions.maxZoom`); a 512-px tile at z is drawn at camera zoom z, a 256-px one at z − 1.
    public static let maxZoom = RenderOptions.maxZoom

    /// How many tiles `glmap tiles` renders unless `--max-tiles` raises the limit (the whole
    /// world down to zoom 9 is 349,525 tiles; zoom 10 alone is 1,048,576).
    public static let defaultTileLimit = 1_000_000

    /// The tiles of `zooms` (0…`maxZoom`, else an input error) inside `bbox`.
    public init(zooms: ClosedRange<Int>, bbox: BBox = .world) throws {
        guard zooms.lowerBound >= 0, zooms.upperBound <= Pyramid.maxZoom else {
            throw InputFailure("--zoom: tile zooms must be between 0 and \(Pyramid.maxZoom) (the deepest zoom glmap renders), got \(zooms.lowerBound)-\(zooms.upperBound)")
        }
        self.zooms = zooms
        self.bbox = bbox
    }

    /// Parses "Z" or "Z0-Z1".
    public static func parseZooms(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        if parts.count == 1, let z = parts[0] { return z...z }
        guard parts.count == 2, let a = parts[0], let b = parts[1], a <= b else {
            throw InputFailure("--zoom expects Z or Z0-Z1 with Z0 ≤ Z1 (e.g. 0-5), got \"\(text)\"")
        }
        return a...b
    }

    /// The tile columns covered at zoom `z`, west to east (across the antimeridian: from the
    /// west edge to the last column, then from column 0 to the east edge). Computed when read.
    public func columns(z: Int) -> Columns {
        guard bbox.west > bbox.east else {
            let x = range(z: z).x
            return Columns(first: x.lowerBound, firstCount: x.count, wrappedCount: 0)
        }
        let n = 1 << z
        let west = TileAddress.containing(lon: bbox.west, lat: 0, z: z).x
        let ex = WebMercator.project(lon: bbox.east, lat: 0).x * Double(n)
        let east = min(max(Int(ex.rounded(.up)) - 1, 0), n - 1)
        return Columns(first: west, firstCount: n - west, wrappedCount: min(east + 1, west))
    }

    /// A zoom's tile columns: `firstCount` columns from `first`, then `wrappedCount` from column 0.
    public struct Columns: RandomAccessCollection, Equatable, Sendable {
        let first: Int, firstCount: Int, wrappedCount: Int
        /// Always 0.
        public var startIndex: Int { 0 }
        /// The number of columns.
        public var endIndex: Int { firstCount + wrappedCount }
        /// The column number at position `i`.
        public subscript(i: Int) -> Int { i < firstCount ? first + i : i - firstCount }
    }

    /// The x and y ranges covered at zoom `z` (edges touching a tile boundary do not add a tile);
    /// x is meaningful only for a box that does not cross the antimeridian (see `columns`).
    public func range(z: Int) -> (x: ClosedRange<Int>, y: ClosedRange<Int>) {
        let nw = TileAddress.containing(lon: bbox.west, lat: bbox.north, z: z)
        // Step just inside the east/south edges so a box ending on a tile edge stops there.
        let n = Double(1 << z)
        let seProjected = WebMercator.project(lon: bbox.east, lat: max(bbox.south, -WebMercator.maxLatitude))
        let ex = max(Int((seProjected.x * n).rounded(.up)) - 1, nw.x)
        let sy = max(Int((min(seProjected.y, 1) * n).rounded(.up)) - 1, nw.y)
        return (nw.x...min(ex, (1 << z) - 1), nw.y...min(sy, (1 << z) - 1))
    }

    /// Number of tiles, computed from the ranges (nothing is allocated; at most 4^25/3 ≈ 3.8·10^14).
    public var count: Int {
        zooms.reduce(0) { total, z in total + columns(z: z).count * range(z: z).y.count }
    }

    /// Parses "I/N" (0 ≤ I < N).
    public static func parseShard(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let i = parts[0], let n = parts[1], n >= 1, (0..<n).contains(i) else {
            throw InputFailure("--shard expects I/N with 0 ≤ I < N (e.g. 0/4 … 3/4), got \"\(text)\"")
        }
        return (i, n)
    }
}
