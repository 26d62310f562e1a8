// Raster layer evaluation — contract
// Input: a validated `raster`, `hillshade` or `color-relief` layer and the frame zoom.
// Output: the layer's paint at that zoom (`EvaluatedRasterPaint`, `EvaluatedHillshadePaint`,
// `EvaluatedColorReliefPaint`) with the values GL JS derives from it for its shaders (hue-rotate
// spin weights, saturation and contrast factors, padded illumination lists, the elevation colour
// ramp), and `RasterLayerDraw`: what both renderers draw for such a layer — the decoded images of
// its source's tiles (or the image source's picture and corners) in GL JS's drawing order.
// Invariants: every value read through the typed keys falls back to the spec default (MapLibre's
// rule); a colour ramp has at least two stops (GL JS's `_createColorRamp` padding: no usable
// `interpolate` → one transparent stop at 0 and one at 1).
// Limits: paint is data-constant (the spec allows only zoom for these layers); nothing here
// touches pixels — sampling and shading are each renderer's own.
import Foundation
import GLMapCore
import GLMapTiles

/// `raster` layer paint at one zoom (GL JS's `rasterUniformValues` derive from it).
public struct EvaluatedRasterPaint: Sendable, Equatable {
    /// `raster-opacity`, 0…1.
    public var opacity: Double
    /// `raster-hue-rotate` in degrees.
    public var hueRotate: Double
    /// `raster-brightness-min`, 0…1.
    public var brightnessMin: Double
    /// `raster-brightness-max`, 0…1.
    public var brightnessMax: Double
    /// `raster-saturation`, −1…1.
    public var saturation: Double
    /// `raster-contrast`, −1…1.
    public var contrast: Double
    /// `raster-resampling`: the magnification filter.
    public var resampling: RasterResampling

    /// Paint with every property at its default.
    public init(opacity: Double = 1, hueRotate: Double = 0, brightnessMin: Double = 0, brightnessMax: Double = 1,
                saturation: Double = 0, contrast: Double = 0, resampling: RasterResampling = .linear) {
        (self.opacity, self.hueRotate, self.brightnessMin) = (opacity, hueRotate, brightnessMin)
        (self.brightnessMax, self.saturation, self.contrast) = (brightnessMax, saturation, contrast)
        self.resampling = resampling
    }

    /// The hue rotation as GL JS's `u_spin_weights`: a rotation of RGB about the grey axis.
    public var spinWeights: (Double, Double, Double) {
        let a = hueRotate * Double.pi / 180, s = sin(a), c = cos(a), r3 = 3.0.squareRoot()
        return ((2 * c + 1) / 3, (-r3 * s - c + 1) / 3, (r3 * s - c + 1) / 3)
    }

    /// GL JS's `u_saturation_factor`.
    public var saturationFactor: Double {
        saturation > 0 ? 1 - 1 / (1.001 - saturation) : -saturation
    }

    /// GL JS's `u_contrast_factor`.
    public var contrastFactor: Double {
        contrast > 0 ? 1 / (1 - contrast) : 1 + contrast
    }
}

/// One light of a hillshade: direction and altitude in radians, shadow and highlight colours.
public struct HillshadeLight: Sendable, Equatable {
    /// Azimuth in radians (the style's direction, plus the bearing for a viewport anchor).
    public var azimuth: Double
    /// Altitude in radians.
    public var altitude: Double
    /// Shadow colour (premultiplied).
    public var shadow: Color
    /// Highlight colour (premultiplied).
    public var highlight: Color
}

/// `hillshade` layer paint at one zoom.
public struct EvaluatedHillshadePaint: Sendable, Equatable {
    /// `hillshade-illumination-direction` in degrees (one or more lights).
    public var directions: [Double]
    /// `hillshade-illumination-altitude` in degrees.
    public var altitudes: [Double]
    /// `hillshade-illumination-anchor`.
    public var anchor: HillshadeIlluminationAnchor
    /// `hillshade-exaggeration`, 0…1.
    public var exaggeration: Double
    /// `hillshade-shadow-color` (one or more).
    public var shadowColors: [Color]
    /// `hillshade-highlight-color` (one or more).
    public var highlightColors: [Color]
    /// `hillshade-accent-color`.
    public var accentColor: Color
    /// `hillshade-method`.
    public var method: HillshadeMethod

