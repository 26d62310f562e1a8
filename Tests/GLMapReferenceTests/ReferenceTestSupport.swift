import Foundation
import GLMapCore
@testable import GLMapStyle
@testable import GLMapReference
import GLMapTiles

/// A flat, unrotated view centred on (0°, 0°) where CSS-pixel screen positions map to unit-world
/// coordinates by a plain offset, so test shapes can be written in screen pixels.
struct TestView {
    var width: Double
    var height: Double
    var zoom: Double
    var bearing: Double = 0
    var pitch: Double = 0

    var view: ViewTransform {
        ViewTransform(camera: Camera(longitude: 0, latitude: 0, zoom: zoom, bearing: bearing, pitch: pitch),
                      width: width, height: height)
    }

    /// Unit-world coordinates of a screen point (CSS px) in an unrotated, unpitched view.
    func unit(_ sx: Double, _ sy: Double) -> (Double, Double) {
        let ws = WebMercator.worldSize(zoom: zoom)
        return (0.5 + (sx - width / 2) / ws, 0.5 + (sy - height / 2) / ws)
    }

    /// Flat unit-world coordinates of screen points.
    func flat(_ pts: [(Double, Double)]) -> [Double] {
        pts.flatMap { p -> [Double] in let u = unit(p.0, p.1); return [u.0, u.1] }
    }
}

let white = Color(r: 1, g: 1, b: 1)

func fillLayer(_ polygons: [FlatPolygon], antialias: Bool = false, color: Color = white, opacity: Double = 1,
               outline: Color? = nil, translate: (Double, Double) = (0, 0), anchor: TranslateAnchor = .map) -> EvaluatedLayer {
    .fill(EvaluatedFillLayer(id: "fill", antialias: antialias, translate: translate, translateAnchor: anchor,
                             features: [EvaluatedFill(polygons: polygons, color: color, opacity: opacity,
                                                      outlineColor: outline ?? color)]))
}

func lineLayer(_ parts: [(coords: [Double], closed: Bool)], width: Double, join: LineJoin = .miter,
               cap: LineCap = .butt, miterLimit: Double = 2, gapWidth: Double = 0, offset: Double = 0,
               blur: Double = 0, opacity: Double = 1) -> EvaluatedLayer {
    .line(EvaluatedLineLayer(id: "line", cap: cap, miterLimit: miterLimit, roundLimit: 1.05, translate: (0, 0),
                             translateAnchor: .map, gradient: nil,
                             features: [EvaluatedLine(parts: parts, join: join, color: white, opacity: opacity,
                                                      width: width, gapWidth: gapWidth, offset: offset, blur: blur,
                                                      dasharray: nil)]))
}

func circleLayer(_ centers: [Double], radius: Double, blur: Double = 0, strokeWidth: Double = 0,
                 strokeColor: Color = .black, translate: (Double, Double) = (0, 0), anchor: TranslateAnchor = .map,
                 pitchAlignment: CirclePitchAlignment = .viewport, pitchScale: CirclePitchScale = .map) -> EvaluatedLayer {
    .circle(EvaluatedCircleLayer(id: "circle", translate: translate, translateAnchor: anchor, pitchScale: pitchScale,
                                 pitchAlignment: pitchAlignment,
                                 features: [EvaluatedCircle(centers: centers, radius: radius, color: white, blur: blur,
                                                            opacity: 1, strokeWidth: strokeWidth,
                                                            strokeColor: strokeColor, strokeOpacity: 1)]))
}

/// Alpha (0…255) at a pixel.
func alpha(_ img: PremultipliedImage, _ x: Int, _ y: Int) -> Int { Int(img[x, y].a) }

/// Sum of alpha over the image, in covered pixels (alpha / 255).
func coveredPixels(_ img: PremultipliedImage) -> Double {
    var s = 0
    var i = 3
    while i < img.pixels.count { s += Int(img.pixels[i]); i += 4 }
    return Double(s) / 255
}

/// Column sums of alpha / 255 between two columns.
func coveredPixels(_ img: PremultipliedImage, columns: Range<Int>) -> Double {
    var s = 0
    for y in 0..<img.height { for x in columns { s += alpha(img, x, y) } }
    return Double(s) / 255
}

extension ReferenceRenderer {
    /// Draws layers written in unit-world coordinates (the shapes above) as what they are in the
    /// frame: the whole world's tile 0/0/0 laid out at `zoom`'s integer zoom, in tile units, in
    /// every world copy the view shows.
    func render(_ layers: [EvaluatedLayer], view: ViewTransform, ratio: Double) -> PremultipliedImage {
        let z = Int(max(0, view.camera.zoom).rounded(.down))
        let wraps = TileCover(view: view).tiles(maxzoom: 0).map(\.wrap)
        func units(_ c: [Double]) -> [Double] { c.map { $0 * 8192 } }
        return render(wraps.map { wrap in
            let tile = OverscaledTileID(overscaledZ: z, wrap: wrap, canonical: CanonicalTileID(0, 0, 0))
            return inTile(layers, tile, units)
        }.reduce(into: [[ReferenceLayer]]()) { $0.append($1) }.transposedLayers(), view: view, ratio: ratio)
    }

    private func inTile(_ layers: [EvaluatedLayer], _ tile: OverscaledTileID, _ units: ([Double]) -> [Double]) -> [ReferenceLayer] {
        let tiled: [EvaluatedLayer] = layers.map { layer in
            switch layer {
            case .background: return layer
            case .fill(var f):
                f.tile = tile
                f.features = f.features.map { var x = $0; x.polygons = x.polygons.map { FlatPolygon(coords: units($0.coords), holeIndices: $0.holeIndices) }; return x }
                return .fill(f)
            case .line(var l):
                l.tile = tile
                l.features = l.features.map { var x = $0; x.parts = x.parts.map { (units($0.coords), $0.closed) }; return x }
                return .line(l)
            case .circle(var c):
                c.tile = tile
                c.features = c.features.map { var x = $0; x.centers = units(x.centers); return x }
                return .circle(c)
            case .fillExtrusion(var x):
                x.tile = tile
                x.features = x.features.map { var f = $0; f.polygons = f.polygons.map { FlatPolygon(coords: units($0.coords), holeIndices: $0.holeIndices) }; return f }
                return .fillExtrusion(x)
            case .heatmap(var h):
                h.tile = tile
                h.features = h.features.map { var f = $0; f.centers = units(f.centers); return f }
                return .heatmap(h)
            }
        }
        return tiled.map { layer -> ReferenceLayer in
            if case .background(let b) = layer { return .background(b) }
            return .tiled([layer])
        }
    }
}

extension Array where Element == [ReferenceLayer] {
    /// Per world copy lists of layers → per layer, every copy's tiles.
    func transposedLayers() -> [ReferenceLayer] {
        guard let first else { return [] }
        return first.indices.map { i in
            if case .background = first[i] { return first[i] }
            return .tiled(flatMap { copy -> [EvaluatedLayer] in
                if case .tiled(let t) = copy[i] { return t }
                return []
            })
        }
    }
}
