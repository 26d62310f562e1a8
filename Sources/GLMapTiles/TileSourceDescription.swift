// Tile source description — contract
// Input: one entry of a style's `sources` (its id and JSON object) of type `vector`, `raster`,
// `raster-dem` or `image`. Output: the typed description the tile sources load from, with the
// style spec's defaults (minzoom 0, maxzoom 22, scheme xyz, tileSize 512 — vector tiles are 512
// in GL JS, and the spec's raster default is 512 too —, raster-dem encoding mapbox with factors
// 1/1/1/0 for `custom`). Checked: the type, the types of the fields glmap reads, `tiles` or `url`
// present (for `image`: `url` and four [lon, lat] `coordinates`), zooms 0…30 with minzoom ≤
// maxzoom, four numeric `bounds`, a known `scheme` and `encoding`. Errors name the JSON path
// (`sources.ID.field`) and what was expected. Unknown members are ignored, as GL JS ignores them.
import GLMapCore

/// The tiled and image source types glmap loads through `TileSource`.
public enum TileSourceType: String, Sendable {
    /// Mapbox Vector Tiles.
    case vector
    /// Raster image tiles (PNG, JPEG, WebP).
    case raster
    /// Raster elevation tiles.
    case rasterDEM = "raster-dem"
    /// One georeferenced image.
    case image
}

/// Tile row numbering.
public enum TileScheme: String, Sendable {
    /// Row 0 at the north (XYZ, "slippy map").
    case xyz
    /// Row 0 at the south (OSGeo TMS).
    case tms
}

/// How a raster-dem tile's RGB encodes elevation: metres = r·red + g·green + b·blue − baseShift.
public struct DEMEncoding: Sendable, Equatable {
    /// The encoding's name: "mapbox", "terrarium" or "custom".
    public var name: String
    /// Factor of the red channel.
    public var redFactor: Double
    /// Factor of the green channel.
    public var greenFactor: Double
    /// Factor of the blue channel.
    public var blueFactor: Double
    /// Subtracted from the weighted sum.
    public var baseShift: Double

    /// Mapbox Terrain-RGB: (r·65536 + g·256 + b)·0.1 − 10000.
    public static let mapbox = DEMEncoding(name: "mapbox", redFactor: 6553.6, greenFactor: 25.6, blueFactor: 0.1, baseShift: 10000)
    /// Mapzen Terrarium: r·256 + g + b/256 − 32768.
    public static let terrarium = DEMEncoding(name: "terrarium", redFactor: 256, greenFactor: 1, blueFactor: 1.0 / 256, baseShift: 32768)

    /// An encoding with the given factors.
    public init(name: String, redFactor: Double, greenFactor: Double, blueFactor: Double, baseShift: Double) {
        self.name = name; self.redFactor = redFactor; self.greenFactor = greenFactor; self.blueFactor = blueFactor; self.baseShift = baseShift
    }

    /// Elevation in metres of one pixel (GL JS's DEMData.unpack, in doubles).
    @inline(__always)
    public func unpack(r: UInt8, g: UInt8, b: UInt8) -> Double {
        Double(r) * redFactor + Double(g) * greenFactor + Double(b) * blueFactor - baseShift
    }
}

/// A style source the style spec describes as invalid for glmap to load.
public struct TileSourceError: GLMapError, Equatable {
    /// Where: the JSON path (`sources.ID.field`) or the source id with the URL or file.
    public var path: String
    /// What is wrong and what was expected.
    public var message: String
    /// Always `.invalidInput`.
    public var kind: FailureKind { .invalidInput }
    /// `path: message`.
    public var description: String { "\(path): \(message)" }
    /// An error at `path`.
    public init(path: String, message: String) { self.path = path; self.message = message }
}

/// A vector, raster, raster-dem or image source as the style describes it (see the contract).
public struct TileSourceDescription: Sendable {
    /// The source's id in the style.
    public var id: String
    /// The source type.
    public var type: TileSourceType
    /// `url`: a TileJSON URL, `mbtiles://PATH`, `pmtiles://PATH` (the image's URL for `image`).
    public var url: String?
    /// `tiles`: URL templates with {z} {x} {y} {quadkey} {bbox-epsg-3857} {prefix} {ratio}, or one
    /// `mbtiles://`/`pmtiles://` archive.
    public var tiles: [String]?
    /// Row numbering of the templates.
    public var scheme: TileScheme
    /// Lowest zoom with tiles (nil: 0, or the TileJSON's).
    public var minzoom: Double?
    /// Deepest zoom with tiles; deeper views over-scale it (nil: 22, or the TileJSON's).
    public var maxzoom: Double?
    /// West, south, east, north: tiles outside are never requested (nil: the whole world).
    public var bounds: [Double]?
    /// Tile side in CSS pixels (nil: 512, or the TileJSON's).
    public var tileSize: Double?
    /// The attribution text.
    public var attribution: String?
    /// Vector: the property promoted to feature id.
    public var promoteId: PromoteID?
    /// Vector: "mvt" (default) or "mlt".
    public var vectorEncoding: String
    /// Raster-dem: the elevation encoding.
    public var demEncoding: DEMEncoding
    /// Image: the four corners [lon, lat] (top left, top right, bottom right, bottom left).
    public var coordinates: [[Double]]?
    /// Whether the style set `scheme`, `minzoom`, … itself (they then override the TileJSON's).
    public var explicitKeys: Set<String>