    /// Paint with the given values (the spec defaults: 335°, 45°, viewport, 0.5, black, white, black, standard).
    public init(directions: [Double] = [335], altitudes: [Double] = [45], anchor: HillshadeIlluminationAnchor = .viewport,
                exaggeration: Double = 0.5, shadowColors: [Color] = [.black], highlightColors: [Color] = [.white],
                accentColor: Color = .black, method: HillshadeMethod = .standard) {
        (self.directions, self.altitudes, self.anchor) = (directions, altitudes, anchor)
        (self.exaggeration, self.shadowColors, self.highlightColors) = (exaggeration, shadowColors, highlightColors)
        (self.accentColor, self.method) = (accentColor, method)
    }

    /// The lights GL JS's shader receives: the four lists padded to the longest with their last
    /// item (`getIlluminationProperties`), then as many as `hillshade-highlight-color` has items
    /// (GL JS sizes the shader's arrays by that list); directions in radians, turned by the
    /// bearing (degrees) for a `viewport` anchor.
    public func lights(bearing: Double) -> [HillshadeLight] {
        let n = max(directions.count, altitudes.count, shadowColors.count, highlightColors.count)
        guard n > 0 else { return [] }
        func at<T>(_ a: [T], _ i: Int, _ fallback: T) -> T { a.isEmpty ? fallback : a[min(i, a.count - 1)] }
        let turn = anchor == .viewport ? bearing * Double.pi / 180 : 0
        return (0..<max(1, min(n, highlightColors.count))).map { i in
            HillshadeLight(azimuth: at(directions, i, 335) * Double.pi / 180 + turn,
                           altitude: at(altitudes, i, 45) * Double.pi / 180,
                           shadow: at(shadowColors, i, .black), highlight: at(highlightColors, i, .white))
        }
    }

    /// GL JS's shader method number (`u_method`): standard 0, combined 1, igor 2,
    /// multidirectional 3, basic 4.
    public var methodCode: Int {
        switch method {
        case .standard: return 0
        case .combined: return 1
        case .igor: return 2
        case .multidirectional: return 3
        case .basic: return 4
        }
    }
}

/// `color-relief` layer paint at one zoom: opacity and the elevation → colour ramp.
public struct EvaluatedColorReliefPaint: Sendable, Equatable {
    /// `color-relief-opacity`, 0…1.
    public var opacity: Double
    /// Elevations of the ramp's stops in metres, ascending (at least two).
    public var stops: [Double]
    /// The colour at each stop (premultiplied).
    public var colors: [Color]

    /// Paint with an opacity and a ramp (`stops` ascending, as many `colors`).
    public init(opacity: Double, stops: [Double], colors: [Color]) {
        self.opacity = opacity
        self.stops = stops
        self.colors = colors
    }

    /// The ramp of `color-relief-color` as GL JS builds it (`_createColorRamp`): the stop inputs
    /// of a top-level `interpolate` on `elevation` with the colour evaluated at each; anything
    /// else (unset, `step`, zoom-dependent) is a transparent ramp; one stop is doubled 1 m above.
    public static func ramp(_ expression: StyleExpression?, globalState: JSONObject = JSONObject()) -> (stops: [Double], colors: [Color]) {
        var stops: [Double] = [], colors: [Color] = []
        if let e = expression, e.isZoomConstant, let labels = e.interpolateStops {
            for label in labels {
                var ctx = EvaluationContext(globalState: globalState)
                ctx.elevation = label
                stops.append(label)
                colors.append((try? e.evaluate(ctx))?.color ?? .transparent)
            }
        }
        if stops.isEmpty { stops = [0]; colors = [.transparent] }
        if stops.count < 2 { stops.append(stops[0] + 1); colors.append(colors[0]) }
        return (stops, colors)
    }
}

