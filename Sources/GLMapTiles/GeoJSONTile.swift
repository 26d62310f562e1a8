import GLMapCore
import GLMapGeoJSON

/// One tile of a GeoJSON source as geojson-vt (or supercluster) returns it from `getTile`:
/// features in integer tile units (`extent` a side, y down), within the tile widened by the buffer.
public struct GeoJSONTile: Sendable {
    /// A position in integer tile units (not clamped; GL JS's options keep them within Int16).
    public struct Point: Hashable, Sendable, CustomStringConvertible {
        /// Units east of the tile's west edge.
        public var x: Int
        /// Units south of the tile's north edge.
        public var y: Int
        /// A point at `x`, `y`.
        public init(x: Int, y: Int) { self.x = x; self.y = y }
        /// "x,y".
        public var description: String { "\(x),\(y)" }
    }

    /// A tile feature as geojson-vt makes it.
    public struct Feature: Sendable {
        /// 1 point, 2 line, 3 polygon in geojson-vt's numbering.
        public var type: FeatureGeometryType
        /// Points: one array holding every point of the feature (geojson-vt's list); lines: one
        /// array per line; polygons: every ring (outer rings clockwise in tile space, holes
        /// counter-clockwise) in order.
        public var geometry: [[Point]]
        /// The id as geojson-vt keeps it (the feature's, the promoted property's or the generated
        /// index; supercluster: the cluster id); nil when null or absent.
        public var id: JSONValue?
        /// The properties (geojson-vt's `tags`), with `mapbox_clip_start`/`mapbox_clip_end` on line
        /// pieces of a `lineMetrics` source, or supercluster's cluster properties.
        public var tags: JSONObject

        /// A feature.
        public init(type: FeatureGeometryType, geometry: [[Point]], id: JSONValue?, tags: JSONObject) {
            (self.type, self.geometry, self.id, self.tags) = (type, geometry, id, tags)
        }
    }

    /// The tile's address.
    public var id: CanonicalTileID
    /// The features in geojson-vt's order (west-copy parts first where the source wraps).
    public var features: [Feature]

    /// A tile of `features`.
    public init(id: CanonicalTileID, features: [Feature]) {
        self.id = id
        self.features = features
    }

    /// The tile as GL JS's GeoJSON wrapper (`@maplibre/vt-pbf`'s `GeoJSONWrapper`, GL JS 5) hands it to
    /// buckets, in layer `VectorTileData.geoJSONLayerName`:
    /// - geometry in Int16 tile units (clamped; within range for GL JS's options); points one
    ///   array per point (as `TileFeature` documents; GL JS 5's wrapper gives a point feature's
    ///   points as one array, which only differs for fill or line layers drawing MultiPoints —
    ///   `pointsInOneArray: true` gives that shape), lines one array per line, rings in order;
    /// - id: a number id as it is, a string id through `parseInt(id, 10)` (NaN when it does not
    ///   start with digits), anything else none;
    /// - properties: the tags; `index`: the feature's position in the tile.
    public func vectorTileData(pointsInOneArray: Bool = false) -> VectorTileData {
        var out: [TileFeature] = []
        out.reserveCapacity(features.count)
        for (i, f) in features.enumerated() {
            var geometry: [[TilePoint]]
            if f.type == .point && !pointsInOneArray {
                geometry = []
                for ring in f.geometry {
                    for p in ring { geometry.append([TilePoint(clamping: p.x, p.y)]) }
                }
            } else {
                geometry = f.geometry.map { ring in ring.map { TilePoint(clamping: $0.x, $0.y) } }
            }
            out.append(TileFeature(type: f.type, geometry: geometry, id: GeoJSONTile.wrapperID(f.id),
                                   properties: f.tags, index: i))
        }
        return VectorTileData(geoJSONFeatures: out)
    }

    /// The id GL JS 5's GeoJSON wrapper gives a feature: numbers unchanged (NaN dropped), strings
    /// through JavaScript's `parseInt(s, 10)`, nothing for other values.
    public static func wrapperID(_ id: JSONValue?) -> JSONValue? {
        switch id {
        case .number(let n)?: return n.isNaN ? nil : .number(n)
        case .string(let s)?: return .number(javaScriptParseInt(s))
        default: return nil
        }
    }

    /// JavaScript's `parseInt(s, 10)`: leading white space and one sign skipped, then the longest
    /// run of decimal digits; NaN when there is none.
    public static func javaScriptParseInt(_ s: String) -> Double {
        var scalars = Substring(s).unicodeScalars[...]
        while let first = scalars.first, isJavaScriptWhiteSpace(first) { scalars = scalars.dropFirst() }
        var negative = false
        if let first = scalars.first, first == "-" || first == "+" {
            negative = first == "-"
            scalars = scalars.dropFirst()
        }
        var digits = ""
        for u in scalars {
            guard u.value >= 0x30 && u.value <= 0x39 else { break }
            digits.unicodeScalars.append(u)
        }
        guard !digits.isEmpty, let v = Double(digits) else { return .nan }
        return negative ? -v : v
    }

    /// JavaScript's StrWhiteSpaceChar: white space and line terminators.
    private static func isJavaScriptWhiteSpace(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }
}