    /// Parses the style's source `id` (see the contract); throws `TileSourceError`.
    public init(id: String, json: JSONObject) throws(TileSourceError) {
        let at = "sources.\(id)"
        func fail(_ key: String, _ message: String) -> TileSourceError { TileSourceError(path: "\(at).\(key)", message: message) }
        self.id = id
        explicitKeys = Set(json.keys)
        guard let t = json["type"]?.stringValue else { throw fail("type", "expected a string") }
        guard let type = TileSourceType(rawValue: t) else {
            throw fail("type", "\"\(t)\" is not a tiled or image source type (vector, raster, raster-dem, image)")
        }
        self.type = type
        func string(_ key: String) throws(TileSourceError) -> String? {
            guard let v = json[key] else { return nil }
            guard let s = v.stringValue else { throw fail(key, "expected a string, found \(v.kindName)") }
            return s
        }
        func number(_ key: String, _ range: ClosedRange<Double>? = nil) throws(TileSourceError) -> Double? {
            guard let v = json[key] else { return nil }
            guard let n = v.numberValue, n.isFinite else { throw fail(key, "expected a number, found \(v.kindName)") }
            if let range, !range.contains(n) { throw fail(key, "\(JSONValue.formatNumber(n)) is outside \(JSONValue.formatNumber(range.lowerBound))…\(JSONValue.formatNumber(range.upperBound))") }
            return n
        }
        url = try string("url")
        if let v = json["tiles"] {
            guard let a = v.arrayValue, a.allSatisfy({ $0.stringValue != nil }) else { throw fail("tiles", "expected an array of URL strings") }
            guard !a.isEmpty else { throw fail("tiles", "expected at least one URL template, found an empty array") }
            tiles = a.map { $0.stringValue! }
        }
        switch try string("scheme") ?? "xyz" {
        case "xyz": scheme = .xyz
        case "tms": scheme = .tms
        case let s: throw fail("scheme", "\"\(s)\" is not xyz or tms")
        }
        minzoom = try number("minzoom", 0...Double(CanonicalTileID.maxZoom))
        maxzoom = try number("maxzoom", 0...Double(CanonicalTileID.maxZoom))
        if let lo = minzoom, let hi = maxzoom, lo > hi { throw fail("minzoom", "minzoom \(JSONValue.formatNumber(lo)) is greater than maxzoom \(JSONValue.formatNumber(hi))") }
        if let v = json["bounds"] {
            guard let a = v.arrayValue, a.count == 4, a.allSatisfy({ $0.numberValue?.isFinite == true }) else {
                throw fail("bounds", "expected four numbers [west, south, east, north]")
            }
            bounds = a.map { $0.numberValue! }
        }
        tileSize = try number("tileSize", 1...8192)
        attribution = try string("attribution")
        if let p = json["promoteId"] {
            guard let id = PromoteID(json: p) else { throw fail("promoteId", "expected a property name or an object of source-layer → property name") }
            promoteId = id
        }
        vectorEncoding = "mvt"
        demEncoding = .mapbox
        switch type {
        case .vector:
            if let e = try string("encoding") {
                guard e == "mvt" || e == "mlt" else { throw fail("encoding", "\"\(e)\" is not mvt or mlt") }
                vectorEncoding = e
            }
        case .rasterDEM:
            switch try string("encoding") ?? "mapbox" {
            case "mapbox": demEncoding = .mapbox
            case "terrarium": demEncoding = .terrarium
            case "custom":
                demEncoding = DEMEncoding(name: "custom", redFactor: try number("redFactor") ?? 1, greenFactor: try number("greenFactor") ?? 1,
                                          blueFactor: try number("blueFactor") ?? 1, baseShift: try number("baseShift") ?? 0)
            case let e: throw fail("encoding", "\"\(e)\" is not mapbox, terrarium or custom")
            }
        case .raster, .image:
            break
        }
        if type == .image {
            guard url != nil else { throw fail("url", "an image source needs the image's url") }
            guard let c = json["coordinates"]?.arrayValue, c.count == 4,
                  c.allSatisfy({ ($0.arrayValue?.count == 2) && $0.arrayValue!.allSatisfy { $0.numberValue?.isFinite == true } }) else {
                throw fail("coordinates", "expected four [longitude, latitude] corners")
            }
            coordinates = c.map { $0.arrayValue!.map { $0.numberValue! } }
        } else if url == nil && tiles == nil {
            throw TileSourceError(path: at, message: "a \(type.rawValue) source needs \"tiles\" (URL templates) or \"url\" (TileJSON, mbtiles://, pmtiles://)")
        }
    }
}