/// A decoded raster tile or image with the key its GPU upload is cached by (unique per image in
/// the process: the same key is always the same pixels).
public struct RasterTexture: Sendable {
    /// Identifies the pixels across frames.
    public let key: UInt64
    /// Straight-alpha RGBA8, rows top to bottom.
    public let image: StraightImage

    /// An image with its cache key.
    public init(key: UInt64, image: StraightImage) {
        self.key = key
        self.image = image
    }
}

/// A raster-dem tile's elevations (borders backfilled from the frame's neighbouring tiles) with
/// the key its GPU uploads are cached by.
public struct DEMTexture: Sendable {
    /// Identifies the elevations (borders included) across frames.
    public let key: UInt64
    /// The padded elevation grid.
    public let dem: DEMData

    /// DEM data with its cache key.
    public init(key: UInt64, dem: DEMData) {
        self.key = key
        self.dem = dem
    }
}

/// One tile (or the image source's picture) of a raster-like layer.
public struct RasterTileDraw: Sendable {
    /// Where it is drawn: the tile's square (its world copy included).
    public var tile: OverscaledTileID
    /// The picture of a `raster` layer's tile or image.
    public var texture: RasterTexture?
    /// The elevations of a `hillshade` or `color-relief` layer's tile.
    public var dem: DEMTexture?
    /// The image source's corners in `tile`'s units (top left, top right, bottom right, bottom
    /// left, rounded as GL JS rounds them); nil: the tile's square.
    public var corners: [(x: Double, y: Double)]?

    /// A tile's picture or elevations.
    public init(tile: OverscaledTileID, texture: RasterTexture? = nil, dem: DEMTexture? = nil, corners: [(x: Double, y: Double)]? = nil) {
        (self.tile, self.texture, self.dem, self.corners) = (tile, texture, dem, corners)
    }

    /// The four corners drawn, in tile units: `corners` or the tile's square.
    public var quad: [(x: Double, y: Double)] {
        if let corners, corners.count == 4 { return corners }
        let e = Double(TileExtent.extent)
        return [(0, 0), (e, 0), (e, e), (0, e)]
    }
}

/// What a `raster`, `hillshade` or `color-relief` layer draws in one frame: its paint and its
/// source's tiles in GL JS's drawing order (deeper zooms first), with whether overlapping tiles
/// are resolved with the stencil (tile sources) or not (the image source).
public struct RasterLayerDraw: Sendable {
    /// The layer's paint, by type.
    public enum Paint: Sendable {
        /// A `raster` layer.
        case raster(EvaluatedRasterPaint)
        /// A `hillshade` layer.
        case hillshade(EvaluatedHillshadePaint)
        /// A `color-relief` layer.
        case colorRelief(EvaluatedColorReliefPaint)
    }

    /// The style layer's id.
    public var id: String
    /// The paint.
    public var paint: Paint
    /// The tiles in drawing order (overscaled zoom descending, GL JS's `stencilConfigForOverlap`).
    public var tiles: [RasterTileDraw]
    /// Whether a tile only draws where no deeper tile of the layer drew (GL JS's overlap stencil:
    /// raster and raster-dem sources; not the image source).
    public var stencilOverlap: Bool

    /// A layer's draw.
    public init(id: String, paint: Paint, tiles: [RasterTileDraw], stencilOverlap: Bool) {
        (self.id, self.paint, self.tiles, self.stencilOverlap) = (id, paint, tiles, stencilOverlap)
    }

    /// The tiles of `tiles` sorted as GL JS's `stencilConfigForOverlap` sorts them: overscaled
    /// zoom descending, stably.
    public static func drawOrder(_ tiles: [RasterTileDraw]) -> [RasterTileDraw] {
        tiles.enumerated().sorted { a, b in
            a.element.tile.overscaledZ != b.element.tile.overscaledZ ? a.element.tile.overscaledZ > b.element.tile.overscaledZ : a.offset < b.offset
        }.map(\.element)
    }
}

