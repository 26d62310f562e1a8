import GLMapCore
import GLMapStyle
import GLMapText
import GLMapTiles

/// One layer's bucket on one tile: geometry in the tile's units (8192 a side), ready to upload.
public struct TileBucket: Sendable {
    /// The tile the bucket was built for (its canonical data shown at its overscaled zoom, in its world copy).
    public let tile: OverscaledTileID
    /// The tessellated layer over that tile.
    public let bucket: Bucket
    /// Identifies the bucket across frames (the GPU keeps an upload per key); unique per built bucket.
    public let key: UInt64

    /// A bucket of `tile` with its cache key.
    public init(tile: OverscaledTileID, bucket: Bucket, key: UInt64) {
        (self.tile, self.bucket, self.key) = (tile, bucket, key)
    }
}

/// One layer of a frame as the GPU draws it.
public enum PlannedLayer: Sendable {
    /// A background layer: its paint alone.
    case background(EvaluatedBackground)
    /// A layer drawn tile by tile: `buckets` in MapLibre's drawing order; `clipped` layers (fill,
    /// line) are cut to each tile's square with the stencil, drawn from `source`'s tile masks.
    case tiled(source: String, clipped: Bool, buckets: [TileBucket])
    /// A `raster`, `hillshade` or `color-relief` layer: its source's pictures or elevations per
    /// tile, drawn by the GL backend's raster drawers (no tessellation).
    case raster(RasterLayerDraw)
    /// A symbol layer: its placed tiles and draw order (`SymbolLayerPlan`).
    case symbol(SymbolLayerPlan)
}

/// A symbol layer as one frame draws it: each tile's bucket with its placement for the frame,
/// and the order of the draws (icons first, then text; GL JS's tile and sort-key order).
public struct SymbolLayerPlan: Sendable {
    /// The tiles drawn: bucket (tile with its world copy) and the frame's placement of it.
    public var tiles: [(bucket: TileBucket, frame: SymbolTileFrame)]
    /// Icon draws in order (tile index into `tiles`, segment).
    public var iconItems: [SymbolDrawItem]
    /// Text draws in order.
    public var textItems: [SymbolDrawItem]
    /// The collision debug overlay drawn after the layer (nil: none).
    public var debug: SymbolCollisionDebug?

    /// A plan of `tiles` drawn in the given orders, then `debug`.
    public init(tiles: [(bucket: TileBucket, frame: SymbolTileFrame)], iconItems: [SymbolDrawItem], textItems: [SymbolDrawItem],
                debug: SymbolCollisionDebug? = nil) {
        (self.tiles, self.iconItems, self.textItems, self.debug) = (tiles, iconItems, textItems, debug)
    }
}

/// What the GPU draws for one frame: the layers in order and, per source, every tile the frame
/// shows of it (the tile clipping masks are drawn from these).
public struct FramePlan: Sendable {
    /// Layers in draw order (hidden and out-of-range layers left out).
    public var layers: [PlannedLayer]
    /// The visible tiles of each source, in MapLibre's order (`OverscaledTileID.<`).
    public var sourceTiles: [String: [OverscaledTileID]]
    /// The style's light at the frame zoom (fill-extrusion shading).
    public var light = EvaluatedLight.default
    /// The far end of the depth range extrusions are drawn into (`ExtrusionDepth.rangeEnd`).
    public var extrusionDepthEnd = 1.0
    /// The images `*-pattern` values read (nil: the frame draws no pattern).
    public var patternAtlas: PatternAtlas?

    /// A plan of `layers` over the tiles of `sourceTiles`.
    public init(layers: [PlannedLayer] = [], sourceTiles: [String: [OverscaledTileID]] = [:]) {
        (self.layers, self.sourceTiles) = (layers, sourceTiles)
    }
}
