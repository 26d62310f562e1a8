import GLMapCore
import GLMapGeoJSON

/// A point in tile units (`TileExtent.extent` a side, y down). Int16, as MapLibre loads tile
/// geometry: a vector tile's coordinates past ±32767 are clamped when it is decoded.
public struct TilePoint: Hashable, Sendable {
    /// Tile units east of the tile's west edge.
    public var x: Int16
    /// Tile units south of the tile's north edge.
    public var y: Int16

    /// A point at `x`, `y` tile units.
    @inline(__always)
    public init(_ x: Int16, _ y: Int16) { self.x = x; self.y = y }

    /// A point from integer tile units, clamped to Int16 (MapLibre's `loadGeometry` clamp).
    @inline(__always)
    public init(clamping x: Int, _ y: Int) {
        self.x = Int16(clamping: x)
        self.y = Int16(clamping: y)
    }
}

/// One feature of a tile layer: geometry in tile units, id and properties, as MapLibre's
/// `VectorTileFeature` hands them to buckets.
public struct TileFeature: Sendable {
    /// Point, line or polygon (MVT's UNKNOWN geometries are dropped when decoded).
    public var type: FeatureGeometryType
    /// The geometry as MapLibre's `loadGeometry` returns it: points — one array per point;
    /// lines — one array per line; polygons — every ring (outer and holes, by winding) in order.
    public var geometry: [[TilePoint]]
    /// The feature id (a number or, for GeoJSON and `promoteId`, a string); nil when absent.
    public var id: JSONValue?
    /// The feature's properties (shared storage: copying a feature does not copy them).
    public var properties: JSONObject
    /// The index of the feature in its source (GeoJSON) or tile layer (vector): ties in sort
    /// keys keep this order, and the cross-tile symbol index tells copies apart by it.
    public var index: Int

    /// Creates a feature.
    public init(type: FeatureGeometryType, geometry: [[TilePoint]], id: JSONValue? = nil,
                properties: JSONObject = JSONObject(), index: Int = 0) {
        (self.type, self.geometry, self.id, self.properties, self.index) = (type, geometry, id, properties, index)
    }
}

/// One named layer of a tile (a style layer selects it with `source-layer`).
public struct TileLayer: Sendable {
    /// The layer's name.
    public var name: String
    /// Its features in tile order.
    public var features: [TileFeature]

    /// Creates a layer.
    public init(name: String, features: [TileFeature]) {
        self.name = name
        self.features = features
    }
}

/// The decoded data of one vector or GeoJSON tile: its layers by name. A GeoJSON source's tiles
/// have one layer, `VectorTileData.geoJSONLayerName`, whatever `source-layer` a style layer names.
public struct VectorTileData: Sendable {
    /// The layers by name.
    public var layers: [String: TileLayer]

    /// The name of a GeoJSON tile's only layer (MapLibre's `_geojsonTileLayer`).
    public static let geoJSONLayerName = "_geojsonTileLayer"

    /// Creates tile data from its layers.
    public init(layers: [String: TileLayer] = [:]) { self.layers = layers }

    /// A GeoJSON tile: the features in its one layer.
    public init(geoJSONFeatures features: [TileFeature]) {
        self.layers = [VectorTileData.geoJSONLayerName: TileLayer(name: VectorTileData.geoJSONLayerName, features: features)]
    }

    /// The layer a style layer reads: `sourceLayer` for vector tiles, the only layer for GeoJSON.
    public func layer(_ sourceLayer: String?) -> TileLayer? {
        if let l = layers[VectorTileData.geoJSONLayerName] { return l }
        guard let sourceLayer else { return nil }
        return layers[sourceLayer]
    }
}

/// A decoded raster or raster-dem tile: straight-alpha RGBA8 pixels, rows top to bottom.
public struct RasterTileData: Sendable {
    /// The image (any size; raster tiles are usually 256² or 512²).
    public var image: RGBAImage<StraightAlpha>

    /// Creates raster tile data from its image.
    public init(image: RGBAImage<StraightAlpha>) { self.image = image }
}

/// What loading one tile gave: data, an empty tile, or nothing.
public enum TileLoadResult<Data: Sendable>: Sendable {
    /// The tile's data.
    case loaded(Data)
    /// The source answered that the tile is empty (HTTP 204, an empty file or archive entry):
    /// nothing is drawn there and no parent stands in.
    case empty
    /// The tile does not exist (HTTP 404, absent from an archive or folder): MapLibre may draw a
    /// parent tile in its place.
    case missing
    /// The tile could not be used (corrupt, undecodable, a network failure): the message names
    /// the tile and what is wrong; nothing is drawn for it and a warning is given.
    case failed(String)
}