extension StyleEvaluator {
    /// A `raster` layer's paint at the zoom.
    public func evaluateRaster(_ layer: Layer) -> EvaluatedRasterPaint {
        typealias P = RasterProperties
        return EvaluatedRasterPaint(opacity: value(P.rasterOpacity, layer), hueRotate: value(P.rasterHueRotate, layer),
                                    brightnessMin: value(P.rasterBrightnessMin, layer), brightnessMax: value(P.rasterBrightnessMax, layer),
                                    saturation: value(P.rasterSaturation, layer), contrast: value(P.rasterContrast, layer),
                                    resampling: value(P.rasterResampling, layer))
    }

    /// A `hillshade` layer's paint at the zoom.
    public func evaluateHillshade(_ layer: Layer) -> EvaluatedHillshadePaint {
        typealias P = HillshadeProperties
        return EvaluatedHillshadePaint(directions: value(P.hillshadeIlluminationDirection, layer), altitudes: value(P.hillshadeIlluminationAltitude, layer),
                                       anchor: value(P.hillshadeIlluminationAnchor, layer), exaggeration: value(P.hillshadeExaggeration, layer),
                                       shadowColors: value(P.hillshadeShadowColor, layer), highlightColors: value(P.hillshadeHighlightColor, layer),
                                       accentColor: value(P.hillshadeAccentColor, layer), method: value(P.hillshadeMethod, layer))
    }

    /// A `color-relief` layer's paint at the zoom.
    public func evaluateColorRelief(_ layer: Layer) -> EvaluatedColorReliefPaint {
        typealias P = ColorReliefProperties
        let ramp = EvaluatedColorReliefPaint.ramp(layer.values[P.colorReliefColor.name]?.expression, globalState: globalState)
        return EvaluatedColorReliefPaint(opacity: value(P.colorReliefOpacity, layer), stops: ramp.stops, colors: ramp.colors)
    }
}

/// A `color-relief` ramp as GL JS hands it to its shader: each stop's elevation packed into the
/// DEM's encoding (`packDEMData`: so a stop sits on the DEM's own grid of representable
/// elevations) and each colour as 8-bit straight RGBA premultiplied by its alpha byte (WebGL's
/// premultiplying upload of GL JS's ramp image). Both renderers read these bytes.
public struct ColorReliefRamp: Sendable, Equatable {
    /// Each stop's elevation as the DEM encodes it: red, green, blue bytes.
    public var packedElevations: [[UInt8]]
    /// Each stop's elevation decoded back from its bytes, in metres.
    public var elevations: [Double]
    /// Each stop's colour, premultiplied RGBA8.
    public var colors: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)]

    /// The ramp of `paint` for a DEM of `encoding`.
    public init(_ paint: EvaluatedColorReliefPaint, encoding: DEMEncoding) {
        let minScale = min(encoding.redFactor, encoding.greenFactor, encoding.blueFactor)
        packedElevations = paint.stops.map { v in
            let scaled = ((v + encoding.baseShift) / minScale + 0.5).rounded(.down)
            func channel(_ factor: Double) -> UInt8 {
                let q = (scaled * minScale / factor).rounded(.down)
                guard q.isFinite, abs(q) < 9e15 else { return 0 }
                let m = Int(q) % 256
                return UInt8(m < 0 ? m + 256 : m)
            }
            return [channel(encoding.redFactor), channel(encoding.greenFactor), channel(encoding.blueFactor)]
        }
        elevations = packedElevations.map { encoding.unpack(r: $0[0], g: $0[1], b: $0[2]) }
        colors = paint.colors.map { c in
            let s = c.straight
            func byte(_ v: Double) -> UInt8 {
                let x = (v * 255 + 0.5).rounded(.down)
                return x >= 255 ? 255 : (x > 0 ? UInt8(x) : 0)
            }
            let a = byte(s.a)
            func pre(_ v: Double) -> UInt8 { UInt8(UInt32(byte(v)) * UInt32(a) / 255) }
            return (pre(s.r), pre(s.g), pre(s.b), a)
        }
    }

    /// Equal when every byte is.
    public static func == (l: ColorReliefRamp, r: ColorReliefRamp) -> Bool {
        l.packedElevations == r.packedElevations && l.colors.map { [$0.r, $0.g, $0.b, $0.a] } == r.colors.map { [$0.r, $0.g, $0.b, $0.a] }
    }
}
